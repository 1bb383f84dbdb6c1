"""The Dask engine: both passes of ``scrub`` on a Dask cluster.

The driver streams the dump and submits partitions (runs of chunks) to the cluster with a
bounded number in flight; pass 1 partitions come back as mergeable statistics counts, pass 2
partitions as scrubbed posts, consumed in input order. Workers need not see the driver's
files: the model and the statistics store are broadcast to them as bytes once, and each
worker process writes them to a private directory of its own (a locked scratch directory
made by ``mkdtemp``: a name no one can guess or take first, readable by this user only,
and removed by a later run if the worker is killed outright), checks them against the digests
the driver computed, and opens them. The statistics hold the board's usernames, and a
model trained on a board holds names: when the run ends, however it ends, the driver has
every worker remove the directory and forget the run. A driver killed outright cannot: the
run's id names the driver's Dask client, and a worker starting a task while it holds
another run's state asks the scheduler whether that run's client is still connected, and
forgets the run if not; a worker that exits removes what is left. The output is the same
as the local engine's.

Point it at a real cluster with ``--engine dask --scheduler tcp://HOST:8786`` (see docs/scaling.md).
"""
import atexit
import contextlib
import dataclasses
import hashlib
import multiprocessing.util
import os
import tempfile
import threading
import uuid
from collections import deque
from typing import Callable, Dict, Iterable, Iterator, Set, Tuple

from ..errors import InputError
from ..files.corpora import file_sha256
from ..files.scratch import ScratchDirectory
from .config import DetectionConfig
from .chunks import ChunkWorker, chunked

CHUNKS_PER_PARTITION = 10
PARTITIONS_IN_FLIGHT_PER_WORKER = 3
CONNECT_TIMEOUT = "20s"

# The state of a worker process (built by the tasks it runs), all under the one lock.
_worker_cache: Dict[Tuple, Callable] = {}
_worker_cache_lock = threading.Lock()
# run id -> this process's private directory for it: a locked scratch directory, which a
# later run on the machine removes if this worker is killed outright (files/scratch.py)
_run_directories: Dict[str, ScratchDirectory] = {}
_finished_runs: Set[str] = set()        # runs the driver closed: no directory is made again
_removal_registered = False             # _remove_directories runs when the process exits
_DRIVER_SEPARATOR = "@"                 # a run id: "<uuid hex>@<the driver's client id>"


@contextlib.contextmanager
def dask_engine(scheduler: str):
    """A :class:`DaskEngine` for a cluster at ``scheduler``, connected for the run."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise InputError("--engine dask needs dask.distributed: pip install 'mmbdeid[dask]'")
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as error:
        raise InputError("cannot reach the Dask scheduler at %s (%s)" % (scheduler, error))
    try:
        engine = DaskEngine(client)
        try:
            yield engine
        finally:
            engine.close()
    finally:
        client.close()


class DaskEngine:
    """The engine interface of :class:`~mmbdeid.jobs.local.LocalEngine`, on a cluster."""

    def __init__(self, client):
        self.client = client
        # names the run's state on the workers, and its driver (a client id)
        self.run_id = "%s%s%s" % (uuid.uuid4().hex, _DRIVER_SEPARATOR, client.id)

    def close(self) -> None:
        """Every worker forgets this run: its detectors, and the directory holding the
        model and the statistics."""
        try:
            self.client.run(forget_run, self.run_id, on_error="ignore")
        except Exception:   # the cluster is gone: its workers removed theirs on exit
            pass

    def _in_flight(self) -> int:
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        return workers * PARTITIONS_IN_FLIGHT_PER_WORKER

    def map_ordered(self, factory: Callable, args: tuple, chunks: Iterable) -> Iterator:
        """Like :func:`mmbdeid.jobs.local.ordered_map`: ``(chunk, result)`` in input order."""
        pending: deque = deque()
        limit = self._in_flight()
        try:
            for partition in chunked(chunks, CHUNKS_PER_PARTITION):
                future = self.client.submit(run_partition, factory, args, partition,
                                            pure=False)
                pending.append((partition, future))
                if len(pending) >= limit:
                    yield from _results(*pending.popleft())
            while pending:
                yield from _results(*pending.popleft())
        finally:
            for _, future in pending:
                future.cancel()

    def detector(self, detection: DetectionConfig, stats_path: str) -> Tuple[Callable, tuple]:
        """(factory, args) of the pass-2 function on workers: the model and statistics are
        shipped to every worker once, as bytes, each after its SHA-256."""
        shipped = [self.run_id]
        for path in (detection.model_path, stats_path):
            with open(path, "rb") as handle:
                content = handle.read()
            digest = hashlib.sha256(content).hexdigest()
            shipped += [digest, self.client.scatter(content, broadcast=True, hash=False)]
        return (RemoteChunkDetector, tuple(shipped) + (detection,))


    def extender(self, detection: DetectionConfig) -> Tuple[Callable, tuple]:
        """(factory, args) of the consistency pass's function on workers (it needs no
        files), cached per worker under this run, so the run's end removes it too."""
        from .thread_names import ChunkExtender
        return ChunkExtender, (self.run_id, detection)

    def mention_finder(self, detection: DetectionConfig, digest: str, payload: bytes
                       ) -> Tuple[Callable, tuple]:
        """(factory, args) of the person modes' pass-3 function on workers: the fixed map
        shipped to every worker once (a secret: cached under this run, so its end removes
        it), identified by its SHA-256."""
        from .person_pass import ChunkMentions
        return ChunkMentions, (self.run_id, digest,
                               self.client.scatter(payload, broadcast=True, hash=False),
                               detection)


