"""How one fake identity is written in place of each form of a person's name, for
``--mode surrogate`` (:mod:`mmbdeid.output.surrogates` draws the identity).

Every form of one person comes from the one identity, in the original's order and case:
``Stan Kowalski`` -> ``William Smith``, ``KOWALSKI, STAN`` -> ``SMITH, WILLIAM``,
``Kowalski, Stanislaw J.`` -> ``Smith, William R.`` (an initial becomes the identity's
middle initial), ``Stan`` -> ``William``, ``Mr. Kowalski`` -> ``Mr. Smith``.

Shapes of a name mention (:func:`name_shape`):

- a leading honorific (``Dr.``, ``aunt``; lexicon ``honorifics``) is kept as written;
- initials, 1-3 letters with dots/hyphens/spaces (``MJ``, ``R.G.``, ``-RG-``, ``m.j.``) ->
  initials of the fake first (middle) last name in the same punctuation pattern; an
  undotted all-caps known name (``BOB``, ``AL``) is a name, not initials;
- single letters spaced out (``R o b e r t``) -> the fake name spaced the same way;
- two or more words -> each word by its place: the first word the fake first name and the
  last the fake surname, or, with a comma after the first word (``Kowalski, Stan``),
  surname first; a middle initial the fake middle initial; a middle name is left out;
  a name suffix (``Jr.``) kept;
- one word -> the fake first name or the fake surname, whichever the word is for this
  person (:class:`PersonNames`): the first or last word of one of their full names; else
  a surname after a title that goes with surnames (``Mr.``, ``Dr.``: ``Mr. Adebayo``);
  else a first name if it is (a shortening of) one of their one-word names or first
  names (``Pen`` of ``Penny``); else a surname if the lexicons know it only as one (in
  ``last_names``, not in ``first_names``); else a first name;
- case: all lower -> lower, all upper -> upper, otherwise Faker's own capitalisation.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import FrozenSet, Iterable, Optional, Tuple

from ..lexicon.wordlists import load_wordlist
from ..people.gender_cues import SURNAME_TITLES

INITIALS_RE = re.compile(r"[.\-\s]*(?:[^\W\d_][.\-\s]*){1,3}")
NAME_SUFFIXES = frozenset("jr sr ii iii iv".split())
MIN_SHORTENING = 2          # "Pen" of "Penny"; a single letter is an initial
_EDGE = re.compile(r"^([\W\d_]*)(.*?)([\W\d_]*)$", re.DOTALL)


@functools.lru_cache(maxsize=1)
def name_lexicon() -> Tuple[FrozenSet[str], FrozenSet[str], FrozenSet[str]]:
    return (load_wordlist("first_names"), load_wordlist("last_names"),
            load_wordlist("honorifics"))


def looks_like_surname(word: str) -> bool:
    first_names, last_names, _ = name_lexicon()
    return word in last_names and word not in first_names


def case_like(template: str, value: str) -> str:
    """``value`` in the capitalisation of ``template``'s letters."""
    letters = [c for c in template if c.isalpha()]
    if not letters:
        return value
    if all(c.islower() for c in letters):
        return value.lower()
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return value.upper()
    return value  # title or mixed: Faker's own capitalisation ("McDonald" stays)


@dataclass
class Identity:
    first: str
    last: str
    middle_initial: str
    username_parts: Optional[Tuple[str, str]] = None  # drawn on the first username() call


@dataclass(frozen=True)
class PersonNames:
    """The words a person's names are made of, lower case: the first words and the
    surnames of their full names, and their one-word names that the lexicons do not know
    only as surnames (``singles``: ``Penny``, but not ``Adebayo``'s title-less use alone)."""
    firsts: FrozenSet[str] = frozenset()
    lasts: FrozenSet[str] = frozenset()
    singles: FrozenSet[str] = frozenset()

    @classmethod
    def of(cls, forms: Iterable[str], surnames: Iterable[str] = ()) -> "PersonNames":
        """From the forms of a person's names; ``surnames``: one-word names known to be
        surnames (seen after ``Mr.``: :meth:`~mmbdeid.people.gender_cues.GenderEvidence.
        surnames`)."""
        firsts, lasts, singles = set(), set(), set()
        for form in forms:
            words = [w.rstrip(".") for w in re.findall(r"[^\W\d_][^\s,]*", form.lower())]
            words = [w for w in words if w not in NAME_SUFFIXES]
            if len(words) == 1:
                singles.add(words[0])
            elif words and "," in form.split()[0]:
                lasts.add(words[0])
                firsts.add(words[1])
            elif words:
                firsts.add(words[0])
                lasts.add(words[-1])
        lasts |= {w for w in singles & set(surnames) if w not in firsts}
        singles = {w for w in singles if not looks_like_surname(w)}
        return cls(frozenset(firsts), frozenset(lasts - firsts), frozenset(singles - lasts))

    def role(self, word: str, after_title: bool) -> str:
        """``first`` or ``last``: what a one-word mention of this person stands for."""
        if word in self.firsts:
            return "first"
        if word in self.lasts or after_title:
            return "last"
        if len(word) >= MIN_SHORTENING and any(
                name.startswith(word) or word.startswith(name)
                for name in self.firsts | self.singles):
            return "first"                          # "Pen" of "Penny", "Penny" itself
        return "last" if looks_like_surname(word) else "first"


