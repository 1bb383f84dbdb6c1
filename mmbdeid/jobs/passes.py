"""Whole-dump jobs: ``scrub`` (pass 1 statistics, :mod:`.first_pass`; pass 2 scrubbing,
and in the person modes pass 3 writing), ``link`` and ``review``, with their outputs and
summary.

Engines only differ in how chunks of posts are mapped to results: the local engine
(:class:`~mmbdeid.jobs.local.LocalEngine`) uses a process pool, the Dask engine
(:class:`~mmbdeid.jobs.dask_cluster.DaskEngine`) a cluster. Both have ``map_ordered(factory,
args, chunks)`` and ``detector(detection, stats_path)``. Everything else — reading,
bad-record handling, atomic outputs, progress and the summary — is here, once. Each job
takes a :class:`~mmbdeid.jobs.config.RunConfig`.
"""
import contextlib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterator, List, Optional, Tuple

from ..files.atomic import atomic_output, atomic_path, optional_output, output_if_written
from ..files.diskerrors import temporary_directory_name
from ..files.formats import PARQUET
from ..files.parquet import ColumnKinds
from ..files.post_writer import post_output
from ..files.scratch import scratch_directory
from ..kinds import DEFAULT_KINDS, LABELS
from ..model.stats import CorpusStats
from ..model.stats_copy import reused_store
from ..output.operators import OPERATORS, Replaced, post_operator
from ..spans import Span
from .chunks import Detected, chunked, mention_counts
from .collection import fewer_collections
from .config import RunConfig
from .first_pass import DumpScan, build_stats, check_stats_source, reread, validate_only
from .input_watch import InputWatch
from .person_pass import linked, people_rewritten
from .thread_names import names_completed, runs_thread_names
from .progress import Progress

MAX_WARNINGS_SHOWN = 20


@dataclass
class Summary:
    """What a run says at its end. ``found``: the mentions detection found in pass 2,
    counted alike by every job (the same dump gives the same figures); ``removed``: the
    mentions ``scrub`` wrote out, counted the same way, which the consistency pass may
    add to and a person mode's keep steps take from (None for a job that writes no
    posts)."""
    posts: int = 0
    tokens: int = 0
    rejected: int = 0
    found: Counter = field(default_factory=Counter)
    removed: Optional[Counter] = None
    seconds: float = 0.0
    stats_reused: bool = False
    people: int = 0
    verb: str = "scrubbed"
    warnings: List = field(default_factory=list)
    field_names: List[str] = field(default_factory=list)    # of the dump, for a CSV output
    column_kinds: Optional[dict] = None     # types seen per field, for a Parquet output
    _warned: set = field(default_factory=set, repr=False)

    def warn(self, duplicate) -> None:
        """Collects duplicate-name warnings, each (name, scope group) once."""
        key = (duplicate.name, duplicate.group)
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(duplicate)

    def count_removed(self, text: str, parts: List[Span]) -> None:
        self.removed.update(mention_counts(text, parts))

    def lines(self):
        def by_label(counts: Counter) -> str:
            # the default kinds always, another kind where something of it was found
            return ", ".join("%s %d" % (label, counts.get(label, 0)) for label in LABELS
                             if label in DEFAULT_KINDS or counts.get(label))

        rate = self.posts / self.seconds if self.seconds else 0.0
        yield "%s %d posts, %d tokens in %.1f s (%.0f posts/s)" % (
            self.verb, self.posts, self.tokens, self.seconds, rate)
        yield "found: " + by_label(self.found)
        if self.removed is not None:
            yield "removed: " + by_label(self.removed)
        if self.rejected:
            yield "rejected %d bad records (see the reject file)" % self.rejected
        if self.stats_reused:
            yield "corpus statistics reused from --stats"
        if self.people:
            yield "%d people linked" % self.people
        for duplicate in self.warnings[:MAX_WARNINGS_SHOWN]:
            yield "warning: " + duplicate.public_message()
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


def _reject_file(path: Optional[str]):
    """The reject file of ``--skip-bad``, made only when a record is rejected (private:
    it holds raw posts)."""
    return output_if_written(path, private=True) if path else contextlib.nullcontext()



