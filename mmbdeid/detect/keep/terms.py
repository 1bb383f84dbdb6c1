"""The base of the keep steps that keep every token of a word list, in any case (drugs,
devices, demonyms)."""
from typing import Iterable, List

from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens


class TermKeeper(Detector):
    """A KEEP span on every token whose lower-case form is one of ``terms`` (pattern tokens
    excepted); a subclass names its ``source`` and its word list."""

    effect = KEEP

    def __init__(self, terms: Iterable[str]):
        self.terms = frozenset(terms)

    def detect(self, document: Document) -> List[Span]:
        found = indices_in(self.terms, lowered_tokens(document.tokens))
        offsets, patterns, source = document.offsets, document.pattern_labels, self.source
        return [Span("KEEP", offsets[i][0], offsets[i][1], 1.0, source)
                for i in found if not patterns[i]]
