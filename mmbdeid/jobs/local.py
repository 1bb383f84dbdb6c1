"""The local engine: the two passes of ``scrub`` over chunks of posts, on all cores.

Pass 1 counts the corpus statistics of each chunk
(:class:`~mmbdeid.model.counting.PartialCounts`) and the main process adds them to the
on-disk store; pass 2 scrubs each chunk. Chunks go to worker processes with a bounded number
in flight and come back in input order, so the output is the same as a single-job run and
memory does not grow with the dump. A worker that dies (a crash, the OOM killer, kill -9) is
replaced and its chunk retried once; a chunk that kills two workers stops the run with an
error naming its first record.

The per-chunk work (:mod:`mmbdeid.jobs.chunks`) is shared with the Dask engine.
"""
import contextlib
import ctypes
import json
import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
import time
import traceback
import weakref
from collections import deque
from multiprocessing.connection import wait
from typing import Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

from ..errors import InputError
from ..files.scratch import ScratchDirectory
from .chunks import ChunkWorker
from .config import DetectionConfig

IN_FLIGHT_PER_JOB = 4


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_worker_function: Optional[Callable] = None


def _init_worker(factory: Callable, args: tuple, scratch: Optional[str] = None) -> None:
    # Ctrl-C (and a closed terminal's SIGHUP, also sent to the whole process group) goes to
    # the main process, which stops the workers and removes partial output; it stops them
    # with SIGTERM, so they must not inherit the main process's SIGTERM -> KeyboardInterrupt
    # handler: a worker must just die.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    if scratch is not None:
        # Temporary files of this worker (any library's: python-crfsuite's Tagger.info()
        # dumps a whole model to one, though the tagger no longer calls it) go to a
        # directory the main process removes, so a worker killed mid-way leaves nothing.
        tempfile.tempdir = scratch
        os.environ["TMPDIR"] = scratch
    global _worker_function
    _worker_function = factory(*args)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM} | (
    {signal.SIGHUP} if hasattr(signal, "SIGHUP") else set())


@contextlib.contextmanager
def _worker_signals():
    """Stop signals (Ctrl-C, SIGTERM, SIGHUP) are held back while workers are forked;
    each worker unblocks them in ``_init_worker`` once its own dispositions are set.
    Otherwise a SIGTERM from the main process stopping the workers could reach a worker
    before its initializer ran, hit the inherited KeyboardInterrupt handler and be
    dropped when the initializer resets it, leaving the worker alive and the main process
    waiting for it. The main process receives a signal held back here as soon as the
    workers exist."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# -- worker processes ------------------------------------------------------------------
# Plain processes with a pipe each, rather than multiprocessing.Pool (which never notices
# a worker that died mid-task: the run waited for ever) or ProcessPoolExecutor (which
# fails every pending task when one worker dies, without saying which task that worker
# held, and stops the other workers too). Here a chunk goes only to an idle worker, and
# the main process waits on every worker's pipe and exit sentinel, so it knows exactly
# which chunk a dead worker held: that chunk alone is retried, once; if it kills a worker
# again the run stops with an error naming it. Nothing else is lost or recomputed.

DEATHS_PER_CHUNK = 2        # a chunk that kills this many workers stops the run
STOP_SECONDS = 10.0         # a stopped worker's time to exit before SIGKILL

_READY, _RESULT, _ERROR = "ready", "result", "error"


def _worker_main(connection, inherited, factory, args, scratch, parent: int) -> None:
    """A worker: build the function, say so, then apply it to each chunk received until
    the main process closes the pipe. Exceptions go back to the main process."""
    for other in inherited:         # the main process's ends of the pipes (fork): so a
        other.close()               # worker sees end-of-file when the main process exits
    _die_with(parent)
    try:
        try:
            _init_worker(factory, args, scratch)
        except BaseException as error:
            _send_error(connection, error)
            return
        connection.send((_READY, None))
        while True:
            chunk = connection.recv()
            try:
                result = _worker_function(chunk)
            except BaseException as error:  # raised in the main process in its turn
                _send_error(connection, error)
                continue
            try:
                connection.send((_RESULT, result))
            except (pickle.PicklingError, TypeError, AttributeError) as error:
                _send_error(connection, error)
    except (EOFError, OSError):     # the main process is done or gone
        return


def _die_with(parent: int) -> None:
    """On Linux the kernel kills this worker when the main process (the thread that
    started it) ends, even by SIGKILL: a worker busy in a long chunk or stuck in C code
    would not see the closed pipe, and would run on with no one to stop it."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:      # it ended before prctl
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def _send_error(connection, error: BaseException) -> None:
    text = traceback.format_exc()
    try:
        connection.send((_ERROR, (error, text)))
    except (pickle.PicklingError, TypeError, AttributeError):
        connection.send((_ERROR, (RuntimeError(repr(error)), text)))


