"""The named detector steps (mmbdeid/detect/registry.py): chains built from names, in the
registry's order, and the options that take step names."""
import pytest

import mmbdeid
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.base import Detector
from mmbdeid.detect.options import ChainOptions
from mmbdeid.detect.registry import (BY_NAME, FILTER, MODEL, RULE, STAGES, STEP_NAMES, STEPS,
                                     Setup, build_steps, keep_steps, step_names)

from stand_in_model import WordTagger, scrub


def test_every_step_is_named_once_with_a_stage_an_effect_and_help():
    assert len({step.name for step in STEPS}) == len(STEPS) == len(BY_NAME)
    for step in STEPS:
        assert step.stage in STAGES
        assert step.effect in ("remove", "keep", "raise")
        assert step.help and step.name == step.name.lower()


@pytest.mark.parametrize("steps, without, stages, expected", [
    (["deny", "crf", "emails"], (), STAGES, ("emails", "crf", "deny")),   # chain order
    (None, STEP_NAMES[1:], STAGES, STEP_NAMES[:1]),
    (["crf", "titled-names", "drugs"], (), (MODEL, FILTER), ("crf", "drugs")),
    (["crf", "titled-names"], ["crf"], STAGES, ("titled-names",)),
])
def test_step_names_choose_in_chain_order(steps, without, stages, expected):
    assert step_names(steps, without, stages) == expected


@pytest.mark.parametrize("call, message", [
    (lambda: step_names(["crf", "drug"]), "unknown step 'drug' (steps: handles, emails"),
    (lambda: step_names(without=["rules"]), "unknown step 'rules'"),
    (lambda: step_names(stages=["models"]), "unknown stage 'models' (stages: model, filter"),
])
def test_unknown_names_are_refused_naming_the_known_ones(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)


def test_a_step_without_its_input_is_left_out():
    setup = Setup(tagger=WordTagger())
    assert build_steps(["usernames", "allow", "deny"], setup) == []        # no stats, no terms
    assert [d.source for d in build_steps(["allow", "deny"], Setup(options=ChainOptions(allow=("a",), deny=("b",))))
            ] == ["allow", "deny"]


def test_each_step_builds_a_detector_of_its_effect():
    setup = Setup(tagger=WordTagger(), options=ChainOptions(allow=("a",), deny=("b",)))
    for step in STEPS:
        detector = step.make(setup)
        if step.name == "usernames":
            assert detector is None
            continue
        assert isinstance(detector, Detector)
        assert detector.effect == step.effect, step.name


def test_keep_steps_are_the_chains_keep_steps_but_the_allow_list():
    kept = [type(d).__name__ for d in keep_steps(step_names(without=["drugs"]))]
    assert "DrugKeeper" not in kept and "AllowedTermKeeper" not in kept
    assert kept[0] == "NotNameKeeper" and kept[-1] == "PlaceholderKeeper"
    assert all(BY_NAME[name].effect == "keep" for name in step_names() if name != "allow"
               and BY_NAME[name].stage == FILTER)


@pytest.mark.parametrize("without, scrubbed", [
    ((), "Dr. [NAME] put me on Lipitor. Thanks, [NAME]"),
    (("drugs",), "Dr. [NAME] put me on [NAME]. Thanks, [NAME]"),
    (("titles",), "[NAME] put me on Lipitor. Thanks, [NAME]"),
    (("sign-offs",), "Dr. [NAME] put me on Lipitor. Thanks, MK"),
])
def test_a_step_left_out_of_the_chain_no_longer_acts(without, scrubbed):
    text = "Dr. Okafor put me on Lipitor. Thanks, MK"
    assert scrub(text, {"Dr", "Okafor", "Lipitor"}, steps=step_names(without=without)
                 ) == scrubbed


def test_the_api_takes_step_names():
    text = "Dr. Okafor said hi, email me at maren@example.org"
    assert "[EMAIL]" not in mmbdeid.scrub(text, without_steps=["emails"])
    assert "[EMAIL]" in mmbdeid.scrub(text)
    assert mmbdeid.scrub(text, steps=["emails"]) == (
        "Dr. Okafor said hi, email me at [EMAIL]")


