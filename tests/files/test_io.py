"""Reading and writing records: every error names its file and line."""
import json
import os

import pytest

from mmbdeid.errors import InputError
from mmbdeid.files.atomic import atomic_output
from mmbdeid.files.corpora import (
    AnnotatedPost, ConllDocument, conll_label, read_annotated, read_conll,
)
from mmbdeid.files.post_writer import RecordWriter
from mmbdeid.files.posts import Record, corpus_format, read_posts
from mmbdeid.spans import Span


def write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return str(path)


def error_of(function, path):
    with pytest.raises(InputError) as caught:
        list(function(path))
    return caught.value


# --- posts: good input ------------------------------------------------------------------

def test_jsonl_posts_keep_all_fields_in_order(tmp_path):
    path = write(tmp_path, "d.jsonl",
                 '{"id": 1, "text": "hi", "extra": [1, 2], "author": "kay"}\n'
                 '\n'
                 '{"text": "José", "id": "b", "board": "bc"}\n')
    records = list(read_posts(path))
    assert records == [
        Record(1, {"id": 1, "text": "hi", "extra": [1, 2], "author": "kay"}),
        Record(3, {"text": "José", "id": "b", "board": "bc"}),
    ]
    assert list(records[1].fields) == ["text", "id", "board"]
    assert records[1].get("author") == "" and records[1].get("board") == "bc"
    assert "author" not in records[1].fields      # optional fields are not invented


def test_csv_posts_multiline_quoted_text_and_line_numbers(tmp_path):
    path = write(tmp_path, "d.csv",
                 'id,board,text,score\r\n'
                 '1,bc,"line one\r\nline two, with ""quotes""",5\r\n'
                 '\r\n'
                 '2,bc,plain,6\r\n')
    records = list(read_posts(path))
    assert [r.line for r in records] == [2, 5]
    assert records[0].fields == {"id": "1", "board": "bc",
                                 "text": 'line one\r\nline two, with "quotes"', "score": "5"}


@pytest.mark.parametrize("name, content", [
    ("bom.jsonl", '\ufeff{"id": 1, "text": "x"}\n'),
    ("bom.csv", "\ufeffid,text\n1,x\n"),
])
def test_byte_order_mark_accepted(tmp_path, name, content):
    [record] = read_posts(write(tmp_path, name, content))
    assert record.fields["id"] in (1, "1") and record.text == "x"


@pytest.mark.parametrize("name, content", [
    ("dump.txt", '  {"id": 1, "text": "x"}\n'),
    ("dump", "id,text\n1,x\n"),
])
def test_unknown_extension_is_sniffed(tmp_path, name, content):
    [record] = read_posts(write(tmp_path, name, content))
    assert record.text == "x"


# --- posts: errors, each with its line --------------------------------------------------

POST_ERRORS = [
    ("a.jsonl", '{"id": 1, "text": "x"}\n{"id": 2, "text": \n', 2, "malformed JSON"),
    ("a.jsonl", '{"id": 1, "text": "x"}\n\n[1, 2]\n', 3, "expected a JSON object"),
    ("a.jsonl", '{"id": 1, "text": "x"}\n{"text": "y"}\n', 2, "'id'"),
    ("a.jsonl", '{"id": 1}\n', 1, "'text'"),
    ("a.jsonl", '{"id": 1, "text": null}\n', 1, "'text'"),
    ("a.jsonl", '{"id": 1, "text": 5}\n', 1, "'text'"),
    ("a.jsonl", '{"id": [1], "text": "x"}\n', 1, "'id'"),
    ("a.jsonl", '{"id": true, "text": "x"}\n', 1, "'id'"),
    ("a.jsonl", '{"id": "", "text": "x"}\n', 1, "'id'"),
    ("a.json", '[{"id": 1, "text": "x"}]\n', 1, "JSON Lines"),
    ("a.csv", 'id,text\n1,x\n2,y,z\n', 3, "expected 2 fields"),
    ("a.csv", 'id,text\n1,"two\nlines"\n2\n', 4, "expected 2 fields"),
    ("a.csv", 'id,body\n1,x\n', 1, "'text'"),
    ("a.csv", 'text\nx\n', 1, "'id'"),
    ("a.csv", 'id,text\n1,x\n2,"never closed\nmore\n', 3, "malformed CSV"),
    ("a.csv", 'id,text,id\n1,x,2\n', 1, "repeats"),
    ("a.jsonl", b'{"id": 1, "text": "ok"}\n{"id": 2, "text": "caf\xe9"}\n', 2, "not UTF-8"),
    ("a.csv", b'id,text\n1,"a\nb\xff"\n', 3, "not UTF-8"),
]


