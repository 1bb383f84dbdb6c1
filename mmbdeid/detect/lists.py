"""The user's allow and deny lists (``scrub --allow FILE --deny FILE``).

Allow terms, matched as whole words in any case, are kept: an entry ``Arthur C. Clarke``
drops the spans found on ``Arthur``, ``C`` and ``Clarke`` there, but not a lone ``Arthur``
elsewhere, and a span reaching outside the occurrence stays (it covers something not
allowed). Deny terms are always removed. The deny list comes after the allow list in the
chain, so **deny wins** (recall first). Reading the files: :mod:`mmbdeid.files.termlists`.
"""
from typing import List, Sequence

from ..spans import DENY, Span
from ..text.document import Document
from ..text.terms import TermMatcher
from .base import KEEP, Detector


class AllowedTermKeeper(Detector):
    source = "allow"
    effect = KEEP

    def __init__(self, terms: Sequence[str]):
        self.matcher = TermMatcher(terms)

    def detect(self, document: Document) -> List[Span]:
        return [Span("KEEP", start, end, 1.0, self.source)
                for start, end, _ in self.matcher.finditer(document.text)]


class DeniedTermDetector(Detector):
    """A NAME span, score 1.0, on every occurrence of a deny term."""

    source = DENY

    def __init__(self, terms: Sequence[str], label: str = "NAME"):
        self.matcher = TermMatcher(terms)
        self.label = label

    def detect(self, document: Document) -> List[Span]:
        return [Span(self.label, start, end, 1.0, DENY)
                for start, end, _ in self.matcher.finditer(document.text)]
