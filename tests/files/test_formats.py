"""Post formats in and out: JSON Lines, CSV, TSV (each also gzip), Parquet; ``-`` for standard
input and output; the dump's own id and text field names; and the errors of each."""
import gzip
import json
import os
import shutil
import subprocess
import sys

import pytest

from mmbdeid.cli import main
from mmbdeid.errors import InputError
from mmbdeid.files.formats import corpus_format, output_format, post_format
from mmbdeid.files.postfile import FieldNames, PostFile
from mmbdeid.files.post_writer import post_output
from mmbdeid.files.posts import read_posts

from paths import BIN as BIN_DIR
from slow_cases import slow_except
BIN = os.path.join(BIN_DIR, "mmbdeid")

# Every field a string and present in every post, so that CSV/TSV/Parquet hold them as is.
FIELDS = ["id", "board", "thread", "author", "text", "note"]
POSTS = [
    {"id": "a1", "board": "bc", "thread": "t1", "author": "kaygirl", "note": "x",
     "text": "Hi all, finished rads today.\nHugs,\nKay"},
    {"id": "a2", "board": "bc", "thread": "t1", "author": "boo", "note": "tab\there",
     "text": "Hi Kay! @kaygirl mail me at boo@example.com, \"quoted\" (555) 123-4567.\nBarb"},
    {"id": "a3", "board": "bc", "thread": "t2", "author": "tiger", "note": "",
     "text": "Arimidex 1 mg daily. Thanks Barb"},
]
POSTS = [{name: post[name] for name in FIELDS} for post in POSTS]
FORMATS = ["jsonl", "jsonl.gz", "csv", "csv.gz", "tsv", "tsv.gz", "parquet"]


def write_posts(path, posts, fmt=None):
    """``posts`` written in the format of ``path``'s extension (or ``fmt``)."""
    fmt = fmt or output_format(str(path), "jsonl")
    with post_output(str(path), fmt, field_names=list(posts[0])) as writer:
        for post in posts:
            writer.write(post)
    return str(path)


def texts(path, **options):
    return [record.text for record in read_posts(path, **options)]


def scrub(*argv, model):
    return main(["scrub", *map(str, argv), "--model", model, "-j", "1", "-q"])


def one_error_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mmbdeid: error: "), err
    return err[0]


@pytest.fixture(scope="module")
def reference(tmp_path_factory, tiny_model_path):
    """The scrubbed texts of the JSON Lines dump: every format must give these."""
    directory = tmp_path_factory.mktemp("reference")
    dump = write_posts(directory / "dump.jsonl", POSTS)
    assert scrub(dump, "-o", directory / "out.jsonl", model=tiny_model_path) == 0
    scrubbed = texts(str(directory / "out.jsonl"))
    assert scrubbed != [post["text"] for post in POSTS]          # something was removed
    return scrubbed


# --- round trips ------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", slow_except(FORMATS, ["jsonl", "csv.gz", "tsv", "parquet"]))
def test_every_format_in_and_out_gives_the_same_scrubbed_posts(tmp_path, tiny_model_path,
                                                               reference, fmt):
    dump = write_posts(tmp_path / ("dump." + fmt), POSTS)
    out = tmp_path / ("out." + fmt)
    assert scrub(dump, "-o", out, model=tiny_model_path) == 0
    records = list(read_posts(str(out)))
    assert [r.text for r in records] == reference
    for record, post in zip(records, POSTS):                      # fields and order kept
        assert list(record.fields) == FIELDS
        assert {k: v for k, v in record.fields.items() if k != "text"} == {
            k: v for k, v in post.items() if k != "text"}
    assert sorted(os.listdir(tmp_path)) == sorted(["dump." + fmt, "out." + fmt])  # no temp file


@pytest.mark.skipif(shutil.which("gzip") is None, reason="no gzip command")
@pytest.mark.parametrize("fmt", ["jsonl.gz", pytest.param("csv.gz", marks=pytest.mark.slow),
                                 pytest.param("tsv.gz", marks=pytest.mark.slow)])
def test_gzip_output_is_read_by_gzip_dc(tmp_path, tiny_model_path, fmt):
    dump = write_posts(tmp_path / "dump.jsonl", POSTS)
    out = tmp_path / ("out." + fmt)
    assert scrub(dump, "-o", out, model=tiny_model_path) == 0
    plain = subprocess.run(["gzip", "-dc", str(out)], capture_output=True, check=True).stdout
    assert plain == gzip.decompress(out.read_bytes())
    assert plain.decode("utf-8").count("a3") == 1


