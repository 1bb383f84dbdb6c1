"""The words a name key may be a misspelling of, found through their deletion
neighbourhood instead of by comparing the key with every word of the board.

Two words within Damerau-Levenshtein distance ``k`` share a word made by deleting at most
``k`` letters from each (every edit costs at most one deletion on each side: a
substitution one on both, an insertion one on one side, a transposition keeps one of its
two letters), and two words with the same first letter share one that keeps it. So each
word is indexed under its first letter plus every way of deleting up to
:func:`misspelling_distance` letters from the rest, and a key's own deletions find every
word it may be a misspelling of; the real distance then decides, as before. The index
grows with the distinct words (about 23 entries per word on board usernames), never with
the square of the people.
"""
from __future__ import annotations

from typing import Dict, List, Set, Tuple, Union

import jellyfish

from ..lexicon.names import first_names

_distance = jellyfish.damerau_levenshtein_distance


def misspelling_distance(length: int) -> int:
    """Edits allowed between a misspelling and a name of this length."""
    return 0 if length < 4 else 1 if length < 8 else 2


def deletions(word: str, most: int) -> Set[str]:
    """``word`` with up to ``most`` of its letters after the first deleted."""
    found = frontier = {word}
    for _ in range(most):
        frontier = {v[:i] + v[i + 1:] for v in frontier for i in range(1, len(v))}
        found = found | frontier
    return found


class SpellingIndex:
    """Words (with the people they belong to) that a key may be a misspelling of."""

    def __init__(self):
        # word -> person -> order the (word, person) pair was added
        self._people: Dict[str, Dict[str, int]] = {}
        # deletion variant -> its word, or a tuple of its words (most have one)
        self._near: Dict[str, Union[str, Tuple[str, ...]]] = {}
        self._added = 0

    def add(self, word: str, person_id: str) -> None:
        people = self._people.get(word)
        if people is None:
            people = self._people[word] = {}
            for variant in deletions(word, misspelling_distance(len(word))):
                held = self._near.get(variant)
                self._near[variant] = (word if held is None
                                       else (held, word) if isinstance(held, str)
                                       else held + (word,))
        if person_id not in people:
            self._added += 1
            people[person_id] = self._added

    def _candidates(self, key: str) -> Dict[str, None]:
        found: Dict[str, None] = {}
        for variant in deletions(key, misspelling_distance(len(key))):
            held = self._near.get(variant)
            if held is not None:
                found.update(dict.fromkeys((held,) if isinstance(held, str) else held))
        return found

    def misspelt(self, key: str) -> List[Tuple[int, str, str]]:
        """The (order added, word, person) entries ``key`` is a misspelling of: the same
        first letter, within :func:`misspelling_distance` of the shorter's length, and not
        itself a known first name (``mark`` is not a misspelling of ``mary``), in the
        order they were added."""
        if " " in key or key in first_names():
            return []
        found = []
        for word in self._candidates(key):
            allowed = misspelling_distance(min(len(key), len(word)))
            if (word != key and word[:1] == key[:1] and allowed
                    and abs(len(key) - len(word)) <= allowed
                    and _distance(key, word) <= allowed):
                found.extend((order, word, person)
                             for person, order in self._people[word].items())
        found.sort()
        return found
