"""A Dask driver killed outright cannot tell the workers its run ended: each worker forgets
such a run (its detectors, and its copies of the model and the statistics, which hold
usernames) when it starts its next task, and never a run whose driver is alive (issue 29).
The tests start their own cluster."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from mmbdeid.cli import main

distributed = pytest.importorskip("distributed")

from paths import REPO

POSTS = [{"id": "p%d" % i, "thread": "t", "author": ["kaygirl", "boo"][i % 2],
          "text": "Hi Kay, round %d done.\nHugs, Barb" % i} for i in range(6)]


@pytest.fixture(scope="module")
def run_tmpdir(tmp_path_factory):
    """The temporary directory of the driver and the workers (they inherit TMPDIR)."""
    directory = tmp_path_factory.mktemp("tmpdir")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(directory))
        patch.setattr(tempfile, "tempdir", str(directory))
        yield directory


@pytest.fixture(scope="module")
def client(run_tmpdir):
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster.scheduler_address) as client:
        yield client


def _hold_a_copy(run):
    """On a worker: the run's private directory, with a copy in it, as a task makes it."""
    from mmbdeid.jobs import dask_cluster
    copy = os.path.join(dask_cluster._run_directory(run), "stats.sqlite")
    with open(copy, "w") as handle:
        handle.write("kaygirl")
    return copy


def _held_runs():
    from mmbdeid.jobs import dask_cluster
    return sorted(dask_cluster._run_directories)


def _next_task_on_every_worker(client):
    """A task of no run on each worker (what any other run's task starts with)."""
    from mmbdeid.jobs import dask_cluster
    for worker in client.scheduler_info()["workers"]:
        client.submit(dask_cluster.run_partition, dict, (), [], workers=[worker],
                      pure=False).result()


def test_a_gone_drivers_copies_are_removed_and_a_live_ones_kept(client):
    from mmbdeid.jobs import dask_cluster
    gone = "0123abcd" + dask_cluster._DRIVER_SEPARATOR + "Client-no-longer-connected"
    live = "4567cdef" + dask_cluster._DRIVER_SEPARATOR + client.id
    no_driver = "89abcdef"      # names no driver: never taken for gone
    copies = {run: list(client.run(_hold_a_copy, run).values())
              for run in (gone, live, no_driver)}
    try:
        _next_task_on_every_worker(client)
        assert all(not os.path.exists(copy) for copy in copies[gone])
        assert all(os.path.exists(copy) for copy in copies[live] + copies[no_driver])
        assert list(client.run(_held_runs).values()) == [sorted([live, no_driver])] * 2
    finally:
        for run in (gone, live, no_driver):
            client.run(dask_cluster.forget_run, run)
    assert all(not os.path.exists(copy) for copies_of_run in copies.values()
               for copy in copies_of_run)


DRIVER = """
import sys
from distributed import Client
from mmbdeid.jobs import dask_cluster
from mmbdeid.jobs.config import DetectionConfig
scheduler, model, stats = sys.argv[1:]
client = Client(scheduler)
engine = dask_cluster.DaskEngine(client)
factory, args = engine.detector(DetectionConfig(model), stats)
for worker in client.scheduler_info()["workers"]:   # every worker opens the run's copies
    client.submit(dask_cluster.run_partition, factory, args, [], workers=[worker],
                  pure=False).result()
print(client.id, flush=True)
sys.stdin.read()                                     # until killed
"""


@pytest.mark.slow
def test_the_copies_of_a_driver_killed_outright_go_at_the_next_task(
        tmp_path, client, run_tmpdir, tiny_model_path):
    from mmbdeid.jobs import dask_cluster
    dump, stats = tmp_path / "dump.jsonl", tmp_path / "stats.sqlite"
    dump.write_text("".join(json.dumps(p) + "\n" for p in POSTS), encoding="utf-8")
    assert main(["stats", str(dump), "-o", str(stats), "--quiet", "--jobs", "1"]) == 0
    scheduler = client.scheduler.address
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, scheduler, tiny_model_path,
                               str(stats)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=dict(os.environ, PYTHONPATH=REPO))
    try:
        driver_id = driver.stdout.readline().strip()
        assert driver_id, "the driver did not start"
        held = list(client.run(_held_runs).values())
        assert [len(runs) for runs in held] == [1, 1]
        assert len(ours(run_tmpdir)) == 2       # each worker's private directory
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait(60)
    # the scheduler drops the client once its connection closes (no fixed wait: up to 60 s)
    deadline = time.monotonic() + 60
    while driver_id in client.run_on_scheduler(dask_cluster._connected_clients):
        assert time.monotonic() < deadline, "the scheduler kept the killed driver's client"
        time.sleep(0.1)
    assert [len(runs) for runs in client.run(_held_runs).values()] == [1, 1]   # still there
    _next_task_on_every_worker(client)
    assert list(client.run(_held_runs).values()) == [[], []]
    assert ours(run_tmpdir) == []


def ours(directory):
    """What mmbdeid left in a temporary directory (Dask keeps its own scratch space there)."""
    return sorted(name for name in os.listdir(directory) if name.startswith("mmbdeid"))
