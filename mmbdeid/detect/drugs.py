"""The drug filter: drug names (``Arimidex``, ``doxy``) are kept whatever the model says."""
from typing import List

from ..lexicon.wordlists import load_wordlist
from ..spans import Span
from ..text.document import Document
from .base import KEEP, Detector, indices_in, lowered_tokens


class DrugKeeper(Detector):
    """A KEEP span on every token that is a drug name (pattern tokens excepted)."""

    source = "drug"
    effect = KEEP

    def __init__(self, drugs=None):
        self.drugs = load_wordlist("drugs") if drugs is None else frozenset(drugs)

    def detect(self, document: Document) -> List[Span]:
        found = indices_in(self.drugs, lowered_tokens(document.tokens))
        offsets, patterns, source = document.offsets, document.pattern_labels, self.source
        return [Span("KEEP", offsets[i][0], offsets[i][1], 1.0, source)
                for i in found if not patterns[i]]
