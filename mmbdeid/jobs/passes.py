"""Whole-dump jobs: ``scrub`` (pass 1 statistics, pass 2 scrubbing, and in the person modes
pass 3 writing), ``link`` and ``review``, with their outputs and summary.

Engines only differ in how chunks of posts are mapped to results (``map_ordered``): the
local engine uses a process pool, the Dask engine a cluster. Everything else — reading,
bad-record handling, atomic outputs, progress and the summary — is here, once.
"""
import contextlib
import csv
import json
import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional

from ..jobs.local import ChunkScrubber, chunked, count_chunk
from ..files.atomic import atomic_output, optional_output
from ..files.posts import RecordWriter, read_posts
from ..jobs.progress import Progress
from ..spans import Span
from ..model.stats import CorpusStats, StatsBuilder, build_store

LABEL_ORDER = ("NAME", "USER", "EMAIL", "URL", "PHONE")
MAX_WARNINGS_SHOWN = 20


@dataclass
class Summary:
    posts: int = 0
    tokens: int = 0
    rejected: int = 0
    removed: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    stats_reused: bool = False
    people: int = 0
    verb: str = "scrubbed"
    warnings: List = field(default_factory=list)
    _warned: set = field(default_factory=set, repr=False)

    def warn(self, duplicate) -> None:
        """Collects duplicate-name warnings, each (name, scope group) once."""
        key = (duplicate.name, duplicate.group)
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(duplicate)

    def lines(self):
        removed = ", ".join("%s %d" % (label, self.removed.get(label, 0))
                            for label in LABEL_ORDER)
        rate = self.posts / self.seconds if self.seconds else 0.0
        yield "%s %d posts, %d tokens in %.1f s (%.0f posts/s)" % (
            self.verb, self.posts, self.tokens, self.seconds, rate)
        yield "removed: " + removed
        if self.rejected:
            yield "rejected %d bad records (see the reject file)" % self.rejected
        if self.stats_reused:
            yield "corpus statistics reused from --stats"
        if self.people:
            yield "%d people linked" % self.people
        for duplicate in self.warnings[:MAX_WARNINGS_SHOWN]:
            yield "warning: " + duplicate.message()
        if len(self.warnings) > MAX_WARNINGS_SHOWN:
            yield "warning: %d more duplicate names (all listed by 'mmbdeid link')" % (
                len(self.warnings) - MAX_WARNINGS_SHOWN)


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
                quiet: bool = False, passes: int = 2) -> int:
    """Pass 1: count every post (in chunks, by the engine) into a new store at
    ``stats_path``. Returns the number of posts read."""
    progress = Progress("pass 1/%d statistics" % passes, quiet=quiet)
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


def validate_only(dump: str, on_bad=None, quiet: bool = False, passes: int = 2) -> int:
    """Pass 1 with statistics reused: still read every record before any output exists."""
    progress = Progress("pass 1/%d checking records" % passes, quiet=quiet)
    for _ in read_posts(dump, on_bad=on_bad):
        progress.update(1)
    progress.close()
    return progress.posts


@dataclass
class Detection:
    """What every job but ``stats`` needs: the model, the run's options and engine."""
    model_path: str
    map_ordered: MapOrdered
    options: dict = field(default_factory=dict)     # Scrubber keywords: threshold, allow, deny
    stats_path: Optional[str] = None
    quiet: bool = False
    scrubber: Optional[Callable] = None             # the engine's (factory, args) maker


@contextlib.contextmanager
def _detected(dump: str, detection: Detection, summary: Summary, passes: int,
              rejects_path: Optional[str] = None,
              work: str = "finding names") -> Iterator[Iterator[tuple]]:
    """Pass 1 (statistics, or only record checks when ``stats_path`` exists), then an
    iterator over ``(fields, placeholder text, spans, tokens)`` per post, in input order."""
    with tempfile.TemporaryDirectory(prefix="mmbdeid-") as scratch, \
            optional_output(rejects_path) as rejects_handle:
        rejects = RejectLog(rejects_handle) if rejects_handle is not None else None
        stats_path = detection.stats_path
        if stats_path and os.path.exists(stats_path):
            CorpusStats.load(stats_path).close()          # fail early on a bad file
            total = validate_only(dump, rejects, detection.quiet, passes)
            summary.stats_reused = True
        else:
            stats_path = stats_path or os.path.join(scratch, "stats.sqlite")
            total = build_stats(dump, stats_path, detection.map_ordered, rejects,
                                detection.quiet, passes)
        summary.rejected = rejects.count if rejects else 0
        factory, args = ChunkScrubber, (detection.model_path, stats_path, detection.options)
        if detection.scrubber is not None:
            factory, args = detection.scrubber(*args)

        def posts_with_spans() -> Iterator[tuple]:
            progress = Progress("pass 2/%d %s" % (passes, work), total=total,
                                quiet=detection.quiet)
            posts = (record.fields for record in
                     read_posts(dump, on_bad=_ignore if rejects is not None else None))
            for chunk, results in detection.map_ordered(factory, args, chunked(posts)):
                for fields, (text, spans, n_tokens) in zip(chunk, results):
                    summary.tokens += n_tokens
                    yield fields, text, spans, n_tokens
                progress.update(len(chunk))
            progress.close()

        yield posts_with_spans()


