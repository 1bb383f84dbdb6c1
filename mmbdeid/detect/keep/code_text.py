"""Code-aware keeping on technical boards (KEEP): what Stack Overflow and GitHub threads are
full of is not a person's name.

* Code: every token inside inline code (`` `viewDidLoad` ``), a fenced block (```` ``` ````
  to ```` ``` ````) or, in a post that has code, a line indented by four spaces or a tab, is
  kept, whatever the words (e-mail addresses and web addresses there are still removed).
* Identifiers in running text: CamelCase with an inner capital (``AKVideoImageView``,
  ``NuGet``; a name of two name parts, ``McDonald``, ``DeShawn``, ``LaToya``, is not one),
  ``std::chrono``, dotted (``Lex.DB``, ``os.path``: not two capitalised words, a missing
  space), snake_case (``random_device``) and a call (``main()``).
* Emoji shortcodes: ``:zap:``, ``:palm_tree:``.
* npm scoped packages: the ``@babel`` of ``@babel/core`` is no handle.
* Software products written as the product (``lexicons/software_products.txt``, matched
  case-exactly: ``Travis`` the CI service, not ``TRAVIS``); one that is also a census name
  (``Travis``, ``Kafka``) only in a post with code, an identifier or another product.

Outside code a person cue wins: a word after a greeting, closing or ``cc``
(``Thanks Travis``, ``cc Travis and Kat``), beside a capitalised name (``Travis Hanson``,
``Franz Kafka``), after a ``Signed-off-by:``-like trailer or a
``--`` sign-off, or alone on its line (a signature) is left to the other steps. A board
username is still one: the usernames step comes after the keep steps and wins.
"""
import functools
import re
from bisect import bisect_left
from typing import FrozenSet, Iterable, List, Set, Tuple

from ...lexicon.names import census_names, first_names
from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_INLINE = re.compile(r"`[^`\n]+`")
_INDENTED = re.compile(r"^(?: {4}|\t)[ \t]*\S[^\n]*", re.M)
_IDENTIFIER = re.compile(
    r"\b\w+(?:::\w+)+"                               # std::random_device
    r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b"          # os.path, Lex.DB
    r"|\b\w+\(\)"                                    # main()
    r"|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b"           # random_device, KAFKA_DSN
    r"|\b[A-Za-z0-9]*(?:[a-z][A-Z]|[A-Z]{2}[a-z])\w*")   # AKVideoImageView, iOS, NuGet
_EMOJI = re.compile(r"(?<![\w:]):[a-z0-9_+\-]+:(?![\w:])")
# after an @name: an npm scoped package (@babel/core), not a handle
_SCOPED_PACKAGE = re.compile(r"/[a-z]")
_TITLE_WORD = re.compile(r"[A-Z][a-z]+")
# the first part of a CamelCase surname or first name (McDonald, DeShawn, LaToya, DiCaprio)
_NAME_PREFIXES = frozenset({"mc", "mac", "de", "di", "da", "du", "la", "le", "van", "von",
                            "st", "ja", "ke", "sha", "ta", "ty", "da"})
_CUES = frozenset({"cc", "ping", "thanks", "thank", "thx", "ty", "hi", "hey", "hello", "dear",
                   "cheers", "regards", "by", "@"})
_TRAILER = re.compile(r"^(?:[\w-]+-by|cc):\s*", re.I | re.M)
# how far back a cue word is looked for, past a list of names (cc Kat, Nils and Travis)
_CUE_REACH = 8
_LIST_JOINERS = frozenset({",", "and", "&", "you"})


@functools.lru_cache(maxsize=1)
def _products() -> FrozenSet[str]:
    return load_wordlist("software_products")


@functools.lru_cache(maxsize=1)
def _cue_words() -> FrozenSet[str]:
    return _CUES | load_wordlist("greetings") | load_wordlist("closings")


def board_users(stats) -> FrozenSet[str]:
    """The usernames of every board of the dump (``stats``: its corpus statistics)."""
    return frozenset(user for users in stats.users_by_board().values() for user in users
                     if user)


def code_regions(text: str) -> List[Tuple[int, int]]:
    """The character ranges of ``text`` that are code: fenced blocks, inline code and, in a
    post with either, indented lines."""
    fenced = [m.span() for m in _FENCE.finditer(text)]
    rest = _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    regions = fenced + [m.span() for m in _INLINE.finditer(rest)]
    if regions:
        regions += [m.span() for m in _INDENTED.finditer(rest)]
    return regions


def name_like_camel_case(word: str) -> bool:
    """A CamelCase word that is a name of two name parts (McDonald, DeShawn, LaToya) or
    a name after initials (CGoehring)."""
    if re.fullmatch(r"[A-Z]{1,2}[A-Z][a-z]+", word) and (
            word[1:].lower() in census_names()
            or word[2:].lower() in census_names()):
        return True     # an initial or two glued to a name, a handle: CGoehring, JSmith
    parts = _TITLE_WORD.findall(word)
    if len(parts) != 2 or "".join(parts) != word:
        return False
    first, second = (part.lower() for part in parts)
    return (word.lower() in census_names() or first in _NAME_PREFIXES
            or (second in first_names() and first in census_names()))


