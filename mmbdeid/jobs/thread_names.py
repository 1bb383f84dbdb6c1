"""The thread-names pass of ``scrub``: one name, one decision per thread, over a whole dump
(the decision itself: :mod:`mmbdeid.detect.thread_names`), and its switch
(:func:`runs_thread_names`).

Threads need not be contiguous in a dump, and a dump may hold millions of posts, so the
evidence travels as little as it can (:mod:`mmbdeid.detect.thread_names`):

1. the detection pass (the workers) finds each post's spans as before; here, in the main
   process, the words a post removed with high probability (a few, most posts none) are
   added to its thread's and its author's sets, and its spans go to a scratch file;
2. the next pass reads the dump again with those spans: a post given the words of its
   scopes that its text may hold (a substring test here, exact in the worker) goes to a
   worker with them, which finds their other occurrences without running the model again
   (:meth:`~mmbdeid.detect.thread_names.ThreadNames.extend`) and, in a per-post mode, writes the
   output text; every other post is only rewritten.
"""
import json
import re
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..detect.options import ChainOptions
from ..detect.thread_names import NameEvidence, Seen, Types, can_be_the_name, removed_types
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


def posts_completed(posts: Sequence[dict], documents: Sequence[Document],
                    spans: Sequence[List[Span]], analyzer, chain: ChainOptions
                    ) -> List[List[Span]]:
    """The extra pass on posts held in memory (the API's, taken as one dump): ``spans``
    (``analyzer``'s of each of ``posts``, read as ``documents``) completed as a dump's
    pass 3 completes them, by the same :class:`Evidence` taking in every post in order
    and the same :meth:`~mmbdeid.detect.analyzer.Analyzer.extend`."""
    evidence = Evidence.of(chain)
    if evidence is None:
        return list(spans)
    for fields, found in zip(posts, spans):
        evidence.observe(fields, found)
    return [analyzer.extend(document, found, evidence.words_for(fields, index, found))
            for index, (fields, document, found) in enumerate(zip(posts, documents, spans))]


class Evidence:
    """The main process's side: each post's words and spans taken in as pass 2 yields
    them (:meth:`observe`), then each post's words again (:meth:`words_for`), for a chain
    of ``chain`` (its consistency level and whether authors are scopes)."""

    def __init__(self, chain: ChainOptions):
        self.level = chain.consistency
        self.names = NameEvidence(chain.authors)
        self.posts = 0

    @classmethod
    def of(cls, chain: ChainOptions) -> Optional["Evidence"]:
        """The evidence of a run of ``chain`` (None: the chain has no consistency step)."""
        return cls(chain) if chain.runs("consistency") else None

    def keys(self, fields: dict, index: int) -> List[tuple]:
        return self.names.keys(_field(fields, "board"), _field(fields, "thread"),
                               _field(fields, "author"), index)

    def observe(self, fields: dict, spans: Sequence[Span]) -> None:
        self.names.add(self.keys(fields, self.posts),
                       removed_types(fields["text"], spans, self.level))
        self.posts += 1

    def words_for(self, fields: dict, index: int, spans: Sequence[Span] = ()
                  ) -> Optional[Types]:
        """The words of the post's scopes that its text may hold where ``spans`` (its
        spans so far) do not already remove them as surely (None: none)."""
        keys = self.keys(fields, index)
        text = fields["text"]
        if not (text.isascii() and "<" not in text and "&" not in text):
            return self.names.types(keys) or None
        # What the detector reads is this very text (no markup, references or invisible
        # characters to take out): a word not in it is not there, and one each of whose
        # occurrences written as a name may be (counted as runs of word characters, or as
        # a substring: at least as many as there are) a span as sure already covers adds
        # nothing. So only the text's own runs (and a run less the n of a split n't) and
        # the scopes' few words of other characters are looked up: an author's words
        # grow with the dump, a post's do not.
        lowered = text.lower()
        candidates = dict.fromkeys(_WORD.findall(lowered))
        candidates.update(dict.fromkeys([low[:-1] for low in candidates if low[-1:] == "n"]))
        candidates.update(dict.fromkeys(word for word in self.names.unusual_words(keys)
                                        if word in lowered))
        types = self.names.types_of(keys, candidates)
        if not types:
            return None
        runs: Dict[str, Counter] = defaultdict(Counter)
        for run in _WORD.findall(text):
            low = run.lower()       # only the runs _occurrences reads are counted
            if low in types or (low[-1:] == "n" and low[:-1] in types):
                runs[low][run] += 1
        covered: Dict[str, int] = {}
        for span in spans:
            word = lowered[span.start:span.end]
            seen = types.get(word)
            if seen is not None and span.score >= seen.prob:
                covered[word] = covered.get(word, 0) + 1
        types = {word: seen for word, seen in types.items()
                 if _occurrences(word, seen, lowered, runs) > covered.get(word, 0)}
        return types or None


_WORD = re.compile(r"\w+")


def _occurrences(word: str, seen: Seen, lowered: str, runs: Dict[str, Counter]) -> int:
    """At least as many as the tokens ``word`` is in the text (ASCII; ``lowered``: in lower
    case, ``runs``: its runs of word characters by their lower case) where it is written
    as a name may be (:func:`~mmbdeid.detect.thread_names.can_be_the_name`): the runs equal
    to it (the tokenizer splits at least there) or to it plus the ``n`` of a split ``n't``
    (``do`` of ``don't``), or, for a word with other characters (``o'leary``), its
    occurrences as a substring."""
    if not _WORD.fullmatch(word):
        return lowered.count(word)
    return (sum(count for run, count in runs.get(word, {}).items()
                if can_be_the_name(run, seen))
            + sum(count for run, count in runs.get(word + "n", {}).items()
                  if can_be_the_name(run[:-1], seen)))


def _field(fields: dict, name: str) -> str:
    value = fields.get(name)
    return "" if value is None else str(value)


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
    evidence = Evidence(detection.chain)
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
