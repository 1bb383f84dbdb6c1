"""The batched tagger made again for other statistics (``with_stats``, issue 21) shares the
model's tables and scores exactly as one built afresh: each token type's summed weights
are those of its attributes in the featurizer's order, whatever was scored before. The
posts are the bundled demo dump (fictional)."""
import numpy as np
import pytest

from mmbdeid.crf.batched import BatchedTagger
from mmbdeid.model.features import to_attributes
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats


@pytest.fixture(scope="module")
def inputs(demo_documents):
    halves = (demo_documents[:30], demo_documents[30:])
    return [(documents, with_reference(CorpusStats.build(documents))) for documents in halves]


def test_a_tagger_for_other_statistics_scores_as_a_fresh_one(default_tagger, inputs):
    template = BatchedTagger.of(default_tagger, None)
    for order in (inputs, inputs[::-1]):
        for documents, stats in order:
            twin = template.with_stats(stats)
            assert twin.scorer._attribute_blocks is template.scorer._attribute_blocks
            fresh = BatchedTagger.of(default_tagger, stats)
            for ours, theirs in zip(twin.first_stage(documents), fresh.first_stage(documents)):
                assert np.array_equal(ours, theirs)


def test_type_vectors_are_the_sums_of_the_type_attributes_in_order(default_tagger, inputs):
    template = BatchedTagger.of(default_tagger, None)
    for documents, stats in inputs:
        scorer = template.with_stats(stats).scorer
        tokens = sorted({token for document in documents for token in document.tokens})
        for token in tokens:
            row = scorer._scored_type(token).row
            expected = scorer._block(to_attributes(scorer.type_features(token)))
            assert np.array_equal(scorer._type_vectors[row], expected), token


def test_statistics_features_do_not_share_a_name_with_the_plain_ones(default_tagger, inputs):
    """(``type_features`` adds them after the plain ones: the order of the sum)"""
    documents, stats = inputs[0]
    scorer = BatchedTagger.of(default_tagger, stats).scorer
    for token in {token for document in documents for token in document.tokens}:
        assert not set(scorer.plain_type_features(token)) & \
            set(scorer.stats_type_features(token))


def test_a_scorer_used_alone_keeps_no_shared_sums(default_tagger, inputs):
    """(a dump's worker scores each type once: the shared caches would only take memory)"""
    documents, stats = inputs[0]
    tagger = BatchedTagger.of(default_tagger, stats)
    tagger.first_stage(documents)
    assert tagger.scorer._vectors is None and tagger.scorer._plain_rows is None
    template = BatchedTagger.of(default_tagger, None)
    twin = template.with_stats(stats)
    twin.first_stage(documents)
    assert twin.scorer._vectors is template.scorer._vectors and twin.scorer._vectors
