"""``mmbdeid annotate``: the page's posts and starting spans (scrub's own spans, an
annotated file's, or none), its labels, its escaping, and what it refuses."""
import csv
import json
import os
import stat

import pytest

from annotate_pages import page_data, page_posts
from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.cli.annotating import _export_name
from mmbdeid.output.annotate_page import DEFAULT_LABELS, AnnotatePost, build_annotate_page

# Fictional posts.
POSTS = [
    {"id": "t1/1", "board": "ra", "thread": "t1", "author": "sunnyknits", "score": 1.0,
     "text": "Thanks Linda for the tip \U0001F600 about heat pads! Mail me at "
             "linda.l@example.com\r\nMaggie"},
    {"id": 2, "board": "ra", "thread": "t1", "author": "lindalou",
     "text": "Glad it helped Jose\u0301! @sunnyknits </script><script>alert(1)</script>"},
    {"id": "t2/1", "thread": "t2", "text": "Nothing new, just tired today."},
]


def annotate(tmp_path, *options, posts=POSTS, name="sample.jsonl"):
    dump = write_jsonl(tmp_path / name, posts)
    page = str(tmp_path / "tag.html")
    assert main(["annotate", dump, "-o", page, "-j", "1", "-q", *options]) == 0
    return page


def test_prefilled_spans_are_those_scrub_writes(tmp_path):
    page = annotate(tmp_path, "--threshold", "0.02", "--labels", "NAME,USER,EMAIL")
    spans = str(tmp_path / "spans.jsonl")
    assert main(["scrub", str(tmp_path / "sample.jsonl"), "-o", str(tmp_path / "out.jsonl"),
                 "--spans", spans, "--threshold", "0.02", "-j", "1", "-q"]) == 0
    scrubbed = [[{"start": s["start"], "end": s["end"], "label": s["label"]}
                 for s in line["spans"]] for line in read_jsonl(spans)]
    assert any(scrubbed) and [p["spans"] for p in page_posts(page)] == scrubbed
    assert "EMAIL" in {s["label"] for post in scrubbed for s in post}


def test_spans_of_labels_not_offered_are_left_out_and_said(tmp_path):
    page = annotate(tmp_path)
    labels = {s["label"] for p in page_posts(page) for s in p["spans"]}
    assert labels and labels <= {"NAME", "USER"}
    text = open(page, encoding="utf-8").read()
    assert "Not among the labels, so left out: EMAIL." in text


def test_every_record_is_on_the_page_with_its_fields_in_order(tmp_path):
    posts = page_posts(annotate(tmp_path, "--no-prefill"))
    assert [p["spans"] for p in posts] == [[], [], []]
    assert [[name for name, _ in p["fields"]] for p in posts] == [list(r) for r in POSTS]
    assert [{name: json.loads(raw) for name, raw in p["fields"]} for p in posts] == POSTS
    assert [p["text"] for p in posts] == [r["text"] for r in POSTS]
    assert posts[0]["meta"] == {"author": "sunnyknits", "thread": "t1", "board": "ra"}
    assert posts[2]["meta"] == {"thread": "t2"}


def test_an_annotated_file_starts_from_its_own_spans(tmp_path):
    text = POSTS[0]["text"]
    linda, maggie = text.index("Linda"), text.index("Maggie")
    tagged = [dict(POSTS[0], spans=[{"start": maggie, "end": maggie + 6, "label": "NAME"},
                                    {"start": linda, "end": linda + 5, "label": "NAME",
                                     "person": "lindalou", "text": "Linda"}]),
              dict(POSTS[2], spans=[{"start": 0, "end": 7, "label": "DATE"}])]
    data = page_data(annotate(tmp_path, "--labels", "name,user", posts=tagged))
    assert [p["spans"] for p in data["posts"]] == [
        [{"start": linda, "end": linda + 5, "label": "NAME", "person": "lindalou"},
         {"start": maggie, "end": maggie + 6, "label": "NAME"}],
        [{"start": 0, "end": 7, "label": "DATE"}]]
    # a label of the file's spans is offered after those asked for
    assert data["labels"] == ["NAME", "USER", "DATE"]
    assert data["exportName"] == "sample.annotated.jsonl"


def test_csv_posts_keep_their_own_field_names(tmp_path):
    path = tmp_path / "sample.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["post_id", "body", "author"])
        writer.writerow(["a1", "Thanks Linda, see you\r\nKay", "kay"])
    page = str(tmp_path / "tag.html")
    assert main(["annotate", str(path), "-o", page, "--id-field", "post_id",
                 "--text-field", "body", "-j", "1", "-q"]) == 0
    post, = page_posts(page)
    assert post["fields"] == [["post_id", '"a1"'], ["body", json.dumps(
        "Thanks Linda, see you\r\nKay")], ["author", '"kay"']]
    assert post["id"] == "a1" and post["text"] == "Thanks Linda, see you\r\nKay"


