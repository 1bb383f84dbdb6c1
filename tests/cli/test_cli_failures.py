"""Faults and bad input (issue 9): each case checks the exit status, stderr's last line,
that no partial output or temporary file is left, and that the input is untouched.
Dead workers, tampered models and very long posts have their own files
(jobs/test_worker_failures.py, model/test_model_file_checks.py,
crf/test_long_post_marginals.py)."""
import json
import os
import re
import resource
import stat
import subprocess
import sys
import zipfile

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main

from paths import REPO

# Fictional posts; the names are what must never reach stderr.
NAMES = ("Marguerite", "Okonkwo", "quiltmom_bev", "Haverford")
POSTS = [
    {"id": "f1", "board": "b", "thread": "t1", "author": "quiltmom_bev",
     "text": "Hi all, Dr. Haverford says my counts are fine.\nMarguerite"},
    {"id": "f2", "board": "b", "thread": "t1", "author": "rob_a", "parent": "f1",
     "text": "Glad to hear it Marguerite!\nRobert"},
    {"id": "f3", "board": "b", "thread": "t2", "author": "rob_b",
     "text": "Scan clear today.\nRobert"},
    {"id": "f4", "board": "b", "thread": "t2", "author": "okonkwo_k", "parent": "f3",
     "text": "Great news Robert. Mrs Okonkwo here, call me."},
]


def dump_file(tmp_path, posts=POSTS, name="dump.jsonl"):
    return write_jsonl(tmp_path / name, posts)


def listing(directory):
    return sorted(os.listdir(directory))


def run(argv, capsys):
    status = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    return status, err


# --- outputs that would destroy an input or another output ---------------------------

@pytest.mark.parametrize("extra, bad", [
    (["-o", "{dump}"], "{dump}: is also an input"),
    (["-o", "out.jsonl", "--spans", "{dump}"], "{dump}: is also an input"),
    (["-o", "out.jsonl", "--skip-bad", "--rejects", "{dump}"], "{dump}: is also an input"),
    (["-o", "out.jsonl", "--spans", "out.jsonl"], "out.jsonl: is given twice as an output"),
    (["-o", "out.jsonl", "--mode", "pseudonym", "--map", "out.jsonl"], None),
    (["-o", "sub/"], "sub/: is a directory"),
    (["-o", "sub"], "sub: is a directory"),
    (["-o", "missing/out.jsonl"], "directory"),
    (["-o", "out.jsonl", "--stats", "{dump}"], None),   # an existing input: read, not built
    # raw rejected posts are not written beside a device (/dev/null.rejects.jsonl)
    (["-o", "/dev/null", "--skip-bad"], "--skip-bad with -o /dev/null needs --rejects FILE"),
    (["-o", "-", "--skip-bad"], "--skip-bad with -o - needs --rejects FILE"),
])
def test_outputs_are_checked_before_any_work(tmp_path, capsys, tiny_model_path, extra, bad,
                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    dump = dump_file(tmp_path)
    before = open(dump, "rb").read()
    (tmp_path / "sub").mkdir()
    argv = ["scrub", dump, "--model", tiny_model_path, "--quiet", "--jobs", "1"]
    argv += [part.format(dump=dump) for part in extra]
    status, err = run(argv, capsys)
    assert status == 2
    assert len(err) == 1 and err[0].startswith("mmbdeid: error: ")
    if bad:
        assert bad.format(dump=dump) in err[0]
    assert open(dump, "rb").read() == before                    # the input is untouched
    assert listing(tmp_path) == ["dump.jsonl", "sub"]          # nothing written
    assert listing(tmp_path / "sub") == []


# --- statistics of another dump --------------------------------------------------------

def test_statistics_of_another_dump_are_refused(tmp_path, capsys, tiny_model_path):
    dump_a = dump_file(tmp_path, POSTS, "a.jsonl")
    dump_b = dump_file(tmp_path, POSTS[:3] + [dict(POSTS[3], text="Other text")], "b.jsonl")
    stats = str(tmp_path / "a.stats")
    common = ["--model", tiny_model_path, "-q", "-j", "1"]
    assert main(["scrub", dump_a, "-o", str(tmp_path / "a.out.jsonl"), "--stats", stats]
                + common) == 0
    assert main(["scrub", dump_a, "-o", str(tmp_path / "a2.out.jsonl"), "--stats", stats]
                + common) == 0                              # the same dump: reused
    capsys.readouterr()
    status, err = run(["scrub", dump_b, "-o", str(tmp_path / "b.out.jsonl"), "--stats", stats]
                      + common, capsys)
    assert status == 2 and len(err) == 1
    assert "built from another dump" in err[0] and "--stats-rebuild" in err[0]
    assert not os.path.exists(tmp_path / "b.out.jsonl")
    # --stats-rebuild builds them afresh from this dump; then they are reused
    assert main(["scrub", dump_b, "-o", str(tmp_path / "b.out.jsonl"), "--stats", stats,
                 "--stats-rebuild"] + common) == 0
    assert main(["scrub", dump_b, "-o", str(tmp_path / "b2.out.jsonl"), "--stats", stats]
                + common) == 0
    assert main(["scrub", dump_a, "-o", str(tmp_path / "a3.out.jsonl"), "--stats", stats]
                + common) == 2


def test_statistics_made_by_train_are_not_a_dumps(tmp_path, capsys, tiny_model_path):
    from paths import TINY
    stats = str(tmp_path / "train.stats")
    assert main(["train", TINY, "-o", str(tmp_path / "m.mmbdeid"), "--stats", stats,
                 "--max-iterations", "5"]) == 0
    capsys.readouterr()
    status, err = run(["scrub", dump_file(tmp_path), "-o", str(tmp_path / "o.jsonl"),
                       "--stats", stats, "--model", tiny_model_path, "-q"], capsys)
    assert status == 2 and "not built from a dump" in err[-1]


@pytest.mark.parametrize("odd", ["st#a", pytest.param("st?a", marks=pytest.mark.slow), "st%a",
                                 pytest.param("st%20a", marks=pytest.mark.slow)])
def test_paths_with_uri_characters_work(tmp_path, tiny_model_path, odd, monkeypatch):
    directory = tmp_path / odd
    directory.mkdir()
    monkeypatch.setenv("TMPDIR", str(directory))
    dump = dump_file(tmp_path)
    stats = str(directory / ("x%s.stats" % odd))
    for _ in range(2):                                       # built, then reused
        assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--stats", stats,
                     "--model", tiny_model_path, "-q", "-j", "1"]) == 0
    assert os.path.exists(stats)


