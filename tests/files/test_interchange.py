"""Label Studio, doccano and CoNLL in and out (issue 33): round trips keep every field and
offset (emoji, combining characters, CRLF), the tools' documented exports import to the
expected spans, and bad input is one line naming the file and line, exit 2, no output."""
import json
import os

import pytest

from mmbdeid.cli import main
from mmbdeid.files.corpora import load_labelled, read_annotated, read_conll
from mmbdeid.files.interchange import to_code_points, utf16_positions

from jsonl_files import read_jsonl, write_jsonl
from paths import FIXTURES

LABELSTUDIO = os.path.join(FIXTURES, "labelstudio_export.json")
DOCCANO = os.path.join(FIXTURES, "doccano_export.jsonl")
DOCCANO_ENTITIES = os.path.join(FIXTURES, "doccano_entities.jsonl")


def _post(post_id, text, names, **fields):
    spans = []
    for word, label, *person in names:
        start = text.index(word)
        span = {"start": start, "end": start + len(word), "label": label}
        if person:
            span["person"] = person[0]
        spans.append(span)
    return dict({"id": post_id, "board": "b", "thread": "t1", "author": "kay"}, text=text,
                **fields, spans=spans)


# Astral emoji (2 UTF-16 units), a ZWJ sequence, a combining diaeresis, CRLF line ends.
POSTS = [
    _post("p1", "Hi Tom 😀 and Zoe\u0308\r\nthanks 👩\u200d👩\u200d👧 Ann",
          [("Tom", "NAME"), ("Zoe\u0308", "NAME", "P2"), ("Ann", "NAME")]),
    _post(2, "🙂🙂 @quilt_bev said\r\n\r\nRene\u0301e 𝒜 called", [("@quilt_bev", "USER"),
                                                              ("Rene\u0301e", "NAME")],
          parent="p1"),
    _post("p3", "nothing tagged 🎉", []),
]


def convert(*argv):
    return main(["convert"] + [str(a) for a in argv])


@pytest.mark.parametrize("suffix, to, offsets", [
    (".json", None, []), (".jsonl", "doccano", []), (".dc", "doccano", []),
    (".ls", "labelstudio", []), (".dc", "doccano", ["--offsets", "utf16"]),
    (".json", None, ["--offsets", "codepoints"])])
def test_round_trip_keeps_fields_and_offsets(tmp_path, suffix, to, offsets):
    original = write_jsonl(tmp_path / "tagged.jsonl", POSTS)
    middle = tmp_path / ("tool" + suffix)
    back = tmp_path / "back.jsonl"
    assert convert(original, "-o", middle, *(["--to", to] if to else []), *offsets) == 0
    assert convert(middle, "-o", back, *offsets) == 0     # the tool told by content
    assert os.stat(middle).st_mode & 0o777 == 0o600          # it holds names
    back_posts = read_jsonl(back)
    assert back_posts == POSTS
    assert [list(post) for post in back_posts] == [list(post) for post in POSTS]


def test_labelstudio_offsets_are_utf16_and_doccano_code_points(tmp_path):
    original = write_jsonl(tmp_path / "tagged.jsonl", POSTS[:2])
    convert(original, "-o", tmp_path / "ls.json")
    tasks = json.loads((tmp_path / "ls.json").read_text(encoding="utf-8"))
    value = tasks[1]["annotations"][0]["result"][0]["value"]
    text = POSTS[1]["text"]
    assert (value["start"], value["end"]) == (5, 15)       # two emoji before: +2
    assert text[value["start"] - 2:value["end"] - 2] == value["text"] == "@quilt_bev"
    assert tasks[0]["data"] == {k: v for k, v in POSTS[0].items() if k != "spans"}
    assert tasks[0]["annotations"][0]["result"][1]["meta"] == {"person": "P2"}
    convert(original, "-o", tmp_path / "dc.jsonl", "--to", "doccano")
    lines = list(read_jsonl(tmp_path / "dc.jsonl"))
    assert lines[1]["label"] == [[3, 13, "USER"], [text.index("Rene"), text.index("Rene") + 6,
                                                    "NAME"]]
    assert "entities" in lines[0]           # a span with a person key: newer doccano's form
    assert lines[0]["entities"][1]["person"] == "P2"


def test_utf16_offsets():
    text = "a😀b"
    assert utf16_positions(text) == [0, 1, 3, 4]
    assert to_code_points(text, 3, 4, "utf16") == (2, 3)
    assert to_code_points(text, 2, 4, "utf16") is None       # inside the emoji


