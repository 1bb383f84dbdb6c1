import csv
import os

import pytest

from jsonl_files import (expected_token_probabilities, listed_token_probabilities, read_jsonl,
                         unexpected_probabilities, write_jsonl)
from mmbdeid.cli import main

POSTS = [
    {"id": "a1", "board": "bc", "thread": "t1", "author": "kaygirl", "extra": 7,
     "text": "Hi all, finished rads today.\nHugs,\nKay"},
    {"id": "a2", "board": "bc", "thread": "t1", "author": "boo",
     "text": "Hi Kay! @kaygirl mail me at boo@example.com or (555) 123-4567.\nBarb"},
    {"id": 3, "board": "bc", "thread": "t1", "author": "tiger", "text": "Arimidex 1 mg daily."},
]


def test_scrub_keeps_every_record_in_order_with_its_fields(tmp_path, tiny_model_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out, spans = str(tmp_path / "out.jsonl"), str(tmp_path / "spans.jsonl")
    assert main(["scrub", dump, "-o", out, "--model", tiny_model_path, "--spans", spans]) == 0
    records = read_jsonl(out)
    assert [r["id"] for r in records] == ["a1", "a2", 3]
    assert [list(r) for r in records] == [list(p) for p in POSTS]
    assert records[0]["extra"] == 7
    scrubbed = records[1]["text"]
    for gone in ("@kaygirl", "boo@example.com", "123-4567"):
        assert gone not in scrubbed
    assert "[EMAIL]" in scrubbed and "[PHONE]" in scrubbed and "[USER]" in scrubbed
    assert "Arimidex" in records[2]["text"]          # drug names are never removed
    standoff = read_jsonl(spans)
    assert [s["id"] for s in standoff] == ["a1", "a2", 3]
    assert any(record["spans"] for record in standoff)
    for record, original in zip(standoff, POSTS):
        for span in record["spans"]:
            assert {"start", "end", "label", "prob", "source"} <= set(span) <= {
                "start", "end", "label", "prob", "source", "tokens"}   # tokens: of a mention
            assert 0 <= span["start"] < span["end"] <= len(original["text"])


def test_low_threshold_spans_list_every_token_with_its_own_probability(tmp_path,
                                                                       tiny_model_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    spans = str(tmp_path / "spans.jsonl")
    assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--model", tiny_model_path,
                 "--threshold", "0.001", "--spans", spans]) == 0
    listed = listed_token_probabilities(spans)
    expected = expected_token_probabilities(POSTS, tiny_model_path, 0.001)
    assert set(listed) == set(expected)
    assert unexpected_probabilities(listed, expected, 0.001) == {}


def test_scrub_csv_round_trip(tmp_path, tiny_model_path):
    dump = tmp_path / "dump.csv"
    with open(dump, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "board", "thread", "author", "text"])
        writer.writeheader()
        for post in POSTS:
            writer.writerow({k: post[k] for k in writer.fieldnames})
    out = str(tmp_path / "out.csv")
    assert main(["scrub", str(dump), "-o", out, "--model", tiny_model_path]) == 0
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["id"] for r in rows] == ["a1", "a2", "3"]
    assert "\n" in rows[0]["text"] and "[EMAIL]" in rows[1]["text"]


def test_stats_file_is_built_once_and_reused(tmp_path, tiny_model_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    stats = str(tmp_path / "stats.sqlite")
    first, second = str(tmp_path / "o1.jsonl"), str(tmp_path / "o2.jsonl")
    assert main(["scrub", dump, "-o", first, "--model", tiny_model_path, "--stats", stats]) == 0
    assert os.path.exists(stats)
    assert main(["scrub", dump, "-o", second, "--model", tiny_model_path, "--stats", stats]) == 0
    assert read_jsonl(first) == read_jsonl(second)


def test_evaluate_and_sweep(tmp_path, tiny_model_path, tiny_corpus_path, capsys):
    assert main(["evaluate", tiny_corpus_path, "--model", tiny_model_path]) == 0
    out = capsys.readouterr().out
    assert "recall" in out and "specificity" in out and "threshold   0.05" in out
    curve, plot = str(tmp_path / "c.csv"), str(tmp_path / "c.png")
    assert main(["sweep", tiny_corpus_path, "--model", tiny_model_path, "-o", curve,
                 "--plot", plot]) == 0
    with open(curve) as handle:
        rows = list(csv.DictReader(handle))
    assert [float(r["threshold"]) for r in rows][0] == 0.5 and len(rows) == 17
    with open(plot, "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"


BAD_INPUTS = [  # (file name, content, expected message fragment)
    ("bad.jsonl", b'{"id": "1", "text": "ok"}\n{"id": 2, "text": \n', "bad.jsonl:2:"),
    ("notext.jsonl", b'{"id": "1", "text": "ok"}\n{"id": "2"}\n', "notext.jsonl:2:"),
    ("noid.jsonl", b'{"text": "ok"}\n', "noid.jsonl:1:"),
    ("latin1.jsonl", b'{"id": "1", "text": "ok"}\n{"id": "2", "text": "caf\xe9"}\n',
     "latin1.jsonl:2:"),
    ("empty.jsonl", b"", "empty.jsonl"),
    ("short.csv", b"id,text\n1,ok\n2,ok,extra\n", "short.csv:3:"),
]


@pytest.mark.parametrize("name, content, fragment", BAD_INPUTS)
def test_bad_dump_gives_one_line_error_and_no_output(tmp_path, tiny_model_path, capsys,
                                                     name, content, fragment):
    dump = tmp_path / name
    dump.write_bytes(content)
    out, spans = tmp_path / "out.jsonl", tmp_path / "spans.jsonl"
    code = main(["scrub", str(dump), "-o", str(out), "--model", tiny_model_path,
                 "--spans", str(spans)])
    err = capsys.readouterr().err
    assert code == 2
    assert fragment in err and err.count("\n") == 1
    assert not out.exists() and not spans.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("argv_tail, fragment", [
    (["--threshold", "0"], "threshold"),
    (["--threshold", "1.5"], "threshold"),
    (["--threshold", "abc"], "threshold"),
    (["--model", "/nonexistent.mmbdeid"], "/nonexistent.mmbdeid"),
])
def test_bad_options_exit_2(tmp_path, capsys, argv_tail, fragment):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out = tmp_path / "out.jsonl"
    assert main(["scrub", dump, "-o", str(out)] + argv_tail) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1
    assert not out.exists()


def test_model_that_is_not_a_model(tmp_path, capsys):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    fake = tmp_path / "fake.mmbdeid"
    fake.write_text("hello")
    assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--model", str(fake)]) == 2
    assert "fake.mmbdeid" in capsys.readouterr().err


def test_bad_training_corpus(tmp_path, capsys):
    corpus = tmp_path / "gold.conll"
    corpus.write_text("Kay\tB-person\nthis line has no tag\n")
    assert main(["train", str(corpus), "-o", str(tmp_path / "m.mmbdeid")]) == 2
    assert "gold.conll:2:" in capsys.readouterr().err
    assert not (tmp_path / "m.mmbdeid").exists()
