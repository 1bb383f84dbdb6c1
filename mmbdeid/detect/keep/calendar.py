"""Months, weekdays and holidays are kept (KEEP): ``January``, ``Jan. 9``, ``last May``,
``Monday``, ``Mondays``, ``Christmas``.

* A month, weekday or holiday that is nobody's first name (``January``, ``March``,
  ``October``, ``Monday``, ``Friday``, ``Thanksgiving``) is kept wherever it stands.
* A month that is also a first name (``April``, ``May``, ``June``, ``August``) and every
  abbreviation (``Jan``, ``Aug``, ``Sept``, ``Wed``, ``Sat``; ``Jan`` is a first name too,
  ``Sat`` a word) is kept in a date: next to a number (``June 3``, ``Jan. 9, 2005``, ``3
  June``, ``3rd of June``, ``June 2005``), next to a weekday or a month kept (``Tue, Aug``)
  or after a word of time (``in``, ``since``, ``until``, ``last``, ``next``, ``early``,
  ``this``, ...: ``last May``, ``in June``). ``April said``, ``Hi June``, ``May I ask``
  are left to the model.
"""
import re
from typing import FrozenSet, List, Sequence, Set

from ...lexicon.wordlists import load_first_name_shares, load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens
from .gazetteer_phrases import written_forms

CALENDAR = "calendar"
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Holidays written as one word: a name step must not take ``Christmas`` in ``Maren and
# Christmas``. One that is also a first name is kept in a date only, as ``May``.
HOLIDAYS = ("christmas", "xmas", "easter", "thanksgiving", "halloween", "hanukkah", "chanukah",
            "passover", "ramadan", "diwali", "kwanzaa")
ABBREVIATIONS = frozenset({"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                           "nov", "dec", "mon", "tue", "tues", "wed", "thu", "thur", "thurs",
                           "fri", "sat", "sun"})
# Words before a month or weekday that say it is one: ``last May``, ``in June``.
# Not ``to``, ``from``, ``by``, ``of``: ``wrote to June``, ``a card from April``.
TIME_WORDS = frozenset({"in", "since", "until", "till", "til", "during", "through", "thru",
                        "last", "next", "early", "late", "mid", "this", "every", "each",
                        "coming", "past"})
# A month or weekday borne as a first name by at least this share (per cent) of people
# is kept only in a date: april 0.077, june 0.062, jan 0.035, may 0.015, august 0.007
# (january, september, sunday: 0.001).
MIN_FIRST_NAME_SHARE = 0.005
_NUMBER = re.compile(r"\d{1,4}(?:st|nd|rd|th)?", re.IGNORECASE)


def names() -> FrozenSet[str]:
    """First names borne by at least ``MIN_FIRST_NAME_SHARE`` per cent, and nicknames."""
    shares = load_first_name_shares()
    return frozenset(n for n, share in shares.items() if share >= MIN_FIRST_NAME_SHARE) | (
        load_wordlist("nicknames"))


class CalendarKeeper(Detector):
    """A KEEP span on each month or weekday (see the module)."""

    source = CALENDAR
    effect = KEEP

    def __init__(self):
        # a weekday's plural too (``Mondays, morning`` in a visiting rota)
        words = frozenset(MONTHS + WEEKDAYS + HOLIDAYS + tuple(d + "s" for d in WEEKDAYS))
        first = names()
        self.always = frozenset(w for w in words if w not in first)
        self.words = written_forms(words | ABBREVIATIONS)

    @staticmethod
    def _number_at(tokens: Sequence[str], j: int) -> bool:
        return 0 <= j < len(tokens) and _NUMBER.fullmatch(tokens[j]) is not None

    def in_date(self, document: Document, lowered: Sequence[str], i: int,
                kept: Set[int]) -> bool:
        tokens = document.tokens
        after = i + 1
        if after < len(tokens) and tokens[after] in (".", ","):
            after += 1                                  # Jan. 9, Tue, Aug 3
        before = i - 1
        if before > 0 and tokens[before] == "of":       # 3rd of June
            before -= 1
        if before > 0 and tokens[before] == ",":        # Tue, Aug
            before -= 1
        return (self._number_at(tokens, after) or self._number_at(tokens, before)
                or before in kept or (i > 0 and lowered[i - 1] in TIME_WORDS
                                      and tokens[i - 1].islower()))

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        lowered = lowered_tokens(tokens)
        kept: Set[int] = set()
        waiting: List[int] = []
        for i in indices_in(self.words, tokens):
            if patterns[i]:
                continue
            if lowered[i] in self.always or self.in_date(document, lowered, i, kept):
                kept.add(i)
            else:
                waiting.append(i)
        # before a month or weekday kept: Tue, Aug 3
        kept.update(i for i in waiting if i + 2 in kept and tokens[i + 1] in (",", ".")
                    or i + 1 in kept)
        return [Span("KEEP", *offsets[i], 1.0, self.source) for i in sorted(kept)]
