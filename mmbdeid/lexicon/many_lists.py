"""Nearest distance to each of several word lists, from one index over their union.

``MultiListIndex`` asks one :class:`~mmbdeid.lexicon.fuzzy.FuzzyIndex` over the union of the
lists. Up to ``MASK_LISTS`` lists, each entry is tagged with one bit per list in an int64
mask, and ``FuzzyIndex.near_masks`` answers for every list at once. The usernames of a dump,
one list per board, can come in thousands of lists. For those, ``ListMembership`` keeps which
lists each entry of the index belongs to (compressed rows: one array of list numbers, one
of row starts) and turns the index's matches (``FuzzyIndex.near_matches``: every entry
within the allowed distance of a token) into the smallest distance per token and list,
with a few array operations. Its cost grows with the matches of a token and the lists of
the entries matched, not with the number of lists, and the answers are the same as
``near_masks``'s (both are the smallest distance per list among the verified matches).

``word_lists_index``: the index of shipped word lists, built once per process.
"""
from __future__ import annotations

import functools
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

from .fuzzy import DISTANCE_CACHE_SIZE, FuzzyIndex, without_surrogates

# Lists one int64 tag mask holds (bits 0..62; bit 63 is the sign).
MASK_LISTS = 63
# An index of at most this many entries (the usernames of one post) screens tokens by
# length and letters before querying.
FEW_WORDS = 16


