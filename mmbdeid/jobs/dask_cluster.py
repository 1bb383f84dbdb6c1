"""The Dask engine: both passes of ``scrub`` on a Dask cluster.

The driver streams the dump and submits partitions (runs of chunks) to the cluster with a
bounded number in flight; pass 1 partitions come back as mergeable statistics counts, pass 2
partitions as scrubbed posts, consumed in input order. Workers need not see the driver's
files: the model and the statistics store are broadcast to them as bytes once, and each
worker process opens its own copy. The output is the same as the local engine's.

Point it at a real cluster with ``--engine dask --scheduler tcp://HOST:8786`` (see README).
"""
import atexit
import contextlib
import dataclasses
import hashlib
import os
import tempfile
import threading
from collections import deque
from typing import Callable, Dict, Iterable, Iterator, Optional, Tuple

from ..errors import InputError
from ..files.scratch import ScratchDirectory
from .config import DetectionConfig
from .local import ChunkDetector, chunked

CHUNKS_PER_PARTITION = 10
PARTITIONS_IN_FLIGHT_PER_WORKER = 3
CONNECT_TIMEOUT = "20s"

_worker_cache: Dict[Tuple, Callable] = {}
_worker_cache_lock = threading.Lock()


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
        yield DaskEngine(client)
    finally:
        client.close()


class DaskEngine:
    """The engine interface of :class:`~mmbdeid.jobs.local.LocalEngine`, on a cluster."""

    def __init__(self, client):
        self.client = client

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
        shipped to every worker once, as bytes."""
        shipped = []
        for path in (detection.model_path, stats_path):
            with open(path, "rb") as handle:
                content = handle.read()
            digest = hashlib.sha256(content).hexdigest()
            shipped += [digest, self.client.scatter(content, broadcast=True, hash=False)]
        return (RemoteChunkDetector, tuple(shipped) + (detection,))


def _results(partition, future) -> Iterator:
    for chunk, result in zip(partition, future.result()):
        yield chunk, result


def run_partition(factory: Callable, args: tuple, partition: list) -> list:
    """On a worker: the per-process function (built once per worker thread, since a
    crfsuite tagger is not thread-safe) applied to each chunk."""
    key = (factory, _cache_key(args), threading.get_ident())
    with _worker_cache_lock:
        function = _worker_cache.get(key)
    if function is None:
        function = factory(*args)
        with _worker_cache_lock:
            _worker_cache[key] = function
    return [function(chunk) for chunk in partition]


def _cache_key(args: tuple) -> tuple:
    # bytes (model, statistics) are identified by the digest that precedes them; the
    # detection configuration is a frozen dataclass, hashable as it is
    return tuple(a for a in args if not isinstance(a, (bytes, bytearray)))


class RemoteChunkDetector(ChunkDetector):
    """A :class:`ChunkDetector` opened from shipped bytes: written to this worker's temporary
    directory once, then opened like local files."""

    def __init__(self, model_digest: str, model_bytes: bytes, stats_digest: str,
                 stats_bytes: bytes, detection: DetectionConfig):
        directory = _worker_directory()
        model_path = _materialise(directory, model_digest + ".mmbdeid", model_bytes)
        stats_path = _materialise(directory, stats_digest + ".sqlite", stats_bytes)
        super().__init__(dataclasses.replace(detection, model_path=model_path), stats_path)


_worker_scratch: Optional[ScratchDirectory] = None


def _worker_directory() -> str:
    """This worker process's scratch directory, for the shipped model and statistics
    store (which holds the dump's usernames): kept for the process's life, so that later
    runs on the same worker reuse them, and removed when it exits; a worker killed
    outright leaves it to the next mmbdeid run or worker on the machine to remove."""
    global _worker_scratch
    with _worker_cache_lock:
        if _worker_scratch is None:
            _worker_scratch = ScratchDirectory()
            atexit.register(_worker_scratch.remove)
        return _worker_scratch.path


def _materialise(directory: str, name: str, content: bytes) -> str:
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        fd, temporary = tempfile.mkstemp(dir=directory)
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(temporary, path)
    return path
