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
  separate tokens and are never part of one. A post's text reaches the tokenizer as its
  visible text (:mod:`mmbdeid.text.normalize`), where the format characters and inline
  tags *inside* a word are already gone: ``Li\\u200bnda`` is one word there.
"""
import re
import sys
import unicodedata
from bisect import bisect_right
from itertools import accumulate, repeat
from typing import Dict, Iterable, List, Tuple

Offsets = Tuple[int, int]

_FIRST_ASTRAL = 0x10000
_KIND_OF_CATEGORY = {"Mn": "m", "Mc": "m", "Me": "m",                 # marks
                     "Cc": "i", "Cf": "i", "Zs": "i", "Zl": "i", "Zp": "i"}   # invisible


def _code_point_ranges() -> Dict[str, List[Offsets]]:
    """``(first, last)`` code point ranges, none across the end of the BMP, of the marks
    (``"m"``), the invisible characters (``"i"``), and the BMP characters that ``re`` takes
    for ``\\w`` (``"w"``) and ``\\s`` (``"s"``).

    Python's ``re`` has no ``\\p{M}``; the tables are built once at import, by regular
    expressions run over the code points and their category letters.  Only planes 0-1 and
    14 hold marks, controls and format characters, so the scan is short.
    """
    ranges: Dict[str, List[Offsets]] = {"m": [], "i": [], "w": [], "s": []}
    for low, high in ((0, _FIRST_ASTRAL), (_FIRST_ASTRAL, 0x20000), (0xE0000, 0xE1000)):
        characters = "".join(map(chr, range(low, high)))
        kinds = "".join(map(_KIND_OF_CATEGORY.get,
                            map(unicodedata.category, characters), repeat(".")))
        for kind, run, where in (("m", "m+", kinds), ("i", "i+", kinds),
                                 ("w", r"\w+", characters), ("s", r"\s+", characters)):
            if kind in "ws" and low:
                continue            # only the BMP ones are wanted
            ranges[kind] += [(low + match.start(), low + match.end() - 1)
                             for match in re.finditer(run, where)]
    return ranges


def _class_body(ranges: Iterable[Offsets]) -> str:
    """A regex character-class body listing the ranges."""
    return "".join(
        re.escape(chr(a)) if a == b else "%s-%s" % (re.escape(chr(a)), re.escape(chr(b)))
        for a, b in ranges
    )


_RANGES = _code_point_ranges()
_MARKS = _class_body(_RANGES["m"])
# Controls (Cc) and format characters (Cf: zero-width space, soft hyphen, BOM, joiners…)
# are invisible; like whitespace they only separate tokens.
_INVISIBLE = _class_body(_RANGES["i"])
_APOSTROPHE = "'\u2019"
_EMOJI_MODIFIER = r"\U0001F3FB-\U0001F3FF"
_TAG_CHARACTERS = r"\U000E0020-\U000E007F"      # subdivision flags: 🏴 + tags
_REGIONAL_INDICATOR = r"[\U0001F1E6-\U0001F1FF]"
# The character classes of the rules:
_WORD_CHAR = r"[\w" + _MARKS + r"]"
WORD_CHARACTER = _WORD_CHAR        # a character of a word, for other modules' expressions
_VISIBLE_NON_WORD = r"[^\s\w" + _MARKS + _INVISIBLE + r"]"

# Speed: ``re`` tests the BMP part of a class listing characters with one table lookup, but
# ``\w`` and ``\s`` with a test of their own each, and astral ranges one after the other
# (there are about 110 ranges of astral marks): with the classes above, every word end and
# every punctuation mark paid for that scan.  So the token expression uses each class as
# its BMP part, spelled out in full (a single lookup), or else, behind a one-range test
# only astral characters pass, its astral part.
_ASTRAL = r"(?=[\U00010000-\U0010FFFF])"
_BMP = {kind: _class_body(r for r in ranges if r[1] < _FIRST_ASTRAL)
        for kind, ranges in _RANGES.items()}
_ASTRAL_MARKS = _class_body(r for r in _RANGES["m"] if r[0] >= _FIRST_ASTRAL)
_BMP_WORD_CHAR = r"[" + _BMP["w"] + _BMP["m"] + r"]"
_ASTRAL_WORD_CHAR = _ASTRAL + r"[\w" + _ASTRAL_MARKS + r"]"
_ANY_WORD_CHAR = r"(?:" + _BMP_WORD_CHAR + r"|" + _ASTRAL_WORD_CHAR + r")"       # _WORD_CHAR
_ANY_VISIBLE_NON_WORD = (                                                 # _VISIBLE_NON_WORD
    r"(?:[^" + _BMP["w"] + _BMP["s"] + _BMP["m"] + _BMP["i"] + r"\U00010000-\U0010FFFF]"
    r"|" + _ASTRAL + _VISIBLE_NON_WORD + r")")
_ATTACHED = (r"(?:[" + _BMP["m"] + r"]|"
             + _ASTRAL + r"[" + _ASTRAL_MARKS + _EMOJI_MODIFIER + _TAG_CHARACTERS + r"])")
# After a word's first character: more word characters, with an astral one or an
# apostrophe followed by a word character now and then (``don't``, ``O'Brien``).
_WORD_REST = (_BMP_WORD_CHAR + r"*(?:(?:" + _ASTRAL_WORD_CHAR + r"|[" + _APOSTROPHE + r"](?="
              + _ANY_WORD_CHAR + r"))" + _BMP_WORD_CHAR + r"*)*")

_TOKEN = re.compile(
    # a word, with apostrophes kept inside (``don't``, ``O'Brien``) and split off later:
    # ``[\w<marks>]+(?:['’][\w<marks>]+)*``, written for speed as explained above
    _ANY_WORD_CHAR + _WORD_REST +
    # a flag: two regional indicators
    r"|" + _REGIONAL_INDICATOR + r"{2}"
    # any other visible character with what attaches to it (emoji modifiers, ZWJ sequences)
    r"|" + _ANY_VISIBLE_NON_WORD + r"(?:" + _ATTACHED + r"|\u200d" + _ANY_VISIBLE_NON_WORD + r")*"
)
# ``split`` with the token in a group gives gap, token, gap, …, token, gap as strings: the
# tokens come out already cut, and the running lengths of the pieces are the offsets, with
# no Python code run per token.
_TOKEN_SPLIT = re.compile("(" + _TOKEN.pattern + ")")

_SHARED_INTS_FROM = 2048             # tokens in a stretch of text (see ``_scan``)
_WORD_CHAR_RE = re.compile(_WORD_CHAR)
_APOSTROPHE_RE = re.compile("[" + _APOSTROPHE + "]")
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


def _scan(text: str, start: int, end: int, offsets: List[Offsets], tokens: List[str]) -> None:
    """Append the offsets and the strings of the tokens of ``text[start:end]``."""
    segment = text if start == 0 and end == len(text) else text[start:end]
    pieces = _TOKEN_SPLIT.split(segment)
    if len(pieces) == 1:
        return
    bounds = list(accumulate(map(len, pieces), initial=start))
    ends = bounds[2::2]
    starts = bounds[1:-1:2]
    if len(starts) > _SHARED_INTS_FROM:
        # Where a token begins at the end of the one before (``Kay,``) its start becomes
        # that end, the same int object (``max`` returns the first of equals): a long post
        # of dense punctuation or digits keeps one int per token, not two (memory per
        # token is what bounds a long post; in short ones it is not worth the time).
        starts[1:] = map(max, ends, starts[1:])
    found = pieces[1::2]
    # Every clitic has an apostrophe: most text needs no splitting at all, and only the
    # words holding one of its (few) apostrophes need a look.
    if "'" not in segment and "\u2019" not in segment:
        offsets += zip(starts, ends)
        tokens += found
        return
    pairs = list(zip(starts, ends))
    done = 0                        # pairs[:done] are in offsets already
    seen = -1                       # the last token looked at
    for apostrophe in _APOSTROPHE_RE.finditer(segment):
        # the token holding the apostrophe (one always does: it is a visible character)
        index = bisect_right(starts, start + apostrophe.start()) - 1
        if index <= seen:
            continue                # a word with several apostrophes is looked at once
        seen = index
        if not _WORD_CHAR_RE.match(found[index]):
            continue
        parts = _split_clitics(starts[index], ends[index], text)
        if len(parts) > 1:
            offsets += pairs[done:index]
            tokens += found[done:index]
            offsets += parts
            tokens += [text[a:b] for a, b in parts]
            done = index + 1
    offsets += pairs[done:]
    tokens += found[done:]


def _span_bounds(span) -> Offsets:
    """``(start, end)`` of a pair or of anything with ``start``/``end`` (a ``Span``)."""
    if type(span) is tuple:         # a plain pair (what ``Document`` passes): no attribute tests
        return int(span[0]), int(span[1])
    if hasattr(span, "start") and hasattr(span, "end") and not callable(span.start):
        return int(span.start), int(span.end)
    return int(span[0]), int(span[1])


def _usable_protected(protected: Iterable, length: int) -> List[Offsets]:
    """Protected spans clipped to the text, empty ones dropped, overlaps resolved
    (the earlier, then the longer, wins)."""
    if isinstance(protected, (list, tuple)) and not protected:
        return []                   # the usual case: no identifier in the post
    bounds = sorted(
        ((max(0, s), min(length, e)) for s, e in map(_span_bounds, protected)),
        key=lambda b: (b[0], -b[1]),
    )
    kept: List[Offsets] = []
    for start, end in bounds:
        if start < end and (not kept or start >= kept[-1][1]):
            kept.append((start, end))
    return kept


def offsets_and_tokens(text: str, protected: Iterable = ()) -> Tuple[List[Offsets], List[str]]:
    """``span_tokenize``'s offsets and the token strings, found together (cheaper than
    slicing the text again)."""
    offsets: List[Offsets] = []
    tokens: List[str] = []
    position = 0
    for start, end in _usable_protected(protected, len(text)):
        _scan(text, position, start, offsets, tokens)
        offsets.append((start, end))
        tokens.append(text[start:end])
        position = end
    _scan(text, position, len(text), offsets, tokens)
    return offsets, tokens


def span_tokenize(text: str, protected: Iterable = ()) -> List[Offsets]:
    """Offsets ``(start, end)`` of the tokens of ``text``, in order.

    Each ``protected`` span (a ``(start, end)`` pair or a ``Span``) becomes exactly one
    token; the text around it is split by the rules in the module docstring.
    """
    return offsets_and_tokens(text, protected)[0]


def tokenize(text: str, protected: Iterable = ()) -> List[str]:
    """The tokens of ``text`` as strings (see ``span_tokenize``)."""
    return offsets_and_tokens(text, protected)[1]


if __name__ == "__main__":   # quick look: python -m mmbdeid.text.tokenize "some text"
    print(tokenize(" ".join(sys.argv[1:])))