@contextlib.contextmanager
def detected_posts(config: RunConfig, engine, summary: Summary, passes: int,
              work: str = "finding names") -> Iterator[Tuple[Iterator[Detected],
                                                            InputWatch]]:
    """Pass 1 (statistics, or only record checks when ``stats_path`` exists), then an
    iterator over every post's :class:`Detected`, in input order, and the watch over
    the dump for a later pass."""
    scan = DumpScan(kinds=ColumnKinds(config.dump) if config.output_format == PARQUET
                    else None)
    with scratch_directory() as scratch, \
            _reject_file(config.rejects_path) as rejects_handle, \
            _stats_location(config, scratch) as (stats_path, reused):
        rejects = RejectLog(rejects_handle) if rejects_handle is not None else None
        if reused:      # stats_path: the private copy every pass and worker reads
            # opened now to fail early on a bad file; errors name the user's file
            stats = CorpusStats.load(stats_path, immutable=True, shown_as=config.stats_path)
            stats.close()
            total = validate_only(config.dump, rejects, config.quiet, passes, scan,
                                  config.max_post_chars)
            check_stats_source(stats, scan, config.stats_path)
            summary.stats_reused = True
        else:
            total = build_stats(config.dump, stats_path, engine, rejects, config.quiet,
                                passes, scan, config.max_post_chars, in_place=True,
                                shown_as=config.stats_path or temporary_directory_name())
        summary.field_names = scan.field_names
        summary.column_kinds = scan.column_kinds
        summary.rejected = rejects.count if rejects else 0
        factory, args = engine.detector(config.detection, stats_path)
        watch = scan.input_watch

        def posts_with_spans() -> Iterator[Detected]:
            reader = "pass 2/%d" % passes
            progress = Progress("%s %s" % (reader, work), total=total, quiet=config.quiet)
            posts = (record.fields for record in watch.records(reread(config), reader))
            for chunk, results in engine.map_ordered(factory, args, chunked(posts)):
                for fields, result in zip(chunk, results):
                    summary.tokens += result.tokens
                    summary.found.update(result.found)
                    yield result._replace(fields=fields)
                progress.update(len(chunk))
            progress.close()
            watch.check_file(reader)        # appended to after it was read?

        yield posts_with_spans(), watch


@contextlib.contextmanager
def _stats_location(config: RunConfig, scratch: str) -> Iterator[Tuple[str, bool]]:
    """(path of the statistics store, whether it is reused). A reused ``--stats`` store
    is read from a private copy in the scratch directory, its lock held shared for the
    run (:mod:`~mmbdeid.model.stats_copy`); a new one is built beside it and renamed into
    place only when the whole run succeeded."""
    path = config.stats_path
    if path and os.path.exists(path) and not config.stats_rebuild:
        with reused_store(path, scratch) as copy:
            yield copy, True
    elif path:
        with atomic_path(path, private=True) as temporary:
            yield temporary, False
    else:
        yield os.path.join(scratch, "stats.sqlite"), False


@fewer_collections()
def scrub_dump(config: RunConfig, engine) -> Summary:
    """All passes; outputs appear only when everything succeeded.

    Per-post output modes (``placeholder``, ``mask``, ``hash``): pass 1 statistics, pass 2
    scrubbing in the workers. Person modes (``pseudonym``, ``surrogate``): pass 2 finds the names (kept in
    a scratch file) and links them to people, unless ``config.person_map`` gives the
    people; pass 3 rewrites the posts."""
    started = time.monotonic()
    summary = Summary(removed=Counter())
    config, passes, work = scrub_setup(config)
    by_people = OPERATORS[config.mode].needs_people
    with detected_posts(config, engine, summary, passes, work) as (detected, watch), \
            _post_output(config, summary) as writer, \
            optional_output(config.spans_path, private=by_people) as spans_out:
        # in the person modes the spans carry each mention's person id: private, like the map
        for fields, record, replaced in scrubbed_posts(config, engine, summary, detected,
                                                       watch):
            writer.write(record)
            summary.posts += 1
            if spans_out is not None:
                spans_out.write(spans_line(fields["id"], replaced))
    summary.seconds = time.monotonic() - started
    return summary


