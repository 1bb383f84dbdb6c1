"""``read_posts(..., on_bad=...)``: bad records are reported and skipped (``scrub --skip-bad``);
file-level problems still raise."""
import json

import pytest

from mmbdeid.errors import InputError
from mmbdeid.files.posts import BadRecord, Record, read_posts
from test_io import write  # tests/ is on sys.path under pytest


def read_skipping(path, fmt=None):
    """``(events, bad)``: records and rejects interleaved in the order they came, and the
    rejects alone."""
    events, bad = [], []

    def on_bad(record):
        events.append(record)
        bad.append(record)

    for record in read_posts(path, fmt, on_bad=on_bad):
        events.append(record)
    return events, bad


GOOD1 = '{"id": 1, "text": "a"}\n'
GOOD3 = '{"id": 3, "text": "c"}\n'

# (file name, bad record (line 2 of 3, between two good ones), reason words, raw)
JSONL_BAD = [
    ('{"id": 2, "text": \n', "malformed JSON", '{"id": 2, "text": '),
    ("[1, 2]\n", "expected a JSON object, found an array", "[1, 2]"),
    ('"just a string"\n', "expected a JSON object, found a string", '"just a string"'),
    ('{"text": "b"}\n', "missing field 'id'", '{"text": "b"}'),
    ('{"id": 2}\n', "missing field 'text'", '{"id": 2}'),
    ('{"id": 2, "text": null}\n', "field 'text' must be a string, not null", None),
    ('{"id": 2, "text": 5}\n', "field 'text' must be a string, not a number", None),
    ('{"id": [2], "text": "b"}\n', "field 'id' must be a string or an integer", None),
    ('{"id": true, "text": "b"}\n', "field 'id' must be a string or an integer", None),
    ('{"id": "", "text": "b"}\n', "field 'id' is empty", None),
    (b'{"id": 2, "text": "caf\xe9"}\n', "not UTF-8: undecodable byte 0xe9 at column 23",
     '{"id": 2, "text": "caf\\xe9"}'),
    (b'{"id": 2, "text": "b\xff\xfe"}\r\n', "not UTF-8: undecodable byte 0xff",
     '{"id": 2, "text": "b\\xff\\xfe"}'),
]


@pytest.mark.parametrize("bad_line, words, raw", JSONL_BAD)
def test_jsonl_bad_record_is_reported_and_skipped(tmp_path, bad_line, words, raw):
    if isinstance(bad_line, str):
        bad_line = bad_line.encode("utf-8")
    path = write(tmp_path, "d.jsonl", GOOD1.encode() + bad_line + GOOD3.encode())
    events, [bad] = read_skipping(path)
    assert events == [Record(1, {"id": 1, "text": "a"}), bad, Record(3, {"id": 3, "text": "c"})]
    assert bad.line == 2 and words in bad.reason
    if raw is None:
        raw = bad_line.decode("utf-8").rstrip("\n")
    assert bad.raw == raw


# (CSV content: header, good row 1, bad record, good row; bad line, reason words, raw)
CSV_BAD = [
    ("id,text\n1,a\n2,b,extra\n3,c\n", 3, "expected 2 fields as in the header, found 3",
     "2,b,extra"),
    ("id,text\n1,a\n2\n3,c\n", 3, "expected 2 fields as in the header, found 1", "2"),
    ("id,text\n1,a\n,b\n3,c\n", 3, "field 'id' is empty", ",b"),
    ('id,text\n1,a\n2,"b"x\n3,c\n', 3, "malformed CSV", '2,"b"x'),
    (b"id,text\n1,a\n2,caf\xe9\n3,c\n", 3, "not UTF-8: undecodable byte 0xe9 at column 6",
     "2,caf\\xe9"),
    (b'id,text\r\n1,a\r\n2,"x\xff,\r\n""y"",\r\nz"\r\n3,c\r\n', 3,
     "not UTF-8: undecodable byte 0xff at column 5", '2,"x\\xff,\r\n""y"",\r\nz"'),
    (b'id,text\n1,a\n2,"multi\nline \xff\n"\n3,c\n', 3, "undecodable byte 0xff at column 6 on line 4",
     '2,"multi\nline \\xff\n"'),
]