@pytest.mark.parametrize("jobs", [pytest.param("1", marks=pytest.mark.slow), "2"])
@pytest.mark.parametrize("mode", ["placeholder",
                                  pytest.param("pseudonym", marks=pytest.mark.slow)])
@pytest.mark.parametrize("last, status", [({"id": "f5", "text": "Bye."}, 0),
                                          ({"id": "bad"}, 2)], ids=["success", "error"])
def test_a_run_leaves_nothing_in_the_temporary_directory(tmp_path, private_tmp,
                                                         tiny_model_path, jobs, mode, last,
                                                         status):
    private = private_tmp               # the run's TMPDIR, the workers' too
    dump = dump_file(tmp_path, POSTS + [last])
    assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--mode", mode,
                 "--model", tiny_model_path, "-q", "-j", jobs]) == status
    assert os.listdir(private) == []


# --- secrets ---------------------------------------------------------------------------

def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_files_holding_names_are_private(tmp_path, tiny_model_path):
    dump = dump_file(tmp_path, POSTS + [{"id": "bad", "text": 5}])
    common = ["--model", tiny_model_path, "-q", "-j", "1"]
    assert main(["link", dump_file(tmp_path, POSTS, "ok.jsonl"), "-o",
                 str(tmp_path / "people.map")] + common) == 0
    assert main(["review", dump_file(tmp_path, POSTS, "ok.jsonl"), "-o",
                 str(tmp_path / "review.csv")] + common) == 0
    assert main(["scrub", dump, "-o", str(tmp_path / "p.jsonl"), "--mode", "pseudonym",
                 "--spans", str(tmp_path / "p.spans.jsonl"), "--skip-bad",
                 "--stats", str(tmp_path / "d.stats")] + common) == 0
    assert main(["stats", dump_file(tmp_path, POSTS, "ok.jsonl"), "-o",
                 str(tmp_path / "s.stats"), "-q", "-j", "1"]) == 0
    private = ["people.map", "review.csv", "p.jsonl.rejects.jsonl", "p.spans.jsonl",
               "d.stats", "s.stats"]
    for name in private:
        assert mode_of(tmp_path / name) == 0o600, name
    assert mode_of(tmp_path / "p.jsonl") & 0o044              # the scrubbed dump is not