@dataclass(frozen=True)
class NameShape:
    prefix: str                 # kept verbatim: leading space and honorifics ("Dr. ")
    kind: str                   # initials, spaced, full, first or last
    body: str                   # the original without prefix and trailing space
    suffix: str                 # trailing space
    hint: Optional[str] = None  # lower-case first name read from the original, if any


def name_shape(original: str, person: PersonNames = PersonNames()) -> NameShape:
    first_names, last_names, honorifics = name_lexicon()
    stripped = original.rstrip()
    suffix = original[len(stripped):]
    tokens = list(re.finditer(r"\S+", stripped))
    if not tokens:
        return NameShape(original, "first", "", "")
    # Keep leading honorifics as written, as long as a name word remains.
    start = 0
    while (start < len(tokens) - 1
           and tokens[start].group().lower().rstrip(".") in honorifics):
        start += 1
    after_title = start > 0 and tokens[start - 1].group().lower().rstrip(".") in SURNAME_TITLES
    prefix, body = stripped[:tokens[start].start()], stripped[tokens[start].start():]
    words = [t.group() for t in tokens[start:]]
    letters = "".join(c for c in body if c.isalpha())

    if INITIALS_RE.fullmatch(body):
        dotted = any(c in ".-" for c in body)
        # "BOB" and "AL" are shouted names; "MJ", "M J" and "m.j." are initials.
        known_word = body.isalpha() and len(letters) > 1 and (
            letters.lower() in first_names or letters.lower() in last_names)
        if dotted or (letters.isupper() and not known_word):
            return NameShape(prefix, "initials", body, suffix)
    if len(words) > 1 and all(len(w) == 1 and w.isalpha() for w in words):
        joined = letters.lower()
        kind = person.role(joined, after_title)
        return NameShape(prefix, "spaced", body, suffix, None if kind == "last" else joined)
    if len(words) > 1:
        first_word = words[1] if words[0].endswith(",") else words[0]
        return NameShape(prefix, "full", body, suffix, _EDGE.match(first_word).group(2).lower())
    kind = person.role(body.lower().strip(".,"), after_title)
    return NameShape(prefix, kind, body, suffix, body.lower() if kind == "first" else None)


def render_name(identity: Identity, shape: NameShape) -> str:
    body = shape.body
    if not body:
        return ""  # a blank mention names no one
    if shape.kind == "initials":
        letter_count = sum(c.isalpha() for c in body)
        initials = {1: identity.first[0],
                    2: identity.first[0] + identity.last[0],
                    3: identity.first[0] + identity.middle_initial + identity.last[0]}
        fake = iter(initials[letter_count])
        return "".join(case_like(c, next(fake).upper()) if c.isalpha() else c for c in body)
    if shape.kind == "spaced":
        separator = re.search(r"\s+", body).group()
        word = identity.first if shape.hint is not None else identity.last
        return separator.join(case_like(body, word))
    if shape.kind == "full":
        return _render_full(identity, body)
    word = identity.last if shape.kind == "last" else identity.first
    return case_like(body, word)


def _render_full(identity: Identity, body: str) -> str:
    """Each word of a multi-word name by its place (see the module)."""
    tokens = list(re.finditer(r"\S+", body))
    surname_first = tokens[0].group().endswith(",")
    first_at = 1 if surname_first else 0
    last_at = 0 if surname_first else len(tokens) - 1
    while (not surname_first and last_at > 1
           and tokens[last_at].group().lower().strip(".,") in NAME_SUFFIXES):
        last_at -= 1
    pieces = []
    for number, token in enumerate(tokens):
        lead, core, tail = _EDGE.match(token.group()).groups()
        if number in (first_at, last_at):
            fake = identity.first if number == first_at else identity.last
            value = case_like(core, fake[0].upper() if len(core) == 1 else fake)  # "J. Smith"
        elif (number > last_at and not surname_first) or core.lower() in NAME_SUFFIXES:
            value = core                            # "Jr."
        elif len(core) == 1:
            value = case_like(core, identity.middle_initial.upper())
        else:
            continue                                # a middle name is left out
        if pieces:                                  # the space just before this word
            pieces.append(body[tokens[number - 1].end():token.start()])
        pieces.append(lead + value + tail)
    return "".join(pieces)
