"""Name variants: which people a name key may be a variant of (nicknames, initials, a part
of a multi-word name, misspellings, username variants and prefixes), and how well a key
fits one person's names.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from typing import Collection, Dict, List, Set, Tuple, Union

import jellyfish

from ..lexicon.names import all_first_names, first_names
from ..lexicon.usernames import username_variants
from ..lexicon.wordlists import load_nickname_groups, load_wordlist
from .gender import name_gender
from .mentions import ordinary_word
from .personmap import Person, PersonMap, name_key
from .spellings import SpellingIndex, misspelling_distance
from .username_names import others_in_username

USERNAME_PREFIX_MIN = 4


@functools.lru_cache(maxsize=1)
def _nickname_groups_by_name() -> Dict[str, frozenset]:
    """Name -> the canonical names it is (a nickname of): ``bob`` -> {robert, ...}."""
    groups: Dict[str, Set[str]] = defaultdict(set)
    for canonical, nicks in load_nickname_groups().items():
        groups[canonical].add(canonical)
        for nick in nicks:
            groups[nick].add(canonical)
    return {name: frozenset(canonicals) for name, canonicals in groups.items()}


def initials(key: str) -> str:
    """``mary jane`` -> ``mj``."""
    return "".join(word[0] for word in key.split())


def is_misspelling(key: str, name: str) -> bool:
    """``arhtur``/``arthr`` of ``arthur``: close in Damerau-Levenshtein distance, and not a
    different real name (``mark`` is not a misspelling of ``mary``)."""
    if key == name or " " in key or " " in name or key in first_names():
        return False
    allowed = misspelling_distance(min(len(key), len(name)))
    return (allowed > 0 and abs(len(key) - len(name)) <= allowed
            and jellyfish.damerau_levenshtein_distance(key, name) <= allowed)


class VariantIndex:
    """Which people a name key may be a variant of, without comparing it to every name.

    Each index maps a key to its people in the order they were added (:func:`_add`,
    :func:`_people`): a key can have thousands of people (every ``mary...`` username has
    the prefix ``mary``), and a list's ``in`` test made adding them quadratic."""

    def __init__(self, person_map: PersonMap):
        self.exact: Dict[str, PeopleOfKey] = {}
        self.by_nickname_group: Dict[str, PeopleOfKey] = {}
        self.by_initials: Dict[str, PeopleOfKey] = {}
        self.by_part: Dict[str, PeopleOfKey] = {}
        # last word -> the multi-word names ending with it (``kowalski`` -> stan kowalski)
        self.by_surname: Dict[str, Dict[str, PeopleOfKey]] = {}
        self.by_username_variant: Dict[str, PeopleOfKey] = {}
        self.by_username_prefix: Dict[str, PeopleOfKey] = {}
        # words misspellings are compared with, by their deletion neighbourhood
        self.spellings = SpellingIndex()
        # key -> variant_people(key): emptied whenever a name or username is added
        self._variants: Dict[str, List[str]] = {}
        for person in person_map:
            self.add_usernames(person)
            for key in person.names:
                self.add_name(key, person.id)

    def add_name(self, key: str, person_id: str) -> None:
        self._variants.clear()
        _add(self.exact, key, person_id)
        if " " in key:
            _add(self.by_initials, initials(key), person_id)
            for part in key.split():
                if len(part) >= 2:
                    _add(self.by_part, part, person_id)
            _add(self.by_surname.setdefault(key.split()[-1], {}), key, person_id)
        else:
            for canonical in _nickname_groups_by_name().get(key, ()):
                _add(self.by_nickname_group, canonical, person_id)
            self.spellings.add(key, person_id)

    def add_usernames(self, person: Person) -> None:
        self._variants.clear()
        stop_words = load_wordlist("stop_words")
        for username in person.usernames:
            _add(self.exact, name_key(username), person.id)
            folded = username.casefold()
            not_own = not_their_names(person)
            # a prefix reaching into someone else's name is not the member's (ellies_dad)
            for end in range(USERNAME_PREFIX_MIN, min(len(folded),
                                                      _prefix_end(username, not_own))):
                if not ordinary_word(folded[:end]):          # not "hope" of hopeful_in_ohio
                    _add(self.by_username_prefix, folded[:end], person.id)
            for variant in username_variants(username) - not_own:
                if len(variant) >= 3 and variant not in stop_words:
                    _add(self.by_username_variant, variant, person.id)
                    if variant.isalpha():                      # "kaygril" of kaygirl
                        self.spellings.add(variant, person.id)

    def exact_people(self, key: str) -> List[str]:
        return list(_people(self.exact, key))

    def variant_people(self, key: str) -> List[str]:
        """People one of whose names ``key`` is a variant of, in first-seen order."""
        found = self._variants.get(key)
        if found is None:
            found = self._variants[key] = self._variant_people(key)
        return list(found)

    def _variant_people(self, key: str) -> List[str]:
        found: Dict[str, None] = {}             # (an ordered set)
        if " " not in key:
            # (sorted: a set's order changes with the interpreter's hash seed, and the
            # order of the candidates is the order of a duplicate-name warning's people)
            for canonical in sorted(_nickname_groups_by_name().get(key, ())):
                found.update(dict.fromkeys(_people(self.by_nickname_group, canonical)))
            if 2 <= len(key) <= 4:
                found.update(dict.fromkeys(_people(self.by_initials, key)))
            found.update(dict.fromkeys(_people(self.by_part, key)))
            found.update(dict.fromkeys(person_id for _, _, person_id
                                       in self.spellings.misspelt(key)))
            for end in range(SHORT_FORM_MIN, len(key)):     # "art" of arturo, "stan"
                short = key[:end]
                if _short_form(key, short) and not _other_genders(key, short):
                    found.update(dict.fromkeys(_people(self.exact, short)))
                    found.update(dict.fromkeys(_people(self.by_part, short)))
        else:
            same_surname = self.by_surname.get(key.split()[-1], {})
            for name in same_surname:
                if name != key and same_full_name(key, name):
                    found.update(dict.fromkeys(_people(same_surname, name)))
        for index in (self.by_username_variant, self.by_username_prefix):
            found.update(dict.fromkeys(_people(index, key.replace(" ", ""))))
        exact = _people(self.exact, key)
        return [p for p in found if p not in exact]


