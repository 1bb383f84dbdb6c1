"""The Dask engine gives the local engine's output; the tests start their own cluster."""
import json

import pytest

from mmbdeid.cli import main

distributed = pytest.importorskip("distributed")

POSTS = [{"id": "p%d" % i, "board": "bc" if i % 3 else "ra", "thread": "t%d" % (i // 4),
          "author": ["kaygirl", "boo", "hippie96321", "tiger"][i % 4],
          "text": "Hi Kay,\nround %d of chemo done. Call me at 555-123-%04d.\nHugs, Barb" % (i, i)}
         for i in range(45)]


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    path = tmp_path_factory.mktemp("dask") / "dump.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in POSTS), encoding="utf-8")
    return str(path)


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


@pytest.mark.parametrize("mode, label", [("pseudonym", "pass 3/3"),
                                         ("placeholder", "pass 2/2")])
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