def test_a_trained_model_is_private_for_it_holds_names(tiny_model_path, tiny_corpus_path):
    with open(tiny_model_path, "rb") as handle, zipfile.ZipFile(handle) as archive:
        model = archive.read("model.crfsuite")
    gold = set()
    for record in read_jsonl(tiny_corpus_path):
        gold |= {record["text"][s["start"]:s["end"]] for s in record["spans"]}
    assert any(name.encode("utf-8") in model for name in gold)    # token features
    assert mode_of(tiny_model_path) == 0o600


def test_train_help_says_the_model_is_private(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "mode 0600" in capsys.readouterr().out


def test_stderr_holds_no_names(tmp_path, capsys, tiny_model_path):
    # "Robert" with no parent post to tell which of the two Roberts: the linking warning
    # comes whatever else the (tiny, test-trained) model tags
    dump = dump_file(tmp_path, POSTS + [{"id": "f5", "board": "b", "thread": "t3",
                                         "author": "newbie_x",
                                         "text": "Has anyone heard from Robert lately?"}])
    common = ["--model", tiny_model_path, "-j", "1", "--scope", "board"]
    assert main(["link", dump, "-o", str(tmp_path / "people.map")] + common) == 0
    assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--mode", "pseudonym"]
                + common) == 0
    conll = tmp_path / "bad.conll"
    conll.write_text("Thanks\tO\nMarguerite Okonkwo B-person extra\n", encoding="utf-8")
    assert main(["evaluate", str(conll), "--model", tiny_model_path]) == 2
    err = capsys.readouterr().err
    assert re.search(r"warning: a name in thread t3 \(scope: board b\) could be U\d+ "
                     r"\(posts in board b, not in this thread\)", err)   # still warned
    for name in NAMES + ("Robert", "robert"):
        assert name not in err, name
    assert "could be" in (tmp_path / "people.map").read_text(encoding="utf-8")


# --- records that would lose data ------------------------------------------------------

@pytest.mark.parametrize("line, reason", [
    ('{"id": "x", "text": "a", "text": "b"}', "key 'text' appears twice"),
    ('{"id": "x", "text": "a", "score": NaN}', "NaN is not a JSON value"),
    pytest.param('{"id": "x", "text": "a", "score": -Infinity}', "-Infinity is not a JSON value",
                 marks=pytest.mark.slow),
    ('{"id": "x", "text": "a", "author": "kay\\ud800"}', "field 'author' is not valid Unicode"),
    pytest.param('{"id": "x", "text": "a", "board": "\\udfff"}',
                 "field 'board' is not valid Unicode", marks=pytest.mark.slow),
])
def test_records_that_would_lose_or_break_data_are_bad(tmp_path, capsys, tiny_model_path,
                                                       line, reason):
    dump = tmp_path / "dump.jsonl"
    good = json.dumps(POSTS[0])
    dump.write_text(good + "\n" + line + "\n" + good.replace('"f1"', '"f9"') + "\n",
                    encoding="utf-8")
    status, err = run(["scrub", str(dump), "-o", str(tmp_path / "o.jsonl"), "--model",
                       tiny_model_path, "-q", "-j", "1"], capsys)
    assert status == 2 and len(err) == 1
    assert err[0].startswith("mmbdeid: error: %s:2: " % dump) and reason in err[0]
    assert listing(tmp_path) == ["dump.jsonl"]
    # with --skip-bad the record goes to the reject file and the rest is scrubbed
    assert main(["scrub", str(dump), "-o", str(tmp_path / "o.jsonl"), "--model",
                 tiny_model_path, "-q", "-j", "1", "--skip-bad"]) == 0
    assert [r["id"] for r in read_jsonl(tmp_path / "o.jsonl")] == ["f1", "f9"]
    rejects = read_jsonl(tmp_path / "o.jsonl.rejects.jsonl")
    assert [r["line"] for r in rejects] == [2] and reason in rejects[0]["reason"]


def test_csv_output_keeps_fields_that_appear_late(tmp_path, tiny_model_path):
    posts = [dict(POSTS[0]), dict(POSTS[1], mood="good"), dict(POSTS[2], tags=["x"])]
    dump = dump_file(tmp_path, posts)
    out = tmp_path / "o.csv"
    assert main(["scrub", dump, "-o", str(out), "--model", tiny_model_path, "-q"]) == 0
    import csv
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(posts[0]) + ["parent", "mood", "tags"]
    assert [r["mood"] for r in rows] == ["", "good", ""]
    assert rows[2]["tags"] == '["x"]'


# --- the disk fills up -----------------------------------------------------------------

