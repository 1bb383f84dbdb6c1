"""The batched tagger (crf/batched.py, ``--tagging compiled``) gives crfsuite's marginals:
to within 1e-6 on every token of the sample, the demo dump and a synthetic dump, for one-
and two-stage models, whatever the batching, cache size or post length."""
import itertools
import json
import sys

import numpy as np
import pytest

from mmbdeid.cli import main
from mmbdeid.crf import TAGGERS, batched, forward_backward
from mmbdeid.crf.batched import BatchedTagger
from mmbdeid.crf.emissions import rank_bucket_ids
from mmbdeid.detect.crf import CrfDetector
from mmbdeid.files.corpora import training_labels
from mmbdeid.model.feature_buckets import rank_buckets
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.tagger import NameTagger
from mmbdeid.text.document import Document

from paths import BENCHMARKS, DEMO_DUMP
from slow_cases import slow_except
sys.path.insert(0, BENCHMARKS)
import synthetic_dump  # noqa: E402

TOLERANCE = 1e-6


def _documents(path):
    with open(path, encoding="utf-8") as handle:
        return [Document.from_post(json.loads(line)) for line in handle if line.strip()]


@pytest.fixture(scope="module")
def corpora(tmp_path_factory, sample_labelled, demo_documents):
    synthetic = str(tmp_path_factory.mktemp("synthetic") / "dump.jsonl")
    synthetic_dump.generate(400, synthetic, seed=3)
    return {
        "sample": [d.document for d in sample_labelled],
        "demo dump": demo_documents,
        "synthetic dump": _documents(synthetic),
    }


def _crfsuite_marginals(tagger, stats, documents):
    """python-crfsuite itself: items, Tagger.set, Tagger.marginal."""
    featurizer = tagger.featurizer(stats)
    return [np.array(tagger.name_marginals(featurizer.document_items(document)),
                     dtype=float).reshape(-1, 2) for document in documents]


def _compiled_marginals(tagger, stats, documents, chunk=200):
    detector = CrfDetector(tagger, stats)
    assert isinstance(detector.backend, BatchedTagger)
    found = []
    for lo in range(0, len(documents), chunk):
        detector.prefetch(documents[lo:lo + chunk])
        found += [np.asarray(detector.marginals(d)) for d in documents[lo:lo + chunk]]
    return found


def _largest_difference(a, b):
    assert [len(x) for x in a] == [len(x) for x in b]
    return max((float(np.abs(x - y).max()) for x, y in zip(a, b) if len(x)), default=0.0)


@pytest.mark.parametrize("name", slow_except(["sample", "demo dump", "synthetic dump"],
                                             fast=["demo dump"]))
def test_marginals_equal_crfsuites_on_every_token(default_tagger, corpora, name):
    documents = corpora[name]
    stats = CorpusStats.build(documents)
    expected = _crfsuite_marginals(default_tagger, stats, documents)
    got = _compiled_marginals(default_tagger, stats, documents)
    assert sum(map(len, got)) > 1000
    assert _largest_difference(got, expected) <= TOLERANCE


@pytest.mark.slow
@pytest.mark.parametrize("chunk, type_rows, long_post", [
    (1, 100_000, 4096),       # one post at a time
    (1000, 100_000, 4096),    # everything in one batch
    (64, 600, 4096),          # a tiny type table: forgotten and refilled many times
    (64, 100_000, 40),        # most posts by the bounded-memory path
])
def test_batching_cache_size_and_long_posts_change_nothing(default_tagger, corpora,
                                                           monkeypatch, chunk, type_rows,
                                                           long_post):
    documents = corpora["synthetic dump"][:150]
    stats = CorpusStats.build(documents)
    expected = _crfsuite_marginals(default_tagger, stats, documents)
    monkeypatch.setattr(batched, "LONG_POST", long_post)
    monkeypatch.setattr("mmbdeid.crf.emissions.TYPE_ROWS", type_rows)
    got = _compiled_marginals(default_tagger, stats, documents, chunk)
    assert _largest_difference(got, expected) <= TOLERANCE


def test_without_statistics_and_for_empty_or_tiny_posts(default_tagger):
    documents = [Document.from_text(text) for text in
                 ("", "x", "\n\n", "Hi Kay,\n\nthanks!\nBarb", "kay@example.com Kay")]
    expected = _crfsuite_marginals(default_tagger, None, documents)
    got = _compiled_marginals(default_tagger, None, documents)
    assert _largest_difference(got, expected) <= TOLERANCE


