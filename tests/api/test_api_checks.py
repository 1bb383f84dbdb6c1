"""The Python API refuses what the command line refuses, in the same words: every bad
argument of Scrubber, scrub/analyze, scrub_records, scrub_dataframe, NameTagger and the
adapters raises TypeError (wrong kind) or ValueError (out of range) naming it, before any
work. The texts are fictional."""
import math

import pytest

import mmbdeid
from mmbdeid import NameTagger, Scrubber
from mmbdeid.cli import main


@pytest.mark.parametrize("options, error, message", [
    ({"threshold": 2}, ValueError, "threshold must be between 0 and 1 (exclusive), got 2"),
    ({"threshold": 0}, ValueError, "threshold must be between 0 and 1 (exclusive), got 0"),
    ({"threshold": 1.0}, ValueError, "threshold must be between 0 and 1 (exclusive), got 1"),
    ({"threshold": -0.1}, ValueError, "threshold must be between 0 and 1 (exclusive)"),
    ({"threshold": math.nan}, ValueError, "threshold must be a finite number, got nan"),
    ({"threshold": "abc"}, TypeError, "threshold must be a number, got 'abc'"),
    ({"threshold": "0.1"}, TypeError, "threshold must be a number, got '0.1'"),
    ({"threshold": True}, TypeError, "threshold must be a number, got True"),
    ({"allow": "Linda"}, TypeError, "allow must be a list of terms, not a string (for one "
                                    "term: allow=['Linda'])"),
    ({"deny": b"Linda"}, TypeError, "deny must be a list of terms, not a string"),
    ({"allow": 5}, TypeError, "allow must be a list of terms (strings), not an int"),
    ({"deny": ["Linda", 5]}, TypeError, "deny: term 2 must be a string, not an int"),
    ({"model": 5}, TypeError, "model must be a model file path or a NameTagger, not an int"),
    ({"model": NameTagger(threshold=2)}, ValueError, "threshold must be between 0 and 1"),
    ({"stats": ["a.stats"]}, TypeError, "stats must be a file path, not a list"),
    ({"steps": "crf"}, TypeError, "steps must be a list of steps, not a string (for one "
                                  "step: steps=['crf'])"),
    ({"without_steps": [1]}, TypeError, "without_steps: step 1 must be a string, not an int"),
    ({"steps": ["crf", "drug"]}, ValueError, "unknown step 'drug' (steps: handles, emails,"),
    ({"without_steps": ["rules"]}, ValueError, "unknown step 'rules'"),
    ({"kinds": "dates"}, ValueError, "unknown kind 'dates' (kinds: NAME, USER, EMAIL"),
    ({"kinds": ["default", "zip"]}, ValueError, "presets: default, safe-harbor"),
    ({"kinds": [5]}, TypeError, "kinds: kind 1 must be a string, not an int"),
    ({"kinds": []}, ValueError, "no kind given"),
])
def test_bad_scrubber_options_are_refused_naming_them(options, error, message):
    with pytest.raises(error) as raised:
        Scrubber(**options)
    assert message in str(raised.value)
    with pytest.raises(error):                    # the one-call functions take them too
        mmbdeid.scrub("Hi Linda", **options)


@pytest.mark.parametrize("call, error, message", [
    (lambda: mmbdeid.scrub(None), TypeError, "text must be a string, not None"),
    (lambda: mmbdeid.analyze(None), TypeError, "text must be a string, not None"),
    (lambda: mmbdeid.scrub(b"Hi Linda"), TypeError, "text must be a string, not bytes"),
    (lambda: mmbdeid.analyze(["Hi Linda"]), TypeError,
     "text must be a string, not a list (for many texts: Scrubber.scrub_many"),
    (lambda: Scrubber().analyze_many("Hi Linda"), TypeError,
     "posts must be an iterable of dicts, not a str"),
    (lambda: Scrubber().scrub_many([{"txt": "Hi Linda"}]), ValueError,
     "post 1: missing field 'text'"),
    (lambda: list(mmbdeid.scrub_records({"text": "Hi Linda"})), TypeError,
     "records must be an iterable of dicts, not a dict (for one: [record])"),
    (lambda: list(mmbdeid.scrub_records(5)), TypeError,
     "records must be an iterable of dicts, not an int"),
    (lambda: list(mmbdeid.scrub_records([{"text": "ok"}, "Hi Linda"])), ValueError,
     "record 2 must be a dict, not a str"),
    (lambda: list(mmbdeid.scrub_records([{"text": "ok"}, {"txt": "Hi Linda"}])), ValueError,
     "record 2: missing field 'text'"),
    (lambda: list(mmbdeid.scrub_records([{"id": 1, "text": None}])), ValueError,
     "record 1: field 'text' must be a string, not None"),
    (lambda: list(mmbdeid.scrub_records([{"id": 1, "text": 5}])), ValueError,
     "record 1: field 'text' must be a string, not an int"),
    (lambda: list(mmbdeid.scrub_records([{"body": "x"}], text_field=["body"])), TypeError,
     "text_field must be a string, not a list"),
    (lambda: mmbdeid.scrub_dataframe([{"text": "Hi Linda"}]), TypeError,
     "frame must be a pandas DataFrame, not a list"),
])
def test_bad_texts_and_records_are_refused_naming_them(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert message in str(raised.value)


@pytest.mark.parametrize("texts, message", [
    (["Hi Linda", float("nan")], "row 2 (index 'b'): column 'body' must be a string, not NaN"),
    ([None, "Hi Linda"], "row 1 (index 'a'): column 'body' must be a string, not None"),
    (["Hi Linda", 7], "row 2 (index 'b'): column 'body' must be a string, not an int"),
])
def test_dataframe_null_text_is_refused_like_the_command_line_refuses_it(texts, message):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"body": pd.Series(texts, index=["a", "b"], dtype=object)})
    with pytest.raises(ValueError) as raised:
        mmbdeid.scrub_dataframe(frame, text="body")
    assert message in str(raised.value)