class _RemoteTraceback(Exception):
    """The ``__cause__`` of an exception raised in a worker: its traceback there."""

    def __str__(self) -> str:
        return self.args[0]


class _Raised(NamedTuple):
    """A chunk's result when the worker function raised ``error``."""
    error: BaseException


class _Worker:
    def __init__(self, process, connection, scratch: str):
        self.process = process
        self.connection = connection
        self.scratch = scratch      # this worker's temporary directory
        self.ready = False          # its function is built
        self.task = None            # (index, chunk) it holds


class _Workers:
    """``jobs`` worker processes kept running, each fed one chunk at a time; dead ones are
    replaced. Used as a context manager: on exit every worker has ended and the run's
    temporary directory is removed."""

    def __init__(self, factory: Callable, args: tuple, jobs: int):
        method = "fork" if hasattr(os, "fork") else "spawn"
        self.context = multiprocessing.get_context(method)
        self.fork = method == "fork"
        self.factory, self.args, self.jobs = factory, args, jobs
        self.workers: List[_Worker] = []
        self.deaths: Dict[int, List[str]] = {}      # chunk index -> how its workers died
        self.start_deaths: List[str] = []           # workers that died before being ready
        self.scratch = ScratchDirectory()
        # also when the generator using this is never closed (and at interpreter exit)
        self._finalizer = weakref.finalize(self, _stop_workers, self.workers, self.scratch)

    def __enter__(self) -> "_Workers":
        try:
            for _ in range(self.jobs):
                self._start()
        except BaseException:
            self._finalizer()
            raise
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:            # all chunks done: idle workers exit on end-of-file
            for worker in self.workers:
                worker.connection.close()
            deadline = time.monotonic() + STOP_SECONDS
            for worker in self.workers:
                if worker.ready:    # (one still starting is stopped like on an error)
                    worker.process.join(max(0.0, deadline - time.monotonic()))
        self._finalizer()

    def _start(self) -> None:
        scratch = tempfile.mkdtemp(prefix="worker-", dir=self.scratch.path)
        connection, child = self.context.Pipe()
        inherited = [w.connection for w in self.workers] + [connection] if self.fork else []
        process = self.context.Process(
            target=_worker_main, daemon=True,
            args=(child, inherited, self.factory, self.args, scratch, os.getpid()))
        try:
            with _worker_signals():
                process.start()
                # listed before a held-back signal can interrupt: then it is stopped too
                self.workers.append(_Worker(process, connection, scratch))
        except BaseException:
            if process.pid is None:
                connection.close()
                shutil.rmtree(scratch, ignore_errors=True)
            raise
        finally:
            child.close()

    def step(self, queued: deque, finished: dict) -> None:
        """Hand queued chunks to idle workers, wait for something to happen, and take it
        in: a worker ready, a result (into ``finished``), an error, a death; then keep
        the workers busy while the caller uses the results."""
        self._hand_out(queued)
        ready = set(wait([w.connection for w in self.workers] +
                         [w.process.sentinel for w in self.workers]))
        for worker in list(self.workers):
            if worker.connection in ready or worker.process.sentinel in ready:
                self._take_in(worker, queued, finished)
        self._hand_out(queued)

    def _hand_out(self, queued: deque) -> None:
        for worker in self.workers:
            if queued and worker.ready and worker.task is None:
                task = queued.popleft()
                try:
                    worker.connection.send(task[1])
                except OSError:     # it died before getting the chunk: its sentinel says so
                    queued.appendleft(task)
                    continue
                worker.task = task

    def _take_in(self, worker: _Worker, queued: deque, finished: dict) -> None:
        try:
            while worker.connection.poll():
                kind, payload = worker.connection.recv()
                if kind == _READY:
                    worker.ready = True
                    self.start_deaths.clear()
                elif kind == _RESULT:
                    index, chunk = worker.task
                    finished[index] = (chunk, payload)
                    worker.task = None
                else:
                    error, text = payload
                    error.__cause__ = _RemoteTraceback(text)
                    if worker.task is None:         # building the function failed
                        raise error
                    index, chunk = worker.task      # raised when the chunk's turn comes
                    finished[index] = (chunk, _Raised(error))
                    worker.task = None
        except (EOFError, OSError):
            pass                    # it died: the pipe is closed
        else:
            if worker.process.is_alive():
                return
        self._bury(worker, queued)

    def _bury(self, worker: _Worker, queued: deque) -> None:
        """A worker died: another takes its place, and the chunk it held is queued again
        unless this is the second worker that chunk killed."""
        self.workers.remove(worker)
        _end_worker(worker, STOP_SECONDS)       # it is exiting: its pipe is closed
        how = _how_it_died(worker.process.exitcode)
        if worker.task is not None:
            index, chunk = worker.task
            deaths = self.deaths.setdefault(index, [])
            deaths.append(how)
            if len(deaths) >= DEATHS_PER_CHUNK:
                raise InputError("worker process died (%s) twice on %s; the run was stopped"
                                 % (", then ".join(dict.fromkeys(deaths)),
                                    _chunk_name(index, chunk)))
            queued.appendleft(worker.task)
        elif not worker.ready:
            self.start_deaths.append(how)
            if len(self.start_deaths) > self.jobs:
                raise InputError("worker processes died (%s) while starting; the run was "
                                 "stopped" % ", ".join(dict.fromkeys(self.start_deaths)))
        self._start()