def test_parquet_keeps_the_input_columns_and_types(tmp_path, tiny_model_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"n": pa.array([1, 2], pa.int64()), "tags": [[1, 2], None],
                      "text": ["Thanks Barb", "Hi Kay"], "score": [0.5, None],
                      "author": ["boo", "tiger"], "id": ["p1", "p2"]})
    pq.write_table(table, tmp_path / "dump.parquet")
    out = tmp_path / "out.parquet"
    assert scrub(tmp_path / "dump.parquet", "-o", out, model=tiny_model_path) == 0
    written = pq.read_table(out)
    assert written.schema.equals(table.schema)
    assert written.column("tags").to_pylist() == [[1, 2], None]
    assert written.column("text").to_pylist() != table.column("text").to_pylist()


def test_parquet_from_json_lines_gets_column_types(tmp_path, tiny_model_path):
    pq = pytest.importorskip("pyarrow.parquet")
    posts = [dict(POSTS[0], n=1, ok=True, extra=[1]), dict(POSTS[1], n=2, ok=False, extra="s")]
    dump = tmp_path / "dump.jsonl"
    dump.write_text("".join(json.dumps(p) + "\n" for p in posts), encoding="utf-8")
    out = tmp_path / "out.parquet"
    assert scrub(dump, "-o", out, model=tiny_model_path) == 0
    schema = pq.read_schema(out)
    assert schema.names == list(posts[0])
    assert [str(schema.field(n).type) for n in ("n", "ok", "extra")] == ["int64", "bool", "string"]
    assert pq.read_table(out).column("extra").to_pylist() == ["[1]", "s"]   # JSON text, as CSV


# --- standard input and output ------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "tsv", "jsonl.gz"])
def test_stdin_to_stdout(tmp_path, tiny_model_path, reference, fmt):
    dump = write_posts(tmp_path / ("dump." + fmt), POSTS)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    with open(dump, "rb") as stdin:
        result = subprocess.run(
            [sys.executable, BIN, "scrub", "-", "-o", "-", "--model", tiny_model_path,
             "-j", "1"], stdin=stdin, capture_output=True,
            env=dict(os.environ, TMPDIR=str(scratch)), timeout=300)
    assert result.returncode == 0, result.stderr
    assert b"scrubbed 3 posts" in result.stderr                 # the summary: stderr only
    out = tmp_path / ("out." + fmt.replace(".gz", ""))           # - writes uncompressed
    out.write_bytes(result.stdout)
    assert texts(str(out)) == reference
    assert os.listdir(scratch) == []                             # the spooled stdin is gone


def test_stdin_errors_name_stdin(tmp_path, tiny_model_path):
    result = subprocess.run(
        [sys.executable, BIN, "scrub", "-", "-o", str(tmp_path / "out.jsonl"), "--model",
         tiny_model_path, "-j", "1", "-q"], input=b'{"id": 1, "text": "x"}\n{"id": 2}\n',
        capture_output=True, timeout=300)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "mmbdeid: error: <stdin>:2: missing field 'text' (fields: id); "
        "name the text field with --text-field"]
    assert os.listdir(tmp_path) == []


# --- the dump's own field names -----------------------------------------------------------

def test_custom_field_names_are_read_and_written_back(tmp_path, tiny_model_path, reference):
    # the dump also has a field called "text": it is kept, untouched, in its place
    posts = [{"post_id": p["id"], "text": "not the post", "author": p["author"],
              "body": p["text"], "board": p["board"], "thread": p["thread"]} for p in POSTS]
    for fmt in ("jsonl", "csv"):
        dump = write_posts(tmp_path / ("dump." + fmt), posts)
        out = tmp_path / ("out." + fmt)
        assert main(["scrub", dump, "-o", str(out), "--model", tiny_model_path, "-j", "1",
                     "-q", "--id-field", "post_id", "--text-field", "body"]) == 0
        names = FieldNames("post_id", "body")
        records = [names.to_external(r.fields)
                   for r in read_posts(PostFile(str(out), fields=names))]
        assert [list(r) for r in records] == [list(p) for p in posts]
        assert [r["text"] for r in records] == ["not the post"] * 3
        assert [r["post_id"] for r in records] == ["a1", "a2", "a3"]
        assert [r["body"] for r in records] == reference


