"""Dead workers (issue 9): a worker process that dies (crash, kill -9, the OOM killer) is
replaced and the chunk it held retried once; a chunk that kills a second worker stops the
run with an error naming its first record. Never a hang, never a worker or a temporary
file left behind."""
import contextlib
import glob
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from mmbdeid.cli import main
from mmbdeid.errors import InputError
from mmbdeid.jobs.local import IN_FLIGHT_PER_JOB, ordered_map

from paths import REPO
HANG_SECONDS = 60       # a regression fails after this long instead of hanging


@contextlib.contextmanager
def deadline(seconds=20):
    """Raises TimeoutError in the main thread (interrupting a wait) after ``seconds``."""
    def expire(signum, frame):
        raise TimeoutError("still running after %d s: hung?" % seconds)
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def child_pids(pid):
    pids = []
    for path in glob.glob("/proc/%d/task/*/children" % pid):
        with contextlib.suppress(OSError), open(path) as handle:
            pids += [int(p) for p in handle.read().split()]
    return pids


# -- ordered_map with a function that kills its worker ----------------------------------

def posts(n, per_chunk=3):
    records = [{"id": "p%d" % i, "text": "post %d" % i} for i in range(n)]
    return [records[i:i + per_chunk] for i in range(0, n, per_chunk)]


def faulty_factory(flags, doomed, how, always):
    """Upper-cases the texts of a chunk; on a chunk starting with a ``doomed`` id it first
    leaves a temporary file (as crfsuite does) and dies ``how`` (the first time only,
    unless ``always``). ``flags``: a directory remembering deaths across processes."""
    def function(chunk):
        first = chunk[0]["id"]
        flag = os.path.join(flags, first)
        if first in doomed and (always or not os.path.exists(flag)):
            open(flag, "a").close()
            tempfile.mkstemp(prefix="left-by-%s-" % first)
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            os._exit(3)
        time.sleep(0.01)
        return [post["text"].upper() for post in chunk]
    return function


def expected(chunks):
    return [(chunk, [post["text"].upper() for post in chunk]) for chunk in chunks]


def run_map(tmp_path, chunks, jobs, doomed=(), how="kill", always=False):
    flags = tmp_path / "flags"
    flags.mkdir(exist_ok=True)
    with deadline():
        return list(ordered_map(faulty_factory, (str(flags), doomed, how, always),
                                chunks, jobs))


@pytest.mark.parametrize("jobs, doomed, how", [
    (2, ("p0",), "kill"),               # the first chunk
    (2, ("p30",), "kill"),              # one in the middle
    (3, ("p57",), "exit"),              # the last one, a worker exiting on its own
    (2, ("p0", "p3", "p6"), "kill"),    # several, each once
])
def test_a_chunk_whose_worker_died_is_retried_and_comes_back_in_order(
        tmp_path, private_tmp, jobs, doomed, how):
    chunks = posts(60)
    assert run_map(tmp_path, chunks, jobs, doomed, how) == expected(chunks)
    assert sorted(os.listdir(tmp_path / "flags")) == sorted(doomed)   # they did die
    assert multiprocessing.active_children() == []
    assert os.listdir(private_tmp) == []


@pytest.mark.parametrize("jobs, how, cause", [
    (2, "kill", "killed by signal 9"),
    (4, "exit", "exited with status 3"),
])
def test_a_chunk_that_kills_two_workers_stops_the_run(tmp_path, private_tmp, jobs, how,
                                                      cause):
    before = set(child_pids(os.getpid()))
    started = time.monotonic()
    with pytest.raises(InputError) as raised:
        run_map(tmp_path, posts(60), jobs, ("p30",), how, always=True)
    assert str(raised.value) == ('worker process died (%s) twice on the chunk starting at '
                                 'record id "p30"; the run was stopped' % cause)
    assert time.monotonic() - started < 20
    assert multiprocessing.active_children() == []
    assert set(child_pids(os.getpid())) <= before
    assert os.listdir(private_tmp) == []


@pytest.mark.parametrize("chunk, name", [
    ([{"id": 7}], "the chunk starting at record id 7"),
    ([{"id": "p\n1"}], 'the chunk starting at record id "p\\n1"'),
    ([("not", "a dict")], "chunk 1 of the input"),
    ([], "chunk 1 of the input"),
])
def test_the_error_names_the_chunk_in_one_line(chunk, name):
    def dies(chunk):
        os.kill(os.getpid(), signal.SIGKILL)
    with deadline(), pytest.raises(InputError) as raised:
        list(ordered_map(lambda: dies, (), [chunk], 2))
    assert str(raised.value) == ("worker process died (killed by signal 9) twice on %s; "
                                 "the run was stopped" % name)


