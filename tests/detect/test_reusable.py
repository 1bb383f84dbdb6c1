"""A chain built once and run on input after input (mmbdeid/detect/reusable.py, issue 21):
the same spans, to the last bit of their scores, as a chain built afresh for each input,
whichever inputs came before. The posts are the bundled demo dump (fictional)."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.options import ChainOptions
from mmbdeid.detect.registry import BY_NAME, STEP_NAMES, Setup, named_steps
from mmbdeid.detect.reusable import ReusableChain
from mmbdeid.kinds import LABELS
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats


def _spans(analyzer, documents):
    analyzer.prefetch(documents)
    return analyzer.analyze_all(documents)


@pytest.fixture(scope="module")
def inputs(demo_documents):
    """Three inputs of the demo dump: one post, a thread's worth, and the whole dump."""
    return [demo_documents[:1], demo_documents[5:17], demo_documents]


def test_each_input_gets_the_spans_of_a_chain_built_for_it(default_tagger, inputs):
    chain = ReusableChain(default_tagger)
    for order in (inputs, inputs[::-1]):
        for documents in order:
            stats = with_reference(CorpusStats.build(documents))
            fresh = _spans(Analyzer.build(default_tagger, stats), documents)
            assert _spans(chain.analyzer(stats), documents) == fresh


def test_options_are_those_of_analyzer_build(default_tagger, inputs):
    documents = inputs[1]
    stats = with_reference(CorpusStats.build(documents))
    options = dict(threshold=0.3, steps=[n for n in STEP_NAMES if n != "drugs"],
                   allow=["Kay"], deny=["tumor"], kinds=LABELS)
    assert _spans(ReusableChain(default_tagger, **options).analyzer(stats), documents) == \
        _spans(Analyzer.build(default_tagger, stats, **options), documents)


def test_shared_steps_are_built_once_and_the_per_input_ones_each_time(default_tagger,
                                                                       inputs):
    chain = ReusableChain(default_tagger)
    first, second = (chain.analyzer(with_reference(CorpusStats.build(documents)))
                     for documents in inputs[:2])
    assert len(first.detectors) == len(second.detectors)
    per_input = tuple(step.detector for step in BY_NAME.values() if step.per_input)
    for one, other in zip(first.detectors, second.detectors):
        assert (one is other) == (not isinstance(one, per_input)), one


class _Untouchable:
    """Statistics no shared step may read."""

    def __getattr__(self, name):
        raise AssertionError("a shared step read the statistics (%s)" % name)


def test_no_step_outside_per_input_reads_the_statistics(default_tagger, inputs):
    names = [name for name in STEP_NAMES if not BY_NAME[name].per_input]
    every_kind = Setup(default_tagger, _Untouchable(), ChainOptions(kinds=LABELS))
    detectors = [d for _, d in named_steps(names, every_kind) if d is not None]
    assert len(detectors) >= len(names) - 2         # (allow and deny need terms)
    documents = inputs[1]
    Analyzer(detectors).analyze_all(documents)      # reads nothing of _Untouchable
