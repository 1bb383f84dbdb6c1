"""Which gender a first name reads as, so that a surrogate keeps it (``Marge`` -> a woman's
name, ``Christopher`` -> a man's; the text around it still says "she" or "he").

The rule, from the ``first_names_gender`` list (the share of the people with a first name
who are women; source and licence in ``lexicons/README.md``):

- a female share of at least ``FEMALE_MIN_SHARE`` (0.7) reads ``female``, at most
  ``MALE_MAX_SHARE`` (0.3) ``male``, anything between ``either`` (``Jordan``, ``Casey``);
- a name the list lacks takes the mean share of the listed names the ``nicknames`` list
  relates it to: the names it is a nickname of, and its own nicknames (``Babs``:
  Barbara -> ``female``);
- a name with neither is unknown, ``""`` (``Tenzin``): its surrogate may be of any gender.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from typing import Dict, FrozenSet, Set

from ..lexicon.usernames import username_variants
from ..lexicon.wordlists import load_first_name_female_shares, load_nickname_groups

FEMALE_MIN_SHARE = 0.7
MALE_MAX_SHARE = 0.3
GENDERS = ("female", "male")
MIN_NAME_PART = 3           # "al", "ed" inside a username are rarely its owner's name


def gender_of_share(share: float) -> str:
    if share >= FEMALE_MIN_SHARE:
        return "female"
    if share <= MALE_MAX_SHARE:
        return "male"
    return "either"


@functools.lru_cache(maxsize=8192)
def name_gender(name: str) -> str:
    """``female``, ``male``, ``either`` (listed, but borne by both) or ``""`` (unknown)."""
    key = name.strip().lower()
    shares = load_first_name_female_shares()
    if key in shares:
        return gender_of_share(shares[key])
    related = [shares[other] for other in _nickname_relatives().get(key, ()) if other in shares]
    return gender_of_share(sum(related) / len(related)) if related else ""


def username_gender_name(username: str) -> str:
    """A first name in a username that tells its owner's gender (``levo_lisa`` -> lisa),
    when all the gendered names in it agree; else ``""``. For people the text never
    names, so their surrogate still matches the username they chose."""
    found = {}
    for part in sorted(username_variants(username)):
        gender = name_gender(part) if len(part) >= MIN_NAME_PART else ""
        if gender in GENDERS:
            found.setdefault(gender, part)
    return next(iter(found.values())) if len(found) == 1 else ""


def fits(name: str, gender: str) -> bool:
    """Whether ``name`` can stand for a person of ``gender``: it reads so, or is unknown."""
    return name_gender(name) in (gender, "")


@functools.lru_cache(maxsize=1)
def _nickname_relatives() -> Dict[str, FrozenSet[str]]:
    """Name -> the names it is a nickname of and its own nicknames (``marge`` ->
    margaret, margaretta, margarita, margery); not the other nicknames of those names,
    which would drag in names of the other gender (``ron`` and ``vera`` of veronica)."""
    relatives: Dict[str, Set[str]] = defaultdict(set)
    for canonical, nicks in load_nickname_groups().items():
        relatives[canonical] |= nicks - {canonical}
        for nick in nicks - {canonical}:
            relatives[nick].add(canonical)
    return {name: frozenset(others) for name, others in relatives.items()}
