"""The base of the rule steps that find names of their own (sign-offs, mail lines, hashtags,
names in capitals, names after an office): their spans go in only where the model has not
removed the token already."""
from typing import List, Optional, Sequence

from ...spans import Span
from ...text.document import Document
from ..base import Completer
from ..crf import EVERY_TOKEN


def found_anew(found: List[Span], spans: Sequence[Span], threshold: float,
               document: Optional[Document] = None) -> List[Span]:
    """``found`` (a rule step's spans) less what lies over a token the chain removes
    already, a span scoring above ``threshold`` over it: that token keeps its own span, the
    model's probability and source (the spans file lists each token with its own
    probability). A span of several tokens (``J.S.``) keeps, with ``document``, its other
    word tokens. With ``EVERY_TOKEN`` (evaluation: a span on every token) all of
    ``found``, so a token a rule removes counts as found at every threshold."""
    if threshold == EVERY_TOKEN or not found:
        return found
    removed = [(s.start, s.end) for s in spans if s.score > threshold]

    def overlaps_removed(start: int, end: int) -> bool:
        return any(r_start < end and start < r_end for r_start, r_end in removed)

    kept = []
    for span in found:
        if not overlaps_removed(span.start, span.end):
            kept.append(span)
        elif document is not None:
            kept.extend(span._replace(start=start, end=end)
                        for start, end in document.offsets
                        if span.start <= start and end <= span.end
                        and any(c.isalnum() for c in document.text[start:end])
                        and not overlaps_removed(start, end))
    return kept


class GapFiller(Completer):
    """A rule step whose spans go in only where the model has not removed the token
    already (:func:`found_anew`): subclasses say what they ``find`` in a post."""

    def __init__(self, threshold: float = EVERY_TOKEN):
        """``threshold``: the model's (``EVERY_TOKEN``: evaluation, every span goes in)."""
        self.threshold = threshold

    def find(self, document: Document) -> List[Span]:
        raise NotImplementedError

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        return found_anew(self.find(document), spans, self.threshold, document)