def test_missing_custom_field_names_file_line_and_field(tmp_path, capsys, tiny_model_path):
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"post_id": 1, "body": "x"}\n{"post_id": 2, "text": "y"}\n')
    assert main(["scrub", str(dump), "-o", str(tmp_path / "out.jsonl"), "--model",
                 tiny_model_path, "-q", "--id-field", "post_id", "--text-field", "body"]) == 2
    assert one_error_line(capsys) == (
        "mmbdeid: error: %s:2: missing field 'body' (fields: post_id, text); "
        "name the text field with --text-field" % dump)
    csv_dump = tmp_path / "dump.csv"
    csv_dump.write_text("id,text\n1,x\n")
    assert main(["scrub", str(csv_dump), "-o", str(tmp_path / "out.csv"), "--model",
                 tiny_model_path, "-q", "--text-field", "body"]) == 2
    assert one_error_line(capsys) == (
        "mmbdeid: error: %s:1: CSV header has no 'body' column (columns: id, text); "
        "name the text column with --text-field" % csv_dump)
    assert sorted(os.listdir(tmp_path)) == ["dump.csv", "dump.jsonl"]


# The dump's columns named, and the option that names the right one (issue 21).
MISSING_COLUMNS = [
    ("d.csv", "id,user,body\n1,kay,hi\n", [],
     ":1: CSV header has no 'text' column (columns: id, user, body); "
     "name the text column with --text-field"),
    ("d.csv.gz", "post_id,user,body\n1,kay,hi\n", [],
     ":1: CSV header has no 'id' or 'text' column (columns: post_id, user, body); "
     "name them with --id-field and --text-field"),
    ("d.tsv", "text\tuser\nhi\tkay\n", [],
     ":1: TSV header has no 'id' column (columns: text, user); "
     "name the id column with --id-field"),
    ("d.csv", "id,body\n1,hi\n", ["--text-field", "message"],
     ":1: CSV header has no 'message' column (columns: id, body); "
     "name the text column with --text-field"),
    ("d.jsonl", '{"post_id": 1, "body": "hi"}\n', ["--id-field", "post_id"],
     ":1: missing field 'text' (fields: post_id, body); "
     "name the text field with --text-field"),
    ("d.parquet", None, [],
     ": Parquet header has no 'text' column (columns: id, user, body); "
     "name the text column with --text-field"),
]


@pytest.mark.parametrize("name, content, options, message", MISSING_COLUMNS)
def test_missing_column_lists_the_columns_and_names_the_option(
        tmp_path, capsys, tiny_model_path, name, content, options, message):
    dump = tmp_path / name
    if content is None:
        pa = pytest.importorskip("pyarrow")
        pytest.importorskip("pyarrow.parquet").write_table(
            pa.table({"id": ["1"], "user": ["kay"], "body": ["hi"]}), dump)
    elif name.endswith(".gz"):
        dump.write_bytes(gzip.compress(content.encode("utf-8")))
    else:
        dump.write_text(content, encoding="utf-8")
    out = tmp_path / ("out." + name.split(".", 1)[1])
    assert scrub(dump, "-o", out, *options, model=tiny_model_path) == 2
    assert one_error_line(capsys) == "mmbdeid: error: %s%s" % (dump, message)
    assert os.listdir(tmp_path) == [name]                   # nothing written


# --- errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["out.txt", "out.xlsx", "out.parquet.gz", "out.gz"])
def test_unknown_output_extension_is_an_error(tmp_path, capsys, tiny_model_path, name):
    dump = write_posts(tmp_path / "dump.jsonl", POSTS)
    assert scrub(dump, "-o", tmp_path / name, model=tiny_model_path) == 2
    line = one_error_line(capsys)
    assert str(tmp_path / name) in line and "unknown output extension" in line
    assert ".jsonl, " in line and ".csv.gz" in line and ".parquet" in line
    assert os.listdir(tmp_path) == ["dump.jsonl"]


