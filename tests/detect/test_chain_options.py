"""The chain's options in one frozen dataclass (issue 32): ChainOptions checks each option,
travels whole (pickled, hashed), and the Python API, the command line and the engine take it
or derive from it, under the same names."""
import inspect
import pickle
from dataclasses import FrozenInstanceError, fields

import pytest

import mmbdeid
from mmbdeid.cli.parser import build_parser
from mmbdeid.cli.steps import chosen_options
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.options import ChainOptions
from mmbdeid.detect.registry import Setup, step_names
from mmbdeid.detect.reusable import ReusableChain
from mmbdeid.evaluation import gold
from mmbdeid.jobs.config import DetectionConfig

OPTIONS = set(ChainOptions.names())

# (keywords, error, words of its message)
REFUSED = [
    (dict(threshold=1.5), ValueError, "threshold"),
    (dict(threshold="0.5"), TypeError, "threshold"),
    (dict(threshold=float("-inf")), ValueError, "threshold"),
    (dict(steps="crf"), TypeError, "steps"),
    (dict(allow="Kay"), TypeError, "allow"),
    (dict(deny=[3]), TypeError, "deny"),
    (dict(tagging="numba"), ValueError, "tagging"),
    (dict(tagging=None), TypeError, "tagging"),
    (dict(consistency=2), ValueError, "consistency"),
    (dict(authors="no"), TypeError, "authors"),
    (dict(kinds=["NAME", "SHOE"]), ValueError, "SHOE"),
    (dict(every_token=1), TypeError, "every_token"),
]


@pytest.mark.parametrize("keywords, error, named", REFUSED)
def test_a_wrong_option_is_refused_by_name(keywords, error, named):
    with pytest.raises(error, match=named):
        ChainOptions(**keywords)


def test_lists_become_tuples_and_the_options_travel_whole():
    options = ChainOptions(threshold=0.2, steps=["crf", "drugs"], allow=["Kay"],
                           deny=["tumor"], kinds=["default", "DATE"])
    assert options.steps == ("crf", "drugs") and options.allow == ("Kay",)
    assert "DATE" in options.kinds
    copy = pickle.loads(pickle.dumps(options))
    assert copy == options and hash(copy) == hash(options)
    with pytest.raises(FrozenInstanceError):
        options.threshold = 0.5


def test_the_api_derives_the_options_from_its_keywords():
    keywords = set(inspect.signature(mmbdeid.Scrubber.__init__).parameters) - {"self"}
    # the chain's options the API offers go by their ChainOptions names; the rest are not
    # the chain's (the model, the statistics file, the output mode) or resolve into one
    # (without_steps into steps)
    assert keywords - OPTIONS == {"model", "stats", "without_steps", "mode", "hash_key"}
    scrubber = mmbdeid.Scrubber(threshold=0.3, allow=["Kay"], deny=["tumor"],
                                without_steps=["drugs"])
    assert scrubber.options == ChainOptions(
        threshold=0.3, allow=("Kay",), deny=("tumor",),
        steps=step_names(without=["drugs"]))


def test_the_command_line_options_are_named_as_the_fields():
    scrub = build_parser().parse_args(["scrub", "dump.jsonl", "-o", "out.jsonl",
                                       "--threshold", "0.3", "--tagging", "crfsuite",
                                       "--no-step", "drugs", "--kinds", "default,DATE"])
    assert {"threshold", "steps", "tagging", "kinds", "allow", "deny"} <= set(vars(scrub))
    assert "tagger" not in vars(scrub)      # --tagger, the old spelling, sets tagging
    options = chosen_options(scrub, allow=("Kay",))
    assert (options.threshold, options.tagging, options.allow) == (0.3, "crfsuite", ("Kay",))
    assert "drugs" not in options.steps and "DATE" in options.kinds
    old = build_parser().parse_args(["scrub", "dump.jsonl", "-o", "o.jsonl",
                                     "--tagger", "crfsuite"])
    assert chosen_options(old).tagging == "crfsuite"


def _parameters(function) -> set:
    return set(inspect.signature(function).parameters)


@pytest.mark.parametrize("builder", [Analyzer.build, Analyzer.for_evaluation,
                                     Analyzer.for_extension, ReusableChain.__init__,
                                     gold.gold_scores, gold.document_scores,
                                     gold.score_gold_file])
def test_the_builders_take_the_one_object(builder):
    assert "options" in _parameters(builder)
    assert not _parameters(builder) & OPTIONS, "an option spelled out again"


def test_the_engine_and_the_steps_carry_it_whole():
    for holder in (DetectionConfig, Setup):
        names = {field.name: field.type for field in fields(holder)}
        assert not set(names) & OPTIONS, holder
        assert ChainOptions in names.values(), holder


def test_a_builder_given_options_and_keywords_runs_both():
    # (an allow list without terms is no step: the keeper is there by the keyword)
    built = Analyzer.build(None, None, ChainOptions(steps=["emails", "allow"]),
                           allow=["Kay"])
    assert [type(d).__name__ for d in built.detectors] == ["PatternDetector",
                                                           "AllowedTermKeeper"]
