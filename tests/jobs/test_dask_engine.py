"""The Dask engine gives the local engine's output, and leaves nothing behind on the workers
or in the temporary directory; the tests start their own cluster."""
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

import pytest

from mmbdeid.cli import main
from mmbdeid.errors import InputError, Stopped

distributed = pytest.importorskip("distributed")

from paths import REPO, TINY

POSTS = [{"id": "p%d" % i, "board": "bc" if i % 3 else "ra", "thread": "t%d" % (i // 4),
          "author": ["kaygirl", "boo", "hippie96321", "tiger"][i % 4],
          "text": "Hi Kay,\nround %d of chemo done. Call me at 555-123-%04d.\nHugs, Barb" % (i, i)}
         for i in range(45)]


def ours(directory):
    """What mmbdeid left in a temporary directory (Dask keeps its own scratch space there)."""
    return sorted(name for name in os.listdir(directory) if name.startswith("mmbdeid"))


@pytest.fixture(scope="module")
def run_tmpdir(tmp_path_factory):
    """The temporary directory of this module's runs, the driver's and the workers' (they
    inherit TMPDIR), which no other test run shares: it must hold nothing of mmbdeid's
    after each test and once the cluster has stopped."""
    directory = tmp_path_factory.mktemp("tmpdir")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(directory))
        patch.setattr(tempfile, "tempdir", str(directory))
        yield directory
    assert ours(directory) == []


@pytest.fixture(autouse=True)
def leaves_no_temporary_files(run_tmpdir):
    yield
    assert ours(run_tmpdir) == []


@pytest.fixture(scope="module")
def scheduler(run_tmpdir):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    path = tmp_path_factory.mktemp("dask") / "dump.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in POSTS), encoding="utf-8")
    return str(path)


@pytest.mark.slow
def test_dask_output_is_identical_to_local(tmp_path, dump, scheduler, tiny_model_path,
                                           monkeypatch):
    from mmbdeid.jobs import dask_cluster as dask_engine
    monkeypatch.setattr(dask_engine, "CHUNKS_PER_PARTITION", 1)   # many partitions
    outputs = {}
    for engine in ("local", "dask"):
        out, spans = tmp_path / (engine + ".jsonl"), tmp_path / (engine + ".spans.jsonl")
        argv = ["scrub", dump, "-o", str(out), "--spans", str(spans), "--model",
                tiny_model_path, "--quiet", "--engine", engine]
        if engine == "dask":
            argv += ["--scheduler", scheduler]
        else:
            argv += ["--jobs", "2"]
        assert main(argv) == 0
        outputs[engine] = (out.read_bytes(), spans.read_bytes())
    assert outputs["dask"] == outputs["local"]
    assert b"[PHONE]" in outputs["dask"][0]
    # every pass's functions (the consistency pass's too: it holds the allow and deny
    # terms) are forgotten with the run
    with distributed.Client(scheduler) as client:
        assert list(client.run(_run_state).values()) == [(0, [])] * 2


@pytest.mark.slow
def test_dask_review_page_is_identical_to_local(tmp_path, scheduler):
    """The workers' near-misses and unknown words (review --html) come back the same.
    Fictional posts: at 0.9, Brannigan and Quillon are near-misses in posts with no
    removal."""
    dump = tmp_path / "near.jsonl"
    dump.write_text("".join(json.dumps({"id": i, "thread": "t", "author": "kay", "text": text})
                            + "\n" for i, text in enumerate([
                                "Glad it helped! Brannigan at the pharmacy said the same.",
                                "Nothing new, just tired today. Saw Quillon at group.",
                                "Hugs to Maren and Joanne, see you Tuesday.\nKay"])),
                    encoding="utf-8")
    dump = str(dump)
    pages = {}
    for engine in ("local", "dask"):
        page = tmp_path / (engine + ".html")
        argv = ["review", dump, "-o", str(tmp_path / (engine + ".csv")), "--html", str(page),
                "--threshold", "0.9", "--quiet", "--engine", engine]
        argv += ["--scheduler", scheduler] if engine == "dask" else ["--jobs", "2"]
        assert main(argv) == 0
        pages[engine] = page.read_text(encoding="utf-8")
    assert pages["dask"] == pages["local"]
    assert re.findall(r'<tr class="near"><td><input type="checkbox" name="deny" value="(\w+)"',
                      pages["dask"]) == ["Quillon", "Brannigan"]


