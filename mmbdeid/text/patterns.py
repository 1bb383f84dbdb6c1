"""Pattern identifiers: e-mail addresses, URLs, phone numbers and @handle mentions.

These are found by regular expression before tokenising (pipeline stage 1), so that the
tokeniser keeps each one whole and the CRF never has to learn them.  The expressions lean
towards recall, as the whole project does, but they must leave ordinary medical text alone:
doses (``500mg``, ``10/325``), readings (``120/80``, ``A1C 6.5``), dates, times, years,
counts and abbreviations such as ``e.g.`` are not identifiers.
"""
import re
from typing import Iterator, List

from ..spans import PATTERN, Span, resolve_overlaps
from .placeholders import PLACEHOLDER

# --- e-mail -----------------------------------------------------------------------------

_EMAIL = re.compile(
    r"(?<![\w.%+-])"                                   # not the tail of a longer local part
    r"[A-Za-z0-9][A-Za-z0-9._%+-]*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24}"
    r"(?![\w-])"
)

# --- URL --------------------------------------------------------------------------------

# Bare domains (no scheme, no www.) need a known top-level domain; otherwise ``e.g.``,
# ``a.m.`` or ``Dr.Smith`` would look like hosts.  Two-letter country codes that are also
# common English words or medical abbreviations (in, is, it, me, no, to, be, am, ie, pt, cc,
# ng, mx, ph, …) are left out on purpose, and so are word-like generic TLDs (life, care,
# news, …): ``home.Today`` typed without a space is far likelier than a web site.
_TLDS = sorted(
    """
    com org net edu gov mil info biz mobi asia xyz io ly gl tv fm ws
    us uk ca au nz za eu de fr nl es se dk fi ch ru jp cn kr hk sg tw br ar
    cz hu ro ua il vn pk ke
    co ac
    """.split(),
    key=len, reverse=True,   # longest first, so ``.com`` is not cut to ``.co``
)
# URL shorteners whose TLD is an English word we refuse in general.
_SHORTENER_HOSTS = ["youtu.be", "fb.me", "wp.me", "amzn.to", "redd.it", "t.me", "ow.ly"]

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PATH_TAIL = r"(?::\d{1,5})?(?:[/?#][^\s<>\"]*)?"      # port, then path/query/fragment

_URL = re.compile(
    r"(?<![\w@.-])(?:"
    r"(?:https?|ftps?)://[^\s<>\"]+"                   # any scheme'd URL
    r"|www\d{0,3}\.(?:" + _LABEL + r"\.)*" + _LABEL + _PATH_TAIL +
    r"|(?:" + "|".join(re.escape(h) for h in _SHORTENER_HOSTS) + r")(?![\w-])" + _PATH_TAIL +
    r"|(?:" + _LABEL + r"\.)+(?:" + "|".join(_TLDS) + r")(?![\w-])" + _PATH_TAIL +
    r")",
    re.IGNORECASE,
)

_TRAILING_PUNCTUATION = ".,;:!?'\"*“”‘’…"
_BRACKETS = {")": "(", "]": "[", "}": "{"}