def test_at_most_jobs_times_in_flight_chunks_are_read_ahead(tmp_path):
    jobs, read = 2, []

    def source():
        for chunk in posts(90):
            read.append(chunk)
            yield chunk
    with deadline():
        for yielded, (chunk, _) in enumerate(
                ordered_map(faulty_factory, (str(tmp_path), ("p30",), "kill", False),
                            source(), jobs), 1):
            assert len(read) - yielded < jobs * IN_FLIGHT_PER_JOB
    assert yielded == 30


def broken_factory(how):
    if how == "raise":
        raise InputError("cannot open the model", "model.mmbdeid")
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.parametrize("how, message", [
    ("raise", "model.mmbdeid: cannot open the model"),
    ("kill", "worker processes died (killed by signal 9) while starting; the run was "
             "stopped"),
])
def test_workers_that_cannot_start_stop_the_run(private_tmp, how, message):
    with deadline(), pytest.raises(InputError) as raised:
        list(ordered_map(broken_factory, (how,), posts(9), 2))
    assert str(raised.value) == message
    assert multiprocessing.active_children() == []
    assert os.listdir(private_tmp) == []


def test_an_exception_in_a_worker_reaches_the_caller_with_its_traceback():
    def function(chunk):
        raise ValueError("bad chunk %s" % chunk[0]["id"])
    with deadline(), pytest.raises(ValueError, match="bad chunk p0") as raised:
        list(ordered_map(lambda: function, (), posts(9), 2))
    assert "in function" in str(raised.value.__cause__)
    assert multiprocessing.active_children() == []


# -- whole scrub runs ---------------------------------------------------------------------

# Run like ``python -m mmbdeid``, with pass 2's worker function changed by FAULT_MODE on
# the chunk holding record FAULT_RECORD: "kill", the worker kills itself every time;
# "hold", the first worker to get it writes its pid to FAULT_FLAGS/held and waits (for
# the test to kill it). "tmpfile": the first worker to get it makes a temporary file in
# its TMPDIR (as libraries do; python-crfsuite's Tagger.info() did when the model was
# opened) and is killed with it open (its path goes to FAULT_FLAGS/held).
INJECT = """
import os, runpy, signal, tempfile, time
from mmbdeid.jobs import chunks

record, mode, flags = (os.environ["FAULT_" + k] for k in ("RECORD", "MODE", "FLAGS"))
scrub = chunks.ChunkWorker.__call__
held = os.path.join(flags, "held")
def faulty(self, posts):
    if any(post["id"] == record for post in posts):
        if mode == "tmpfile" and not os.path.exists(held):
            descriptor, path = tempfile.mkstemp()
            os.write(descriptor, b"x" * 400000)
            with open(held, "w") as handle:
                handle.write(path)
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif mode == "hold" and not os.path.exists(held):
            with open(held + ".tmp", "w") as handle:
                handle.write(str(os.getpid()))
            os.rename(held + ".tmp", held)
            time.sleep(60)
    return scrub(self, posts)

chunks.ChunkWorker.__call__ = faulty
runpy.run_module("mmbdeid", run_name="__main__")
"""