def _truncated(data):
    return data[:len(data) // 2]


def _corrupt(data):
    return data[:20] + b"\xff" * 16 + data[36:]


def _many_posts():
    return "".join(json.dumps({"id": i, "text": "Post number %d by someone" % i}) + "\n"
                   for i in range(3000)).encode()


@pytest.mark.parametrize("damage, words, has_line", [
    (_truncated, "truncated gzip file", True),
    (_corrupt, "corrupt gzip file", True),
    (lambda data: gzip.decompress(data), "not a gzip file", False),
])
def test_damaged_gzip_input_is_one_error_line(tmp_path, capsys, tiny_model_path, damage,
                                              words, has_line):
    dump = tmp_path / "dump.jsonl.gz"
    dump.write_bytes(damage(gzip.compress(_many_posts())))
    assert scrub(dump, "-o", tmp_path / "out.jsonl", model=tiny_model_path) == 2
    line = one_error_line(capsys)
    assert line.startswith("mmbdeid: error: %s:" % dump) and words in line
    where = line[len("mmbdeid: error: %s:" % dump):].split(":")[0]
    assert where.isdigit() == has_line                   # FILE:LINE: where a line is known
    assert os.listdir(tmp_path) == ["dump.jsonl.gz"]


@pytest.mark.parametrize("source, target", [("dump.jsonl", "out.parquet"),
                                            ("dump.parquet", "out.jsonl")])
def test_parquet_without_pyarrow_says_what_to_install(tmp_path, capsys, monkeypatch,
                                                      tiny_model_path, source, target):
    pytest.importorskip("pyarrow")
    dump = write_posts(tmp_path / source, POSTS)
    for module in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, module, None)           # import fails
    assert scrub(dump, "-o", tmp_path / target, model=tiny_model_path) == 2
    parquet_file = tmp_path / (target if target.endswith(".parquet") else source)
    assert one_error_line(capsys) == ("mmbdeid: error: %s: reading or writing Parquet needs "
                                      "pyarrow: pip install 'mmbdeid[parquet]'" % parquet_file)
    assert os.listdir(tmp_path) == [source]


def test_parquet_row_numbers_are_the_lines(tmp_path, capsys, tiny_model_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"id": ["a", "b", "c"], "text": ["x", None, "z"]}),
                   tmp_path / "dump.parquet")
    assert scrub(tmp_path / "dump.parquet", "-o", tmp_path / "out.jsonl",
                 model=tiny_model_path) == 2
    assert one_error_line(capsys) == ("mmbdeid: error: %s:2: field 'text' must be a string, "
                                      "not null" % (tmp_path / "dump.parquet"))


# --- format names ------------------------------------------------------------------------

@pytest.mark.parametrize("path, dump_format, requested, expected", [
    ("o.jsonl", "csv", None, "jsonl"), ("o.NDJSON", "csv", None, "jsonl"),
    ("o.csv.gz", "jsonl", None, "csv.gz"), ("o.tsv", "jsonl", None, "tsv"),
    ("o.parquet", "jsonl", None, "parquet"), ("o", "csv.gz", None, "csv"),
    ("-", "tsv.gz", None, "tsv"), ("-", "jsonl", "parquet", "parquet"),
    ("o.txt", "jsonl", "csv", "csv"), ("o.csv", "jsonl", "jsonl", InputError),
    ("o.txt", "jsonl", None, InputError), ("o.json.gz", "csv", None, "jsonl.gz"),
])
def test_output_format(path, dump_format, requested, expected):
    if expected is InputError:
        with pytest.raises(InputError):
            output_format(path, dump_format, requested)
    else:
        assert output_format(path, dump_format, requested) == expected


@pytest.mark.parametrize("name, content, posts, corpus", [
    ("d", gzip.compress(b'{"id": 1, "text": "x"}\n'), "jsonl.gz", "jsonl.gz"),
    ("d", b"id\ttext\n1\tx\n", "tsv", "tsv"),
    ("d", b"id,text\n1,x\n", "csv", "csv"),
    ("d.tsv", b"Kay\tB-person\n", "tsv", "conll"),
    ("d.tsv", b"id\tbody\tauthor\n", "tsv", "tsv"),
    ("d.conll.gz", gzip.compress(b"Kay\tB-person\n"), "jsonl", "conll"),
    ("d.tsv.gz", gzip.compress(b"id\ttext\n1\tx\n"), "tsv.gz", "tsv.gz"),
])
def test_formats_are_sniffed(tmp_path, name, content, posts, corpus):
    path = tmp_path / name
    path.write_bytes(content)
    if not name.endswith(".conll.gz"):
        assert post_format(str(path)) == posts
    assert corpus_format(str(path)) == corpus


def test_gzip_and_tsv_are_read_line_by_line_with_line_numbers(tmp_path):
    path = tmp_path / "d.tsv.gz"
    path.write_bytes(gzip.compress(b'id\ttext\n1\t"two\nlines"\n2\tok\n'))
    assert [(r.line, r.text) for r in read_posts(str(path))] == [(2, "two\nlines"), (4, "ok")]
