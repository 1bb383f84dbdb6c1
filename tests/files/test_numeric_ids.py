"""Numeric ids in every format and mode: forum exports number their members, posts and
threads. A mode that rewrites the author writes text there, which a Parquet output holds
as a string column; the output's schema is settled before pass 1, so a run never fails
after the work. The posts are fictional."""
import json

import pytest

import mmbdeid.jobs.first_pass
from mmbdeid.cli import main
from mmbdeid.files.posts import read_posts
from mmbdeid.output.operators import OPERATORS, PlaceholderOperator

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

POSTS = [
    {"id": 1, "board": 7, "thread": 30, "parent": None, "author": 101,
     "text": "Hi all, finished rads today.\nHugs,\nKay"},
    {"id": 2, "board": 7, "thread": 30, "parent": 1, "author": 102,
     "text": "Hi Kay! Write to boo@example.com.\nBarb"},
    {"id": 3, "board": 7, "thread": 30, "parent": 2, "author": 101, "text": "Thanks Barb"},
]
MODES = ["placeholder", "mask", "hash", "pseudonym", "surrogate"]
KEY = "a fictional key, 0123456789abcdef"


def scrub(dump, out, mode, model, *options):
    return main(["scrub", str(dump), "-o", str(out), "--mode", mode, "--model", model,
                 "-j", "1", "-q", *options])


def write_dump(path):
    if str(path).endswith(".parquet"):
        pq.write_table(pa.Table.from_pylist(POSTS), path)
    else:
        path.write_text("".join(json.dumps(post) + "\n" for post in POSTS), encoding="utf-8")
    return path


def one_value_per_member(authors, mode):
    """Members 101, 102, 101 wrote the posts (a mask shows only the length: 3)."""
    if mode == "mask":
        return authors == ["***"] * 3
    return authors[0] == authors[2] != authors[1]


@pytest.fixture(autouse=True)
def hash_key(monkeypatch):
    monkeypatch.setenv("MMBDEID_HASH_KEY", KEY)


@pytest.mark.parametrize("dump_name", ["dump.parquet", "dump.jsonl"])
@pytest.mark.parametrize("mode", MODES)
def test_parquet_output_of_integer_authors_in_every_mode(tmp_path, tiny_model_path, mode,
                                                         dump_name):
    dump = write_dump(tmp_path / dump_name)
    out = tmp_path / "out.parquet"
    assert scrub(dump, out, mode, tiny_model_path) == 0
    table = pq.read_table(out)
    authors = table.column("author").to_pylist()
    if mode == "placeholder":                       # kept as it is, and as it was typed
        assert table.schema.field("author").type == pa.int64()
        assert authors == [101, 102, 101]
    else:                                           # rewritten: text, in a string column
        assert table.schema.field("author").type == pa.string()
        assert all(isinstance(author, str) for author in authors)
        assert one_value_per_member(authors, mode)
        assert not {"101", "102"} & set(authors)
    for name in ("id", "board", "thread", "parent"):        # the other numbers kept
        assert table.schema.field(name).type == pa.int64()
        assert table.column(name).to_pylist() == [post[name] for post in POSTS]
    assert sorted(p.name for p in tmp_path.iterdir()) == [dump_name, "out.parquet"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "tsv"])
@pytest.mark.parametrize("mode", MODES)
def test_text_outputs_of_numeric_ids_in_every_mode(tmp_path, tiny_model_path, mode, fmt):
    dump = write_dump(tmp_path / "dump.jsonl")
    out = tmp_path / ("out." + fmt)
    assert scrub(dump, out, mode, tiny_model_path) == 0
    records = [record.fields for record in read_posts(str(out))]
    assert [str(r["id"]) for r in records] == ["1", "2", "3"]
    assert [str(r["thread"]) for r in records] == ["30"] * 3
    authors = [str(r["author"]) for r in records]
    assert (authors == ["101", "102", "101"]) == (mode == "placeholder")
    assert one_value_per_member(authors, mode)


@pytest.mark.parametrize("mode, fields", [
    ("placeholder", ()), ("mask", ("author",)), ("hash", ("author",)),
    ("pseudonym", ("author",)), ("surrogate", ("author",))])
