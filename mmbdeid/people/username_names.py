"""Which names inside a username are someone else's (issue 30): ``carer_for_teddy``,
``momtojake``, ``lovingliam``, ``for_grandma_rose`` and ``ellies_dad`` name the person the
member cares for, mourns or is parent of, not the member. Such a name is no evidence that a
mention is the member; the whole username still is.

- a name after a relation word (``for``, ``of``, ``to``, ``mom``, ``wife``, ``carer``,
  ``loving``, ``missing``, ...), also glued to it (``momtojake``), articles and further
  relation words skipped (``wife_of_a_vet``, ``for_grandma_rose``);
- a possessive before a relation word (``ellies_dad``, ``TeddysMom``).
"""
from __future__ import annotations

import functools
from typing import FrozenSet, List

from ..lexicon.names import all_first_names
from ..lexicon.usernames import _split_parts

RELATION_WORDS = frozenset(
    "for of to mom mum mommy mummy mama momma dad daddy papa wife husband hubby carer "
    "caring caregiver caretaker loving missing remembering mother father sister brother "
    "daughter son grandma grandpa granny nana gran nan auntie aunt uncle".split())
_SKIPPED = frozenset("a an the my our".split())
# relation words a possessive name comes before (ellies_dad): who the member is to them
_OF_SOMEONE = RELATION_WORDS - {"for", "of", "to", "caring", "loving", "missing",
                                "remembering"}


def _peel(part: str) -> List[str]:
    """A glued part split after the relation words it begins with (``momtojake`` ->
    ``mom``, ``to``, ``jake``), where what is left is a first name or more relation
    words; else the part itself."""
    if part in RELATION_WORDS or part in all_first_names():
        return [part]
    for end in range(len(part) - 2, 1, -1):
        head, rest = part[:end], part[end:]
        if head in RELATION_WORDS:
            tail = _peel(rest)
            if tail != [rest] or rest in all_first_names():
                return [head] + tail
    return [part]


@functools.lru_cache(maxsize=65536)
def others_in_username(username: str) -> FrozenSet[str]:
    """The names in ``username`` that are a third party's (see the module doc)."""
    tokens: List[str] = []
    for part in _split_parts(username):
        tokens += _peel(part)
    found = set()
    after_relation = False
    for number, token in enumerate(tokens):
        following = tokens[number + 1] if number + 1 < len(tokens) else ""
        if token in RELATION_WORDS:
            after_relation = True
            continue
        if token in _SKIPPED and after_relation:
            continue
        if after_relation:
            found.add(token)
        elif len(token) > 3 and token.endswith("s") and following in _OF_SOMEONE:
            found.update((token, token[:-1]))            # ellies_dad: ellie's
        after_relation = False
    return frozenset(found)

