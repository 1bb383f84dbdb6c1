"""A dump that changes while a run reads it (issue 18): replaced, shortened or appended
to between or during the passes."""
import json
import os

import pytest

from jsonl_files import read_jsonl, write_jsonl
from pass_hooks import hook_progress
from mmbdeid.cli import main

# Fictional posts; the names must never reach stderr.
NAMES = ("Philippa", "Quennell", "bramble_jo")
POSTS = [
    {"id": "c1", "board": "b", "thread": "t1", "author": "bramble_jo",
     "text": "Hello all, my nurse Philippa says the scan looks clear.\nJo"},
    {"id": "c2", "board": "b", "thread": "t1", "author": "wren_q", "parent": "c1",
     "text": "So glad Jo! Mrs Quennell here, ring me."},
    {"id": "c3", "board": "b", "thread": "t2", "author": "wren_q",
     "text": "Second cycle starts Monday."},
]


def replace_file(dump):
    """Another file renamed onto the dump: same records, a name inserted in one text."""
    changed = [dict(post) for post in POSTS]
    changed[2]["text"] = "Second cycle starts Monday, Philippa Quennell says."
    write_jsonl(dump.parent / "new.jsonl", changed)
    os.replace(dump.parent / "new.jsonl", dump)


def rewrite_in_place(dump):
    """One letter of a text changed in place: same file, same size."""
    data = dump.read_bytes()
    with open(dump, "r+b") as handle:
        handle.write(data.replace(b"Monday", b"Sunday"))


def shorten(dump):
    lines = dump.read_bytes().splitlines(keepends=True)
    dump.write_bytes(b"".join(lines[:2]))


def append(dump):
    with open(dump, "ab") as handle:
        handle.write((json.dumps(dict(POSTS[0], id="c4")) + "\n").encode())


RUNS = {
    "placeholder": ["scrub", "{dump}", "-o", "out.jsonl", "--spans", "spans.jsonl"],
    "pseudonym": ["scrub", "{dump}", "-o", "out.jsonl", "--spans", "spans.jsonl",
                  "--mode", "pseudonym"],
    "reused stats": ["scrub", "{dump}", "-o", "out.jsonl", "--mode", "surrogate",
                     "--stats", "d.stats"],
    "link": ["link", "{dump}", "-o", "people.map"],
    "review": ["review", "{dump}", "-o", "review.csv"],
    "stats": ["stats", "{dump}", "-o", "built.stats"],
}


@pytest.mark.parametrize("run, label, moment, change, jobs", [
    # the spans of pass 2 must never be applied to another text in pass 3
    ("pseudonym", "pass 3/3", "start", replace_file, 1),
    ("pseudonym", "pass 3/3", "start", replace_file, 2),
    ("pseudonym", "pass 3/3", "start", shorten, 1),
    ("pseudonym", "pass 3/3", "start", append, 1),
    ("pseudonym", "pass 3/3", "end", append, 1),
    ("pseudonym", "pass 2/3", "start", rewrite_in_place, 2),
    ("pseudonym", "pass 2/3", "end", append, 1),
    ("placeholder", "pass 2/2", "start", shorten, 2),
    ("placeholder", "pass 2/2", "start", rewrite_in_place, 1),
    ("placeholder", "pass 2/2", "end", append, 2),
    ("placeholder", "pass 1/2", "update", append, 1),
    ("reused stats", "pass 2/3", "start", replace_file, 1),
    ("link", "pass 2/2", "end", append, 1),
    ("review", "pass 2/2", "start", shorten, 1),
    ("stats", "pass 1/2", "update", shorten, 1),
])
def test_a_dump_that_changes_during_the_run_stops_it(tmp_path, monkeypatch, capsys,
                                                     tiny_model_path, run, label, moment,
                                                     change, jobs):
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "dump.jsonl"
    write_jsonl(dump, POSTS)
    common = ["-q", "-j", str(jobs)] + ([] if run == "stats" else ["--model", tiny_model_path])
    argv = [part.format(dump=dump) for part in RUNS[run]] + common
    if run == "reused stats":
        assert main(["stats", str(dump), "-o", "d.stats", "-q", "-j", "1"]) == 0
    fired = hook_progress(monkeypatch, label, moment, lambda: change(dump))
    capsys.readouterr()
    status = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert fired
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith("mmbdeid: error: %s" % dump)
    assert "changed during the run" in err[0] and err[0].endswith("nothing written: run "
                                                                 "again once it stays put")
    for name in NAMES:
        assert name not in err[0]
    kept = ["d.stats", "dump.jsonl"] if run == "reused stats" else ["dump.jsonl"]
    assert sorted(os.listdir(tmp_path)) == kept          # nothing written, nothing left


@pytest.mark.parametrize("run", ["placeholder", "pseudonym"])
def test_the_same_hooks_without_a_change_let_the_run_finish(tmp_path, monkeypatch,
                                                           tiny_model_path, run):
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "dump.jsonl"
    write_jsonl(dump, POSTS)
    fired = hook_progress(monkeypatch, "pass 2", "end", lambda: None)
    argv = [part.format(dump=dump) for part in RUNS[run]]
    assert main(argv + ["-q", "-j", "1", "--model", tiny_model_path]) == 0
    assert fired
    assert [post["id"] for post in read_jsonl(tmp_path / "out.jsonl")] == ["c1", "c2", "c3"]


def test_pass_3_names_the_first_record_that_changed(tmp_path, monkeypatch, capsys,
                                                    tiny_model_path):
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "dump.jsonl"
    write_jsonl(dump, POSTS)
    hook_progress(monkeypatch, "pass 3/3", "start", lambda: replace_file(dump))
    assert main(["scrub", str(dump), "-o", "out.jsonl", "--mode", "pseudonym", "-q",
                 "-j", "1", "--model", tiny_model_path]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s:3: changed during the run (pass 3/3 found another record here "
        "than pass 2/3); nothing written: run again once it stays put\n" % dump)

