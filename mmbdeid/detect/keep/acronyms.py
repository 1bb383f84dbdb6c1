"""Abbreviations in capitals are kept (KEEP): ``(IVIG)``, ``(ENA)``, ``a test like TOVA``,
``accuses HANO of``.

An acronym is a token of capital letters (digits allowed: ``BRCA2``), at least
``MIN_LETTERS`` letters. The model gives one some name probability when it does not know
it; the medical-term filter keeps only the acronyms of its list. Here:

* **in brackets**, alone (``(IVIG)``, ``(ENA)``): it is kept unless it is a first name or
  nickname in capitals (``(JOHN)``);
* **inside a sentence**: at least ``MIN_SENTENCE_LETTERS`` letters (``JFK`` may be a
  person), after a word in lower case on the same line, with more of the line after it
  (``a test like TOVA.``, ``accuses HANO of``), on a line not written in capitals (the
  next token is no word in capitals), and neither an English word (``FROZEN``: a shouted
  word the model took for a nickname) nor a word that may be a person's name (``JUSTIN``).

Sign-off initials are never kept here: a sign-off ends its line (``thanks DMK``), and
two-letter tokens are left to the model and the sign-off rules.
"""
import re
from itertools import compress
from typing import List

from ...lexicon.names import all_first_names
from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector
from .gazetteer_phrases import person_words

ACRONYM = "acronym"
MIN_LETTERS = 3
# Inside a sentence an acronym needs this many letters: people go by three initials
# (``JFK``, ``DLT``) and are talked about in running text.
MIN_SENTENCE_LETTERS = 4
_ACRONYM = re.compile(r"(?=(?:\d*[A-Z]){%d})[A-Z][A-Z\d]*" % MIN_LETTERS)
_CAPITALS_WORD = re.compile(r"[A-Z][A-Z\d]+")


class AcronymKeeper(Detector):
    """A KEEP span on each acronym in brackets or inside a sentence (see the module)."""

    source = ACRONYM
    effect = KEEP

    def __init__(self):
        self.first_names = all_first_names()
        self.names = person_words()
        self.words = load_wordlist("common_words")

    def in_brackets(self, document: Document, i: int) -> bool:
        tokens, offsets = document.tokens, document.offsets
        return (0 < i < len(tokens) - 1 and tokens[i - 1] == "(" and tokens[i + 1] == ")"
                and offsets[i - 1][1] == offsets[i][0] and offsets[i][1] == offsets[i + 1][0]
                and tokens[i].lower() not in self.first_names)

    def in_sentence(self, document: Document, i: int) -> bool:
        tokens, paragraphs = document.tokens, document.paragraph_ids
        if not (0 < i < len(tokens) - 1
                and paragraphs[i - 1] == paragraphs[i] == paragraphs[i + 1]):
            return False
        before, after = tokens[i - 1], tokens[i + 1]
        word = tokens[i].lower()
        return (sum(c.isalpha() for c in word) >= MIN_SENTENCE_LETTERS
                and before.isalpha() and before.islower() and not _CAPITALS_WORD.fullmatch(after)
                and word not in self.names and word not in self.words)

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        # tokens in capitals found at C speed: most posts have none but ``I``
        return [Span("KEEP", *offsets[i], 1.0, self.source)
                for i in compress(range(len(tokens)), map(str.isupper, tokens))
                if _ACRONYM.fullmatch(tokens[i]) and not patterns[i]
                and (self.in_brackets(document, i) or self.in_sentence(document, i))]