@pytest.mark.slow
def test_two_stage_model(sample_labelled):
    labelled = sample_labelled[:60]
    documents = [d.document for d in labelled]
    stats = CorpusStats.build(documents)
    two = NameTagger(max_iterations=15, second_stage=True, context_folds=2).fit(
        documents, [training_labels(d.document, d.labels) for d in labelled], stats=stats)
    assert two.has_second_stage
    old = CrfDetector(two, stats, tagging="crfsuite")
    new = CrfDetector(two, stats)
    assert isinstance(new.backend, BatchedTagger) and new.backend.second is not None
    new.prefetch(documents)
    got = [np.asarray(new.marginals(d)) for d in documents]
    expected = [np.array(old.marginals(d), dtype=float).reshape(-1, 2) for d in documents]
    assert _largest_difference(got, expected) <= TOLERANCE
    # and a corpus taken as one (evaluation pools the first stage over it)
    old.prepare(documents)
    new.prepare(documents)
    got = [np.asarray(new.marginals(d)) for d in documents]
    expected = [np.array(old.marginals(d), dtype=float).reshape(-1, 2) for d in documents]
    assert _largest_difference(got, expected) <= TOLERANCE


def _brute_force(scores, transitions):
    """P(label at t) by summing over every label sequence."""
    n, k = scores.shape
    totals = np.zeros((n, k))
    for path in itertools.product(range(k), repeat=n):
        weight = sum(scores[t, y] for t, y in enumerate(path)) + sum(
            transitions[a, b] for a, b in zip(path, path[1:]))
        for t, y in enumerate(path):
            totals[t, y] += np.exp(weight)
    return totals / totals.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("lengths", [[1], [2], [5], [6], [0, 7, 0], [3, 1, 4], [0, 2, 0, 5],
                                     [4, 4]])
def test_forward_backward_against_every_path(lengths):
    rng = np.random.default_rng(sum(lengths))
    transitions = rng.normal(0, 2, (3, 3))
    scores = rng.normal(0, 3, (sum(lengths), 3))
    got = forward_backward.marginals(scores, lengths, np.exp(transitions))
    lo = 0
    for length in lengths:
        if length:
            expected = _brute_force(scores[lo:lo + length], transitions)
            assert np.allclose(got[lo:lo + length], expected, atol=1e-12)
        lo += length


def test_long_sequences_alone_and_batched_agree():
    rng = np.random.default_rng(7)
    transitions = np.exp(rng.normal(0, 3, (3, 3)))
    lengths = [forward_backward.BATCH_LIMIT + 300, 17, 900]
    scores = rng.normal(0, 8, (sum(lengths), 3))          # large scores: rescaling matters
    got = forward_backward.marginals(scores, lengths, transitions)
    alone = forward_backward.sequence_marginals(
        forward_backward.exp_scores(scores[-900:]), transitions)
    assert np.allclose(got[-900:], alone, atol=1e-12)
    assert np.allclose(got.sum(axis=1), 1.0)


@pytest.mark.parametrize("length", [2, 3, 9, 100, 513, forward_backward.BATCH_LIMIT])
def test_one_sequence_by_products_equals_the_batch(length):
    """A single post (the API's call) takes the prefix/suffix products; a batch the steps."""
    rng = np.random.default_rng(length)
    transitions = np.exp(rng.normal(0, 3, (3, 3)))
    emitted = forward_backward.exp_scores(rng.normal(0, 8, (length, 3)))
    batched = np.empty_like(emitted)
    forward_backward._batch(emitted, np.array([0]), np.array([length]), transitions, batched)
    assert np.allclose(forward_backward.scanned_marginals(emitted, transitions), batched,
                       rtol=0, atol=1e-13)


@pytest.mark.parametrize("size", [0, 3, 40, 1000, 123_456])
def test_rank_bucket_numbers_name_the_buckets(size):
    from mmbdeid.crf.emissions import _bucket_names
    ranks = [0, 1, 2, 4, 5, 9, 10, 49, 50, 99, 100, 400, 1233, 1234, 6000, 30_000, 1 << 62]
    ids = rank_bucket_ids(np.array(ranks, dtype=float), size)
    for rank, bucket in zip(ranks, ids.tolist()):
        assert _bucket_names(bucket) == rank_buckets(rank, size), rank


@pytest.mark.slow
def test_the_command_line_taggers_write_the_same_output(tmp_path):
    dump = DEMO_DUMP
    outputs = {}
    for name in TAGGERS:
        out = tmp_path / (name + ".jsonl")
        spans = tmp_path / (name + ".spans.jsonl")
        assert main(["scrub", dump, "-o", str(out), "--spans", str(spans), "--quiet",
                     "--tagging", name]) == 0
        outputs[name] = (out.read_text(), spans.read_text())
    assert outputs["compiled"] == outputs["crfsuite"]


def test_an_unknown_tagging_is_refused(default_tagger):
    with pytest.raises(ValueError, match="compiled, crfsuite"):
        CrfDetector(default_tagger, tagging="numba")
    assert BatchedTagger.of(default_tagger) is not None