def _spans(post):
    text = post.record.text
    return [(text[s.start:s.end], s.label) for s in post.spans]


def test_labelstudio_export_imports():
    posts = list(read_annotated(LABELSTUDIO))
    assert [p.record.fields["id"] for p in posts] == [101, 102, 103, 104]
    assert [_spans(p) for p in posts] == [
        [("Priya", "NAME"), ("Marcus", "NAME")],
        [("Dolores", "NAME"), ("@quiltmom_bev", "USER")],   # the cancelled one is skipped
        [],
        [("Osei", "NAME")]]                                  # from the prediction
    assert list(posts[0].record.fields) == ["id", "text", "board", "thread", "author",
                                            "spans"]
    assert posts[1].record.line == 56                        # the task's first line


@pytest.mark.parametrize("path, expected", [
    (DOCCANO, [[("Beatriz", "NAME")], [("Ngozi", "NAME"), ("Tomasz", "NAME")], []]),
    (DOCCANO_ENTITIES, [[("Ingrid", "NAME")]])])
def test_doccano_export_imports(path, expected):
    posts = list(read_annotated(path))
    assert [_spans(p) for p in posts] == expected
    assert "Comments" in posts[0].record.fields or "relations" in posts[0].record.fields


def test_train_reads_the_tools_files():
    for path in (LABELSTUDIO, DOCCANO):
        documents = load_labelled(path)
        assert any(label == "NAME" for d in documents for label in d.labels)


def test_conll_export_bio_tags_and_reads_back(tmp_path):
    original = write_jsonl(tmp_path / "tagged.jsonl", [
        _post("c1", "Mary Jane said hi to @bev_q", [("Mary Jane", "NAME"),
                                                    ("@bev_q", "USER")])])
    assert convert(original, "-o", tmp_path / "out.conll") == 0
    lines = (tmp_path / "out.conll").read_text(encoding="utf-8").splitlines()
    assert lines == ["Mary\tB-NAME", "Jane\tI-NAME", "said\tO", "hi\tO", "to\tO",
                     "@bev_q\tB-USER", ""]
    (document,) = read_conll(str(tmp_path / "out.conll"))
    assert document.labels == ["NAME", "NAME", "O", "O", "O", "USER"]
    assert convert(tmp_path / "out.conll", "-o", tmp_path / "back.jsonl") == 0
    (back,) = read_jsonl(tmp_path / "back.jsonl")
    assert back["spans"] == [{"start": 0, "end": 9, "label": "NAME"},
                             {"start": 21, "end": 27, "label": "USER"}]


def test_label_map(tmp_path):
    path = tmp_path / "ls.json"
    task = {"id": 1, "data": {"text": "Ask Nurse Ada"}, "annotations": [{"result": [
        {"value": {"start": 10, "end": 13, "text": "Ada", "labels": ["Carer"]},
         "from_name": "label", "to_name": "text", "type": "labels"}]}]}
    path.write_text(json.dumps([task]), encoding="utf-8")
    labels = tmp_path / "labels.json"
    labels.write_text('{"Carer": "NAME"}', encoding="utf-8")
    assert convert(path, "-o", tmp_path / "out.jsonl", "--label-map", labels) == 0
    (post,) = read_jsonl(tmp_path / "out.jsonl")
    assert post["spans"] == [{"start": 10, "end": 13, "label": "NAME"}]
    exported = tmp_path / "export.json"
    (tmp_path / "ours.json").write_text('{"NAME": "PERSON"}', encoding="utf-8")
    assert convert(tmp_path / "out.jsonl", "-o", exported, "--label-map",
                   tmp_path / "ours.json") == 0
    assert json.loads(exported.read_text())[0]["annotations"][0]["result"][0]["value"][
        "labels"] == ["PERSON"]


def _task(start, end, text="Hi Bo 😀 Al", shown=None, labels=("NAME",)):
    value = {"start": start, "end": end, "labels": list(labels)}
    if shown is not None:
        value["text"] = shown
    return {"data": {"id": 1, "text": text}, "annotations": [{"result": [
        {"value": value, "from_name": "label", "to_name": "text", "type": "labels"}]}]}


