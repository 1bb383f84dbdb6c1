"""The drug filter: drug names (``Arimidex``, ``doxy``) are kept whatever the model says."""
from typing import List

from ..model.lexicon import load_wordlist
from ..spans import Span
from ..text.document import Document
from .base import KEEP, Detector


class DrugFilter(Detector):
    """A KEEP span on every token that is a drug name (pattern tokens excepted)."""

    source = "drug"
    effect = KEEP

    def __init__(self, drugs=None):
        self.drugs = load_wordlist("drugs") if drugs is None else frozenset(drugs)

    def detect(self, document: Document) -> List[Span]:
        drugs = self.drugs
        return [Span("KEEP", start, end, 1.0, self.source)
                for token, (start, end), pattern in zip(document.tokens, document.offsets,
                                                        document.pattern_labels)
                if not pattern and token.lower() in drugs]