def scrub_setup(config: RunConfig) -> Tuple[RunConfig, int, str]:
    """``config`` as scrub runs it (the workers find the linker's mentions in a person
    mode; the placeholders are written after the consistency pass), its number of passes
    and what pass 2 is called."""
    by_people = OPERATORS[config.mode].needs_people
    consistency = runs_thread_names(config.detection)
    if by_people:
        config = replace(config, detection=replace(config.detection, mentions=True))
    if consistency and not by_people:
        config = replace(config, detection=replace(config.detection,
                                                   render_placeholders=False))
    if by_people or consistency:
        return config, 3, "finding names"
    return config, 2, "scrubbing"


def scrubbed_posts(config: RunConfig, engine, summary: Summary,
                   detected: Iterator[Detected], watch: InputWatch
                   ) -> Iterator[Tuple[dict, dict, List[Replaced]]]:
    """What scrub writes, from pass 2's posts (``detected``, of a ``scrub_setup`` config):
    ``(fields, output record, what it replaced)`` per post, in input order, after the
    consistency pass and, in a person mode, linking and pass 3. ``review`` reads the same,
    so the page shows what scrub removes."""
    if OPERATORS[config.mode].needs_people:
        yield from people_rewritten(config, engine, detected, watch, summary)
        return
    if runs_thread_names(config.detection):
        detected = names_completed(config, engine, detected, watch)
    operator = post_operator(config.mode, config.detection.hash_key)
    for post in detected:
        record, replaced = ((dict(post.fields, text=post.text, **(post.rewritten or {})),
                             post.replaced)
                            if post.replaced is not None     # the workers did it
                            else operator.rewrite(post.fields, post.spans))
        if summary.removed is not None:
            summary.count_removed(post.fields["text"],
                                  [part for r in replaced for part in r.parts])
        yield post.fields, record, replaced


@fewer_collections()
def link_dump(config: RunConfig, engine) -> Summary:
    """Passes 1-2, then the person map written to ``config.output`` (duplicate-name
    warnings as comments at its top)."""
    from ..people.linker import Linker

    started = time.monotonic()
    summary = Summary(verb="linked names in")
    config = replace(config, detection=replace(config.detection, mentions=True))
    linker = Linker(config.scope)
    with detected_posts(config, engine, summary, 2) as (detected, _):
        for post in detected:
            linker.observe(post.fields, post.spans, post.mentions)
            summary.posts += 1
    people = linked(linker, config, summary)
    with atomic_output(config.output, private=True) as handle:
        people.write(handle, [w.message() for w in summary.warnings])
    summary.people = len(people)
    summary.seconds = time.monotonic() - started
    return summary


def _post_output(config: RunConfig, summary: Summary):
    """The scrubbed dump's writer, all or nothing: a CSV/TSV header or Parquet columns
    hold every field of the dump (pass 1 saw them all), under the dump's own names, and
    the fields the mode rewrites (the author) hold text."""
    return post_output(config.output, config.output_format, summary.field_names,
                       like=config.dump, column_kinds=summary.column_kinds,
                       text_fields=OPERATORS[config.mode].rewritten_fields())


def spans_line(post_id, replaced: List[Replaced]) -> str:
    """One line of the standoff spans file: one entry per replacement in the output (a
    mention: ``Mary Jane`` is one), with the detector that found it (``source``) and, in
    the person modes, the ``person`` of a name or username. An entry that joins several
    detected spans lists them as ``tokens``, each with its own ``prob`` and ``source``
    (the entry's are those of its most probable token), so every token's probability is
    still in the file."""
    entries = []
    for span, person, parts in replaced:
        entry = {"start": span.start, "end": span.end, "label": span.label,
                 "prob": round(span.score, 6), "source": span.source}
        if person:
            entry["person"] = person
        if len(parts) > 1:
            entry["tokens"] = [{"start": p.start, "end": p.end, "prob": round(p.score, 6),
                                "source": p.source} for p in parts]
        entries.append(entry)
    return json.dumps({"id": post_id, "spans": entries}, ensure_ascii=False) + "\n"
