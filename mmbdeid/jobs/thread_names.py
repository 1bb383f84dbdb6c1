"""The thread-names pass of ``scrub``: one name, one decision per thread, over a whole dump
(the decision itself: :mod:`mmbdeid.detect.thread_names`), and its switch
(:func:`runs_thread_names`).

Threads need not be contiguous in a dump, and a dump may hold millions of posts, so the
evidence travels as little as it can (:mod:`mmbdeid.detect.thread_names`):

1. the detection pass (the workers) finds each post's spans as before; here, in the main
   process, the words a post removed with high probability (a few, most posts none) are
   added to its thread's and its author's sets
   (:class:`~mmbdeid.detect.thread_names.DumpEvidence`, which the API and
   ``Analyzer.analyze_all`` use too), and its spans go to a scratch file;
2. the next pass reads the dump again with those spans: a post given the words of its
   scopes that its text may hold (a substring test here, exact in the worker) goes to a
   worker with them, which finds their other occurrences without running the model again
   (:meth:`~mmbdeid.detect.thread_names.ThreadNames.extend`) and, in a per-post mode, writes the
   output text; every other post is only rewritten.
"""
import json
from dataclasses import replace
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..detect.thread_names import DumpEvidence, Types
from ..files.diskerrors import scratch_text_file
from ..spans import Span
from ..text.document import Document
from .config import DetectionConfig, RunConfig
from .first_pass import reread
from .input_watch import record_digest
from .chunks import Detected, chunked, rewrite
from .progress import Progress


def runs_thread_names(detection: DetectionConfig) -> bool:
    """Whether the run's chain has the consistency step: the switch of the extra pass."""
    return detection.chain.runs("consistency")


class FoundSpans:
    """Pass 2's spans of each post, kept in a scratch file (a dump may hold millions of
    posts) with the record's digest, and read back in pass 3 beside the dump's records
    read again: a record that is not the one pass 2 saw stops the run."""

    def __init__(self):
        self._file = scratch_text_file()
        self.posts = 0

    def __enter__(self) -> "FoundSpans":
        return self

    def __exit__(self, *exc) -> None:
        self._file.close()

    def add(self, fields: dict, spans: Sequence[Span]) -> None:
        self._file.write(json.dumps([record_digest(fields),
                                     [list(span) for span in spans]]) + "\n")
        self.posts += 1

    def read_back(self, records: Iterator, watch) -> Iterator[Tuple[int, object, List[Span]]]:
        """``(index, record, spans)`` per record of ``records`` (the dump again, checked
        by :class:`~mmbdeid.jobs.input_watch.InputWatch` ``watch``)."""
        self._file.seek(0)
        lines = iter(self._file)
        for index, record in enumerate(watch.records(records, "pass 3/3")):
            digest, items = json.loads(next(lines, "[null, []]"))
            if digest != record_digest(record.fields):
                raise watch.changed_record(record, "pass 3/3", "pass 2/3")
            yield index, record, [Span(*item) for item in items]


def names_completed(config: RunConfig, engine, detected: Iterator[Detected], watch
                    ) -> Iterator[Detected]:
    """Pass 3 of a per-post mode: ``detected`` (pass 2's posts of ``config``, a
    ``scrub_setup`` config) with each post's spans completed by the words its thread and
    author removed, and its output text."""
    detection = replace(config.detection, render_placeholders=True)
    for fields, result in consistent(
            detected, reread(config), detection, engine,
            lambda total: Progress("pass 3/3 scrubbing", total=total, quiet=config.quiet),
            watch):
        yield result._replace(fields=fields)
    watch.check_file("pass 3/3")    # appended to after it was read?


def consistent(detected: Iterable, reread: Iterator, detection: DetectionConfig,
               engine, progress: Callable, watch) -> Iterator[Tuple[dict, Detected]]:
    """``(fields, Detected)`` per post, in input order: ``detected`` (pass 2's results,
    with ``fields`` and ``spans``) completed by the consistency pass over ``reread`` (the
    dump's records again, as :class:`~mmbdeid.jobs.input_watch.InputWatch` ``watch``
    checks them: each must be the record pass 2 saw, else the run stops);
    ``progress(total)`` starts this pass's progress report."""
    evidence = DumpEvidence.of(detection.chain)
    with FoundSpans() as found:
        for post in detected:
            evidence.observe(post.fields, post.spans)
            found.add(post.fields, post.spans)
        report = progress(found.posts)

        def work() -> Iterator[Tuple[dict, list, Optional[Types]]]:
            for index, record, spans in found.read_back(reread, watch):
                yield record.fields, spans, evidence.words_for(record.fields, index, spans)

        factory, args = engine.extender(detection)
        for chunk, results in engine.map_ordered(factory, args, chunked(work())):
            for (fields, _, _), result in zip(chunk, results):
                yield fields, result
            report.update(len(chunk))
        report.close()


class ChunkExtender:
    """The consistency pass for one process: each post's spans completed with the other
    occurrences of its scopes' words, and (a per-post mode) its output text.
    ``run``: the run it serves, which an engine that caches it per run (Dask) forgets it
    by when the run ends (it holds the user's allow and deny terms)."""

    def __init__(self, run: str, detection: DetectionConfig):
        from ..detect.analyzer import Analyzer
        from ..output.operators import post_operator
        self.analyzer = Analyzer.for_extension(detection.chain)
        self.operator = (post_operator(detection.mode, detection.hash_key)
                         if detection.render_placeholders else None)

    def __call__(self, items: Sequence[Tuple[dict, List[Span], Optional[Types]]]
                 ) -> List[Detected]:
        results = []
        for fields, spans, types in items:
            if types:
                spans = self.analyzer.extend(Document.from_post(fields), spans, types)
            text = replaced = rewritten = None
            if self.operator is not None:
                text, replaced, rewritten = rewrite(self.operator, fields, spans)
            results.append(Detected(spans, 0, text, replaced, rewritten=rewritten))
        return results