@pytest.mark.parametrize("name, content, line, words", POST_ERRORS)
def test_post_errors_name_file_and_line(tmp_path, name, content, line, words):
    path = write(tmp_path, name, content)
    error = error_of(read_posts, path)
    assert error.path == path and error.line == line
    assert words in error.message
    assert str(error).startswith("%s:%d: " % (path, line))


@pytest.mark.parametrize("name, content", [
    ("e.jsonl", ""), ("e.jsonl", "\n  \n"), ("e.csv", ""), ("e.csv", "id,text\n"),
    ("e.jsonl", "\ufeff"),
])
def test_empty_file_is_an_error(tmp_path, name, content):
    path = write(tmp_path, name, content)
    error = error_of(read_posts, path)
    assert error.message == "empty file: no records" and error.path == path


def test_missing_file_is_an_input_error(tmp_path):
    error = error_of(read_posts, str(tmp_path / "nope.jsonl"))
    assert "cannot read" in error.message


def test_directory_is_an_input_error(tmp_path):
    error = error_of(read_posts, str(tmp_path))
    assert "cannot read" in error.message


def test_reading_streams(tmp_path):
    # The error on line 3 comes only after two good records were handed out.
    path = write(tmp_path, "s.jsonl", '{"id":1,"text":"a"}\n{"id":2,"text":"b"}\noops\n')
    records = read_posts(path)
    assert next(records).line == 1 and next(records).line == 2
    with pytest.raises(InputError):
        next(records)


# --- annotated posts --------------------------------------------------------------------

def test_annotated_jsonl(tmp_path):
    row = {"id": 1, "text": "Hi Kay, @kg here", "spans": [
        {"start": 7, "end": 10, "label": "USER"}, {"start": 3, "end": 6, "label": "NAME"}]}
    [post] = read_annotated(write(tmp_path, "a.jsonl", json.dumps(row) + "\n"))
    assert isinstance(post, AnnotatedPost)
    assert post.spans == [Span("NAME", 3, 6, 1.0, "gold"), Span("USER", 7, 10, 1.0, "gold")]
    assert post.record.fields == row


def test_annotated_csv_spans_column_is_json(tmp_path):
    path = write(tmp_path, "a.csv",
                 'id,text,spans\n1,Hi Kay,"[{""start"": 3, ""end"": 6, ""label"": ""NAME""}]"\n'
                 '2,nobody,[]\n')
    posts = list(read_annotated(path))
    assert [p.spans for p in posts] == [[Span("NAME", 3, 6, 1.0, "gold")], []]


@pytest.mark.parametrize("spans, words", [
    (None, "missing field 'spans'"),
    ({"start": 0}, "must be a list"),
    ([["x"]], "must be an object"),
    ([{"start": 0, "end": 2}], "'label'"),
    ([{"start": 0, "end": 2, "label": "LOCATION"}], "label"),   # PLACE is one (issue 21)
    ([{"start": "0", "end": 2, "label": "NAME"}], "integers"),
    ([{"start": 0.0, "end": 2, "label": "NAME"}], "integers"),
    ([{"start": 3, "end": 3, "label": "NAME"}], "outside"),
    ([{"start": -1, "end": 2, "label": "NAME"}], "outside"),
    ([{"start": 3, "end": 99, "label": "NAME"}], "outside"),
    ([{"start": 0, "end": 3, "label": "NAME"}, {"start": 2, "end": 4, "label": "USER"}], "overlap"),
    ("[{", "not valid JSON"),
])
def test_bad_spans_are_errors_with_line(tmp_path, spans, words):
    row = {"id": 2, "text": "Hi Kay"}
    if spans is not None:
        row["spans"] = spans
    path = write(tmp_path, "a.jsonl", '{"id": 1, "text": "x", "spans": []}\n' + json.dumps(row) + "\n")
    error = error_of(read_annotated, path)
    assert error.line == 2 and words in error.message


# --- CoNLL ------------------------------------------------------------------------------

def test_conll_documents_labels_and_lines(tmp_path):
    path = write(tmp_path, "c.conll",
                 "-DOCSTART-\tO\n\n"
                 "@paulwalk\tO\nIt\tO\nKay\tB-person\nSmith\tI-PERSON\n\t\n"
                 "ask u/bob\n"
                 "Empire\tB-location\nx\tB-user\ny\tS-Username\n")
    path_docs = list(read_conll(path))
    # "ask u/bob" uses the space separator: token "ask", tag "u/bob" (not a handle tag)
    assert path_docs == [
        ConllDocument(["@paulwalk", "It", "Kay", "Smith"], ["USER", "O", "NAME", "NAME"], 3),
        ConllDocument(["ask", "Empire", "x", "y"], ["O", "O", "USER", "USER"], 8),
    ]


