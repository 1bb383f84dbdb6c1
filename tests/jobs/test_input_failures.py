"""Inputs that change or would crash a run (issue 18): a dump replaced, shortened or
appended to between or during the passes; JSON nested too deep; a map of the wrong
format."""
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


def rewrite_unseen(dump):
    """``rewrite_in_place`` with the modification time put back: only the records can
    show the change."""
    status = os.stat(dump)
    rewrite_in_place(dump)
    os.utime(dump, ns=(status.st_atime_ns, status.st_mtime_ns))


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
    pytest.param("pseudonym", "pass 3/3", "start", replace_file, 2, marks=pytest.mark.slow),
    pytest.param("pseudonym", "pass 3/3", "start", shorten, 1, marks=pytest.mark.slow),
    pytest.param("pseudonym", "pass 3/3", "start", append, 1, marks=pytest.mark.slow),
    pytest.param("pseudonym", "pass 3/3", "end", append, 1, marks=pytest.mark.slow),
    pytest.param("pseudonym", "pass 2/3", "start", rewrite_in_place, 2, marks=pytest.mark.slow),
    pytest.param("pseudonym", "pass 2/3", "end", append, 1, marks=pytest.mark.slow),
    # placeholder mode: pass 3 adds the names removed elsewhere in the thread
    pytest.param("placeholder", "pass 2/3", "start", shorten, 2, marks=pytest.mark.slow),
    ("placeholder", "pass 2/3", "start", rewrite_in_place, 1),
    pytest.param("placeholder", "pass 2/3", "end", append, 2, marks=pytest.mark.slow),
    pytest.param("placeholder", "pass 3/3", "start", replace_file, 2, marks=pytest.mark.slow),
    ("placeholder", "pass 3/3", "start", shorten, 1),
    pytest.param("placeholder", "pass 3/3", "end", append, 1, marks=pytest.mark.slow),
    pytest.param("placeholder", "pass 1/3", "update", append, 1, marks=pytest.mark.slow),
    ("reused stats", "pass 2/3", "start", replace_file, 1),
    ("link", "pass 2/2", "end", append, 1),
    # review runs scrub's passes: its pass 3 reads the dump again too
    pytest.param("review", "pass 2/3", "start", shorten, 1, marks=pytest.mark.slow),
    pytest.param("review", "pass 3/3", "start", shorten, 1, marks=pytest.mark.slow),
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


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_missing_dump_is_one_that_cannot_be_read_not_one_that_changed(tmp_path, monkeypatch,
                                                                       capsys, tiny_model_path,
                                                                       run):
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "missing.jsonl"
    common = ["-q", "-j", "1"] + ([] if run == "stats" else ["--model", tiny_model_path])
    status = main([part.format(dump=dump) for part in RUNS[run]] + common)
    assert status == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "mmbdeid: error: %s: cannot read file: No such file or directory" % dump]
    assert os.listdir(tmp_path) == []


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
    hook_progress(monkeypatch, "pass 3/3", "start", lambda: rewrite_unseen(dump))
    assert main(["scrub", str(dump), "-o", "out.jsonl", "--mode", "pseudonym", "-q",
                 "-j", "1", "--model", tiny_model_path]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s:3: changed during the run (pass 3/3 found another record here "
        "than pass 2/3); nothing written: run again once it stays put\n" % dump)



def long_dump(dump, posts=3000):
    """Posts of one line of exactly 100 bytes each: no read of the reader's buffer ends at
    the end of a line (its sizes are powers of two)."""
    lines = []
    for number in range(posts):
        line = json.dumps({"id": "c%04d" % number, "thread": "t%d" % (number // 10),
                           "text": ""})
        lines.append(line[:-2] + "x" * (99 - len(line)) + '"}\n')
    assert {len(line) for line in lines} == {100}
    dump.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize("label, reader", [("pass 1/3", "pass 1"), ("pass 2/3", "pass 2/3")])
def test_a_dump_cut_short_under_a_reader_changed_it_has_no_bad_line(tmp_path, monkeypatch,
                                                                    capsys, tiny_model_path,
                                                                    label, reader):
    """Cut mid-line behind the reader, the dump ends in half a record: not a malformed
    line (past the dump's new end), but a dump that changed."""
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "dump.jsonl"
    long_dump(dump)
    fired = hook_progress(monkeypatch, label, "update", lambda: os.truncate(dump, 5050))
    status = main(["review", str(dump), "-o", "review.csv", "-q", "-j", "1", "--model",
                   tiny_model_path])
    assert fired
    assert status == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s: changed during the run (its size, modification time or inode "
        "differ during %s from when pass 1 began); nothing written: run again once it "
        "stays put\n" % (dump, reader))
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl"]


def test_a_dump_replaced_after_pass_1_stops_the_run_before_pass_2(tmp_path, monkeypatch,
                                                                  capsys, tiny_model_path):
    """Replaced as pass 1 ends (its statistics still being finished), the dump is not read
    by pass 2 to find it out only once pass 2 has done its work."""
    monkeypatch.chdir(tmp_path)
    dump = tmp_path / "dump.jsonl"
    write_jsonl(dump, POSTS)
    hook_progress(monkeypatch, "pass 1/3", "end", lambda: replace_file(dump))
    assert main(["scrub", str(dump), "-o", "out.jsonl", "-q", "-j", "1", "--model",
                 tiny_model_path]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s: changed during the run (its size, modification time or inode "
        "differ after pass 1 from when pass 1 began); nothing written: run again once it "
        "stays put\n" % dump)
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl"]

# --- JSON nested too deep ------------------------------------------------------------------

def nested(depth):
    """A post whose JSON nests ``depth`` levels (the record's own object is the first)."""
    inner = "[" * (depth - 1) + "]" * (depth - 1)
    return '{"id": "deep", "text": "Nothing to see.", "meta": %s}' % inner


@pytest.mark.parametrize("depth, jobs", [(100_000, 1),
                                         pytest.param(900, 2, marks=pytest.mark.slow),
                                         (101, 2)])
def test_json_nested_too_deep_is_a_bad_record(tmp_path, capsys, tiny_model_path, depth,
                                              jobs):
    dump = tmp_path / "dump.jsonl"
    dump.write_text(json.dumps(POSTS[0]) + "\n" + nested(depth) + "\n"
                    + json.dumps(POSTS[1]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    common = ["--model", tiny_model_path, "-q", "-j", str(jobs)]
    assert main(["scrub", str(dump), "-o", str(out)] + common) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s:2: JSON nested deeper than 100 levels of arrays and objects\n"
        % dump)
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl"]
    # with --skip-bad it is rejected and counted like any bad record
    assert main(["scrub", str(dump), "-o", str(out), "--skip-bad", "-j", str(jobs),
                 "--model", tiny_model_path]) == 0
    assert "rejected 1 bad records" in capsys.readouterr().err
    assert [post["id"] for post in read_jsonl(out)] == ["c1", "c2"]
    [rejected] = read_jsonl(tmp_path / "out.jsonl.rejects.jsonl")
    assert rejected["line"] == 2 and "nested deeper than 100" in rejected["reason"]


def test_json_nested_to_the_limit_goes_through_every_pass(tmp_path, tiny_model_path):
    dump = tmp_path / "dump.jsonl"
    dump.write_text(nested(100) + "\n" + json.dumps(POSTS[1]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["scrub", str(dump), "-o", str(out), "--mode", "pseudonym", "-q",
                 "-j", "2", "--model", tiny_model_path]) == 0
    assert read_jsonl(out)[0]["meta"] == json.loads(nested(100))["meta"]


def test_a_spans_cell_nested_too_deep_is_refused(tmp_path, capsys, tiny_model_path):
    gold = tmp_path / "gold.csv"
    gold.write_text('id,text,spans\ng1,Hello Philippa,"%s"\n' % ("[" * 200 + "]" * 200),
                    encoding="utf-8")
    assert main(["evaluate", str(gold), "--model", tiny_model_path, "-q"]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s:2: field 'spans' is not valid JSON: JSON nested deeper than "
        "100 levels of arrays and objects\n" % gold)

# --- a map of the wrong format -------------------------------------------------------------

def test_a_dump_given_as_the_person_map_is_not_echoed(tmp_path, capsys, tiny_model_path):
    dump = tmp_path / "dump.jsonl"
    write_jsonl(dump, POSTS)
    status = main(["scrub", str(dump), "-o", str(tmp_path / "out.jsonl"), "--mode",
                   "pseudonym", "--map", str(dump), "--model", tiny_model_path, "-q"])
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("mmbdeid: error: %s:1: not a person map line"
                                          % dump)
    assert err.count("\n") == 1
    for name in NAMES + ("scan looks clear", "c1"):
        assert name not in err
