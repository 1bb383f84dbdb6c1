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

from array import array
from typing import Dict, List, Optional, Set, Tuple, Union

import jellyfish
import numpy as np

from ..lexicon.names import first_names

_distance = jellyfish.damerau_levenshtein_distance
MERGE_AT_LEAST = 1 << 16        # recent variants merged into the arrays, at the fewest


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
    """Words (with the people they belong to) that a key may be a misspelling of.

    The deletion neighbourhood is most of the memory of linking a large board (about 23
    variants a word), so it is kept as two numpy arrays sorted by the variants' hashes
    (12 bytes a variant instead of ~110 for a string in a dict), with the latest
    variants in a dict until there are a quarter as many as in the arrays, then merged
    in. A hash shared by two variants only adds a word the distance then rejects, so the
    answers are those of comparing the key with every word."""

    def __init__(self):
        self._words: List[str] = []                  # word id -> word
        self._word_ids: Dict[str, int] = {}
        # word id -> (person, order added), or person -> order added when several
        self._owners: List[Optional[Union[Tuple[str, int], Dict[str, int]]]] = []
        self._added = 0
        self._hashes = np.empty(0, dtype=np.int64)   # variant hashes, sorted
        self._targets = np.empty(0, dtype=np.int32)  # the word id of each
        self._recent: Dict[int, Union[int, Tuple[int, ...]]] = {}
        self._recent_count = 0

    def __len__(self) -> int:
        """The variants indexed (the words' deletion neighbourhoods, summed)."""
        return len(self._hashes) + self._recent_count

    def add(self, word: str, person_id: str) -> None:
        word_id = self._word_ids.get(word)
        if word_id is None:
            word_id = self._word_ids[word] = len(self._words)
            self._words.append(word)
            self._owners.append(None)
            self._index_variants(word, word_id)
        owners = self._owners[word_id]
        if owners is None:
            self._added += 1
            self._owners[word_id] = (person_id, self._added)
        elif isinstance(owners, tuple):
            if owners[0] != person_id:
                self._added += 1
                self._owners[word_id] = {owners[0]: owners[1], person_id: self._added}
        elif person_id not in owners:
            self._added += 1
            owners[person_id] = self._added

    def _index_variants(self, word: str, word_id: int) -> None:
        for variant in deletions(word, misspelling_distance(len(word))):
            code = hash(variant)
            held = self._recent.get(code)
            self._recent[code] = (word_id if held is None
                                  else (held, word_id) if isinstance(held, int)
                                  else held + (word_id,))
            self._recent_count += 1
        if self._recent_count >= max(MERGE_AT_LEAST, len(self._hashes) // 4):
            self._merge()

    def _merge(self) -> None:
        """The recent variants into the sorted arrays."""
        codes, targets = array("q"), array("i")
        for code, held in self._recent.items():
            for word_id in ((held,) if isinstance(held, int) else held):
                codes.append(code)
                targets.append(word_id)
        codes = np.concatenate([self._hashes, np.frombuffer(codes, dtype=np.int64)])
        targets = np.concatenate([self._targets, np.frombuffer(targets, dtype=np.int32)])
        order = np.argsort(codes, kind="stable")
        self._hashes, self._targets = codes[order], targets[order]
        self._recent, self._recent_count = {}, 0

    def _candidates(self, key: str) -> Set[int]:
        """The ids of the words sharing a deletion variant (or its hash) with ``key``."""
        found: Set[int] = set()
        codes = [hash(v) for v in deletions(key, misspelling_distance(len(key)))]
        for code in codes:
            held = self._recent.get(code)
            if held is not None:
                found.update((held,) if isinstance(held, int) else held)
        hashes = self._hashes
        if len(hashes):
            codes = np.array(codes, dtype=np.int64)
            starts = hashes.searchsorted(codes)
            for start in starts[hashes.take(starts, mode="clip") == codes].tolist():
                code = hashes[start]
                while start < len(hashes) and hashes[start] == code:   # (most: one)
                    found.add(int(self._targets[start]))
                    start += 1
        return found

    def misspelt(self, key: str) -> List[Tuple[int, str, str]]:
        """The (order added, word, person) entries ``key`` is a misspelling of: the same
        first letter, within :func:`misspelling_distance` of the shorter's length, and not
        itself a known first name (``mark`` is not a misspelling of ``mary``), in the
        order they were added."""
        if " " in key or key in first_names():
            return []
        found = []
        for word_id in self._candidates(key):
            word = self._words[word_id]
            allowed = misspelling_distance(min(len(key), len(word)))
            if (word != key and word[:1] == key[:1] and allowed
                    and abs(len(key) - len(word)) <= allowed
                    and _distance(key, word) <= allowed):
                owners = self._owners[word_id]
                if isinstance(owners, tuple):
                    found.append((owners[1], word, owners[0]))
                else:
                    found.extend((order, word, person) for person, order in owners.items())
        found.sort()
        return found