def _results(partition, future) -> Iterator:
    for chunk, result in zip(partition, future.result()):
        yield chunk, result


def run_partition(factory: Callable, args: tuple, partition: list) -> list:
    """On a worker: the per-process function (built once per worker thread, since a
    crfsuite tagger is not thread-safe) applied to each chunk."""
    _forget_runs_of_gone_drivers(current=args[0] if args else None)
    key = (factory, _cache_key(args), threading.get_ident())
    with _worker_cache_lock:
        function = _worker_cache.get(key)
    if function is None:
        function = factory(*args)
        with _worker_cache_lock:
            if not (key[1] and key[1][0] in _finished_runs):   # not a cancelled run's
                _worker_cache[key] = function
    return [function(chunk) for chunk in partition]


def _cache_key(args: tuple) -> tuple:
    # bytes (model, statistics) are identified by the digest that precedes them; the
    # detection configuration is a frozen dataclass, hashable as it is
    return tuple(a for a in args if not isinstance(a, (bytes, bytearray)))


class RemoteChunkDetector(ChunkWorker):
    """A :class:`ChunkWorker` opened from shipped bytes: written to this worker process's
    private directory for the run, checked against their digests, then opened like local
    files."""

    def __init__(self, run_id: str, model_digest: str, model_bytes: bytes, stats_digest: str,
                 stats_bytes: bytes, detection: DetectionConfig):
        directory = _run_directory(run_id)
        model_path = _materialise(directory, model_digest, ".mmbdeid", model_bytes)
        stats_path = _materialise(directory, stats_digest, ".sqlite", stats_bytes)
        super().__init__(dataclasses.replace(detection, model_path=model_path), stats_path)


def _run_directory(run_id: str) -> str:
    """This process's private directory for the run, made on first use."""
    with _worker_cache_lock:
        if run_id in _finished_runs:
            raise InputError("this run has ended")   # a task the driver had cancelled
        scratch = _run_directories.get(run_id)
        if scratch is None:
            _remove_directories_at_exit()
            scratch = _run_directories[run_id] = ScratchDirectory()
        return scratch.path


def _materialise(directory: str, digest: str, suffix: str, content: bytes) -> str:
    """The bytes as a file named by their digest, checked against it before use."""
    path = os.path.join(directory, digest + suffix)
    with _worker_cache_lock:
        if not os.path.exists(path):
            fd, temporary = tempfile.mkstemp(dir=directory)
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(temporary, path)
        if file_sha256(path) != digest:
            raise InputError("a file shipped to a Dask worker does not match its digest")
    return path


def forget_run(run_id: str) -> None:
    """On a worker, when the driver's run ends: its detectors are dropped and its directory
    removed; a task of the run that starts later fails instead of making another."""
    with _worker_cache_lock:
        _finished_runs.add(run_id)
        for key in [key for key in _worker_cache if key[1][:1] == (run_id,)]:
            del _worker_cache[key]
        scratch = _run_directories.pop(run_id, None)
    if scratch is not None:
        scratch.remove()


def _forget_runs_of_gone_drivers(current) -> None:
    """On a worker, at a task's start: forget every other run held here whose driver's
    client the scheduler no longer knows (the driver was killed: it could not say the run
    ended). Only while another run's state is held, so one run at a time costs nothing;
    if the scheduler cannot say, the state stays (it goes when the worker exits)."""
    with _worker_cache_lock:
        held = {key[1][0] for key in _worker_cache if key[1]} | set(_run_directories)
    drivers = {run: _driver_of(run) for run in held if run != current}
    drivers = {run: driver for run, driver in drivers.items() if driver}
    if not drivers:
        return
    try:
        from distributed import get_client
        connected = set(get_client().run_on_scheduler(_connected_clients))
    except Exception:       # no scheduler to ask (not in a task, or it is gone)
        return
    for run, driver in drivers.items():
        if driver not in connected:
            forget_run(run)


def _driver_of(run) -> str:
    """The client id of the driver a run id names ("" if it names none)."""
    if not isinstance(run, str):
        return ""
    return run.partition(_DRIVER_SEPARATOR)[2]


def _connected_clients(dask_scheduler) -> list:
    """On the scheduler: the ids of the clients connected to it."""
    return list(dask_scheduler.clients)


def _remove_directories_at_exit() -> None:
    """A worker that exits removes the directories of runs whose driver never said they
    ended (it was killed, or lost the cluster). A worker started by a nanny is a
    multiprocessing child, which runs multiprocessing's finalizers, not atexit's."""
    global _removal_registered
    if not _removal_registered:
        _removal_registered = True
        atexit.register(_remove_directories)
        multiprocessing.util.Finalize(None, _remove_directories, exitpriority=0)


def _forget_the_parents_directories() -> None:
    """In a forked child: the directories are the parent's to remove, and the child's
    multiprocessing finalizers were cleared."""
    global _removal_registered
    _run_directories.clear()
    _removal_registered = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_the_parents_directories)


def _remove_directories() -> None:
    # at exit a task's thread may hold the lock and never run again: wait only so long
    locked = _worker_cache_lock.acquire(timeout=5)
    try:
        directories = list(_run_directories.values())
        _run_directories.clear()
    finally:
        if locked:
            _worker_cache_lock.release()
    for scratch in directories:
        scratch.remove()