@pytest.mark.parametrize("content, line, words, raw", CSV_BAD)
def test_csv_bad_record_is_reported_and_skipped(tmp_path, content, line, words, raw):
    path = write(tmp_path, "d.csv", content)
    events, [bad] = read_skipping(path)
    assert [e.line for e in events] == [2, line, line + raw.count("\n") + 1]
    assert events[1] is bad and isinstance(bad, BadRecord)
    assert events[0].fields == {"id": "1", "text": "a"}
    assert events[2].fields == {"id": "3", "text": "c"}
    assert words in bad.reason and bad.raw == raw


def test_bad_utf8_line_in_the_middle_of_jsonl(tmp_path):
    lines = [json.dumps({"id": n, "text": "t%d" % n}).encode() + b"\n" for n in range(1, 7)]
    lines[3] = b'{"id": 4, "text": "\xc3\x28"}\n'             # invalid continuation byte
    path = write(tmp_path, "d.jsonl", b"".join(lines))
    events, [bad] = read_skipping(path)
    assert [e.line for e in events] == [1, 2, 3, 4, 5, 6] and events[3] is bad
    assert [r.fields["id"] for r in events if isinstance(r, Record)] == [1, 2, 3, 5, 6]
    assert bad.reason == "not UTF-8: undecodable byte 0xc3 at column 20"


def test_bad_utf8_line_in_the_middle_of_csv(tmp_path):
    path = write(tmp_path, "d.csv", b"id,text\n1,a\n2,b\n3,\xc0\xafc\n4,d\n5,e\n")
    events, [bad] = read_skipping(path)
    assert [e.line for e in events] == [2, 3, 4, 5, 6] and events[2] is bad
    assert [r.fields["id"] for r in events if isinstance(r, Record)] == ["1", "2", "4", "5"]
    assert bad.raw == "3,\\xc0\\xafc"


def test_multiline_quoted_csv_after_a_bad_row(tmp_path):
    path = write(tmp_path, "d.csv",
                 'id,board,text\r\n'
                 '1,bc\r\n'                                          # bad: 2 fields
                 '2,bc,"line one\r\nline two, with ""quotes"""\r\n'
                 '\r\n'
                 '3,bc,"x\r\n\r\ny"\r\n')
    events, [bad] = read_skipping(path)
    assert bad == BadRecord(2, "expected 3 fields as in the header, found 2", "1,bc")
    assert [e.line for e in events] == [2, 3, 6]
    assert events[1].fields["text"] == 'line one\r\nline two, with "quotes"'
    assert events[2].fields["text"] == "x\r\n\r\ny"


def test_bad_csv_quote_recovers_on_next_line(tmp_path):
    path = write(tmp_path, "d.csv", 'id,text\n1,"a"b\n2,"multi\nline"\n')
    events, [bad] = read_skipping(path)
    assert bad.line == 2 and "malformed CSV" in bad.reason
    assert events[1] == Record(3, {"id": "2", "text": "multi\nline"})


def test_tsv_and_gzip_bad_records_are_reported_and_skipped(tmp_path):
    import gzip
    path = write(tmp_path, "d.tsv.gz", gzip.compress(b'id\ttext\n1\ta\n2\n3\t"c\nd"\n'))
    events, [bad] = read_skipping(path)
    assert bad == BadRecord(3, "expected 2 fields as in the header, found 1", "2")
    assert [e.line for e in events] == [2, 3, 4] and events[2].fields["text"] == "c\nd"


