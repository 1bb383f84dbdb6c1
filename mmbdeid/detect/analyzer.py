"""The analyzer chain: from a post to the identifier spans to remove.

The chain is built from named steps (:mod:`mmbdeid.detect.registry`, which lists them in
their order): the pattern detectors (e-mail, URL, phone, @handle) and the CRF (threshold),
the other occurrences of words a thread or author removed with high probability, the KEEP
steps of what is not a person's name (drugs, medical terms, places, organisations, titles,
offices, ...), the rule steps that find names the model misses (names after a title or an
office, usernames, spelled-out, separated, hashtag and masked names, sign-offs, the rest of
each name found: these read the spans found before them, as
:class:`~mmbdeid.detect.base.Completer` steps), the user's allow and deny lists, and the
placeholders of an earlier scrub (kept). Each step's spans are merged by its effect (see
``detect/base.py``). The same chain serves ``scrub`` and ``evaluate``/``sweep``: for
evaluation it is built with a span on every token (:data:`~mmbdeid.detect.crf.EVERY_TOKEN`)
and, by default, only the ``model`` and ``filter`` stages, so the metrics measure the model
with its threshold and its filters, and scrubbing can never disagree with them about what
the model and the filters do; ``evaluate --chain scrub`` builds it with the rule steps.
"""
import re
from bisect import bisect_right
from dataclasses import replace
from typing import Iterable, List, Optional, Sequence

from ..kinds import NON_PERSON_LABELS, PATTERN_LABELS
from ..spans import CRF, Span, add_spans, adjacent, drop_inside, raise_spans
from ..text.document import Document
from .base import KEEP, RAISE, Completer, Detector
from .thread_names import ThreadNames, Types
from .options import ChainOptions, chain_options
from .registry import (BY_NAME, FILTER, MODEL, STEP_NAMES, Setup, build_steps, step_names)


_PUNCTUATION = re.compile(r"[^\w\s]+")


class Analyzer:
    """Runs a chain of detectors over documents."""

    def __init__(self, detectors: Sequence[Detector]):
        self.detectors = list(detectors)
        # Asked once, not per post: isinstance of an abstract base's subclass goes through
        # ABCMeta, several times slower than a plain class's.
        self._completes = [isinstance(detector, Completer) for detector in self.detectors]
        self.thread_names = ThreadNames.of(self.detectors)   # None: no consistency step

    @classmethod
    def build(cls, tagger=None, stats=None, options: Optional[ChainOptions] = None,
              **chosen) -> "Analyzer":
        """The one chain builder: the chain of ``options``
        (:class:`~mmbdeid.detect.options.ChainOptions`, or its fields given as keywords,
        which also change those of ``options``) for ``tagger``. ``stats``: the corpus
        statistics of the dump being scrubbed (the model's features, and the board's
        usernames). The named variants below change only the options."""
        options = chain_options(options, **chosen)
        setup = Setup(tagger, stats, options)
        return cls(build_steps(STEP_NAMES if options.steps is None else options.steps, setup))

    @classmethod
    def for_evaluation(cls, tagger, stats=None, options: Optional[ChainOptions] = None,
                       stages: Sequence[str] = (MODEL, FILTER), **chosen) -> "Analyzer":
        """:meth:`build` for evaluation: the steps of ``stages`` with a span on every token
        (see ``token_scores``); by default the model with its filters."""
        return cls.build(tagger, stats, evaluated(chain_options(options, **chosen), stages))

    def prefetch(self, documents: Sequence[Document]) -> None:
        for detector in self.detectors:
            detector.prefetch(documents)

    def prepare(self, documents: Sequence[Document]) -> None:
        """Take ``documents`` as one corpus (evaluation): a two-stage model pools its
        first stage's scores across their threads, authors and boards, and the
        consistency step learns the words each thread and author removed."""
        for detector in self.detectors:
            detector.prepare(documents)
        self.gather(documents)

    def gather(self, documents: Sequence[Document]) -> None:
        """The first round of the consistency step over ``documents`` taken as one corpus
        (evaluation): each is analysed, and the step is told the words its thread and
        author removed with high probability (nothing without a consistency step)."""
        if self.thread_names is None:
            return
        # The evidence is the model's sure spans. The rule steps that read the spans found
        # so far replace them here (a span on every token: the rule's 1.0 counts at every
        # threshold), never in scrub (a token the model removes keeps its span), so the
        # first round runs without them, as scrub's evidence is.
        self.thread_names.know(documents, [self._visible_spans(document, completers=False)
                                           for document in documents])

    def analyze_all(self, documents: Sequence[Document]) -> List[List[Span]]:
        """:meth:`analyze` of each of ``documents`` taken as one dump: with a consistency
        step, the words a thread or author removed are removed throughout it, as ``scrub``'s
        pass removes them (:meth:`~mmbdeid.detect.thread_names.ThreadNames.completed`)."""
        first = [self.analyze(document) for document in documents]
        if self.thread_names is None:
            return first
        posts = [{"text": d.original_text, "board": d.board, "thread": d.thread,
                  "author": d.author} for d in documents]
        return self.thread_names.completed(posts, documents, first)

    @classmethod
    def for_extension(cls, options: Optional[ChainOptions] = None, **chosen) -> "Analyzer":
        """:meth:`build` for a dump's later pass: the consistency step and the keep steps
        after it in the chain of ``options``, all :meth:`extend` needs (no model)."""
        return cls.build(None, None, extended(chain_options(options, **chosen)))

    def extend(self, document: Document, spans: List[Span], types: Types) -> List[Span]:
        """``spans`` (:meth:`analyze`'s, found without the words of ``types``) with the
        consistency step's second round: the occurrences of those words, less what the keep
        steps after it hold, where they raise a lower model score. What :meth:`analyze`
        gives with the step told ``types``, without running the model again."""
        if self.thread_names is None:
            return spans
        return self.thread_names.extend(document, spans, types)

    def analyze(self, document: Document) -> List[Span]:
        """The identifiers to remove, each with its label, probability and source, with
        offsets into the post's own text (``document.original_text``)."""
        return document.to_original(self._visible_spans(document))

    def _visible_spans(self, document: Document, completers: bool = True) -> List[Span]:
        """:meth:`analyze`'s spans in the visible text (``document.text``), as the
        detectors find them (without the :class:`Completer` steps: ``completers`` false)."""
        spans: List[Span] = []
        for detector, completes in zip(self.detectors, self._completes):
            if completes:
                if not completers:
                    continue
                found = detector.complete(document, spans)
            else:
                found = detector.detect(document)
            if detector.effect == KEEP:
                spans = drop_inside(spans, [(s.start, s.end) for s in found])
            elif detector.effect == RAISE:
                spans = raise_spans(spans, found)
            else:
                spans = add_spans(spans, found)
        if self.thread_names is not None:   # the second round, as a dump's pass 3 adds it
            spans = self.thread_names.known_extended(document, spans)
        return spans

    def token_scores(self, document: Document) -> List[Optional[float]]:
        """Final name probability per token, for evaluation (use the chain of
        ``for_evaluation``): a handle 1.0, a drug name, a kept medical term or title 0.0
        (the filters never let it through), an e-mail/URL/phone token None (removed by pattern: neither a found name
        nor a kept word), any other token its CRF score; with the rule steps, a token inside
        a rule's span (which may cover several tokens: ``R o b e r t``) that span's score."""
        spans = self._visible_spans(document)
        score_at = {(s.start, s.end): s.score for s in spans}
        if any(s.source != CRF for s in spans):
            score_at = _scores_of_covered_tokens(document.offsets, spans, score_at)
        scores = [None if pattern in NON_PERSON_LABELS else score_at.get(offset, 0.0)
                  for offset, pattern in zip(document.offsets, document.pattern_labels)]
        others = [s for s in spans
                  if s.label in NON_PERSON_LABELS and s.label not in PATTERN_LABELS]
        if others:                  # an address, date, ...: no name, no kept word either
            scores = _left_out_inside(document.offsets, others, scores)
        return _inner_punctuation_scored(document, scores)