# A key's people: one person id (most keys of a board have one), or a dict of them used as
# an ordered set. A dict per key cost ~120 bytes for a key of one person, and these
# indexes hold ~15 keys per board member.
PeopleOfKey = Union[str, Dict[str, None]]


def _add(index: Dict[str, PeopleOfKey], key: str, person_id: str) -> None:
    """``person_id`` after the people of ``key`` (a person already there keeps their place)."""
    held = index.get(key)
    if held is None:
        index[key] = person_id
    elif isinstance(held, str):
        if held != person_id:
            index[key] = {held: None, person_id: None}
    else:
        held[person_id] = None


def _people(index: Dict[str, PeopleOfKey], key: str) -> Collection[str]:
    """The people of ``key``, in the order they were added (not to be changed)."""
    held = index.get(key)
    return () if held is None else (held,) if isinstance(held, str) else held


# -- is a person called so? -----------------------------------------------------------
EXACT, VARIANT = 2, 1


def called(key: str, person: Person) -> int:
    """How well ``key`` fits a person's names and usernames: ``EXACT`` (a name, the
    username or a part of it: ``linda`` of linda_k), ``VARIANT`` (a nickname, initials,
    a part of a longer name or a longer name of a part, a misspelling, a username prefix)
    or 0."""
    not_own = not_their_names(person)
    variants = _username_words(tuple(person.usernames)) - not_own
    if key in person.names or key in variants:
        return EXACT
    names = list(person.names) + [v for v in variants if v.isalpha()]
    canonicals = _nickname_groups_by_name().get(key, frozenset())
    key_parts = key.split()
    for name in names:
        parts = name.split()
        if (canonicals & _nickname_groups_by_name().get(name, frozenset())
                or (name in person.names and _short_form(key, name))
                or (len(parts) > 1 and (key in parts or key == initials(name)))
                or (len(key_parts) > 1 and name in key_parts)
                or (len(key_parts) > 1 and len(parts) > 1 and same_full_name(key, name))
                or is_misspelling(key, name)):
            return VARIANT
    folded = key.replace(" ", "")
    if len(folded) >= USERNAME_PREFIX_MIN and not ordinary_word(folded) and any(
            u.casefold().startswith(folded) and len(folded) < _prefix_end(u, not_own)
            for u in person.usernames):
        return VARIANT
    return 0


SHORT_FORM_MIN = 3       # "Pen" of "Penny", "Stan" of "Stanislaw"; not "Al" of "Alan"