def limited(limit_bytes):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return set_limit


@pytest.mark.parametrize("where", [pytest.param("output", marks=pytest.mark.slow), "tmpdir"])
def test_a_full_disk_gives_one_line_and_no_partial_output(tmp_path, tiny_model_path, where):
    # long posts with no more words (trailing blanks, which the output keeps): the output
    # (~1 MB) outgrows a 256 KB limit, the scratch files (found spans, the statistics
    # store: ~120 KB) do not; the statistics store outgrows 8 KB at once
    filler = " " * 3000
    posts = [dict(POSTS[i % 4], id="p%d" % i, text=POSTS[i % 4]["text"] + filler)
             for i in range(300)]
    dump = dump_file(tmp_path, posts)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    before = open(dump, "rb").read()
    limit = 256 * 1024 if where == "output" else 8 * 1024
    process = subprocess.run(
        [sys.executable, "-m", "mmbdeid", "scrub", dump, "-o", str(tmp_path / "o.jsonl"),
         "--model", tiny_model_path, "-q", "-j", "2"],
        cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(scratch)),
        stderr=subprocess.PIPE, text=True, preexec_fn=limited(limit), timeout=300)
    err = process.stderr.strip().splitlines()
    assert process.returncode == 2, process.stderr
    assert len(err) == 1 and err[0].startswith("mmbdeid: error: "), process.stderr
    named = (str(tmp_path / "o.jsonl") if where == "output"
             else "temporary files in %s (TMPDIR)" % scratch)
    assert err[0].startswith("mmbdeid: error: %s: " % named), err[0]     # says where
    assert "Traceback" not in process.stderr
    assert open(dump, "rb").read() == before
    assert listing(tmp_path) == ["dump.jsonl", "scratch"]
    assert listing(scratch) == []


# --- a post too long to process within a bounded memory ------------------------------

def test_a_post_over_the_length_limit_is_a_bad_record(tmp_path, capsys, tiny_model_path):
    posts = [POSTS[0], dict(POSTS[1], text="Kay " * 300), POSTS[2]]
    dump = dump_file(tmp_path, posts)
    common = ["--model", tiny_model_path, "-q", "-j", "1", "--max-post-chars", "1000"]
    status, err = run(["scrub", dump, "-o", str(tmp_path / "o.jsonl")] + common, capsys)
    assert status == 2 and err == [
        "mmbdeid: error: %s:2: field 'text' has 1200 characters, over the limit of 1000 "
        "(--max-post-chars)" % dump]
    assert listing(tmp_path) == ["dump.jsonl"]
    assert main(["scrub", dump, "-o", str(tmp_path / "o.jsonl"), "--skip-bad"] + common) == 0
    assert [r["id"] for r in read_jsonl(tmp_path / "o.jsonl")] == ["f1", "f3"]
    assert read_jsonl(tmp_path / "o.jsonl.rejects.jsonl")[0]["line"] == 2
    # the default limit lets the same post through
    assert main(["scrub", dump, "-o", str(tmp_path / "all.jsonl"), "--model",
                 tiny_model_path, "-q", "-j", "1"]) == 0
    assert len(read_jsonl(tmp_path / "all.jsonl")) == 3


@pytest.mark.parametrize("option, value", [
    ("--c1", "-1"), ("--c2", "nan"), ("--max-iterations", "0"),
    ("--lowercase-share", "1.5"), ("--lowercase-share", "x"),
])
def test_training_options_are_checked_before_training(tmp_path, capsys, option, value):
    from paths import TINY
    status, err = run(["train", TINY, "-o", str(tmp_path / "m.mmbdeid"), option, value],
                      capsys)
    assert status == 2 and len(err) == 1 and option in err[0]
    assert listing(tmp_path) == []


def test_no_output_is_renamed_into_place_after_a_stop_signal(tmp_path):
    """Python can drop the exception a signal handler raises (inside an import lock's or a
    weakref's callback); the signal is noted too, and outputs check it before renaming."""
    import signal as signals
    from mmbdeid.errors import Stopped, note_stop
    from mmbdeid.files.atomic import atomic_output
    note_stop(signals.SIGHUP)
    try:
        with pytest.raises(Stopped):
            with atomic_output(str(tmp_path / "out.txt")) as handle:
                handle.write("half")
    finally:
        note_stop(None)
    assert listing(tmp_path) == []
    with atomic_output(str(tmp_path / "out.txt")) as handle:
        handle.write("whole")
    assert listing(tmp_path) == ["out.txt"]
