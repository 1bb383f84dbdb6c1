"""Nearest distance to each of any number of word lists, from one index over their union.

``FuzzyIndex.near_masks`` answers for every list at once with one bit per list in an
int64 mask, so it serves at most ``MASK_LISTS`` lists. The usernames of a dump, one list
per board, can come in thousands of lists. For those, ``ListMembership`` keeps which
lists each entry of the index belongs to (compressed rows: one array of list numbers, one
of row starts) and turns the index's matches (``FuzzyIndex.near_matches``: every entry
within the allowed distance of a token) into the smallest distance per token and list,
with a few array operations. Its cost grows with the matches of a token and the lists of
the entries matched, not with the number of lists, and the answers are the same as
``near_masks``'s (both are the smallest distance per list among the verified matches).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

# Lists one int64 tag mask holds (bits 0..62; bit 63 is the sign).
MASK_LISTS = 63


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