def test_evaluation_measures_the_stages_of_its_chain():
    model_chain = [d.source for d in Analyzer.for_evaluation(WordTagger()).detectors]
    scrub_chain = [d.source for d in Analyzer.for_evaluation(WordTagger(),
                                                             stages=STAGES).detectors]
    assert "completion" not in model_chain and "completion" in scrub_chain
    assert set(model_chain) < set(scrub_chain)
    assert RULE not in {BY_NAME[name].stage for name in step_names(stages=(MODEL, FILTER))}


def test_a_step_declares_the_source_and_effect_of_its_detector():
    setup = Setup(tagger=WordTagger(), options=ChainOptions(allow=("a",), deny=("b",)))
    for step in STEPS:
        detector = step.make(setup)
        if detector is not None:
            assert (type(detector), detector.source, detector.effect) == (
                step.detector, step.source, step.effect), step.name


def test_the_steps_command_lists_every_step_in_order(capsys):
    from mmbdeid.cli import main
    assert main(["steps"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [step.name for step in STEPS]
    assert lines[STEP_NAMES.index("drugs")].split()[1:3] == ["filter", "keep"]


def test_scrub_takes_steps_and_refuses_an_unknown_one_in_one_line(tmp_path, capsys):
    import json
    from mmbdeid.cli import main
    dump, out = tmp_path / "dump.jsonl", tmp_path / "out.jsonl"
    dump.write_text(json.dumps({"id": "1", "text": "Maren Oyelaran wrote: mail "
                                                   "maren@example.org"}) + "\n")
    assert main(["scrub", str(dump), "-o", str(out), "--steps", "emails", "-q"]) == 0
    assert json.loads(out.read_text())["text"] == "Maren Oyelaran wrote: mail [EMAIL]"
    assert main(["scrub", str(dump), "-o", str(out), "--no-step", "crf", "--no-step",
                 "emails", "-q"]) == 0
    assert "maren@example.org" in json.loads(out.read_text())["text"]
    out.unlink()
    assert main(["scrub", str(dump), "-o", str(out), "--no-step", "drug"]) == 2
    assert not out.exists()
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "unknown step 'drug'" in error


def test_scrub_takes_kinds_and_refuses_an_unknown_one_in_one_line(tmp_path, capsys):
    import json
    from mmbdeid.cli import main
    dump, out = tmp_path / "dump.jsonl", tmp_path / "out.jsonl"
    dump.write_text(json.dumps({"id": "1", "text": "Seen March 3, 2021, MRN 00423817, "
                                                   "TSH 4.5"}) + "\n")
    for kinds, scrubbed in (("default", "Seen March 3, 2021, MRN 00423817, TSH 4.5"),
                            ("default,date", "Seen [DATE], MRN 00423817, TSH 4.5"),
                            ("safe-harbor", "Seen [DATE], MRN [ID], TSH 4.5")):
        assert main(["scrub", str(dump), "-o", str(out), "--kinds", kinds, "-q",
                     "--jobs", "2"]) == 0
        assert json.loads(out.read_text())["text"] == scrubbed
    out.unlink()
    assert main(["scrub", str(dump), "-o", str(out), "--kinds", "dates"]) == 2
    assert not out.exists()
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "unknown kind 'dates'" in error


def test_the_steps_command_shows_what_each_step_produces(capsys):
    from mmbdeid.cli import main
    assert main(["steps"]) == 0
    lines = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    assert lines["dates"][3] == "DATE" and lines["emails"][3] == "EMAIL"
    assert lines["crf"][3] == "-" and lines["drugs"][3] == "-"


def test_the_rule_steps_ask_the_chains_own_keep_steps():
    detectors = Analyzer.build(WordTagger()).detectors
    kept = [d for d in detectors if d.effect == "keep" and d.source != "allow"]
    for rule in (d for d in detectors if hasattr(d, "keep_steps")):
        assert len(rule.keep_steps) == len(kept)
        assert all(mine is theirs for mine, theirs in zip(rule.keep_steps, kept))
