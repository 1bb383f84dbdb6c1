"""A whole ``scrub`` run: pass 1 (statistics), pass 2 (scrubbing), outputs, summary.

Engines only differ in how chunks of posts are mapped to results (``map_ordered``): the
local engine uses a process pool, the Dask engine a cluster. Everything else — reading,
bad-record handling, atomic outputs, progress and the summary — is here, once.
"""
import json
import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from .engine import ChunkScrubber, chunked, count_chunk
from .io import RecordWriter, atomic_output, read_posts
from .progress import Progress
from .stats import CorpusStats, StatsBuilder, build_store

LABEL_ORDER = ("NAME", "USER", "EMAIL", "URL", "PHONE")


@dataclass
class Summary:
    posts: int = 0
    tokens: int = 0
    rejected: int = 0
    removed: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    stats_reused: bool = False

    def lines(self):
        removed = ", ".join("%s %d" % (label, self.removed.get(label, 0))
                            for label in LABEL_ORDER)
        rate = self.posts / self.seconds if self.seconds else 0.0
        yield "scrubbed %d posts, %d tokens in %.1f s (%.0f posts/s)" % (
            self.posts, self.tokens, self.seconds, rate)
        yield "removed: " + removed
        if self.rejected:
            yield "rejected %d bad records (see the reject file)" % self.rejected
        if self.stats_reused:
            yield "corpus statistics reused from --stats"


class RejectLog:
    """Bad records with their reasons, one JSON line each (``--skip-bad``)."""

    def __init__(self, handle):
        self.handle = handle
        self.count = 0

    def __call__(self, bad) -> None:
        self.count += 1
        self.handle.write(bad.as_json() + "\n")


def _ignore(bad) -> None:
    """Pass 2 re-reads the dump: bad records were logged by pass 1 already."""


MapOrdered = Callable[[Callable, tuple, Iterator], Iterator]


def build_stats(dump: str, stats_path: str, map_ordered: MapOrdered, on_bad=None,
                quiet: bool = False) -> int:
    """Pass 1: count every post (in chunks, by the engine) into a new store at
    ``stats_path``. Returns the number of posts read."""
    progress = Progress("pass 1/2 statistics", quiet=quiet)
    posts = (record.fields for record in read_posts(dump, on_bad=on_bad))
    def fill(builder: StatsBuilder) -> None:
        for chunk, counts in map_ordered(_count_factory, (), chunked(posts)):
            builder.add_counts(counts)
            progress.update(len(chunk))

    build_store(fill, stats_path).close()
    progress.close()
    return progress.posts


def _count_factory():
    return count_chunk


def validate_only(dump: str, on_bad=None, quiet: bool = False) -> int:
    """Pass 1 with statistics reused: still read every record before any output exists."""
    progress = Progress("pass 1/2 checking records", quiet=quiet)
    for _ in read_posts(dump, on_bad=on_bad):
        progress.update(1)
    progress.close()
    return progress.posts


def scrub_dump(dump: str, output: str, fmt: str, model_path: str, map_ordered: MapOrdered,
               threshold: Optional[float] = None, spans_path: Optional[str] = None,
               stats_path: Optional[str] = None, rejects_path: Optional[str] = None,
               quiet: bool = False, scrubber: Optional[Callable] = None) -> Summary:
    """Both passes; outputs appear only when everything succeeded.

    ``scrubber(model_path, stats_path, threshold)`` gives the ``(factory, args)`` of the
    pass-2 function for the engine's workers (the Dask engine ships file contents); by
    default :class:`ChunkScrubber` opens the local files."""
    started = time.monotonic()
    summary = Summary()
    with tempfile.TemporaryDirectory(prefix="mmbdeid-") as scratch, \
            _optional_output(rejects_path) as rejects_handle:
        rejects = RejectLog(rejects_handle) if rejects_handle is not None else None
        if stats_path and os.path.exists(stats_path):
            CorpusStats.load(stats_path).close()          # fail early on a bad file
            total = validate_only(dump, rejects, quiet)
            summary.stats_reused = True
        else:
            stats_path = stats_path or os.path.join(scratch, "stats.sqlite")
            total = build_stats(dump, stats_path, map_ordered, rejects, quiet)
        summary.rejected = rejects.count if rejects else 0

        factory, args = ChunkScrubber, (model_path, stats_path, threshold)
        if scrubber is not None:
            factory, args = scrubber(*args)
        progress = Progress("pass 2/2 scrubbing", total=total, quiet=quiet)
        posts = (record.fields for record in
                 read_posts(dump, on_bad=_ignore if rejects is not None else None))
        with atomic_output(output) as out, _optional_output(spans_path) as spans_out:
            writer = RecordWriter(out, fmt)
            for chunk, results in map_ordered(factory, args, chunked(posts)):
                for fields, (text, spans, n_tokens) in zip(chunk, results):
                    writer.write(dict(fields, text=text))
                    summary.posts += 1
                    summary.tokens += n_tokens
                    summary.removed.update(span.label for span in spans)
                    if spans_out is not None:
                        spans_out.write(spans_line(fields["id"], spans))
                progress.update(len(chunk))
        progress.close()
    summary.seconds = time.monotonic() - started
    return summary


def spans_line(post_id, spans) -> str:
    return json.dumps({"id": post_id, "spans": [
        {"start": s.start, "end": s.end, "label": s.label, "prob": round(s.score, 6)}
        for s in spans]}, ensure_ascii=False) + "\n"


class _optional_output:
    """``atomic_output`` when a path is given, else a no-op yielding None."""

    def __init__(self, path):
        self._context = atomic_output(path) if path else None

    def __enter__(self):
        return self._context.__enter__() if self._context else None

    def __exit__(self, *exc):
        return self._context.__exit__(*exc) if self._context else False
