"""Checks on the fictional hand-tagged sample corpus in corpora_samples/."""

import csv
import importlib.util
import json
from pathlib import Path

import pytest

import paths

SAMPLES = Path(paths.SAMPLES)
ANNOTATED = SAMPLES / "health_boards.annotated.jsonl"
DEMO_JSONL = SAMPLES / "demo_dump.jsonl"
DEMO_CSV = SAMPLES / "demo_dump.csv"
FIELDS = ["id", "board", "thread", "author", "parent", "time", "text"]


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_sample",
                                                  Path(paths.TOOLS) / "build_sample.py")
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
    replies = [rec for rec in annotated if rec["parent"] is not None]
    assert replies
    for rec in replies:
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
    assert len(files) == 4
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


# --- gold person identities ---------------------------------------------------------------

@pytest.mark.parametrize("raw, text, spans", [
    ("Hi {N:Jess=RAwarrior}!", "Hi Jess!", [(3, 7, "NAME", "Jess", "RAwarrior")]),
    ("{N:Mary Jo=mjb}", "Mary Jo", [(0, 7, "NAME", "Mary Jo", "mjb")]),
    ("Dr. {N:Lindqvist}", "Dr. Lindqvist", [(4, 13, "NAME", "Lindqvist", None)]),
    ("@{U:hope} and {N:Ron=achyknees}", "@hope and Ron",
     [(1, 5, "USER", "hope", None), (10, 13, "NAME", "Ron", "achyknees")]),
    ("Hi {U:roxy=roxy22}, thanks @{U:kaygril=kaygirl}", "Hi roxy, thanks @kaygril",
     [(3, 7, "USER", "roxy", "roxy22"), (17, 24, "USER", "kaygril", "kaygirl")]),
    ("{U:hope=hope}", "hope", [(0, 4, "USER", "hope", "hope")]),
])
def test_markup_person_targets(builder, raw, text, spans):
    got_text, got = builder.compile_text(raw, "t")
    assert got_text == text and "=" not in got_text
    assert [(s["start"], s["end"], s["label"], s["_markup"], s["_target"]) for s in got] == spans


@pytest.mark.parametrize("bad", [
    "{N:Jess=}", "{N:=RAwarrior}", "{N:Jess= RAwarrior}", "{N:Jess =RAwarrior}",
    "{N:Jess=RA warrior}", "{N:Jess=a=b}",
    "{U:roxy=}", "{U:=roxy22}", "{U:roxy= roxy22}", "{U:roxy =roxy22}", "{U:roxy=roxy 22}",
])
def test_markup_bad_person_target_syntax(builder, bad):
    with pytest.raises(builder.MarkupError):
        builder.compile_text(bad, "t")


def _records(builder, posts):
    """Records as build_records makes them, from (author, marked-up text) pairs."""
    recs = []
    for i, (author, raw) in enumerate(posts, 1):
        text, spans = builder.compile_text(raw, f"f.txt:{i}")
        for sp in spans:
            sp["_where"] = f"f.txt:{i}"
        recs.append({"id": f"x{i}", "thread": "x", "author": author, "text": text, "spans": spans})
    return recs


@pytest.mark.parametrize("raw, persons", [
    ("Hi {N:Jess=RAwarrior}", ["RAwarrior"]),
    ("my sister {N:Colleen}", [None]),
    ("thanks {U:hope}, {U:HOPE} and {U:rawarrior}", ["hope", "hope", "RAwarrior"]),
    ("ask {U:metsmama} or {U:hopey}", [None, None]),
    ("thanks {U:hopey=hope} and {U:RAw=RAwarrior}", ["hope", "RAwarrior"]),
    ("{U:HOPE=hope} and {U:metsmama}", ["hope", None]),
])
def test_resolve_persons(builder, raw, persons):
    recs = _records(builder, [("RAwarrior", "first"), ("hope", raw)])
    builder.resolve_persons(recs)
    assert [s["person"] for s in recs[1]["spans"]] == persons


@pytest.mark.parametrize("mark", ["{N:Jess=%s}", "{U:jess=%s}"])
@pytest.mark.parametrize("target", ["colleen", "rawarrior", "metsmama"])
def test_unknown_person_target_is_rejected(builder, mark, target):
    recs = _records(builder, [("RAwarrior", "first"), ("hope", "Hi " + mark % target)])
    with pytest.raises(builder.TargetError, match=r"f\.txt:2: person target '%s'" % target):
        builder.resolve_persons(recs)


def test_user_target_contradicting_spelled_author_is_rejected(builder):
    recs = _records(builder, [("RAwarrior", "first"), ("hope", "thanks {U:rawarrior=hope}")])
    with pytest.raises(builder.TargetError, match=r"f\.txt:2: .*'rawarrior' contradicts author 'RAwarrior'"):
        builder.resolve_persons(recs)


def test_annotated_json_emits_person_only_when_known(builder):
    recs = _records(builder, [("RAwarrior", "{N:Jess=RAwarrior} and Dr. {N:Lindqvist}")])
    for k in ("board", "parent", "time"):
        recs[0][k] = None
    builder.resolve_persons(recs)
    assert builder.annotated_json(recs[0])["spans"] == [
        {"start": 0, "end": 4, "label": "NAME", "person": "RAwarrior"},
        {"start": 13, "end": 22, "label": "NAME"}]


def test_shipped_persons_are_authors(annotated):
    authors = {r["author"] for r in annotated}
    by_lower = {a.lower(): a for a in authors}
    n_name = n_user = 0
    for rec in annotated:
        for sp in rec["spans"]:
            assert set(sp) <= {"start", "end", "label", "person"}, rec["id"]
            piece = rec["text"][sp["start"]:sp["end"]]
            if "person" in sp:
                assert sp["person"] in authors, (rec["id"], sp)
            if sp["label"] == "USER":
                # a handle that spells an author's username gets that author; a short or
                # misspelled handle gets the member its mark targets; non-posters get none
                if piece.lower() in by_lower:
                    assert sp.get("person") == by_lower[piece.lower()], (rec["id"], piece)
                n_user += "person" in sp
            else:
                n_name += "person" in sp
    assert n_name >= 100 and n_user >= 90


@pytest.mark.parametrize("post_id, name, person", [
    ("ar001-01", "Jess", "RAwarrior"),       # sign-off
    ("ar001-02", "Jess", "RAwarrior"),       # greeting to the parent's author
    ("ar001-05", "Ron", "achyknees"),        # mid-text thanks
    ("ar001-05", "Colleen", None),           # a relative
    ("ar001-06", "Mary Jo", "mjb"),          # multi-word name
    ("bc001-01", "Rick", None),
    ("db007-05", "Carol", "sunshine"),       # sign-off of a member posting on two boards
    ("ar003-01", "Carol", None),             # same name, different person on another board
    ("ar004-03", "roxy", "roxy22"),          # USER short form of a handle
    ("bc015-06", "kaygril", "kaygirl"),      # USER misspelled handle
    ("ar010-04", "pete", "PsAPete"),         # USER short form; Pete is someone else on bc
    ("bc008-02", "metsmama", None),          # USER handle of a non-poster
])
def test_shipped_person_examples(annotated, post_id, name, person):
    rec = next(r for r in annotated if r["id"] == post_id)
    got = [sp.get("person") for sp in rec["spans"] if rec["text"][sp["start"]:sp["end"]] == name]
    assert got and all(p == person for p in got), (post_id, name, got)