def evaluated(options: ChainOptions, stages: Sequence[str] = (MODEL, FILTER)
              ) -> ChainOptions:
    """``options`` as evaluation runs them: the steps of ``stages`` only, with a span on
    every token (:data:`~mmbdeid.detect.crf.EVERY_TOKEN`)."""
    return replace(options, every_token=True, steps=step_names(
        options.steps, stages=stages, kinds=options.kinds))


def extended(options: ChainOptions) -> ChainOptions:
    """``options`` as a dump's consistency pass runs them: the consistency step and the
    keep steps of the chain (no model)."""
    kept = [name for name in step_names(options.steps) if BY_NAME[name].effect == KEEP]
    return options.with_steps(["consistency", *kept])


def _scores_of_covered_tokens(offsets, spans: List[Span], score_at: dict) -> dict:
    """``score_at`` with every token inside a span scored as that span."""
    scored = dict(score_at)
    ordered = sorted(spans, key=lambda s: s.start)
    starts = [s.start for s in ordered]
    for offset in offsets:
        if offset in scored:
            continue
        index = bisect_right(starts, offset[0]) - 1
        if index >= 0 and ordered[index].contains(*offset):
            scored[offset] = ordered[index].score
    return scored


def _left_out_inside(offsets, spans: List[Span], scores: List[Optional[float]]
                     ) -> List[Optional[float]]:
    """``scores`` with None for each token overlapping one of ``spans``."""
    return [None if any(s.overlaps(*offset) for s in spans) else score
            for offset, score in zip(offsets, scores)]


def _inner_punctuation_scored(document: Document, scores: List[Optional[float]]
                              ) -> List[Optional[float]]:
    """``scores`` with each punctuation token inside a name scored as output removes it: the
    dot of ``J.`` in ``Michael J. McDermott`` or the hyphen of ``Smith-Jones`` is never a
    span of its own, but goes with the mention when the words on both sides are removed
    and join (:func:`~mmbdeid.spans.adjacent`), so at the lower of their two scores."""
    tokens, offsets, text = document.tokens, document.offsets, document.text
    for i in range(1, len(tokens) - 1):
        if scores[i] or not _PUNCTUATION.fullmatch(tokens[i]):
            continue
        before, after = scores[i - 1], scores[i + 1]
        if before and after and adjacent(text, Span("NAME", *offsets[i - 1], before, ""),
                                         Span("NAME", *offsets[i + 1], after, "")):
            scores[i] = min(before, after)
    return scores