def test_the_page_is_private_and_runs_no_post_text(tmp_path):
    page = annotate(tmp_path, "--no-prefill")
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
    html = open(page, encoding="utf-8").read()
    # the posts are in the data block only, with no <, > or & that could end it
    block = html.split('id="data">', 1)[1].split("</script>", 1)[0]
    assert not set(block) & set("<>&")
    assert html.count("<script") == 2 and "Linda" not in html.replace(block, "")


def test_the_default_labels_are_a_key_each():
    assert DEFAULT_LABELS == ("NAME", "USER", "ADDRESS", "POSTCODE", "ID", "IP", "DATE",
                              "PLACE", "ORG")


def test_progress_is_keyed_by_the_content():
    def key(text, name="s", labels=("NAME",)):
        page = build_annotate_page([AnnotatePost("1", text, {"id": "1", "text": text})],
                                   labels, name + ".jsonl", name + ".annotated.jsonl", "")
        return page.split('data-key="', 1)[1].split('"', 1)[0]
    assert key("Hi Kay") == key("Hi Kay") == key("Hi Kay", name="renamed")
    assert len({key("Hi Kay"), key("Hi Ron"), key("Hi Kay", labels=("NAME", "USER"))}) == 3


@pytest.mark.parametrize("name,exported", [
    ("sample.jsonl", "sample.annotated.jsonl"), ("dump.csv.gz", "dump.annotated.jsonl"),
    ("tagged.annotated.jsonl", "tagged.annotated.jsonl"), ("<stdin>", "posts.annotated.jsonl"),
    ("/data/board.parquet", "board.annotated.jsonl")])
def test_export_name(name, exported):
    assert _export_name(name) == exported


@pytest.mark.parametrize("options,posts,message", [
    (["--labels", "NAME,PERSON"], POSTS,
     "argument --labels: unknown label 'PERSON' (the labels: NAME,USER,EMAIL,URL,PHONE,"
     "ADDRESS,POSTCODE,ID,IP,DATE,PLACE,ORG) (see 'mmbdeid annotate --help')"),
    (["--labels", "NAME,USER,EMAIL,URL,PHONE,ADDRESS,POSTCODE,ID,IP,DATE"], POSTS,
     "argument --labels: 10 labels: at most 9 (one for each key 1 to 9) (see 'mmbdeid "
     "annotate --help')"),
    (["--labels", " , "], POSTS,
     "argument --labels: no label given (see 'mmbdeid annotate --help')"),
    ([], [], "{dump}: empty file: no records"),
    ([], [POSTS[2], {"id": 9}], "{dump}:2: missing field 'text' (fields: id); name the "
     "text field with --text-field"),
    (["--no-prefill"], [POSTS[2], {"id": 9}], "{dump}:2: missing field 'text' (fields: "
     "id); name the text field with --text-field"),
    ([], [dict(POSTS[2], spans=[]), POSTS[2]], "{dump}:2: missing field 'spans'"),
    ([], [dict(POSTS[2], spans=[{"start": 5, "end": 99, "label": "NAME"}])],
     "{dump}:1: spans[0]: offsets 5-99 outside the text (length 30) or empty"),
])
def test_refused_with_one_line_and_nothing_written(tmp_path, capsys, options, posts, message):
    dump = write_jsonl(tmp_path / "sample.jsonl", posts)
    page = tmp_path / "tag.html"
    assert main(["annotate", dump, "-o", str(page), "-q", *options]) == 2
    err = capsys.readouterr().err
    assert err == "mmbdeid: error: %s\n" % message.format(dump=dump)
    assert sorted(os.listdir(tmp_path)) == ["sample.jsonl"]


def test_a_page_name_for_another_format_is_refused(tmp_path, capsys):
    dump = write_jsonl(tmp_path / "sample.jsonl", POSTS)
    page = str(tmp_path / "tag.jsonl")
    assert main(["annotate", dump, "-o", page]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s: annotate -o writes an HTML page: use .html, .htm, or no "
        "extension; not .jsonl\n" % page)
    assert os.listdir(tmp_path) == ["sample.jsonl"]


def test_an_annotated_csv_starts_from_its_spans_column(tmp_path):
    path = tmp_path / "tagged.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "text", "spans"])
        writer.writerow(["a1", "Thanks Linda", json.dumps(
            [{"start": 7, "end": 12, "label": "NAME", "person": "lindalou"}])])
        writer.writerow(["a2", "Nothing new", ""])
    page = str(tmp_path / "tag.html")
    assert main(["annotate", str(path), "-o", page, "-q"]) == 0
    assert [p["spans"] for p in page_posts(page)] == [
        [{"start": 7, "end": 12, "label": "NAME", "person": "lindalou"}], []]