class ListMembership:
    """Which lists each entry of a ``FuzzyIndex`` belongs to.

    ``words``: the index's entries in id order (``FuzzyIndex.words``); ``lists_of``: word
    -> the numbers of its lists, ascending."""

    def __init__(self, words: Sequence[str], lists_of: Mapping[str, Sequence[int]]) -> None:
        self._entry_id = {word: number for number, word in enumerate(words)}
        counts = np.fromiter((len(lists_of[word]) for word in words), dtype=np.int64,
                             count=len(words))
        self._starts = np.concatenate(([0], np.cumsum(counts)))
        self._counts = counts
        self._lists = np.fromiter((number for word in words for number in lists_of[word]),
                                  dtype=np.int64, count=int(self._starts[-1]))

    def nearest(self, index, tokens: list[str], names: Sequence[str]) -> list[dict[str, int]]:
        """Per token, list name -> smallest distance (0, 1 or 2) for the lists within reach,
        in list order. ``index``: the ``FuzzyIndex`` over the entries; ``tokens`` free of
        lone surrogates."""
        rows, ids, distances = index.near_matches(tokens)
        exact = [(row, self._entry_id[token]) for row, token in enumerate(tokens)
                 if token in self._entry_id]
        if exact:
            exact_rows, exact_ids = (np.array(column, dtype=np.int64) for column in zip(*exact))
            rows = np.concatenate((rows.astype(np.int64), exact_rows))
            ids = np.concatenate((ids.astype(np.int64), exact_ids))
            distances = np.concatenate((distances.astype(np.int64),
                                        np.zeros(len(exact), dtype=np.int64)))
        # one (token, list, distance) triple per list of each matched entry
        counts = self._counts[ids]
        ends = np.cumsum(counts)
        within = np.arange(ends[-1] if ends.size else 0) - np.repeat(ends - counts, counts)
        lists = self._lists[np.repeat(self._starts[ids], counts) + within]
        rows, distances = np.repeat(rows, counts), np.repeat(distances, counts)
        # the smallest distance of each (token, list): first after sorting by all three
        order = np.lexsort((distances, lists, rows))
        rows, lists, distances = rows[order], lists[order], distances[order]
        first = np.ones(rows.size, dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (lists[1:] != lists[:-1])
        answers: list[dict[str, int]] = [{} for _ in tokens]
        # (sorted by list number within a token: the answers come in list order)
        for row, number, distance in zip(rows[first].tolist(), lists[first].tolist(),
                                         distances[first].tolist()):
            answers[row][names[number]] = distance
        return answers


class MultiListIndex:
    """Nearest distance to each of several word lists with ONE index query per token.

    A feature extractor asks every list about every new token type; querying one index
    over the union of the lists, each entry tagged with the bit mask of its lists, is
    several times faster than one query per list, with the same answers (verification is
    exact), and lets the index skip the candidates of lists already answered
    (``FuzzyIndex.near_masks``). A mask holds ``MASK_LISTS`` lists; past that (the
    usernames of a dump with many boards, one list per board) the index's entries keep
    their lists in a ``ListMembership`` instead, with the same answers.
    """

    def __init__(self, lists: dict[str, Iterable[str]], max_distance: int = 2) -> None:
        self.names = list(lists)
        self._membership: Optional[ListMembership] = None
        if len(self.names) <= MASK_LISTS:
            masks: dict[str, int] = {}
            for bit, name in enumerate(self.names):
                for word in lists[name]:
                    if word:
                        masks[word] = masks.get(word, 0) | (1 << bit)
            self.index = FuzzyIndex(masks, max_distance, tags=masks)
            self._word_masks = masks
        else:
            lists_of: dict[str, list[int]] = {}
            for number, name in enumerate(self.names):
                for word in filter(None, lists[name]):
                    numbers = lists_of.setdefault(word, [])
                    if not numbers or numbers[-1] != number:   # (a list may repeat a word)
                        numbers.append(number)
            self.index = FuzzyIndex(lists_of, max_distance)
            self._membership = ListMembership(self.index.words, lists_of)
        self._cache: dict[str, dict[str, int]] = {}
        self._word_count = len(self.index)
        self.max_distance = max_distance
        self._few = [(len(word), set(word)) for word in self.index.words] \
            if self._word_count <= FEW_WORDS else []

    def _may_be_near(self, token: str) -> bool:
        """Whether an entry may lie within ``max_distance`` of ``token``: each edit changes
        the length by at most 1, and removes at most one letter not in the other word, and
        adds at most one."""
        reach, letters = self.max_distance, set(token)
        return any(abs(length - len(token)) <= reach and len(letters - word) <= reach
                   and len(word - letters) <= reach for length, word in self._few)

    def nearest(self, token: str) -> dict[str, int]:
        """List name -> smallest distance (0, 1 or 2) for the lists within reach."""
        found = self._cache.get(token)
        if found is None:
            self.prefetch([token])
            found = self._cache[token]
        return found

    def prefetch(self, tokens: Iterable[str]) -> None:
        """Answer many tokens in one batched index query (see ``FuzzyIndex.near_masks``,
        or ``ListMembership`` past ``MASK_LISTS`` lists)."""
        new = [t for t in dict.fromkeys(tokens) if t not in self._cache]
        if not new:
            return
        if len(self._cache) + len(new) > DISTANCE_CACHE_SIZE:
            self._cache.clear()   # bounded memory; text is Zipfian, the cache refills fast
        clean = [without_surrogates(t) for t in new]
        if self._word_count <= FEW_WORDS:
            # (a post's own author; none for a text alone) a token too far from every
            # entry by its length or its letters, which both bound the distance from
            # below, is near none: answered without the index query
            near = [k for k, token in enumerate(clean) if self._may_be_near(token)]
            for k in set(range(len(new))) - set(near):
                self._cache[new[k]] = {}
            new, clean = [new[k] for k in near], [clean[k] for k in near]
            if not new:
                return
        if self._membership is not None:
            for token, answer in zip(new, self._membership.nearest(self.index, clean,
                                                                   self.names)):
                self._cache[token] = answer
            return
        exact = np.array([self._word_masks.get(t, 0) for t in clean], dtype=np.int64)
        one, two = self.index.near_masks(clean, exact)
        # best[k, bit]: smallest distance from token k to an entry of list ``bit`` (3: none)
        bits = np.arange(len(self.names), dtype=np.int64)
        best = np.where((exact[:, None] >> bits) & 1 == 1, 0,
                        np.where((one[:, None] >> bits) & 1 == 1, 1,
                                 np.where((two[:, None] >> bits) & 1 == 1, 2, 3)))
        names = self.names
        # In list order, whatever order the matches came in: features (and so trained
        # models) must not depend on how the index was queried. Few distinct answers: each
        # is built once (keyed by its row of ``best``, packed into an int) and copied.
        if len(names) <= 31:
            keys = (best << (2 * bits)).sum(axis=1).tolist()
        else:
            keys = [tuple(row) for row in best.tolist()]
        built: dict[object, dict[str, int]] = {}
        for k, (token, key) in enumerate(zip(new, keys)):
            answer = built.get(key)
            if answer is None:
                answer = built[key] = {name: distance for name, distance
                                       in zip(names, best[k].tolist()) if distance < 3}
            self._cache[token] = answer.copy()


@functools.lru_cache(maxsize=None)
def word_lists_index(names: tuple, max_distance: int = 2) -> MultiListIndex:
    """The (cached) MultiListIndex of shipped word lists."""
    from .wordlists import load_wordlist

    return MultiListIndex({name: load_wordlist(name) for name in names}, max_distance)
