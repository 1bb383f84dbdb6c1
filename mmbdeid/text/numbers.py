"""Record, account and licence numbers, and IP addresses (the ID and IP kinds, opt-in:
issue 21).

Found in the visible text like :mod:`mmbdeid.text.addresses`, ``(start, end)`` pairs
without the punctuation around them. A number is an ID only after a cue that says so
(``MRN 00423817``, ``acct #88123-004``, ``member ID: XJH442189013``, ``license no.
D1234-5678``), or in the shape of a US Social Security number or ITIN (``219-09-9999``); the cue
stays, the number goes. The number must hold at least three digits among at least four
characters, so ``#1 priority``, ``room 4``, ``ID doctor`` and ``day 14`` stay. A ``#``
alone is a cue for four or more digits (``order #48213``), never for a ranking (``#2``).

An IPv4 address is four numbers up to 255 joined by dots and not in a version
(``version 4.0.3.1``, ``v1.2.3.4`` stay); an IPv6 address has eight hexadecimal groups,
or fewer with ``::``, so a time (``14:30``, ``10:30:45``) is none.
"""
import re
from typing import List, Tuple

from .addresses import without_overlaps

Bounds = Tuple[int, int]

_CUES = (
    r"MRN|medical[ \t]+record(?:[ \t]+(?:number|no\.?|#))?|record[ \t]+(?:number|no\.?|#)"
    r"|chart[ \t]+(?:number|no\.?|#)|patient[ \t]+(?:ID|number|no\.?|#)"
    r"|acct\.?|account(?:[ \t]+(?:number|no\.?|#))?"
    r"|member(?:[ \t]+(?:ID|number|no\.?|#))?|subscriber(?:[ \t]+(?:ID|number|no\.?|#))?"
    r"|policy(?:[ \t]+(?:number|no\.?|#))?|group(?:[ \t]+(?:number|no\.?|#))"
    r"|claim(?:[ \t]+(?:number|no\.?|#))?|case(?:[ \t]+(?:number|no\.?|#))"
    r"|licen[cs]e(?:[ \t]+(?:number|no\.?|#))?|driver'?s[ \t]+licen[cs]e(?:[ \t]+(?:number|no\.?|#))?"
    r"|DL|ID|ID[ \t]+(?:number|no\.?)|insurance[ \t]+(?:ID|number|no\.?|#)"
    r"|Medicare(?:[ \t]+(?:number|no\.?|#))|Medicaid(?:[ \t]+(?:ID|number|no\.?|#))"
    r"|NHS(?:[ \t]+(?:number|no\.?|#))?|health[ \t]+card(?:[ \t]+(?:number|no\.?|#))?"
    r"|SSN|SIN|social[ \t]+security(?:[ \t]+(?:number|no\.?|#))?"
    r"|ref(?:erence)?(?:[ \t]+(?:number|no\.?|#))?|confirmation(?:[ \t]+(?:number|no\.?|#))?"
    r"|badge(?:[ \t]+(?:number|no\.?|#))?|employee(?:[ \t]+(?:ID|number|no\.?|#))")
# The value: letters, digits, inner dashes, and spaces between digit groups (``943 476
# 5919``).
_VALUE = r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])|(?<=\d) (?=\d\d)){3,24}"
_CUED = re.compile(
    r"(?<![\w])(?i:%s)(?:[ \t]*(?:[:#]|is|was|=)[ \t]*|[ \t]+)(?:#[ \t]*)?(%s)(?![\w-])"
    % (_CUES, _VALUE))
_HASH = re.compile(r"(?<![\w&])#[ \t]?(\d[\d-]{3,20}\d)(?![\w-])")
# Never issued: area 000 or 666, group 00, serial 0000; 9xx is an ITIN, an ID too.
_SSN = re.compile(r"(?<![\w-])(?!000|666)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])")

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = re.compile(
    r"(?<![\w.])(?<!\d\.)%s(?:\.%s){3}(?!\.?\d)(?![\w-])" % (_OCTET, _OCTET))
_VERSION_BEFORE = re.compile(r"(?i:\b(?:version|ver\.?|v|build|release|firmware|update)"
                             r"[ \t]*)$")
_H = r"[0-9A-Fa-f]{1,4}"
_IPV6 = re.compile(
    r"(?<![\w:.])(?:"
    r"(?:%s:){7}%s"                                   # eight groups
    r"|(?:%s:){1,7}:(?:%s(?::%s){0,5})?"              # compressed: 2001:db8::1, fe80::
    r"|::(?:%s(?::%s){0,6})"                          # ::1
    r")(?:/\d{1,3})?(?![\w:])" % (_H, _H, _H, _H, _H, _H, _H))


# Quick necessary conditions: most posts hold none of these, and the searches above try
# every position.
_IPV4_HINT = re.compile(r"\d\.\d{1,3}\.\d{1,3}\.\d")
_SSN_HINT = re.compile(r"\d{3}-\d\d-\d{4}")


# A dose or an amount after a cue word (``claim 102mg``, ``group 250ml``), or a year (``the
# policy 2020 changes``), is no ID.
_AMOUNT = re.compile(r"\d+(?:[.,]\d+)?(?:mg|mcg|ug|ml|g|kg|lbs?|oz|iu|u|x|units?|cc)"
                     r"|(?:19|20)\d\d", re.IGNORECASE)


def _enough_digits(value: str) -> bool:
    return (sum(c.isdigit() for c in value) >= 3 and len(value) >= 4
            and not _AMOUNT.fullmatch(value))


def find_ids(text: str) -> List[Bounds]:
    """Record, account, member and licence numbers after a cue, and SSN shapes."""
    if not any(c.isdigit() for c in text):
        return []
    found = [match.span(1) for match in _CUED.finditer(text)
             if _enough_digits(match.group(1))]
    if "#" in text:
        found += [match.span(1) for match in _HASH.finditer(text)]
    if "-" in text and _SSN_HINT.search(text):
        found += [match.span() for match in _SSN.finditer(text)]
    return without_overlaps(found)


def find_ips(text: str) -> List[Bounds]:
    """IPv4 and IPv6 addresses."""
    found = []
    if "." in text and _IPV4_HINT.search(text):
        found += [match.span() for match in _IPV4.finditer(text)
                  if not _VERSION_BEFORE.search(text, 0, match.start())]
    if "::" in text or text.count(":") >= 7:
        found += [match.span() for match in _IPV6.finditer(text)
                  if sum(c.isalnum() for c in match.group()) >= 2]
    return without_overlaps(found)
