import numpy as np
import pytest

from mmbdeid.model.count_runs import CountRuns, _document_cuts
from mmbdeid.model.counting import KEY_SHIFT


def keys_of(pairs):
    return np.array([(document << KEY_SHIFT) | term for document, term in pairs], np.int64)


def merged(runs, kind, slice_pairs):
    return [([(int(k) >> KEY_SHIFT, int(k) & 0xFFFFFFFF) for k in keys], counts.tolist())
            for keys, counts in runs.merged_slices(kind, slice_pairs)]


def test_a_pair_in_several_runs_comes_back_once_with_its_counts_summed():
    runs = CountRuns()
    runs.add(0, keys_of([(0, 1), (0, 5), (2, 3)]), np.array([1, 2, 3]))
    runs.add(0, keys_of([(0, 5), (1, 1), (2, 3)]), np.array([10, 20, 30]))
    runs.add(1, keys_of([(4, 4)]), np.array([7]))
    assert merged(runs, 0, 100) == [([(0, 1), (0, 5), (1, 1), (2, 3)], [1, 12, 20, 33])]
    assert merged(runs, 1, 100) == [([(4, 4)], [7])]
    assert runs.pairs_per_document[0].tolist() == [3, 1, 2]
    runs.close()


def test_slices_hold_whole_documents_in_key_order():
    runs = CountRuns()
    pairs = [(document, term) for document in range(6) for term in range(document + 1)]
    runs.add(0, keys_of(pairs[::2]), np.ones(len(pairs[::2]), np.int64))
    runs.add(0, keys_of(pairs[1::2]), np.ones(len(pairs[1::2]), np.int64))
    slices = merged(runs, 0, 4)
    assert [pair for keys, _ in slices for pair in keys] == pairs
    documents = [{document for document, _ in keys} for keys, _ in slices]
    assert all(a.isdisjoint(b) for a, b in zip(documents, documents[1:]))
    assert len(slices) > 2
    runs.close()


def test_no_runs_no_slices_and_no_file():
    runs = CountRuns()
    runs.add(0, keys_of([]), np.zeros(0, np.int64))
    assert not runs
    assert list(runs.merged_slices(0, 10)) == []
    runs.close()


@pytest.mark.parametrize("per_document, slice_pairs, cuts", [
    ([3, 1, 2], 100, [0, 3]),
    ([3, 1, 2], 3, [0, 1, 3]),
    ([3, 1, 2], 1, [0, 1, 2, 3]),
    ([0, 0, 5, 0], 2, [0, 2, 3, 4]),    # a larger document alone; empty ones anywhere
    ([], 5, [0]),
])
def test_document_cuts(per_document, slice_pairs, cuts):
    assert _document_cuts(np.array(per_document, np.int64), slice_pairs).tolist() == cuts