def test_conll_handles_can_keep_their_tags(tmp_path):
    path = write(tmp_path, "c.conll", "@paulwalk\tO\nu/bob\tO\nKay\tB-person\n")
    [doc] = read_conll(path, handles_as_users=False)
    assert doc.labels == ["O", "O", "NAME"]
    [doc] = read_conll(path)
    assert doc.labels == ["USER", "USER", "NAME"]


def test_conll_custom_patterns(tmp_path):
    path = write(tmp_path, "c.bio", "Kay\tB-PER\nkg\tB-HANDLE\nParis\tB-LOC\n")
    [doc] = read_conll(path, name_pattern="per", user_pattern="handle")
    assert doc.labels == ["NAME", "USER", "O"]


@pytest.mark.parametrize("tag, label", [
    ("O", "O"), ("B-person", "NAME"), ("I-person", "NAME"), ("person", "NAME"),
    ("U-Person", "NAME"), ("B-user", "USER"), ("E-username", "USER"),
    ("B-location", "O"), ("B-corporation", "O"),
    ("B-PER", "NAME"), ("I-PER", "NAME"), ("PER", "NAME"), ("B-LOC", "O"), ("B-ORG", "O"),
    ("B-PERIOD", "O"),
])
def test_conll_label(tag, label):
    assert conll_label(tag) == label


@pytest.mark.parametrize("content, line", [
    ("a\tO\nb\tO\tX\n", 2),
    ("a\tO\nno_tag_here\n", 2),
    ("a\tO\n\nb c d\n", 3),
    ("a\t\n", 1),
    (b"a\tO\n\xc3\tO\n", 2),
])
def test_conll_errors(tmp_path, content, line):
    path = write(tmp_path, "c.conll", content)
    error = error_of(read_conll, path)
    assert error.line == line and error.path == path


def test_conll_empty_file(tmp_path):
    error = error_of(read_conll, write(tmp_path, "c.conll", "\n\n-DOCSTART- -X- O O\n"))
    assert "empty file" in error.message


from paths import WNUT_STYLE  # noqa: E402


def test_wnut_style_file_reads():
    # The shape of the WNUT17 files: a line holding only a TAB or an empty line ends a
    # document, @handles are tagged O, six BIO entity types, a blank line at the end.
    documents = list(read_conll(WNUT_STYLE))
    assert [(len(d.tokens), d.line) for d in documents] == [(18, 1), (10, 20), (8, 31), (5, 40)]
    assert documents[0].tokens[:3] == ["@kaygirl96", "It", "'s"]
    assert documents[0].labels == ["USER"] + ["O"] * 14 + ["NAME", "NAME", "O"]
    assert documents[1].labels == ["O"] * 4 + ["NAME"] + ["O"] * 5
    assert documents[1].tokens[4] == "Tomás" and documents[1].tokens[-1] == "\U0001f60a"
    assert documents[2].labels == ["O"] * 8
    assert documents[3].labels == ["O", "USER", "O", "NAME", "O"]


@pytest.mark.parametrize("name, content, fmt", [
    ("x.conll", "", "conll"), ("x.txt", "", "conll"), ("x.tsv", "", "conll"),
    ("x.bio", "", "conll"), ("x.jsonl", "", "jsonl"), ("x.ndjson", "", "jsonl"),
    ("x.json", "", "jsonl"), ("x.csv", "", "csv"),
    ("x", '\n{"id": 1}\n', "jsonl"), ("x", "id,text,spans\n", "csv"),
    ("x.dat", "Kay\tB-person\n", "conll"), ("x", "-DOCSTART- O\n", "conll"),
])
def test_corpus_format(tmp_path, name, content, fmt):
    assert corpus_format(write(tmp_path, name, content)) == fmt


# --- writing ----------------------------------------------------------------------------

def test_jsonl_round_trip(tmp_path):
    source = write(tmp_path, "in.jsonl",
                   '{"id": 7, "author": "kay", "text": "Zoë\\u2028x", "extra": {"a": [1]}}\n')
    out = str(tmp_path / "out.jsonl")
    with atomic_output(out) as handle:
        writer = RecordWriter(handle, "jsonl")
        for record in read_posts(source):
            writer.write(record)
    text = open(out, encoding="utf-8").read()
    assert "Zoë" in text and "\u2028" not in text and text.count("\n") == 1
    assert [r.fields for r in read_posts(out)] == [r.fields for r in read_posts(source)]
    assert list(next(read_posts(out)).fields) == ["id", "author", "text", "extra"]