def test_the_command_line_refuses_a_null_text_too(tmp_path, capsys):
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"id": 1, "text": null}\n')
    assert main(["scrub", str(dump), "-o", str(tmp_path / "o.jsonl"), "--jobs", "1"]) == 2
    assert "field 'text' must be a string, not null" in capsys.readouterr().err


@pytest.mark.parametrize("option, api_options", [
    (["--threshold", "2"], {"threshold": 2}),
    (["--threshold", "0"], {"threshold": 0}),
    (["--threshold", "abc"], {"threshold": "abc"}),
    (["--kinds", "default,zip"], {"kinds": "default,zip"}),
])
def test_command_line_and_api_say_the_same(tmp_path, capsys, option, api_options):
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"id": 1, "text": "Hi Linda"}\n')
    assert main(["scrub", str(dump), "-o", str(tmp_path / "o.jsonl")] + option) == 2
    with pytest.raises((TypeError, ValueError)) as raised:
        Scrubber(**api_options)
    assert str(raised.value) in capsys.readouterr().err


@pytest.mark.parametrize("params, error, message", [
    ({"c1": -1}, ValueError, "c1 must be at least 0, got -1"),
    ({"c2": "a"}, TypeError, "c2 must be a number, got 'a'"),
    ({"max_iterations": 0}, ValueError, "max_iterations must be at least 1, got 0"),
    ({"max_iterations": 2.5}, TypeError, "max_iterations must be a whole number, got 2.5"),
    ({"threshold": 1.5}, ValueError, "threshold must be between 0 and 1 (exclusive)"),
    ({"window": 11}, ValueError, "window must be at most 10, got 11"),
    ({"lowercase_share": 2}, ValueError, "lowercase_share must be between 0 and 1, got 2"),
    ({"random_state": None}, TypeError, "random_state must be a whole number, got None"),
    ({"all_possible_transitions": "yes"}, TypeError,
     "all_possible_transitions must be True or False"),
    ({"context_folds": 1}, ValueError, "context_folds must be at least 2, got 1"),
    ({"metadata": "x"}, TypeError, "metadata must be a dict or None, not a str"),
])
def test_name_tagger_checks_its_parameters_before_training(params, error, message):
    with pytest.raises(error) as raised:
        NameTagger(**params).fit(["Hi Kay"], [[(3, 6, "NAME")]])
    assert message in str(raised.value)


def test_a_tagger_changed_after_the_scrubber_was_made_is_checked_when_used():
    tagger = NameTagger.default()
    scrubber = Scrubber(model=tagger)
    tagger.set_params(threshold=2)
    with pytest.raises(ValueError, match="threshold must be between 0 and 1"):
        scrubber.scrub("Hi Linda")
    with pytest.raises(ValueError, match="threshold must be between 0 and 1"):
        tagger.predict(["Hi Linda"])


@pytest.mark.parametrize("make, error, message", [
    (lambda spacy_component, presidio: spacy_component.MmbdeidComponent(
        Scrubber(), labels="NAME"), TypeError,
     "labels must be a list, not a string (for one: labels=['NAME'])"),
    (lambda spacy_component, presidio: spacy_component.MmbdeidComponent(
        Scrubber(), labels=["PERSON"]), ValueError, "unknown label 'PERSON'"),
    (lambda spacy_component, presidio: spacy_component.MmbdeidComponent(
        Scrubber(), spans_key=5), TypeError, "spans_key must be a string, not an int"),
    (lambda spacy_component, presidio: spacy_component.MmbdeidComponent(
        "model.mmbdeid"), TypeError, "scrubber must be a Scrubber, not a str"),
    (lambda spacy_component, presidio: presidio.MmbdeidRecognizer(
        supported_entities="PERSON"), TypeError,
     "supported_entities must be a list, not a string"),
    (lambda spacy_component, presidio: presidio.MmbdeidRecognizer(threshold=3),
     ValueError, "threshold must be between 0 and 1 (exclusive), got 3"),
    (lambda spacy_component, presidio: presidio.MmbdeidRecognizer(allow="Linda"),
     TypeError, "allow must be a list of terms, not a string"),
])
def test_adapters_check_their_arguments(make, error, message):
    spacy_component = pytest.importorskip("mmbdeid.adapters.spacy_component")
    presidio = pytest.importorskip("mmbdeid.adapters.presidio")
    with pytest.raises(error) as raised:
        make(spacy_component, presidio)
    assert message in str(raised.value)
