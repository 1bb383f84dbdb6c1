"""Tokens with character offsets (pipeline stage 2).

Like NLTK's Treebank tokenizer in spirit, but every token keeps its offsets into the
original text, so ``text[start:end] == token`` always holds and any output can be mapped
back.  Rules:

* ``protected`` spans (pattern identifiers: e-mails, URLs, phones, handles) are one token each;
* a run of word characters (Unicode letters, digits, ``_`` and combining marks) is a token,
  with English clitics split off as in the Treebank: ``Kay's`` → ``Kay`` ``'s``,
  ``don't`` → ``do`` ``n't`` (the curly apostrophe ``’`` too);
* every other visible character is a token of its own; an emoji with its modifiers,
  variation selectors and zero-width joiners, or a flag, counts as one character;
* whitespace, control and format characters (``\\t``, ``\\xa0``, ``\\u200b``, ``\\x00``…)
  separate tokens and are never part of one.
"""
import re
import sys
import unicodedata
from typing import Iterable, List, Sequence, Tuple

Offsets = Tuple[int, int]


def _code_points_in(categories: Sequence[str]) -> str:
    """A regex character-class body listing every code point of the given categories.

    Python's ``re`` has no ``\\p{M}``; the table is built once at import.  Only planes
    0-1 and 14 hold marks, controls and format characters, so the scan is short.
    """
    ranges, start, previous = [], None, None
    scan = list(range(0x20000)) + list(range(0xE0000, 0xE1000))
    for code in scan:
        if unicodedata.category(chr(code)) in categories:
            if start is None:
                start = code
            elif code != previous + 1:
                ranges.append((start, previous))
                start = code
            previous = code
    if start is not None:
        ranges.append((start, previous))
    return "".join(
        re.escape(chr(a)) if a == b else "%s-%s" % (re.escape(chr(a)), re.escape(chr(b)))
        for a, b in ranges
    )


_MARKS = _code_points_in(("Mn", "Mc", "Me"))
# Controls (Cc) and format characters (Cf: zero-width space, soft hyphen, BOM, joiners…)
# are invisible; like whitespace they only separate tokens.
_INVISIBLE = _code_points_in(("Cc", "Cf", "Zs", "Zl", "Zp"))
_WORD_CHAR = r"[\w" + _MARKS + r"]"
_APOSTROPHE = "'\u2019"
_EMOJI_MODIFIER = r"\U0001F3FB-\U0001F3FF"
_TAG_CHARACTERS = r"\U000E0020-\U000E007F"      # subdivision flags: 🏴 + tags
_REGIONAL_INDICATOR = r"[\U0001F1E6-\U0001F1FF]"
_VISIBLE_NON_WORD = r"[^\s\w" + _MARKS + _INVISIBLE + r"]"

_TOKEN = re.compile(
    # a word, with apostrophes kept inside (``don't``, ``O'Brien``) and split off later
    _WORD_CHAR + r"+(?:[" + _APOSTROPHE + r"]" + _WORD_CHAR + r"+)*"
    # a flag: two regional indicators
    r"|" + _REGIONAL_INDICATOR + r"{2}"
    # any other visible character with what attaches to it (emoji modifiers, ZWJ sequences)
    r"|" + _VISIBLE_NON_WORD +
    r"(?:[" + _MARKS + _EMOJI_MODIFIER + _TAG_CHARACTERS + r"]|\u200d" + _VISIBLE_NON_WORD + r")*"
)

_WORD_CHAR_RE = re.compile(_WORD_CHAR)
_CLITIC = re.compile(r"(?:n[" + _APOSTROPHE + r"]t|[" + _APOSTROPHE + r"](?:s|m|d|ll|re|ve))$",
                     re.IGNORECASE)


def _split_clitics(start: int, end: int, text: str) -> List[Offsets]:
    """``don't`` → ``do`` + ``n't``; ``Kay's`` → ``Kay`` + ``'s`` (Treebank convention)."""
    tail: List[Offsets] = []
    while True:
        match = _CLITIC.search(text, start, end)
        if match is None or match.start() == start:
            break
        tail.append((match.start(), end))
        end = match.start()
    return [(start, end)] + tail[::-1]


def _has_apostrophe(text: str, start: int, end: int) -> bool:
    return any(text.find(a, start, end) >= 0 for a in _APOSTROPHE)


def _spans(matches) -> List[Offsets]:
    """Each match's ``(start, end)``. Where a token begins at the end of the one before
    (``Kay,``), both hold the same int object: a long post of dense punctuation or digits
    keeps one int per token, not two (memory per token is what bounds a long post)."""
    spans: List[Offsets] = []
    append = spans.append
    previous_end = -1
    for match in matches:
        start, end = match.span()
        append((previous_end if start == previous_end else start, end))
        previous_end = end
    return spans


def _tokens_between(text: str, start: int, end: int) -> List[Offsets]:
    spans = _spans(_TOKEN.finditer(text, start, end))
    # Every clitic has an apostrophe: most text needs no splitting at all, and only words
    # with an apostrophe need a look (this loop is a good part of the tokenising time).
    if not _has_apostrophe(text, start, end):
        return spans
    offsets: List[Offsets] = []
    for token_start, token_end in spans:
        if _has_apostrophe(text, token_start, token_end) and \
                _WORD_CHAR_RE.match(text, token_start):
            offsets.extend(_split_clitics(token_start, token_end, text))
        else:
            offsets.append((token_start, token_end))
    return offsets


def _span_bounds(span) -> Offsets:
    """``(start, end)`` of a pair or of anything with ``start``/``end`` (a ``Span``)."""
    if hasattr(span, "start") and hasattr(span, "end") and not callable(span.start):
        return int(span.start), int(span.end)
    return int(span[0]), int(span[1])


def _usable_protected(protected: Iterable, length: int) -> List[Offsets]:
    """Protected spans clipped to the text, empty ones dropped, overlaps resolved
    (the earlier, then the longer, wins)."""
    bounds = sorted(
        ((max(0, s), min(length, e)) for s, e in map(_span_bounds, protected)),
        key=lambda b: (b[0], -b[1]),
    )
    kept: List[Offsets] = []
    for start, end in bounds:
        if start < end and (not kept or start >= kept[-1][1]):
            kept.append((start, end))
    return kept


def span_tokenize(text: str, protected: Iterable = ()) -> List[Offsets]:
    """Offsets ``(start, end)`` of the tokens of ``text``, in order.

    Each ``protected`` span (a ``(start, end)`` pair or a ``Span``) becomes exactly one
    token; the text around it is split by the rules in the module docstring.
    """
    offsets: List[Offsets] = []
    position = 0
    for start, end in _usable_protected(protected, len(text)):
        offsets.extend(_tokens_between(text, position, start))
        offsets.append((start, end))
        position = end
    offsets.extend(_tokens_between(text, position, len(text)))
    return offsets


def tokenize(text: str, protected: Iterable = ()) -> List[str]:
    """The tokens of ``text`` as strings (see ``span_tokenize``)."""
    return [text[start:end] for start, end in span_tokenize(text, protected)]


if __name__ == "__main__":   # quick look: python -m mmbdeid.text.tokenize "some text"
    print(tokenize(" ".join(sys.argv[1:])))