def test_csv_round_trip_with_multiline_text(tmp_path):
    source = write(tmp_path, "in.csv",
                   'id,text,author,note\n1,"a, ""b""\nc",kay,\n2,plain,bob,x\n')
    out = str(tmp_path / "out.csv")
    with atomic_output(out) as handle:
        writer = RecordWriter(handle, "csv")
        for record in read_posts(source):
            writer.write(record)
    assert [r.fields for r in read_posts(out)] == [r.fields for r in read_posts(source)]


def test_csv_writer_json_encodes_structured_values(tmp_path):
    out = str(tmp_path / "out.csv")
    spans = [{"start": 0, "end": 3, "label": "NAME"}]
    with atomic_output(out) as handle:
        writer = RecordWriter(handle, "csv", fieldnames=["id", "text", "spans", "board"])
        writer.write({"id": 1, "text": "Kay", "spans": spans})
        with pytest.raises(ValueError):
            writer.write({"id": 2, "text": "x", "unknown": 1})
    [post] = read_annotated(out)
    assert post.spans == [Span("NAME", 0, 3, 1.0, "gold")] and post.record.fields["board"] == ""


@pytest.mark.parametrize("exception", [RuntimeError, KeyboardInterrupt])
def test_atomic_output_leaves_nothing_on_failure(tmp_path, exception):
    out = tmp_path / "out.jsonl"
    with pytest.raises(exception):
        with atomic_output(str(out)) as handle:
            handle.write("partial\n")
            raise exception()
    assert os.listdir(tmp_path) == []


def test_atomic_output_keeps_old_file_on_failure(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    with pytest.raises(RuntimeError):
        with atomic_output(str(out)) as handle:
            handle.write("new\n")
            raise RuntimeError()
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]


def test_atomic_output_replaces_on_success(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    with atomic_output(str(out)) as handle:
        handle.write("new\n")
    assert out.read_text() == "new\n" and os.listdir(tmp_path) == ["out.jsonl"]


def test_atomic_output_new_file_gets_ordinary_permissions(tmp_path):
    out = tmp_path / "out.jsonl"
    umask = os.umask(0o022)
    try:
        with atomic_output(str(out)) as handle:
            handle.write("x\n")
    finally:
        os.umask(umask)
    assert os.stat(out).st_mode & 0o777 == 0o644    # not mkstemp's 0600


def test_atomic_output_into_missing_directory_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        with atomic_output(str(tmp_path / "no" / "such" / "out.jsonl")):
            pass


# --- CoNLL tokens scored as typed text ------------------------------------------------------

@pytest.mark.parametrize("tokens, text", [
    (["Don", "'t", "go", "."], "Don't go."),
    (["ca", "n't", "stop"], "can't stop"),
    (["(", "see", ")", "here"], "(see) here"),
    (["RT", "@", "md_addam", ":", "hi"], "RT @md_addam: hi"),
    (["#", "tbt", "!", "!"], "#tbt!!"),
    (["he", "said", '"', "hi", '"', "ok"], 'he said "hi" ok'),
    (["should", "'", "ve", "Kay", "'", "s"], "should've Kay's"),
    (["I", "'m", "fine", ",", "thanks"], "I'm fine, thanks"),
])
def test_detokenize(tokens, text):
    from mmbdeid.files.corpora import detokenize
    typed, offsets = detokenize(tokens)
    assert typed == text
    assert [typed[start:end] for start, end in offsets] == [
        '"' if t == '"' else t for t in tokens]


def test_conll_scored_as_typed_text(tmp_path):
    from mmbdeid.files.corpora import load_labelled
    path = write(tmp_path, "c.conll", "RT\tO\n@\tB-PER\nkay_b\tB-PER\n:\tO\nMary\tB-PER\n"
                 "'s\tO\ncar\tO\n(\tO\nsee\tO\n)\tO\n@\tO\nAcme\tB-ORG\n")
    [labelled] = load_labelled(path)
    document = labelled.document
    assert document.text == "RT @kay_b: Mary's car (see) @Acme"
    assert dict(zip(document.tokens, labelled.labels)) == {
        "RT": "O", "@kay_b": "USER", ":": "O", "Mary": "NAME", "'s": "O", "car": "O",
        "(": "O", "see": "O", ")": "O", "@Acme": "USER"}


def test_conll_empty_token_line_is_skipped(tmp_path):
    [doc] = read_conll(write(tmp_path, "c.conll", "a\tO\n\tO\nb\tB-PER\n"))
    assert doc.tokens == ["a", "b"] and doc.labels == ["O", "NAME"]
