"""What every detector is: one small unit with one signature, ``detect(document) -> spans``.

A detector's ``effect`` says what its spans do in the analyzer chain
(:class:`~mmbdeid.detect.analyzer.Analyzer`):

* ``REMOVE``: the spans are identifiers to remove; each replaces any span found earlier
  in the chain that it overlaps (it covers the whole identifier);
* ``KEEP``: the spans are text to keep (a drug name, an allowed phrase); every span found
  earlier in the chain that lies inside one is dropped;
* ``RAISE``: the spans are identifiers to remove where nothing found earlier overlaps them
  or only spans of a lower score do (which they replace): a word removed elsewhere in the
  thread raises a token the model scored lower, and never cuts a longer span found earlier.

The order of the chain is therefore part of its meaning: a later detector wins.

A step that needs what the chain has found so far (the rest of a name whose first part was
removed) is a :class:`Completer`: the analyzer calls its ``complete(document, spans)`` with
the spans found up to that step, instead of ``detect(document)``, and merges what it returns
by its effect like any other detector's spans. A completer must score a span it adds from a
span found before with that span's score (not 1.0): evaluation runs the chain with a span on
every token (:data:`~mmbdeid.detect.crf.EVERY_TOKEN`) and reads the scores against each
threshold, so a span added from a seed must count as found exactly when its seed does.
"""
from itertools import compress
from typing import AbstractSet, Iterable, List, Sequence, Tuple

from ..spans import Span, drop_inside
from ..text.document import Document

REMOVE = "remove"
KEEP = "keep"
RAISE = "raise"

# The tokens of the post asked about last and their lower-case forms: the drug, medical-term
# and title steps look words up in lower case, one after the other on the same post.
_LOWERED: Tuple[list, Tuple[str, ...]] = ([], ())


def lowered_tokens(tokens: Sequence[str]) -> Tuple[str, ...]:
    """``tokens`` in lower case (``str.lower``), one per token.

    The last list's answer is kept: the steps of a chain ask in turn about one post. It is
    reused only for a list equal to a copy taken then (element by element; the tokens of
    one post are the same objects, so the check costs little), so a changed list or a
    recycled object is never answered from the cache. One tuple holds the pair, so threads
    sharing it read and replace it whole."""
    global _LOWERED
    if type(tokens) is not list:
        return tuple(map(str.lower, tokens))
    snapshot, lowered = _LOWERED
    if snapshot == tokens:
        return lowered
    lowered = tuple(map(str.lower, tokens))
    _LOWERED = (tokens[:], lowered)
    return lowered


def indices_in(words: AbstractSet[str], lowered: Sequence[str]) -> Iterable[int]:
    """The indices, in order, of the ``lowered`` tokens that are among ``words`` (a set):
    found at C speed, where a step looks only at a few words (drug names, titles)."""
    if words.isdisjoint(lowered):
        return ()
    return compress(range(len(lowered)), map(words.__contains__, lowered))


class Detector:
    """Base of the detectors: ``source`` names it in the spans it finds."""

    source = ""
    effect = REMOVE

    def detect(self, document: Document) -> List[Span]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return "%s()" % type(self).__name__


def without_kept(spans: List[Span], document: Document,
                 steps: Sequence[Detector]) -> List[Span]:
    """``spans`` less those inside what one of the KEEP ``steps`` keeps in ``document``: a
    rule step placed after the chain's KEEP steps asks them itself (``Barrett`` of
    ``Barrett's esophagus`` stays, whatever the rule says)."""
    for step in steps:
        if not spans:
            break
        spans = drop_inside(spans, [(s.start, s.end) for s in step.detect(document)])
    return spans


class Completer(Detector):
    """A detector that reads the spans found before it in the chain (see the module)."""

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        """The spans to add (or keep), given ``spans``, those found so far (sorted, in
        ``document.text``)."""
        raise NotImplementedError

    def detect(self, document: Document) -> List[Span]:
        """What the step finds in ``document`` alone, with nothing found before it."""
        return self.complete(document, [])