@pytest.mark.slow
def test_dask_hashes_as_local_and_writes_no_key(tmp_path, dump, scheduler, tiny_model_path,
                                                run_tmpdir):
    # issue 21: the key reaches the workers with the task, in memory only
    key = b"fictional dask hash key 0123456789"
    (tmp_path / "hash.key").write_bytes(key)
    hashed = ["--mode", "hash", "--hash-key-file", str(tmp_path / "hash.key")]
    local = scrubbed(dump, tmp_path / "local.jsonl", tiny_model_path, "--jobs", "2", *hashed)
    remote = scrubbed(dump, tmp_path / "dask.jsonl", tiny_model_path, "--engine", "dask",
                      "--scheduler", scheduler, *hashed)
    assert remote == local and b"[PHONE:" in remote
    for directory, _, names in os.walk(run_tmpdir):
        for name in names:
            with open(os.path.join(directory, name), "rb") as handle:
                assert key[:16] not in handle.read(), name


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["pseudonym", "surrogate"])
def test_dask_person_modes_are_identical_to_local(tmp_path, dump, scheduler, mode,
                                                  monkeypatch):
    """The person modes on a cluster: detection and pass 3's mention finding there, the
    linking and the values on the driver (issue 22); the map's names, shipped to the
    workers, are forgotten with the run."""
    from mmbdeid.jobs import dask_cluster as dask_engine
    monkeypatch.setattr(dask_engine, "CHUNKS_PER_PARTITION", 1)
    outputs = {}
    for engine in ("local", "dask"):
        out, spans = tmp_path / (engine + ".jsonl"), tmp_path / (engine + ".spans.jsonl")
        argv = ["scrub", dump, "-o", str(out), "--spans", str(spans), "--quiet",
                "--mode", mode, "--engine", engine]
        argv += ["--scheduler", scheduler] if engine == "dask" else ["--jobs", "2"]
        assert main(argv) == 0
        outputs[engine] = (out.read_bytes(), spans.read_bytes())
    assert outputs["dask"] == outputs["local"]
    assert b'"person"' in outputs["dask"][1]
    with distributed.Client(scheduler) as client:
        assert list(client.run(_run_state).values()) == [(0, [])] * 2


def test_dask_statistics_equal_local(tmp_path, dump, scheduler):
    from mmbdeid.model.stats import CorpusStats
    local, remote = str(tmp_path / "local.sqlite"), str(tmp_path / "dask.sqlite")
    assert main(["stats", dump, "-o", local, "--quiet", "--jobs", "1"]) == 0
    assert main(["stats", dump, "-o", remote, "--quiet", "--engine", "dask",
                 "--scheduler", scheduler]) == 0
    a, b = CorpusStats.load(local), CorpusStats.load(remote)
    assert a.ranks("board", "bc") == b.ranks("board", "bc") and a.ranks("board", "bc")[1] > 0
    assert a.ranks("user", "boo") == b.ranks("user", "boo") and a.ranks("user", "boo")[1] > 0
    for term in ("kay", "chemo", "barb", "hugs", "round"):
        assert a.border_rank(term) == b.border_rank(term)
        assert a.capitalisation(term) == b.capitalisation(term)


