"""(document, term) counts set aside in a scratch file as sorted runs, and read back merged,
a slice of whole documents at a time: how :class:`~mmbdeid.model.stats_builder.StatsBuilder`
keeps the counts of a large dump out of memory and still ranks them with numpy.

A run is a :class:`~mmbdeid.model.counting.CountArrays`' pairs of one kind (boards or
users) when they were set aside: int64 keys (document id in the high half, term id in the
low, ids of the builder's whole vocabulary) sorted and unique, and their counts. The same
pair may be in several runs; merged, its counts are summed.
"""
from typing import Iterator, List, Tuple

import numpy as np

from ..files.diskerrors import scratch_binary_file
from .counting import KEY_SHIFT, sum_sorted_pairs

_ITEM = np.dtype(np.int64).itemsize


class CountRuns:
    """Runs of (key, count) pairs of the two kinds, in one scratch file (made at the first
    run, gone when closed). ``pairs_per_document[kind]``: the pairs of each document id
    over all runs, counted as they come (a pair in two runs counts twice), which is
    what cutting the merge into slices needs."""

    def __init__(self):
        self._file = None
        self._end = 0
        self._runs: Tuple[List[Tuple[int, int]], List[Tuple[int, int]]] = ([], [])
        self.pairs_per_document = [np.zeros(0, np.int64), np.zeros(0, np.int64)]

    def __bool__(self) -> bool:
        return bool(self._runs[0] or self._runs[1])

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def add(self, kind: int, keys: np.ndarray, counts: np.ndarray) -> None:
        """Set aside sorted unique ``keys`` with their ``counts``."""
        if not len(keys):
            return
        if self._file is None:
            self._file = scratch_binary_file()
        self._file.seek(self._end)
        self._file.write(np.ascontiguousarray(keys, np.int64).tobytes())
        self._file.write(np.ascontiguousarray(counts, np.int64).tobytes())
        self._runs[kind].append((self._end, len(keys)))
        self._end += 2 * _ITEM * len(keys)
        per_document = np.bincount(keys >> KEY_SHIFT)
        total = self.pairs_per_document[kind]
        if len(per_document) > len(total):
            total = np.concatenate([total, np.zeros(len(per_document) - len(total), np.int64)])
        total[:len(per_document)] += per_document
        self.pairs_per_document[kind] = total

    def merged_slices(self, kind: int, slice_pairs: int) -> Iterator[Tuple[np.ndarray,
                                                                            np.ndarray]]:
        """(keys, counts) of every pair of ``kind``, its counts summed over the runs, in
        key order, in slices of whole documents of about ``slice_pairs`` pairs (at least
        one document each)."""
        runs = self._runs[kind]
        if not runs:
            return
        cuts = _document_cuts(self.pairs_per_document[kind], slice_pairs) << KEY_SHIFT
        # where each cut falls in each run: found reading the run's keys once
        bounds = [np.searchsorted(self._read(offset, 0, length), cuts) for offset, length
                  in runs]
        for index in range(len(cuts) - 1):
            keys, counts = [], []
            for (offset, length), run_bounds in zip(runs, bounds):
                start, end = int(run_bounds[index]), int(run_bounds[index + 1])
                if end > start:
                    keys.append(self._read(offset, start, end - start))
                    counts.append(self._read(offset + _ITEM * length, start, end - start))
            if keys:
                yield _summed(np.concatenate(keys), np.concatenate(counts))

    def _read(self, offset: int, start: int, n: int) -> np.ndarray:
        self._file.seek(offset + _ITEM * start)
        return np.frombuffer(self._file.read(_ITEM * n), np.int64)


def _document_cuts(pairs_per_document: np.ndarray, slice_pairs: int) -> np.ndarray:
    """Document ids where slices start, and one past the last document: each slice holds
    whole documents, about ``slice_pairs`` pairs (a larger document alone)."""
    reach = np.cumsum(pairs_per_document)
    cuts = [0]
    while cuts[-1] < len(reach):
        done = reach[cuts[-1] - 1] if cuts[-1] else 0
        cuts.append(max(cuts[-1] + 1,
                        int(np.searchsorted(reach, done + slice_pairs, side="right"))))
    return np.array(cuts, np.int64)


def _summed(keys: np.ndarray, counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Sorted unique keys, the counts of equal keys summed."""
    order = np.argsort(keys, kind="stable")
    return sum_sorted_pairs(keys[order], counts[order])
