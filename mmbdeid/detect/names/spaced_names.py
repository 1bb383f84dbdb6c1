"""Spaced-out names (``R o b e r t``), a stylised signature (Farrow,
Moore and Gašević 2023, "Names, Nicknames, and Spelling Errors"): the tokenizer sees
single letters there, which the model cannot read. The same with other separators
(``M.a.r.e.n``, ``M-a-r-e-n``, ``M_a_r_e_n``): :class:`SeparatedNameDetector`."""
import functools
import re
from typing import List

from ...lexicon.names import first_names
from ...lexicon.wordlists import load_wordlist
from ...spans import SPACED, Span
from ...text.document import Document
from ..base import Detector

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


# Letters joined by one repeated separator (M.a.r.e.n, M-a-r-e-n), not inside a longer word
# or run (a.b.c@example.com is a pattern token, checked apart).
_SEPARATED_LETTERS = re.compile(
    r"(?<![\w.\-*_])[^\W\d_](?P<sep>[.\-_*])[^\W\d_](?:(?P=sep)[^\W\d_])+(?![\w\-*_])")
_SEPARATORS = re.compile(r"[^\W\d_][.\-_*][^\W\d_][.\-_*][^\W\d_]")
# The same at C speed on an ASCII text marked as for spaced-out letters, the separators
# kept: each letter "L", each digit "D", each separator itself, anything else " ".
_SEPARATOR_MARKS = bytes(
    ord("L") if chr(byte).isalpha() else ord("D") if chr(byte).isdigit()
    else byte if chr(byte) in "._*-" else ord(" ") for byte in range(128)) + b" " * 128
_MARKED_SEPARATORS = re.compile(rb"L[._*-]L[._*-]L")
# Dotted letters in capitals are an abbreviation when short: A.D.A., D.O.N.
DOTTED_CAPITALS_MIN = 5


@functools.lru_cache(maxsize=1)
def _not_spelled_names() -> frozenset:
    """Abbreviations a run of letters may spell that happen to be first names (``ada``)."""
    return load_wordlist("not_initials") | load_wordlist("medical_abbreviations")


def separated_name_spans(document: Document, names=None) -> List[Span]:
    """A NAME span over every run of letters joined by one repeated separator (``.``,
    ``-``, ``_``, ``*``) that spells a known first name or nickname of three letters or
    more, outside pattern identifiers; dotted runs in capitals only from
    ``DOTTED_CAPITALS_MIN`` letters (``A.D.A`` is an abbreviation)."""
    text = document.text
    if text.isascii():
        if not _MARKED_SEPARATORS.search(text.encode("ascii").translate(_SEPARATOR_MARKS)):
            return []
    elif not _SEPARATORS.search(text):
        return []
    names = names or first_names()
    spans = []
    for match in _SEPARATED_LETTERS.finditer(text):
        letters = match.group()[::2]
        word = letters.lower()
        if len(word) < SPACED_NAME_MIN or word not in names or word in _not_spelled_names():
            continue
        if match.group("sep") == "." and letters.isupper() and len(word) < DOTTED_CAPITALS_MIN:
            continue
        if any(label and start < match.end() and match.start() < end
               for label, (start, end) in zip(document.pattern_labels, document.offsets)):
            continue
        spans.append(Span("NAME", match.start(), match.end(), 1.0, SPACED))
    return spans


class SeparatedNameDetector(Detector):
    source = SPACED

    def detect(self, document: Document) -> List[Span]:
        return separated_name_spans(document)
