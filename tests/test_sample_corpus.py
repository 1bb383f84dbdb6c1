"""Checks on the fictional hand-tagged sample corpus in corpora_samples/."""

import csv
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "corpora_samples"
ANNOTATED = SAMPLES / "health_boards.annotated.jsonl"
DEMO_JSONL = SAMPLES / "demo_dump.jsonl"
DEMO_CSV = SAMPLES / "demo_dump.csv"
FIELDS = ["id", "board", "thread", "author", "parent", "time", "text"]


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_sample", ROOT / "tools" / "build_sample.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def builder():
    return _load_builder()


@pytest.fixture(scope="module")
def annotated():
    with ANNOTATED.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_annotated_loads_with_fields(annotated):
    assert len(annotated) >= 300
    for rec in annotated:
        assert set(FIELDS + ["spans"]) <= set(rec), rec.get("id")
        assert isinstance(rec["text"], str) and rec["text"]


def test_boards_threads_authors(annotated):
    assert len({r["board"] for r in annotated}) >= 3
    assert len({r["thread"] for r in annotated}) >= 50
    assert len({r["author"] for r in annotated}) >= 60


def test_spans_inside_text_and_labels(annotated):
    n_name = n_user = 0
    for rec in annotated:
        prev_end = 0
        for sp in rec["spans"]:
            assert sp["label"] in {"NAME", "USER"}
            assert 0 <= sp["start"] < sp["end"] <= len(rec["text"]), rec["id"]
            assert sp["start"] >= prev_end, f"overlap or unsorted spans in {rec['id']}"
            piece = rec["text"][sp["start"]:sp["end"]]
            assert piece == piece.strip() and "@" not in piece, (rec["id"], piece)
            prev_end = sp["end"]
            n_name += sp["label"] == "NAME"
            n_user += sp["label"] == "USER"
    assert n_name > 200 and n_user > 50


def test_parents_exist_in_same_thread(annotated):
    by_id = {r["id"]: r for r in annotated}
    assert len(by_id) == len(annotated)
    for rec in annotated:
        if rec["parent"] is not None:
            assert by_id[rec["parent"]]["thread"] == rec["thread"]


def test_spans_match_source_markup(builder, annotated):
    records = builder.build_records("annotated")
    assert len(records) == len(annotated)
    for rec, src in zip(annotated, records):
        assert rec["id"] == src["id"] and rec["text"] == src["text"]
        got = [(s["start"], s["end"], s["label"]) for s in rec["spans"]]
        want = [(s["start"], s["end"], s["label"]) for s in src["spans"]]
        assert got == want, rec["id"]
        for s in src["spans"]:
            assert rec["text"][s["start"]:s["end"]] == s["_markup"]


def test_shipped_files_are_up_to_date(builder):
    files, *_ = builder.build_all()
    for path, content in files.items():
        assert path.read_text(encoding="utf-8") == content, f"{path.name} is stale: run python tools/build_sample.py"


def test_demo_dump_jsonl_and_csv_agree(annotated):
    with DEMO_JSONL.open(encoding="utf-8") as fh:
        demo = [json.loads(line) for line in fh if line.strip()]
    with DEMO_CSV.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        assert reader.fieldnames == FIELDS
        rows = list(reader)
    assert 50 <= len(demo) == len(rows)
    ann_ids = {r["id"] for r in annotated}
    ann_texts = {r["text"] for r in annotated}
    for rec, row in zip(demo, rows):
        assert "spans" not in rec
        assert rec["id"] not in ann_ids and rec["text"] not in ann_texts
        assert "{" not in rec["text"] and "}" not in rec["text"]
        for f in FIELDS:
            assert (rec[f] or "") == row[f]


def test_markup_errors_are_caught(builder):
    text, spans = builder.compile_text("Hi {N:Kay}, ask @{U:kaygirl}", "t")
    assert text == "Hi Kay, ask @kaygirl"
    assert [(s["start"], s["end"], s["label"]) for s in spans] == [(3, 6, "NAME"), (13, 20, "USER")]
    for bad in ["Hi {N:Kay", "{X:Kay}", "{N:Kay}girl", "{N: Kay}"]:
        with pytest.raises(builder.MarkupError):
            builder.compile_text(bad, "t")
