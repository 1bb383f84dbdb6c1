"""A ``--stats`` store in use by a run (issue 29): every pass and worker reads the one store
whose fingerprint was checked, whatever is renamed onto the path meanwhile; a ``stats``
run that would replace it is refused while it is in use."""
import os
import sqlite3
import subprocess
import sys

import pytest

from jsonl_files import read_jsonl, write_jsonl
from pass_hooks import hook_progress
from mmbdeid.cli import main
from mmbdeid.errors import InputError
from mmbdeid.files.locks import lock_path, output_lock
from mmbdeid.model.stats import CorpusStats
from paths import REPO

# Fictional posts: each mentions the board's other two usernames, which (at a threshold the
# model's guesses do not reach) only the statistics' list of usernames finds.
USERS = ("fernhollow", "orla_b", "quillon7")
OTHER_USERS = ("marsh_wren", "tallowby", "kestrel9")
STRICT = ["--threshold", "0.95"]
POSTS = [{"id": "s%d" % i, "board": "thyroid", "thread": "t%d" % i, "author": USERS[i],
          "text": "Thanks %s, I asked %s about the clinic too." % (
              USERS[(i + 1) % 3], USERS[(i + 2) % 3])}
         for i in range(3)]


@pytest.fixture
def stores(tmp_path):
    """The dump, its store, and another dump's store (the same posts, other authors)."""
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    other = write_jsonl(tmp_path / "other.jsonl",
                        [dict(post, author=user) for post, user in zip(POSTS, OTHER_USERS)])
    for source, name in ((dump, "dump.stats"), (other, "other.stats")):
        assert main(["stats", source, "-o", str(tmp_path / name), "-q", "-j", "1"]) == 0
    return dump, str(tmp_path / "dump.stats"), str(tmp_path / "other.stats")


def run_cli(*argv, **kwargs):
    """``mmbdeid ARGV`` in another process."""
    return subprocess.run([sys.executable, "-m", "mmbdeid"] + list(argv), capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=REPO), **kwargs)


def scrub(dump, tmp_path, store, model):
    return main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", store,
                 "--model", model, "-q", "-j", "1"] + STRICT)


def assert_usernames_removed(tmp_path):
    for post in read_jsonl(tmp_path / "out.jsonl"):
        assert not any(user in post["text"] for user in USERS), post["text"]


@pytest.mark.parametrize("label, moment, jobs", [
    ("pass 1", "end", "1"),             # after the store was opened and checked
    ("pass 2", "start", "1"),           # before the detector opens it, in this process
    ("pass 2", "start", "2"),           # before the worker processes open it
])
def test_a_store_replaced_during_the_run_is_not_read(tmp_path, capsys, monkeypatch, stores,
                                                     tiny_model_path, label, moment, jobs):
    dump, store, other = stores
    fired = hook_progress(monkeypatch, label, moment, lambda: os.replace(other, store))
    status = main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", store,
                   "--model", tiny_model_path, "-q", "-j", jobs] + STRICT)
    assert fired
    if status == 2:
        assert capsys.readouterr().err.count("\n") == 1
        assert not (tmp_path / "out.jsonl").exists()
        return
    assert status == 0
    assert_usernames_removed(tmp_path)


@pytest.mark.slow
def test_a_dask_run_ships_the_store_it_checked(tmp_path, capsys, monkeypatch, stores,
                                               tiny_model_path):
    distributed = pytest.importorskip("distributed")
    dump, store, other = stores
    # after the check, before the driver reads the store to ship it to the workers
    fired = hook_progress(monkeypatch, "pass 1", "end", lambda: os.replace(other, store))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", store,
                     "--model", tiny_model_path, "-q", "--engine", "dask",
                     "--scheduler", cluster.scheduler_address] + STRICT) == 0
    assert fired
    assert_usernames_removed(tmp_path)


def test_stats_onto_a_store_a_run_reads_is_refused(tmp_path, capsys, monkeypatch, stores,
                                                   tiny_model_path):
    dump, store, _ = stores
    before = open(store, "rb").read()
    second = []
    hook_progress(monkeypatch, "pass 2", "start", lambda: second.append(
        run_cli("stats", str(tmp_path / "other.jsonl"), "-o", store, "-q", timeout=300)))
    assert scrub(dump, tmp_path, store, tiny_model_path) == 0
    assert second[0].returncode == 2
    assert second[0].stderr.splitlines() == [
        "mmbdeid: error: %s: in use by another run, which reads it: run again once that "
        "run has ended" % store]
    assert open(store, "rb").read() == before
    assert_usernames_removed(tmp_path)
    assert not os.path.exists(lock_path(store))                 # the run let go of it
    assert main(["stats", str(tmp_path / "other.jsonl"), "-o", store, "-q"]) == 0


def test_a_store_being_written_by_another_run_is_refused(tmp_path, capsys, stores,
                                                          tiny_model_path):
    dump, store, _ = stores
    with output_lock(store):            # as 'mmbdeid stats -o STORE' holds it
        capsys.readouterr()
        assert scrub(dump, tmp_path, store, tiny_model_path) == 2
    assert capsys.readouterr().err.splitlines() == [
        "mmbdeid: error: %s: another mmbdeid run is writing this file" % store]
    assert not (tmp_path / "out.jsonl").exists()


def test_a_fifo_is_refused_before_it_is_opened(tmp_path, tiny_model_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    fifo = str(tmp_path / "pipe.stats")
    os.mkfifo(fifo)
    done = run_cli("scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", fifo,
                   "--model", tiny_model_path, "-q", "-j", "1", timeout=120)  # was: for ever
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "mmbdeid: error: %s: is a FIFO, not a regular file: a statistics store is an SQLite "
        "file; refused" % fifo]
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl", "pipe.stats"]


# Holds the store locked as an SQLite connection writing it does, until its input closes.
HOLD_LOCKED = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
"""


def test_a_store_another_process_holds_locked_is_said_to_be_in_use(tmp_path, capsys, stores,
                                                                    tiny_model_path):
    dump, store, _ = stores
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCKED, store],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        capsys.readouterr()
        assert scrub(dump, tmp_path, store, tiny_model_path) == 2
        err = capsys.readouterr().err.splitlines()
        with pytest.raises(InputError) as opened:   # as the Python API opens it
            CorpusStats.load(store)
    finally:
        holder.communicate("", timeout=60)
    said = ("in use by another process, which holds it locked (SQLite) to write it: run "
            "again once it is done")
    assert err == ["mmbdeid: error: %s: %s" % (store, said)]
    assert str(opened.value) == "%s: %s" % (store, said)
    assert not (tmp_path / "out.jsonl").exists()


def test_a_wal_store_is_read_without_files_made_beside_it(tmp_path, stores, tiny_model_path):
    dump, store, _ = stores
    connection = sqlite3.connect(store)
    assert connection.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    connection.close()                  # the store stays in WAL mode, its -wal removed
    beside = sorted(os.listdir(tmp_path))
    assert scrub(dump, tmp_path, store, tiny_model_path) == 0
    assert sorted(os.listdir(tmp_path)) == sorted(beside + ["out.jsonl"])
    assert_usernames_removed(tmp_path)
