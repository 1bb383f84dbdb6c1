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
# An ASCII text with each letter as "L", each digit and "_" (the other word characters) as
# "D", each space as " " and anything else as ".": there, spaced-out letters show as "L L L"
# after no "L" or "D" and before none (the expression above, on the marks).
_LETTER_MARKS = bytes(
    ord("L") if chr(byte).isalpha() else ord("D") if chr(byte).isdigit() or byte == ord("_")
    else ord(" ") if byte == ord(" ") else ord(".") for byte in range(128)) + b"." * 128
_MARKED_SPACED = re.compile(rb"L L L(?<![LD]L L L)(?![LD])")    # found by its literal start


@functools.lru_cache(maxsize=1)
def first_names() -> frozenset:
    return load_wordlist("first_names") | load_wordlist("nicknames")


def spaced_name_spans(text: str, names=None) -> List[Span]:
    """A NAME span over every run of spaced-out letters that spells a known first name or
    nickname."""
    if " " not in text:
        return []
    # at C speed, for nearly every post: no three spaced-out letters
    if text.isascii() and not _MARKED_SPACED.search(
            text.encode("ascii").translate(_LETTER_MARKS)):
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