def test_parquet_bad_row_is_reported_with_its_row_number(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = str(tmp_path / "d.parquet")
    pq.write_table(pa.table({"id": [1, 2, 3], "text": ["a", None, "c"],
                             "score": [0.5, float("nan"), None]}), path)
    events, [bad] = read_skipping(path)
    assert [e.line for e in events] == [1, 2, 3] and events[1] is bad
    assert bad.reason == "field 'text' must be a string, not null"
    assert json.loads(bad.raw) == {"id": 2, "text": None, "score": None}   # NaN: JSON null


@pytest.mark.parametrize("name, content, lines", [
    ("all.jsonl", '{"id": 1}\nnope\n\n[3]\n', [1, 2, 4]),
    ("all.jsonl", b"\xff\n\xfe\n", [1, 2]),
    ("all.csv", "id,text\n1\n,x\n3,y,z\n", [2, 3, 4]),
    ("all.csv", b"id,text\n1,\xff\n", [2]),
])
def test_file_of_only_bad_records_reports_them_and_raises_nothing(tmp_path, name, content, lines):
    events, bad = read_skipping(write(tmp_path, name, content))
    assert events == bad and [b.line for b in bad] == lines


# --- file-level problems raise even with on_bad -------------------------------------------

FILE_ERRORS = [
    ("e.jsonl", "", None, "empty file: no records"),
    ("e.jsonl", "\n \n", None, "empty file: no records"),
    ("e.jsonl", "\ufeff", None, "empty file: no records"),
    ("e.csv", "", None, "empty file: no records"),
    ("e.csv", "id,text\n", None, "empty file: no records"),
    ("e.csv", "id,body\n1,x\n", 1, "CSV header has no 'text' column"),
    ("e.csv", "text\nx\n", 1, "CSV header has no 'id' column"),
    ("e.csv", "id,text,id\n1,x,2\n", 1, "CSV header repeats column 'id'"),
    ("e.csv", b"id,t\xffext\n1,x\n", 1, "not UTF-8"),
    ("e.csv", 'id,text\n1,x\n2,"never closed\nmore\n', 3, "malformed CSV"),
    ("e.csv", 'id,text\n1,x\n2,y,z\n3,"never closed\n', 4, "malformed CSV"),
    ("e.tsv", "id\tbody\n1\tx\n", 1, "TSV header has no 'text' column"),
    ("e.jsonl.gz", '{"id": 1, "text": "x"}\n', None, "not a gzip file"),
]


@pytest.mark.parametrize("name, content, line, words", FILE_ERRORS)
def test_file_level_problems_still_raise_with_on_bad(tmp_path, name, content, line, words):
    path = write(tmp_path, name, content)
    with pytest.raises(InputError) as caught:
        list(read_posts(path, on_bad=lambda bad: None))
    assert caught.value.path == path and caught.value.line == line
    assert words in caught.value.message


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_unreadable_file_still_raises_with_on_bad(tmp_path, where):
    path = str(tmp_path / "nope.jsonl") if where == "missing" else str(tmp_path)
    with pytest.raises(InputError) as caught:
        list(read_posts(path, on_bad=lambda bad: None))
    assert "cannot read" in caught.value.message


# --- without on_bad nothing changes ---------------------------------------------------------

@pytest.mark.parametrize("bad_line, words, raw", JSONL_BAD)
def test_without_on_bad_the_first_bad_record_raises(tmp_path, bad_line, words, raw):
    if isinstance(bad_line, str):
        bad_line = bad_line.encode("utf-8")
    path = write(tmp_path, "d.jsonl", GOOD1.encode() + bad_line + GOOD3.encode())
    records = read_posts(path)
    assert next(records).line == 1
    with pytest.raises(InputError) as caught:
        next(records)
    assert caught.value.line == 2 and words in caught.value.message


def test_good_file_reads_the_same_with_and_without_on_bad(tmp_path):
    path = write(tmp_path, "g.csv", 'id,text\n1,"a\nb"\n\n2,c\n')
    called = []
    assert list(read_posts(path, on_bad=called.append)) == list(read_posts(path))
    assert called == []


def test_sniffed_file_with_undecodable_first_line(tmp_path):
    path = write(tmp_path, "dump", b'{"id": 1, "text": "\xff"}\n{"id": 2, "text": "b"}\n')
    events, [bad] = read_skipping(path)
    assert bad.line == 1 and events[1] == Record(2, {"id": 2, "text": "b"})


# --- BadRecord ------------------------------------------------------------------------------

def test_bad_record_as_json_is_one_reject_line():
    bad = BadRecord(7, "malformed JSON: Expecting value", 'José \\xff "q"\ttab\r\nnext')
    line = bad.as_json()
    assert "\n" not in line and "José" in line                # ensure_ascii=False
    assert json.loads(line) == {"line": 7, "reason": "malformed JSON: Expecting value",
                                "raw": 'José \\xff "q"\ttab\r\nnext'}
    assert list(json.loads(line)) == ["line", "reason", "raw"]