def _stop_workers(workers: List[_Worker], scratch: ScratchDirectory) -> None:
    """Ends every worker still running (SIGTERM, then SIGKILL) and removes the run's
    temporary directory, with whatever the workers left in it."""
    for worker in workers:
        worker.connection.close()
        if worker.process.exitcode is None:
            worker.process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        _end_worker(worker, max(0.0, deadline - time.monotonic()))
    workers.clear()
    scratch.remove()


def _end_worker(worker: _Worker, seconds: float) -> None:
    """Waits up to ``seconds`` for a worker that was told to stop (or died), kills it if
    it is still running, and removes its temporary directory."""
    worker.connection.close()
    worker.process.join(seconds)
    if worker.process.exitcode is None:
        worker.process.kill()
        worker.process.join()
    shutil.rmtree(worker.scratch, ignore_errors=True)


def _how_it_died(exitcode: Optional[int]) -> str:
    if exitcode is not None and exitcode < 0:
        return "killed by signal %d" % -exitcode
    return "exited with status %s" % exitcode


def _chunk_name(index: int, chunk) -> str:
    """The chunk by its first record's id (chunks of posts), else by its position."""
    try:
        return "the chunk starting at record id %s" % json.dumps(
            chunk[0]["id"], ensure_ascii=False, default=str)
    except (LookupError, TypeError, ValueError):
        return "chunk %d of the input" % (index + 1)


# -- ordered parallel map --------------------------------------------------------------
_END = object()


def ordered_map(factory: Callable, args: tuple, chunks: Iterable, jobs: int) -> Iterator:
    """``factory(*args)`` builds the per-process function; it is applied to every chunk,
    ``(chunk, result)`` pairs yielded in input order, with at most ``jobs *
    IN_FLIGHT_PER_JOB`` chunks read and not yet yielded. With one job everything runs in
    this process. A chunk whose worker process dies (a crash, the OOM killer, kill -9) is
    given to another worker; if that one dies too, :class:`~mmbdeid.errors.InputError`
    names the chunk's first record and the run stops."""
    if jobs <= 1:
        function = factory(*args)
        for chunk in chunks:
            yield chunk, function(chunk)
        return
    chunks = iter(chunks)
    limit = jobs * IN_FLIGHT_PER_JOB
    queued: deque = deque()         # (index, chunk) read, waiting for a worker
    finished: dict = {}             # index -> (chunk, result), waiting for its turn
    read = yielded = 0
    more = True
    with _Workers(factory, args, jobs) as workers:
        while True:
            while yielded in finished:
                chunk, result = finished.pop(yielded)
                if isinstance(result, _Raised):
                    raise result.error
                yield chunk, result
                yielded += 1
            while more and read - yielded < limit:
                chunk = next(chunks, _END)
                if chunk is _END:
                    more = False
                else:
                    queued.append((read, chunk))
                    read += 1
            if not more and yielded == read:
                break
            workers.step(queued, finished)


class LocalEngine:
    """Worker processes on this machine (``--jobs N``)."""

    def __init__(self, jobs: int):
        self.jobs = jobs

    def map_ordered(self, factory: Callable, args: tuple, chunks: Iterable) -> Iterator:
        return ordered_map(factory, args, chunks, self.jobs)

    def detector(self, detection: DetectionConfig, stats_path: str) -> Tuple[Callable, tuple]:
        """(factory, args) of the pass-2 function in each worker."""
        return ChunkWorker, (detection, stats_path)

    def extender(self, detection: DetectionConfig) -> Tuple[Callable, tuple]:
        """(factory, args) of the consistency pass's function in each worker."""
        from .thread_names import ChunkExtender
        return ChunkExtender, ("", detection)

    def mention_finder(self, detection: DetectionConfig, digest: str, payload: bytes
                       ) -> Tuple[Callable, tuple]:
        """(factory, args) of the person modes' pass-3 function in each worker (the fixed
        map, ``payload``, after its SHA-256 ``digest``)."""
        from .person_pass import ChunkMentions
        return ChunkMentions, ("", digest, payload, detection)