def scrub_dump(dump: str, output: str, fmt: str, detection: Detection,
               spans_path: Optional[str] = None, rejects_path: Optional[str] = None,
               mode: str = "placeholder", person_map: Optional[str] = None,
               scope: str = "board", seed: int = 0) -> Summary:
    """All passes; outputs appear only when everything succeeded.

    ``placeholder`` mode: pass 1 statistics, pass 2 scrubbing. Person modes (``pseudonym``,
    ``surrogate``): pass 2 finds the names (kept in a scratch file) and links them to
    people, unless ``person_map`` gives the people; pass 3 writes the output."""
    started = time.monotonic()
    summary = Summary()
    passes = 2 if mode == "placeholder" else 3
    work = "scrubbing" if mode == "placeholder" else "finding names"
    with _detected(dump, detection, summary, passes, rejects_path, work) as detected:
        if mode == "placeholder":
            with atomic_output(output) as out, optional_output(spans_path) as spans_out:
                writer = RecordWriter(out, fmt)
                for fields, text, spans, _ in detected:
                    writer.write(dict(fields, text=text))
                    summary.posts += 1
                    summary.removed.update(span.label for span in spans)
                    if spans_out is not None:
                        spans_out.write(spans_line(fields["id"], spans))
        else:
            _scrub_people(dump, output, fmt, detected, summary, detection, spans_path,
                          rejects_path is not None, mode, person_map, scope, seed)
    summary.seconds = time.monotonic() - started
    return summary


def _scrub_people(dump, output, fmt, detected, summary, detection, spans_path, skipping,
                  mode, person_map, scope, seed) -> None:
    from ..people.linking import Linker
    from ..people.personmap import PersonMap
    from ..output.operators import Pseudonymizer

    linker = Linker(scope)
    posts_found = 0
    with tempfile.TemporaryFile("w+", encoding="utf-8") as found:
        for fields, _, spans, _ in detected:
            linker.observe(fields, spans)
            found.write(json.dumps([list(span) for span in spans]) + "\n")
            posts_found += 1
        found.seek(0)
        people = (PersonMap.read(person_map) if person_map
                  else linker.person_map(warn=summary.warn))
        pseudonymizer = Pseudonymizer(people, linker.scopes, mode, scope, seed,
                                      allow=detection.options.get("allow", ()),
                                      warn=summary.warn)
        progress = Progress("pass 3/3 writing", total=posts_found, quiet=detection.quiet)
        posts = (record.fields for record in
                 read_posts(dump, on_bad=_ignore if skipping else None))
        with atomic_output(output) as out, optional_output(spans_path) as spans_out:
            writer = RecordWriter(out, fmt)
            for fields, line in zip(posts, found):
                spans = [Span(*item) for item in json.loads(line)]
                record, linked = pseudonymizer.rewrite(fields, spans)
                writer.write(record)
                summary.posts += 1
                summary.removed.update(span.label for span, _ in linked)
                if spans_out is not None:
                    spans_out.write(spans_line(fields["id"], [s for s, _ in linked],
                                               [p for _, p in linked]))
                progress.update(1)
        progress.close()
    summary.people = len(people)


def link_dump(dump: str, map_path: str, detection: Detection, scope: str = "board",
              rejects_path: Optional[str] = None) -> Summary:
    """Passes 1-2, then the person map written to ``map_path`` (duplicate-name warnings
    as comments at its top)."""
    from ..people.linking import Linker

    started = time.monotonic()
    summary = Summary(verb="linked names in")
    linker = Linker(scope)
    with _detected(dump, detection, summary, 2, rejects_path) as detected:
        for fields, _, spans, _ in detected:
            linker.observe(fields, spans)
            summary.posts += 1
            summary.removed.update(span.label for span in spans)
    people = linker.person_map(warn=summary.warn)
    with atomic_output(map_path) as handle:
        people.write(handle, [w.message() for w in summary.warnings])
    summary.people = len(people)
    summary.seconds = time.monotonic() - started
    return summary


REVIEW_FIELDS = ("string", "count", "mean_prob", "label")


def review_dump(dump: str, list_path: str, detection: Detection,
                rejects_path: Optional[str] = None) -> Summary:
    """Passes 1-2, then every distinct string the model would remove (names and usernames,
    compared case-insensitively) with its count, mean probability and commonest label,
    most frequent first, as CSV."""
    started = time.monotonic()
    summary = Summary(verb="reviewed")
    found: Dict[str, list] = {}             # folded string -> [count, prob sum, labels, forms]
    with _detected(dump, detection, summary, 2, rejects_path) as detected:
        for fields, _, spans, _ in detected:
            summary.posts += 1
            for span in spans:
                if span.label not in ("NAME", "USER"):
                    continue
                string = fields["text"][span.start:span.end]
                entry = found.setdefault(string.casefold(), [0, 0.0, Counter(), Counter()])
                entry[0] += 1
                entry[1] += span.score
                entry[2][span.label] += 1
                entry[3][string] += 1
                summary.removed[span.label] += 1
    rows = sorted(found.values(), key=lambda e: (-e[0], e[3].most_common(1)[0][0]))
    with atomic_output(list_path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(REVIEW_FIELDS)
        for count, total, labels, forms in rows:
            writer.writerow([forms.most_common(1)[0][0], count, "%.4f" % (total / count),
                             labels.most_common(1)[0][0]])
    summary.seconds = time.monotonic() - started
    return summary


def spans_line(post_id, spans, people=None) -> str:
    """One line of the standoff spans file; in the person modes each name or username
    span also carries its ``person``."""
    entries = [{"start": s.start, "end": s.end, "label": s.label, "prob": round(s.score, 6)}
               for s in spans]
    for entry, person in zip(entries, people or ()):
        if person:
            entry["person"] = person
    return json.dumps({"id": post_id, "spans": entries}, ensure_ascii=False) + "\n"