def test_the_fields_each_mode_writes_as_text(mode, fields):
    assert OPERATORS[mode].rewritten_fields() == fields


def test_an_operator_of_ones_own_that_rewrites_the_author_writes_text():
    class Numbered(PlaceholderOperator):
        def author_value(self, author):
            return "member"
    assert Numbered.rewritten_fields() == ("author",)


def test_a_parquet_output_that_cannot_be_written_is_refused_before_pass_1(
        tmp_path, tiny_model_path, monkeypatch, capsys):
    dump = write_dump(tmp_path / "dump.parquet")
    passes = []
    monkeypatch.setattr(mmbdeid.jobs.first_pass, "build_stats",
                        lambda *args, **kwargs: passes.append(1))

    def unwritable(sink, schema, *args, **kwargs):      # as pyarrow says of such a type
        raise pa.ArrowNotImplementedError("Unhandled type for Arrow to Parquet schema "
                                          "conversion")
    monkeypatch.setattr(pq, "ParquetWriter", unwritable)
    out = tmp_path / "out.parquet"
    assert scrub(dump, out, "pseudonym", tiny_model_path) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["mmbdeid: error: %s: cannot be written as Parquet with the columns id: "
                   "int64, board: int64, thread: int64, parent: int64, author: string, "
                   "text: string (Unhandled type for Arrow to Parquet schema conversion): "
                   "write JSON Lines instead" % out]
    assert passes == []                         # refused before pass 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.parquet"]


@pytest.mark.parametrize("values, arrow_type", [
    ([1, 2 ** 63 - 1], "int64"), ([1, 2 ** 63], "string"), ([-2 ** 63 - 1], "string"),
    ([1, 2.5], "double")])
def test_integers_beyond_64_bits_are_json_text(tmp_path, tiny_model_path, values,
                                               arrow_type):
    dump = tmp_path / "dump.jsonl"
    dump.write_text("".join(json.dumps({"id": "p%d" % n, "n": value, "text": "Hi Kay"}) + "\n"
                            for n, value in enumerate(values)), encoding="utf-8")
    out = tmp_path / "out.parquet"
    assert scrub(dump, out, "placeholder", tiny_model_path) == 0
    column = pq.read_table(out).column("n")
    assert str(column.type) == arrow_type
    if arrow_type == "string":
        assert [int(value) for value in column.to_pylist()] == values


@pytest.mark.parametrize("record, what", [
    ({"id": "p2", "note": "x\ud800", "text": "Hi Kay"}, "field 'note'"),
    ({"id": "p2", "note": "x", "text": "Hi Kay\ud800"}, "field 'text'"),
    ({"id": "p2", "\ud800": "x", "text": "Hi Kay"}, "the name of field '\\ud800'")])
def test_a_lone_surrogate_is_refused_in_pass_1_for_a_parquet_output(
        tmp_path, tiny_model_path, capsys, record, what):
    dump = tmp_path / "dump.jsonl"
    dump.write_text(json.dumps({"id": "p1", "note": "", "text": "Hi"}) + "\n"
                    + json.dumps(record) + "\n", encoding="utf-8")
    out = tmp_path / "out.parquet"
    assert scrub(dump, out, "pseudonym", tiny_model_path) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "mmbdeid: error: %s:2: %s is not valid Unicode (a lone surrogate such as "
        "\\ud800), which Parquet text cannot hold: write JSON Lines or CSV instead"
        % (dump, what)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dump.jsonl"]
    assert scrub(dump, tmp_path / "out.jsonl", "placeholder", tiny_model_path) == 0


@pytest.mark.parametrize("output", ["out.parquet", "out.jsonl"])
def test_a_missing_parquet_dump_is_a_file_that_cannot_be_read(tmp_path, tiny_model_path,
                                                              capsys, output):
    # the output's schema is read from the dump before pass 1: the message stays that of
    # every input that is not there
    dump = tmp_path / "dump.parquet"
    assert scrub(dump, tmp_path / output, "mask", tiny_model_path) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "mmbdeid: error: %s: cannot read file: No such file or directory" % dump]
    assert list(tmp_path.iterdir()) == []