BAD = [
    ("ls.json", "[\n" + json.dumps(_task(3, 5)) + ",\n" + json.dumps(_task(9, 12)) + "\n]",
     [], 3, "offsets 9-12 (utf16) outside the text"),
    ("ls.json", "[\n" + json.dumps(_task(9, 11, "Hi Bo 😀 Alan", "Al")) + "\n]", ["--offsets",
                                                                       "codepoints"],
     2, "result[0]: value.text is not the text at 9-11 (offsets read as codepoints"),
    ("ls.json", "[\n" + json.dumps(_task(6, 7)) + "\n]", [], 2, "inside a character"),
    ("ls.json", "[\n" + json.dumps(_task(3, 5, labels=("Colour",))) + "\n]", [], 2,
     "label 'Colour' is not one of"),
    ("ls.json", "[\n" + json.dumps(_task(3, 5, labels=())) + "\n]", [], 2,
     "'labels' must hold one label"),
    ("ls.json", '[\n{"data": {"id": 1}, "annotations": []}\n]', [], 2,
     "no string 'data.text'"),
    ("ls.json", '[\n{"data": {"text": "x"}, "annotations": []},\n{"data": ', [], 1,
     "malformed JSON"),
    ("dc.jsonl", '{"text": "Hi Bo", "label": [[3, 5, "PERSON"]]}\n'
     '{"text": "Hi Bo", "label": [[3, 9, "PERSON"]]}\n', [], 2, "outside the text"),
    ("dc.jsonl", '{"text": "Hi Bo", "label": [[3, 5]]}\n', ["--from", "doccano"], 1,
     "label[0] must be [start, end, label]"),
    ("dc.jsonl", '{"text": "Hi Bo Al", "label": [[3, 5, "PER"], [4, 8, "PER"]]}\n', [], 1,
     "overlap"),
    ("empty.json", "[]\n", [], None, "empty file: no tasks"),
]


@pytest.mark.parametrize("name, content, options, line, message", BAD)
def test_bad_input_one_line_exit_2_no_output(tmp_path, capsys, name, content, options,
                                             line, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert convert(path, "-o", out, *options) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error
    where = str(path) + (":%d" % line if line else "")
    assert error.startswith("mmbdeid: error: %s: " % where), error
    assert message in error
    assert sorted(os.listdir(tmp_path)) == [name]


def test_unknown_output_extension(tmp_path, capsys):
    source = write_jsonl(tmp_path / "tagged.jsonl", POSTS[:1])
    assert convert(source, "-o", tmp_path / "out.xml") == 2
    assert "--to" in capsys.readouterr().err


def test_split_reads_a_labelstudio_export(tmp_path):
    train, dev = tmp_path / "train.jsonl", tmp_path / "dev.jsonl"
    assert main(["split", LABELSTUDIO, "-o", str(train), "--dev", str(dev),
                 "--dev-share", "0.5"]) == 0
    posts = read_jsonl(train) + read_jsonl(dev)
    assert sorted(p["id"] for p in posts) == [101, 102, 103, 104]
    spans = {p["id"]: [(p["text"][s["start"]:s["end"]], s["label"]) for s in p["spans"]]
             for p in posts}
    assert spans[102] == [("Dolores", "NAME"), ("@quiltmom_bev", "USER")]


@pytest.mark.parametrize("content", ['["NAME"]', '{"Carer": 3}', "{not json"])
def test_bad_label_map_names_its_file(tmp_path, capsys, content):
    source = write_jsonl(tmp_path / "tagged.jsonl", POSTS[:1])
    labels = tmp_path / "labels.json"
    labels.write_text(content, encoding="utf-8")
    assert convert(source, "-o", tmp_path / "out.json", "--label-map", labels) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("mmbdeid: error: %s: " % labels) and "\n" not in error
    assert not (tmp_path / "out.json").exists()


def test_own_field_names_come_back(tmp_path):
    posts = [{"post_id": "x1", "body": "Hi Ann 😀 Bo", "spans": [
        {"start": 3, "end": 6, "label": "NAME"}, {"start": 9, "end": 11, "label": "NAME"}]}]
    original = write_jsonl(tmp_path / "tagged.jsonl", posts)
    names = ["--id-field", "post_id", "--text-field", "body"]
    assert convert(original, "-o", tmp_path / "ls.json", *names) == 0
    (task,) = json.loads((tmp_path / "ls.json").read_text(encoding="utf-8"))
    assert task["data"] == {"id": "x1", "text": "Hi Ann 😀 Bo"}     # Label Studio's $text
    assert convert(tmp_path / "ls.json", "-o", tmp_path / "back.jsonl", *names) == 0
    assert read_jsonl(tmp_path / "back.jsonl") == posts


def test_a_posts_file_with_a_label_field_is_not_taken_for_doccano(tmp_path):
    path = write_jsonl(tmp_path / "posts.jsonl", [{"id": 1, "text": "hi", "label": "spam"}])
    with pytest.raises(Exception, match="missing field 'spans'"):
        list(read_annotated(path))