@pytest.mark.parametrize("argv_tail, fragment", [
    (["--engine", "dask"], "--scheduler"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--engine dask"),
    (["--engine", "dask", "--scheduler", "tcp://127.0.0.1:1"], "cannot reach"),
])
def test_engine_usage_errors(tmp_path, dump, capsys, monkeypatch, argv_tail, fragment):
    from mmbdeid.jobs import dask_cluster as dask_engine
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", "1s")
    out = tmp_path / "o.jsonl"
    assert main(["scrub", dump, "-o", str(out), "--quiet"] + argv_tail) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1
    assert not out.exists()


def scrubbed(dump, out, model, *engine):
    assert main(["scrub", dump, "-o", str(out), "--model", model, "--quiet"]
                + list(engine)) == 0
    return out.read_bytes()


@pytest.fixture(scope="module")
def weak_model_path(tmp_path_factory):
    """Another model (one iteration, heavy L1): it removes other words than the tiny one."""
    path = str(tmp_path_factory.mktemp("weak") / "weak.mmbdeid")
    assert main(["train", TINY,
                 "-o", path, "--max-iterations", "1", "--c1", "50", "--quiet"]) == 0
    return path


@pytest.mark.slow
def test_a_model_planted_at_the_old_cache_path_is_not_used(tmp_path, dump, scheduler,
                                                          run_tmpdir, tiny_model_path,
                                                          weak_model_path):
    # Before, a worker wrote the shipped model to TMPDIR/mmbdeid-dask-<its pid>/<sha256>
    # unless a file was there already: anyone could put another model there first.
    local = scrubbed(dump, tmp_path / "local.jsonl", tiny_model_path, "--jobs", "1")
    assert scrubbed(dump, tmp_path / "weak.jsonl", weak_model_path, "--jobs", "1") != local
    with open(tiny_model_path, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    with distributed.Client(scheduler) as client:
        pids = sorted(client.run(os.getpid).values())
    planted = [run_tmpdir / ("mmbdeid-dask-%d" % pid) for pid in pids]
    try:
        for directory in planted:
            directory.mkdir()
            shutil.copy(weak_model_path, directory / (digest + ".mmbdeid"))
        remote = scrubbed(dump, tmp_path / "dask.jsonl", tiny_model_path, "--engine", "dask",
                          "--scheduler", scheduler)
        assert remote == local
        for directory in planted:       # someone else's files are left as they were
            assert os.listdir(directory) == [digest + ".mmbdeid"]
    finally:
        for directory in planted:
            shutil.rmtree(directory, ignore_errors=True)


def _run_state():
    """On a worker: (run-specific detectors cached, [(run directory, its mode)])."""
    from mmbdeid.jobs import dask_cluster
    return (sum(1 for key in dask_cluster._worker_cache if key[1]),
            [(path, stat.S_IMODE(os.stat(path).st_mode))
             for path in sorted(scratch.path for scratch
                                in dask_cluster._run_directories.values())])


@pytest.mark.parametrize("stop, status", [
    pytest.param(KeyboardInterrupt(), 130, marks=pytest.mark.slow),
    pytest.param(Stopped(signal.SIGTERM), 143, marks=pytest.mark.slow),
    pytest.param(InputError("a fault in pass 2"), 2, marks=pytest.mark.slow),
])
def test_workers_forget_a_run_however_it_ends(tmp_path, dump, scheduler, tiny_model_path,
                                              monkeypatch, stop, status):
    from mmbdeid.jobs import dask_cluster
    original = dask_cluster.DaskEngine.map_ordered
    during = []

    def stopped_after_one_result(engine, factory, args, chunks):
        for item in original(engine, factory, args, chunks):
            if factory is dask_cluster.RemoteChunkDetector:
                during.extend(engine.client.run(_run_state).values())
                raise stop
            yield item

    monkeypatch.setattr(dask_cluster.DaskEngine, "map_ordered", stopped_after_one_result)
    out = tmp_path / "out.jsonl"
    assert main(["scrub", dump, "-o", str(out), "--model", tiny_model_path, "--quiet",
                 "--engine", "dask", "--scheduler", scheduler]) == status
    assert not out.exists()
    # a worker had the run's private directory and a detector while it ran ...
    directories = [directory for _, held in during for directory in held]
    assert directories and all(mode == 0o700 for _, mode in directories)
    assert sum(cached for cached, _ in during) >= 1
    # ... and has neither once the run ended (the files are gone: see the autouse check)
    with distributed.Client(scheduler) as client:
        assert list(client.run(_run_state).values()) == [(0, [])] * 2


def test_shipped_bytes_are_checked_against_their_digest(tmp_path, tiny_model_path):
    from mmbdeid.jobs import dask_cluster
    with open(tiny_model_path, "rb") as handle:
        content = handle.read()
    good = hashlib.sha256(content).hexdigest()
    assert dask_cluster._materialise(str(tmp_path), good, ".m", content).endswith(good + ".m")
    with pytest.raises(InputError, match="does not match its digest"):
        dask_cluster._materialise(str(tmp_path), "0" * 64, ".m", content)


def test_a_finished_run_makes_no_directory_again():
    from mmbdeid.jobs import dask_cluster
    directory = dask_cluster._run_directory("run-a")
    assert os.path.basename(directory) != "mmbdeid-dask-%d" % os.getpid()
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    dask_cluster.forget_run("run-a")
    assert not os.path.exists(directory)
    with pytest.raises(InputError, match="ended"):
        dask_cluster._run_directory("run-a")


def _make_a_run_directory(queue):
    from mmbdeid.jobs import dask_cluster
    queue.put(dask_cluster._run_directory("run-b"))


@pytest.mark.parametrize("method", [pytest.param("spawn", marks=pytest.mark.slow), "fork"])
def test_a_worker_that_exits_removes_its_run_directories(method):
    # a nanny's worker is a multiprocessing child (spawned): it runs no atexit handlers
    context = multiprocessing.get_context(method)
    queue = context.Queue()
    process = context.Process(target=_make_a_run_directory, args=(queue,))
    process.start()
    directory = queue.get(timeout=300)
    process.join(300)
    assert process.exitcode == 0 and directory.startswith(tempfile.gettempdir())
    assert not os.path.exists(directory)


@pytest.mark.slow
def test_a_worker_run_as_a_plain_process_removes_them_too():
    code = ("from mmbdeid.jobs import dask_cluster\n"
            "print(dask_cluster._run_directory('run-c'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=REPO), timeout=300)
    assert done.returncode == 0, done.stderr
    directory = done.stdout.strip()
    assert directory.startswith(tempfile.gettempdir()) and not os.path.exists(directory)


@pytest.mark.parametrize("mode, label", [("pseudonym", "pass 3/3"),
                                         pytest.param("placeholder", "pass 3/3",
                                                      marks=pytest.mark.slow)])
def test_a_dump_replaced_between_passes_stops_a_dask_run(tmp_path, scheduler,
                                                        tiny_model_path, monkeypatch,
                                                        capsys, mode, label):
    import os
    from pass_hooks import hook_progress
    dump = tmp_path / "dump.jsonl"
    dump.write_text("".join(json.dumps(p) + "\n" for p in POSTS), encoding="utf-8")

    def replace():
        changed = [dict(p, text=p["text"].replace("round", "Rosalind, round")) for p in POSTS]
        (tmp_path / "new.jsonl").write_text("".join(json.dumps(p) + "\n" for p in changed),
                                            encoding="utf-8")
        os.replace(tmp_path / "new.jsonl", dump)
    fired = hook_progress(monkeypatch, label, "start", replace)
    assert main(["scrub", str(dump), "-o", str(tmp_path / "out.jsonl"), "--mode", mode,
                 "--model", tiny_model_path, "--quiet", "--engine", "dask",
                 "--scheduler", scheduler]) == 2
    err = capsys.readouterr().err
    assert fired and err.count("\n") == 1 and "changed during the run" in err
    assert "Rosalind" not in err
    assert sorted(os.listdir(tmp_path)) == ["dump.jsonl"]
