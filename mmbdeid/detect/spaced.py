"""Spaced-out names (``R o b e r t``), a stylised signature (Farrow,
Moore and Gašević 2023, "Names, Nicknames, and Spelling Errors"): the tokenizer sees
single letters there, which the model cannot read."""
import functools
import re
from typing import List

from ..model.lexicon import load_wordlist
from ..spans import SPACED, Span
from ..text.document import Document
from .base import Detector

# Letters separated by single spaces.
_SPACED_LETTERS = re.compile(r"(?<!\w)(?:[^\W\d_] ){2,}[^\W\d_](?!\w)")
SPACED_NAME_MIN = 3


@functools.lru_cache(maxsize=1)
def first_names() -> frozenset:
    return load_wordlist("first_names") | load_wordlist("nicknames")


def spaced_name_spans(text: str, names=None) -> List[Span]:
    """A NAME span over every run of spaced-out letters that spells a known first name or
    nickname."""
    if " " not in text:
        return []
    spans = []
    for match in _SPACED_LETTERS.finditer(text):
        word = match.group().replace(" ", "").lower()
        if len(word) >= SPACED_NAME_MIN and word in (names or first_names()):
            spans.append(Span("NAME", match.start(), match.end(), 1.0, SPACED))
    return spans


class SpacedNameDetector(Detector):
    source = SPACED

    def detect(self, document: Document) -> List[Span]:
        return spaced_name_spans(document.text)
