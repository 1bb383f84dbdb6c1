"""Dates more specific than a year (the DATE kind, opt-in: issue 21).

Found in the visible text like :mod:`mmbdeid.text.addresses`, ``(start, end)`` pairs.
A date is a day and a month, with or without a year, or a month and a year:
``March 3``, ``Mar. 3rd, 2021``, ``3 March 2021``, ``the 3rd of March``, ``Friday, March
3``, ``March 2021``, ``03/14/2021``, ``14.03.21``, ``2021-03-14``. A weekday before a date
goes with it.

What stays: a year alone (``2019``, ``in 1998``), a weekday or a month alone (``Friday``,
``last May``), a time of day (``2pm``, ``at 14:30``: ``Friday at 2pm`` names no day of the
year), counts (``March 3 weeks ago`` is no ``March 3``; ``day 14``) and numbers with a
slash but no year: ``1/2 tablet``, ``10/325``, ``120/80`` look like ``3/14``, which is
therefore missed (written with its year, ``3/14/21``, it is found).
Month names are taken in capitals (``may 5`` and ``march 3`` are verbs as often), or
in lower case where the word is nothing else (``june 5``, ``october 12``).
"""
import re
from typing import List, Tuple

from .addresses import without_overlaps

Bounds = Tuple[int, int]

_MONTH_CAPITALISED = (r"(?:January|February|March|April|May|June|July|August|September|"
                      r"October|November|December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|"
                      r"Oct|Nov|Dec)\b\.?)")
_MONTH_LOWER = r"(?:january|february|april|june|july|september|october|november|december)"
_MONTH = r"(?:%s|%s)" % (_MONTH_CAPITALISED, _MONTH_LOWER)
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:1[89]\d\d|20\d\d)"
_SHORT_YEAR = r"(?:'\d\d)"
_WEEKDAY = r"(?:(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs)?|Fri|Sat(?:ur)?|Sun)(?:day)?\b\.?,?[ \t]+)"
# ``March 3 weeks ago``, ``June 5 mg``: a count or a dose, not a day
_NOT_A_COUNT = (r"(?![ \t]*(?:weeks?|days?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?|"
                r"times|x|mg|mcg|ml|g|kg|lbs?|pills?|tabs?|tablets?|units?|doses?|%)\b)")

_NAMED = re.compile(
    # (a hyphen may come before: ``13 December, 1998-30 June 2001``)
    r"(?<![\w/.])(?:%s)?(?:the[ \t]+)?(?:"
    # March 3, March 3rd, 2021
    r"%s[ \t]+%s(?!\d)%s(?:,?[ \t]+(?:%s|%s))?(?![\w/])"
    # 3 March 2021, the 3rd of March
    r"|%s[ \t]+(?:of[ \t]+)?%s(?:,?[ \t]+(?:%s|%s))?(?![\w/])"
    # March 2021
    r"|%s,?[ \t]+%s(?![\w/])"
    r")" % (_WEEKDAY, _MONTH, _DAY, _NOT_A_COUNT, _YEAR, _SHORT_YEAR,
            _DAY, _MONTH, _YEAR, _SHORT_YEAR, _MONTH, _YEAR))

_M, _D = r"(?:1[0-2]|0?[1-9])", r"(?:3[01]|[12]\d|0?[1-9])"
_NUMERIC = re.compile(
    r"(?<![\w/.:-])(?:%s)?(?:"
    r"%s([/.-])%s\1(?:%s|\d\d)"              # 03/14/2021, 3-14-21 (month first)
    r"|%s([/.-])%s\2(?:%s|\d\d)"             # 14.03.2021, 14/03/21 (day first)
    r"|%s-(?:%s)-(?:%s)"                     # 2021-03-14
    r")(?![\w/:]|[.-]\d)" % (_WEEKDAY, _M, _D, _YEAR, _D, _M, _YEAR, _YEAR, _M, _D))


# A quick necessary condition of ``_NUMERIC`` (which tries every position).
_NUMERIC_HINT = re.compile(r"\d[/.-]\d{1,2}[/.-]\d")


def find_dates(text: str) -> List[Bounds]:
    """The dates in ``text`` (see the module): sorted, without overlaps."""
    if not any(c.isdigit() for c in text):
        return []
    found = [_trimmed(text, *match.span()) for match in _NAMED.finditer(text)]
    if _NUMERIC_HINT.search(text):
        found += [_trimmed(text, *match.span()) for match in _NUMERIC.finditer(text)]
    return without_overlaps(found)


def _trimmed(text: str, start: int, end: int) -> Bounds:
    while end > start and text[end - 1] in ".,":
        end -= 1
    if text.startswith("the", start) and not text[start:start + 4].isalpha():
        start = start + 3 + len(text[start + 3:end]) - len(text[start + 3:end].lstrip())
    return start, end