def _short_form(key: str, name: str) -> bool:
    """Whether one single-word name begins the other: a short form (``penny`` of someone
    signing ``Pen``, ``stan`` of ``stanislaw``), also as it sounds when the two share their
    first two letters (``dez`` of ``desiree``: the same Metaphone code begins both; not
    ``pen`` of ``peter``, nor ``ben`` of ``bianca``); a ``key`` that is an ordinary word is
    not one (``will`` of ``willa``)."""
    short, long = sorted((key, name), key=len)
    return (" " not in long and len(short) >= SHORT_FORM_MIN and short != long
            and (long.startswith(short) or (long[:2] == short[:2] and _sounds_like_start(
                short, long)))
            and not (short == key and ordinary_word(key)))


def same_full_name(key: str, name: str) -> bool:
    """Two names of several words with the same surname and given names that agree: the
    same, a nickname, a short form or an initial of the other (``stanislaw j kowalski``,
    ``stan kowalski``; not ``halina kowalski``)."""
    mine, theirs = key.split(), name.split()
    if len(mine) < 2 or len(theirs) < 2 or mine[-1] != theirs[-1]:
        return False
    first, other = mine[0], theirs[0]
    groups = _nickname_groups_by_name()
    return (first == other or bool(groups.get(first, frozenset()) & groups.get(other, frozenset()))
            or _short_form(first, other) or _short_form(other, first)
            or (min(len(first), len(other)) == 1 and first[0] == other[0]))


def _other_genders(name: str, other: str) -> bool:
    """Whether two first names read as the two genders (``danielle``, ``dan``)."""
    return {name_gender(name), name_gender(other)} == {"female", "male"}


def _sounds_like_start(short: str, long: str) -> bool:
    """Whether ``long`` begins with the sound of ``short`` (their Metaphone codes)."""
    code = jellyfish.metaphone(short)
    return bool(code) and jellyfish.metaphone(long).startswith(code)


def known_by_name(person: Person) -> bool:
    """Whether anything says what a person is called: a name found for them other than
    their username, or a first name in their username (``linda_k``; not ``hope4all``, a
    word first)."""
    username_words = _username_words(tuple(person.usernames))
    return any(name not in username_words for name in person.names) or any(
        v in first_names() and not ordinary_word(v) for v in username_words)


@functools.lru_cache(maxsize=65536)
def _username_words(usernames: Tuple[str, ...]) -> frozenset:
    """The usernames as names are compared (``name_key``) and their variants of three or
    more letters that are not stop words (as :class:`VariantIndex` indexes them)."""
    stop_words = load_wordlist("stop_words")
    words = {name_key(u) for u in usernames}
    for username in usernames:
        words |= {v for v in username_variants(username) - others_in_username(username)
                  if len(v) >= 3 and v not in stop_words}
    return frozenset(words)



SIGNED_POSTS = 2        # posts giving a member a first name before it outweighs their username


def not_their_names(person: Person) -> frozenset:
    """The names inside a member's usernames that are not theirs (issue 30): a third
    party's (``teddy`` of carer_for_teddy, :func:`others_in_username`), and a first name
    that disagrees with the first name their own posts give them in two posts or more
    (``teddy`` of teddy_and_me, who signs ``xx Dawn``): not the same, a nickname or a
    short form of it, and never given to them by a post."""
    others = frozenset().union(*(others_in_username(u) for u in person.usernames))
    in_username = _username_first_names(tuple(person.usernames)) - others
    if not in_username:
        return others
    signed = [key for key, posts in person.names.items() if posts >= SIGNED_POSTS
              and key in all_first_names() and key not in in_username]
    return others | frozenset(word for word in in_username if signed and word not in person.names
                              and not any(_agree(word, name) for name in signed))


def _agree(word: str, name: str) -> bool:
    """Whether two first names may be one person's: a nickname or a short form."""
    groups = _nickname_groups_by_name()
    return (word.startswith(name) or name.startswith(word)
            or bool(groups.get(word, frozenset()) & groups.get(name, frozenset())))


def _prefix_end(username: str, not_own: Collection[str]) -> int:
    """How long a prefix of ``username`` (case-folded) that is a member's name is, at
    most, plus one: it stops before any name in it that is not theirs."""
    folded = username.casefold()
    starts = [folded.find(word) for word in not_own if folded.find(word) >= 0]
    return min(starts) + 1 if starts else len(folded) + 1


@functools.lru_cache(maxsize=65536)
def _username_first_names(usernames: Tuple[str, ...]) -> frozenset:
    """The words of the usernames that are first names and not ordinary words."""
    return frozenset(word for word in _username_words(usernames) if word.isalpha()
                     and word in all_first_names() and not ordinary_word(word))