def _trim_url(url: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets from the end of a URL.

    ``(see www.x.com/a)`` must not swallow the ``)``, while wikipedia's ``/Foo_(bar)``
    keeps its balanced pair.
    """
    opened = {close: url.count(open_) for close, open_ in _BRACKETS.items()}
    closed = {close: url.count(close) for close in _BRACKETS}
    end = len(url)
    while end:
        last = url[end - 1]
        if last in _TRAILING_PUNCTUATION:
            end -= 1
        elif last in _BRACKETS and closed[last] > opened[last]:
            closed[last] -= 1
            end -= 1
        else:
            break
    return url[:end]


# --- phone numbers ----------------------------------------------------------------------

_EXTENSION = r"(?:\s{0,2}(?:x|ext\.?|extension)\s{0,2}\d{1,5}(?!\d))?"
# A phone number never continues a number: ``2010-555…``, ``3.555…`` or ``1,555…``.
_NOT_AFTER_NUMBER = r"(?<!\d)(?<!\d[.,/:-])"
_NOT_BEFORE_NUMBER = r"(?!\d)(?![.,/:-]\d)"

_PHONE = re.compile(
    r"(?:"
    # North American: optional +1 / 1-, area code (bracketed or not), 3 + 4 digits.
    # Separators are optional so ``5551234567`` and ``num(123)4567890`` are found too.
    + _NOT_AFTER_NUMBER +
    r"(?:\+?1[\s.-]?)?"
    r"(?:\(\d{3}\)[\s.-]?|\d{3}[\s.-]?)"
    r"\d{3}[\s.-]?\d{4}"
    + _EXTENSION + _NOT_BEFORE_NUMBER +
    # International, always with a leading +: ``+44 20 7946 0958``, ``+44 (0)20 7946 0958``.
    r"|(?<![\w+])\+\d{1,3}(?:[\s.-]?(?:\(\d{1,4}\)|\d{1,5})){2,6}"
    + _EXTENSION + _NOT_BEFORE_NUMBER +
    # National trunk-prefixed numbers as written in the UK, Australia, …: ``020 7946 0958``.
    r"|" + _NOT_AFTER_NUMBER +
    r"(?:\(0\d{1,4}\)|0\d{1,4})[\s-]?\d{3,4}[\s-]?\d{3,4}"
    + _EXTENSION + _NOT_BEFORE_NUMBER +
    r")",
    re.IGNORECASE,
)


def _phone_digit_count_ok(match_text: str) -> bool:
    digits = sum(ch.isdigit() for ch in re.split(r"(?i)x|ext", match_text)[0])
    return 10 <= digits <= 15


# --- handles ----------------------------------------------------------------------------

# ``@name`` not inside an e-mail address; ``@5pm`` / ``@10:30`` mean "at", not a user.
# (The ``@`` comes first and the test of the character before it second, so that the
# search can skip straight from one ``@`` to the next.)
_AT_HANDLE = re.compile(r"@(?<![\w@.+-]@)(?!\d{1,2}(?::\d\d)?\s?(?:[ap]\.?m\b|\b))\w{1,30}\b")
# Reddit style ``u/name`` and ``/u/name`` (names are 3-20 letters, digits, - and _).
_REDDIT_USER = re.compile(r"(?<![\w/])/?[uU]/[A-Za-z0-9_-]{3,20}(?![\w-])")


# --- public -----------------------------------------------------------------------------

# Necessary conditions, checked first because most posts contain no identifier at all and
# the full expressions are the costly part of tokenising (``_URL`` tries every word as a
# host name before it fails, ``_PHONE`` every digit).
# A URL holds a scheme, or a dot after ``www``, ``www1``… or before a known top-level domain
# (shorteners' included) ending its host. The search skips from dot to dot, and the letter
# test spares most of them (``. ``, ``...``) the trial of every domain.
_URL_DOT = re.compile(
    r"\.(?:(?=[a-z])(?:"
    + "|".join(sorted(set(_TLDS) | {h.rsplit(".", 1)[1] for h in _SHORTENER_HOSTS},
                      key=len, reverse=True))
    + r")(?![\w-])"
    r"|(?<=www\.)|(?<=www\d\.)|(?<=www\d\d\.)|(?<=www\d\d\d\.))",
    re.IGNORECASE,
)
# An e-mail address has a local-part character, ``@`` and a letter or digit (an ``@handle``
# has a space or nothing before its ``@``).
_EMAIL_AT = re.compile(r"[A-Za-z0-9._%+-]@[A-Za-z0-9]")
# A phone number has ten digits with at most three other characters between two of them
# (``+44 (0) (20)…``); the digit count before the extension must be 10-15.
_PHONE_DIGITS = re.compile(r"\d(?:\D{0,3}\d){9}")
_ASCII_DIGITS = "0123456789"


def _may_hold_url(text: str) -> bool:
    return "://" in text or _URL_DOT.search(text) is not None


def _may_hold_phone(text: str) -> bool:
    # most posts have fewer than ten digits: in ASCII text (``\d`` is only these then)
    # counting them is quicker than any search
    if text.isascii() and sum(map(text.count, _ASCII_DIGITS)) < 10:
        return False
    return _PHONE_DIGITS.search(text) is not None


def _after_placeholder(text: str, at: int) -> bool:
    """Whether a placeholder of an earlier scrub ends at ``at``: ``[NAME]@acme`` stood for
    ``Maren@acme``, no handle (a scrub of scrubbed text changes nothing)."""
    if at == 0 or text[at - 1] != "]":
        return False
    opening = text.rfind("[", 0, at)
    return opening >= 0 and PLACEHOLDER.fullmatch(text, opening, at) is not None


def _candidates(text: str) -> Iterator[Span]:
    has_at = "@" in text
    if has_at and _EMAIL_AT.search(text):
        for match in _EMAIL.finditer(text):
            yield Span("EMAIL", match.start(), match.end(), 1.0, PATTERN)
    if _may_hold_url(text):
        for match in _URL.finditer(text):
            url = _trim_url(match.group())
            if url:
                yield Span("URL", match.start(), match.start() + len(url), 1.0, PATTERN)
    if _may_hold_phone(text):
        for match in _PHONE.finditer(text):
            if _phone_digit_count_ok(match.group()):
                yield Span("PHONE", match.start(), match.end(), 1.0, PATTERN)
    if has_at:
        for match in _AT_HANDLE.finditer(text):
            if not _after_placeholder(text, match.start()):
                yield Span("USER", match.start(), match.end(), 1.0, PATTERN)
    if "u/" in text or "U/" in text:
        for match in _REDDIT_USER.finditer(text):
            yield Span("USER", match.start(), match.end(), 1.0, PATTERN)


def find_identifiers(text: str) -> List[Span]:
    """E-mail, URL, phone and handle spans in ``text``: sorted, non-overlapping, score 1.0.

    Where two candidates overlap the earlier, then the longer, wins, so an e-mail address
    beats the domain inside it and a URL beats a handle or number in its path.
    """
    return resolve_overlaps(_candidates(text))
