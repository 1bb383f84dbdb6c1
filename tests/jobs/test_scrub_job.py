"""Whole scrub runs: jobs, bad records, interruption, progress."""
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mmbdeid.cli import main
from mmbdeid.jobs.progress import Progress

from paths import REPO


def write_dump(path, n, bad_lines=()):
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            if i + 1 in bad_lines:
                handle.write('{"id": "broken", "text": \n')
                continue
            handle.write(json.dumps({
                "id": i, "board": "b%d" % (i % 3), "thread": "t%d" % (i // 5),
                "author": "user%d" % (i % 7), "extra": [i],
                "text": "Hi Kay, day %d of chemo. Mail me at k%d@example.com\nHugs, Barb" % (i, i),
            }) + "\n")
    return str(path)


@pytest.mark.slow
def test_jobs_give_identical_output(tmp_path, tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 500)
    outputs = []
    for jobs in ("1", "2"):
        out, spans = tmp_path / ("o%s.jsonl" % jobs), tmp_path / ("s%s.jsonl" % jobs)
        assert main(["scrub", dump, "-o", str(out), "--spans", str(spans), "--jobs", jobs,
                     "--model", tiny_model_path, "--quiet"]) == 0
        outputs.append((out.read_bytes(), spans.read_bytes()))
    assert outputs[0] == outputs[1]
    records = [json.loads(line) for line in outputs[0][0].decode().splitlines()]
    assert [r["id"] for r in records] == list(range(500))
    assert all(r["extra"] == [r["id"]] and "[EMAIL]" in r["text"] for r in records)


def test_skip_bad_writes_rejects_and_goes_on(tmp_path, tiny_model_path, capsys):
    dump = write_dump(tmp_path / "dump.jsonl", 20, bad_lines=(3, 11))
    out = tmp_path / "out.jsonl"
    assert main(["scrub", dump, "-o", str(out), "--model", tiny_model_path,
                 "--skip-bad"]) == 0
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert ids == [i for i in range(20) if i + 1 not in (3, 11)]
    rejects = [json.loads(line) for line in
               (tmp_path / "out.jsonl.rejects.jsonl").read_text().splitlines()]
    assert [r["line"] for r in rejects] == [3, 11]
    assert all(r["reason"] and r["raw"].startswith('{"id": "broken"') for r in rejects)
    assert "rejected 2 bad records" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["placeholder", "mask", "hash", "pseudonym", "surrogate"])
def test_a_reject_file_is_made_only_when_a_record_is_rejected(tmp_path, tiny_model_path,
                                                              monkeypatch, mode):
    """In every mode: no empty reject file beside a clean run's output; one an earlier run
    left is emptied, never kept as if it were this run's."""
    monkeypatch.setenv("MMBDEID_HASH_KEY", "fictional hash key 0123456789")
    out, rejects = tmp_path / "out.jsonl", tmp_path / "out.jsonl.rejects.jsonl"
    argv = ["-o", str(out), "--skip-bad", "--mode", mode, "--model", tiny_model_path,
            "-q", "-j", "1"]
    assert main(["scrub", write_dump(tmp_path / "clean.jsonl", 4)] + argv) == 0
    assert sorted(os.listdir(tmp_path)) == ["clean.jsonl", "out.jsonl"]
    assert main(["scrub", write_dump(tmp_path / "bad.jsonl", 4, bad_lines=(2,))] + argv) == 0
    assert [json.loads(line)["line"] for line in rejects.read_text().splitlines()] == [2]
    assert main(["scrub", str(tmp_path / "clean.jsonl")] + argv) == 0
    assert rejects.read_bytes() == b""


def test_without_skip_bad_the_first_bad_record_stops_the_run(tmp_path, tiny_model_path,
                                                             capsys):
    dump = write_dump(tmp_path / "dump.jsonl", 20, bad_lines=(11,))
    assert main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--model",
                 tiny_model_path, "--quiet"]) == 2
    assert "dump.jsonl:11:" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl"]


@pytest.mark.parametrize("signal_number, status, said", [
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    pytest.param(signal.SIGINT, 130, "interrupted", marks=pytest.mark.slow),
    pytest.param(signal.SIGHUP, 129, "stopped by SIGHUP", marks=pytest.mark.slow),
])
def test_an_interrupted_run_leaves_no_output(tmp_path, tiny_model_path, signal_number,
                                             status, said):
    dump = write_dump(tmp_path / "dump.jsonl", 4000)
    out = tmp_path / "out.jsonl"
    private = tmp_path / "tmp"          # the run's TMPDIR: its scratch and workers' files
    private.mkdir()
    env = dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(private))
    process = subprocess.Popen(
        [sys.executable, "-m", "mmbdeid", "scrub", dump, "-o", str(out), "--model",
         tiny_model_path, "--spans", str(tmp_path / "spans.jsonl"), "--quiet", "--jobs", "2",
         "--stats", str(tmp_path / "dump.stats")],
        cwd=str(tmp_path), env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    # wait until pass 2 is writing its temporary output, then interrupt
    while not any(name.startswith(".out.jsonl.") and name.endswith(".tmp")
                  for name in os.listdir(tmp_path)):
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    process.send_signal(signal_number)
    _, err = process.communicate(timeout=60)
    assert process.returncode == status, err
    assert said in err
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl", "tmp"]   # no output, .tmp, .lock
    assert os.listdir(private) == []


@pytest.mark.parametrize("quiet, interval, expect_lines", [
    (True, 0.0, 0), (False, 0.0, 3), (False, 3600.0, 0),
])
def test_plain_progress_lines(quiet, interval, expect_lines):
    stream = io.StringIO()
    progress = Progress("pass 2/2 scrubbing", total=30, quiet=quiet, stream=stream,
                        interval=interval, terminal=False)
    for _ in range(3):
        progress.update(10)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == expect_lines
    if lines:
        assert "posts/s" in lines[0] and "/30 posts" in lines[0] and "ETA" in lines[0]


def test_terminal_progress_uses_a_bar():
    stream = io.StringIO()
    progress = Progress("pass 1/2", total=10, stream=stream, terminal=True)
    progress.update(10)
    progress.close()
    assert "10/10" in stream.getvalue()