def write_dump(path, n):
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(json.dumps({
                "id": "p%d" % i, "board": "b%d" % (i % 3), "thread": "t%d" % (i // 5),
                "author": "user%d" % (i % 7),
                "text": "Hi Kay, day %d of chemo. Mail me at k%d@example.com\nHugs, Barb"
                        % (i, i)}) + "\n")
    return str(path)


def scrub(tmp_path, dump, model, mode=None, record="p250"):
    """A ``scrub --jobs 2`` subprocess with its own TMPDIR, and that TMPDIR."""
    private = tmp_path / "tmp"
    private.mkdir()
    (tmp_path / "flags").mkdir()
    env = dict(os.environ, PYTHONPATH=REPO, TMPDIR=str(private), FAULT_RECORD=record,
               FAULT_MODE=mode or "", FAULT_FLAGS=str(tmp_path / "flags"))
    command = [sys.executable] + (["-c", INJECT] if mode else ["-m", "mmbdeid"])
    process = subprocess.Popen(
        command + ["scrub", dump, "-o", str(tmp_path / "out.jsonl"),
                   "--spans", str(tmp_path / "spans.jsonl"), "--model", model,
                   "--jobs", "2", "--quiet"],
        cwd=str(tmp_path), env=env, stderr=subprocess.PIPE, text=True)
    return process, private


def reference(tmp_path, dump, model):
    """The outputs of a --jobs 1 run."""
    out, spans = tmp_path / "ref" / "out.jsonl", tmp_path / "ref" / "spans.jsonl"
    out.parent.mkdir()
    assert main(["scrub", dump, "-o", str(out), "--spans", str(spans), "--model", model,
                 "--jobs", "1", "--quiet"]) == 0
    return out.read_bytes(), spans.read_bytes()


def wait_for(condition, process, what):
    limit = time.monotonic() + HANG_SECONDS
    while not condition():
        assert process.poll() is None, "the run ended before %s: %s" % (
            what, process.stderr.read())
        assert time.monotonic() < limit, "no %s" % what
        time.sleep(0.01)


def finish(process):
    try:
        return process.communicate(timeout=HANG_SECONDS)[1]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.slow
def test_a_run_whose_worker_is_killed_holding_a_chunk_completes_unchanged(
        tmp_path, tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 600)
    process, private = scrub(tmp_path, dump, tiny_model_path, mode="hold")
    held = tmp_path / "flags" / "held"
    wait_for(held.exists, process, "worker holding record p250")
    pid = int(held.read_text())
    assert pid in child_pids(process.pid)
    os.kill(pid, signal.SIGKILL)
    err = finish(process)
    assert process.returncode == 0, err
    assert ((tmp_path / "out.jsonl").read_bytes(), (tmp_path / "spans.jsonl").read_bytes()
            ) == reference(tmp_path, dump, tiny_model_path)
    assert os.listdir(private) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl(PR_SET_PDEATHSIG)")
@pytest.mark.slow
def test_workers_do_not_outlive_a_killed_main_process(tmp_path, tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 600)
    process, private = scrub(tmp_path, dump, tiny_model_path, mode="hold")
    held = tmp_path / "flags" / "held"
    wait_for(held.exists, process, "worker holding record p250")
    workers = child_pids(process.pid)
    assert int(held.read_text()) in workers
    process.kill()          # the busy worker (sleeping, not reading its pipe) goes too
    process.wait(timeout=HANG_SECONDS)
    process.stderr.close()  # (the workers share it: no communicate())
    limit = time.monotonic() + 10
    while any(os.path.exists("/proc/%d" % pid) and not is_zombie(pid) for pid in workers):
        assert time.monotonic() < limit, "workers still running: %s" % workers
        time.sleep(0.05)


def is_zombie(pid):
    with contextlib.suppress(OSError), open("/proc/%d/stat" % pid) as handle:
        return handle.read().rsplit(")", 1)[1].split()[0] == "Z"
    return True


@pytest.mark.slow
def test_a_worker_killed_with_a_temporary_file_open_leaves_nothing(tmp_path,
                                                                   tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 600)
    process, private = scrub(tmp_path, dump, tiny_model_path, mode="tmpfile")
    err = finish(process)
    assert process.returncode == 0, err
    left = (tmp_path / "flags" / "held").read_text()
    assert left.startswith(str(private) + os.sep)
    assert not os.path.exists(left)
    assert os.listdir(private) == []


@pytest.mark.slow
def test_a_run_whose_worker_is_killed_from_outside_completes_unchanged(
        tmp_path, tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 4000)
    process, private = scrub(tmp_path, dump, tiny_model_path)
    # pass 2 is writing its temporary output and has workers: kill one
    wait_for(lambda: any(name.startswith(".out.jsonl.") and name.endswith(".tmp")
                         for name in os.listdir(tmp_path))
             and child_pids(process.pid), process, "pass 2 workers")
    time.sleep(0.2)
    os.kill(child_pids(process.pid)[0], signal.SIGKILL)
    err = finish(process)
    assert process.returncode == 0, err
    assert ((tmp_path / "out.jsonl").read_bytes(), (tmp_path / "spans.jsonl").read_bytes()
            ) == reference(tmp_path, dump, tiny_model_path)
    assert os.listdir(private) == []


@pytest.mark.slow
def test_a_run_with_a_chunk_that_kills_every_worker_stops_with_its_record(
        tmp_path, tiny_model_path):
    dump = write_dump(tmp_path / "dump.jsonl", 600)
    process, private = scrub(tmp_path, dump, tiny_model_path, mode="kill")
    err = finish(process)
    assert process.returncode == 2, err
    assert err.splitlines() == [
        'mmbdeid: error: worker process died (killed by signal 9) twice on the chunk '
        'starting at record id "p200"; the run was stopped']
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl", "flags", "tmp"]
    assert os.listdir(private) == []