def _line_bounds(tokens, paragraphs) -> dict:
    """Paragraph id -> (first token, last token + 1, number of words) of each line."""
    bounds: dict = {}
    for i, paragraph in enumerate(paragraphs):
        first, _, words = bounds.get(paragraph, (i, i, 0))
        bounds[paragraph] = (first, i + 1, words + tokens[i][:1].isalnum())
    return bounds


def _covered(regions, offsets) -> Set[int]:
    """The indices of the tokens lying inside one of ``regions`` (found by bisection: a
    long post with many identifiers costs its regions times their tokens, not more)."""
    inside: Set[int] = set()
    starts = None
    for start, end in regions:
        if starts is None:
            starts = [s for s, _ in offsets]
        i = bisect_left(starts, start)
        while i < len(offsets) and offsets[i][1] <= end:
            inside.add(i)
            i += 1
    return inside


class CodeTextKeeper(Detector):
    """A KEEP span on each token of code, identifier, emoji shortcode or software product
    (see the module)."""

    source = "code_text"
    effect = KEEP

    def __init__(self, usernames: Iterable[str] = ()):
        self.usernames = frozenset(user.lower() for user in usernames)

    def detect(self, document: Document) -> List[Span]:
        text, tokens, offsets = document.text, document.tokens, document.offsets
        if not tokens:
            return []
        code = _covered(code_regions(text), offsets)
        kept = {i for i in code if document.pattern_labels[i] not in ("EMAIL", "URL")}
        # a mixed-case word of three letters (BoA, DeA) is too short for its shape alone
        # to say code: a name spelled so stays the model's
        words = [m.span() for m in _IDENTIFIER.finditer(text)
                 if (len(m.group()) > 3 or not m.group().isalpha())
                 and not name_like_camel_case(m.group()) and not _not_dotted_identifier(m.group())]
        emoji = _covered([m.span() for m in _EMOJI.finditer(text)], offsets)
        products = {i for i, token in enumerate(tokens) if token in _products()}
        identifiers = _covered(words, offsets) - code - emoji - products
        # A product that is also a census name (Travis, Kafka, Jenkins) only in a post that
        # is technical otherwise: code, an identifier, an emoji or another product.
        named = {i for i in products if tokens[i].lower() in census_names()}
        if named and not (code or identifiers or emoji or products - named):
            products -= named
        candidates = identifiers | emoji | products
        candidates |= {i for i, label in enumerate(document.pattern_labels)
                       if label == "USER" and _SCOPED_PACKAGE.match(text, offsets[i][1])}
        lines = _line_bounds(tokens, document.paragraph_ids) if candidates else {}
        for i in candidates - code:
            if (document.pattern_labels[i] in (None, "USER")
                    and tokens[i].lower() not in self.usernames
                    and not (i in identifiers and _username_like(tokens[i]))
                    and not self._person_cue(document, i, lines)):
                kept.add(i)
        return [Span("KEEP", offsets[i][0], offsets[i][1], 1.0, self.source)
                for i in sorted(kept)]

    @staticmethod
    def _person_cue(document: Document, i: int, lines) -> bool:
        """Whether the text says token ``i`` is a person: a cue word before it on its line
        (past a list of names), a trailer or ``--`` sign-off, or the token alone there."""
        tokens = document.tokens
        first, end, words = lines[document.paragraph_ids[i]]
        if words == 1:
            return True
        line = range(first, end)
        start = document.offsets[line[0]][0]
        if _TRAILER.match(document.text, start) or tokens[line[0]] in ("--", "-"):
            return True
        if _beside_name(tokens, i):
            return True
        j = i - 1
        while j >= max(line[0], i - _CUE_REACH):
            word = tokens[j].lower()
            if word in _cue_words():
                return True
            if not (word in _LIST_JOINERS or tokens[j][:1].isupper()):
                return False
            j -= 1
        return False


_TWO_WORDS = re.compile(r"[A-Z][a-z]+[A-Z][a-z]+")
_CAMEL_CASE_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _username_like(token: str) -> bool:
    """``levo_lisa``, ``Cindy_Lou``, ``lowcarbLou``, ``tammyT``: an identifier outside code
    with a first name among its parts, or of two capitalised words (``ChestPain``), reads
    as a member's handle, left to the model."""
    return _TWO_WORDS.fullmatch(token) is not None or any(
        len(part) >= 3 and part.lower() in first_names()
        for part in _CAMEL_CASE_PARTS.findall(token))


def _beside_name(tokens, i: int) -> bool:
    """``Travis Hanson``, ``Franz Kafka``: a capitalised name word right before or after."""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    before = tokens[i - 1] if i else ""
    return ((_TITLE_WORD.fullmatch(after) is not None and after.lower() in census_names())
            or (_TITLE_WORD.fullmatch(before) is not None
                and before.lower() in first_names()))


def _not_dotted_identifier(match: str) -> bool:
    """``Mary.Then`` (two capitalised words with a missing space) or ``W.H.S`` and
    ``J.Doe`` (initials): a name, not an identifier."""
    parts = match.split(".")
    if len(parts) < 2:
        return False
    return ((len(parts) == 2 and all(_TITLE_WORD.fullmatch(part) for part in parts))
            or any(len(part) == 1 and part.isupper() for part in parts))
