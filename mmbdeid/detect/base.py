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
from abc import ABC, abstractmethod
from itertools import compress
from typing import AbstractSet, Iterable, List, Optional, Sequence, Tuple

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


class Detector(ABC):
    """Base of the detectors, and the contract the chain holds them to: ``detect`` finds
    the spans of one post; ``source`` names the detector in the spans it finds and
    ``effect`` says what they do in the chain (see the module). The other hooks are
    optional: the chain calls each on every detector, and the defaults do nothing.

    A detector is shared by the posts of a chain and may be pickled to a worker process
    (the local engine's, Dask's): it keeps no state between posts unless its step is
    ``per_input`` (:class:`~mmbdeid.detect.registry.Step`)."""

    source = ""
    effect = REMOVE

    @abstractmethod
    def detect(self, document: Document) -> List[Span]:
        """The spans found in ``document.text`` (sorted, labelled, scored in [0, 1],
        ``source`` as their source)."""

    def prefetch(self, documents: Sequence[Document]) -> None:
        """Called with a chunk of posts before they are analysed one by one: a step that
        looks up the corpus statistics (the CRF) fetches what they need at once."""

    def prepare(self, documents: Sequence[Document]) -> None:
        """Called in evaluation with ``documents`` taken as one corpus, before they are
        analysed: a two-stage model pools its first stage's scores across them."""

    def with_stats(self, stats) -> Optional["Detector"]:
        """This detector for another input, whose corpus statistics are ``stats``, sharing
        what does not depend on them (the CRF's weight tables); called only for a
        ``per_input`` step. None (the default): the step is built again for that input."""
        return None

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

    @abstractmethod
    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        """The spans to add (or keep), given ``spans``, those found so far (sorted, in
        ``document.text``)."""

    def detect(self, document: Document) -> List[Span]:
        """What the step finds in ``document`` alone, with nothing found before it."""
        return self.complete(document, [])
