"""The local engine: the two passes of ``scrub`` over chunks of posts, on all cores.

Pass 1 counts the corpus statistics of each chunk (:class:`~mmbdeid.model.stats.PartialCounts`)
and the main process adds them to the on-disk store; pass 2 scrubs each chunk. Chunks go to
a process pool with a bounded number in flight and come back in input order, so the output
is the same as a single-job run and memory does not grow with the dump.

The per-chunk functions (:func:`count_chunk`, :class:`ChunkDetector`) are shared with the
Dask engine.
"""
import contextlib
import multiprocessing
import os
import signal
from collections import deque
from typing import Callable, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..model.stats import PartialCounts
from ..spans import Span
from ..text.document import Document
from .config import DetectionConfig

CHUNK_POSTS = 200
IN_FLIGHT_PER_JOB = 4


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunked(items: Iterable, size: int = CHUNK_POSTS) -> Iterator[list]:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# -- work on one chunk (runs in a worker) ----------------------------------------------
def count_chunk(posts: Sequence[dict]) -> PartialCounts:
    """Pass 1: the statistics counts of some posts."""
    counts = PartialCounts()
    for fields in posts:
        counts.add(Document.from_post(fields))
    return counts


class Detected(NamedTuple):
    """Pass 2's result for one post."""
    spans: List[Span]
    tokens: int
    text: Optional[str]         # the placeholder text, when the workers render it


class ChunkDetector:
    """Pass 2 for one process: the model and statistics are opened once, then each chunk's
    posts are analysed (:class:`~mmbdeid.detect.analyzer.Analyzer`)."""

    def __init__(self, detection: DetectionConfig, stats_path: str):
        from ..detect.analyzer import Analyzer
        from ..model.stats import CorpusStats
        from ..model.tagger import NameTagger
        from ..output.operators import PlaceholderOperator
        self.analyzer = Analyzer.build(NameTagger.load(detection.model_path),
                                       CorpusStats.load(stats_path),
                                       threshold=detection.threshold,
                                       allow=detection.allow, deny=detection.deny)
        self.operator = PlaceholderOperator() if detection.render_placeholders else None

    def __call__(self, posts: Sequence[dict]) -> List[Detected]:
        documents = [Document.from_post(fields) for fields in posts]
        self.analyzer.prefetch(documents)
        results = []
        for fields, document in zip(posts, documents):
            spans = self.analyzer.analyze(document)
            text = None
            if self.operator is not None:
                text = self.operator.rewrite(fields, spans)[0]["text"]
            results.append(Detected(spans, len(document), text))
        return results


_worker_function: Optional[Callable] = None


def _init_worker(factory: Callable, args: tuple) -> None:
    # Ctrl-C goes to the main process, which stops the pool and removes partial output;
    # Pool.terminate() kills workers with SIGTERM, so they must not inherit the main
    # process's SIGTERM -> KeyboardInterrupt handler (a worker unwinding while it holds the
    # task-queue lock would leave the others blocked for ever).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    global _worker_function
    _worker_function = factory(*args)


def _run_in_worker(chunk):
    return _worker_function(chunk)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _worker_signals():
    """Ctrl-C and SIGTERM are held back while workers are forked; each worker unblocks
    them in ``_init_worker`` once its own dispositions are set. Otherwise a SIGTERM from
    Pool.terminate() reaching a worker before its initializer ran would hit the inherited
    KeyboardInterrupt handler and be dropped when the initializer resets it, leaving the
    worker alive and the pool's join waiting for ever. The main process receives a
    signal held back here as soon as the workers exist."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# -- ordered parallel map --------------------------------------------------------------
def ordered_map(factory: Callable, args: tuple, chunks: Iterable, jobs: int) -> Iterator:
    """``factory(*args)`` builds the per-process function; it is applied to every chunk,
    ``(chunk, result)`` pairs yielded in input order. With one job everything runs in this
    process."""
    if jobs <= 1:
        function = factory(*args)
        for chunk in chunks:
            yield chunk, function(chunk)
        return
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    with _worker_signals():
        pool = context.Pool(jobs, initializer=_init_worker, initargs=(factory, args))
    try:
        pending: deque = deque()
        for chunk in chunks:
            pending.append((chunk, pool.apply_async(_run_in_worker, (chunk,))))
            if len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                done, result = pending.popleft()
                yield done, result.get()
        while pending:
            done, result = pending.popleft()
            yield done, result.get()
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


class LocalEngine:
    """Worker processes on this machine (``--jobs N``)."""

    def __init__(self, jobs: int):
        self.jobs = jobs

    def map_ordered(self, factory: Callable, args: tuple, chunks: Iterable) -> Iterator:
        return ordered_map(factory, args, chunks, self.jobs)

    def detector(self, detection: DetectionConfig, stats_path: str) -> Tuple[Callable, tuple]:
        """(factory, args) of the pass-2 function in each worker."""
        return ChunkDetector, (detection, stats_path)

