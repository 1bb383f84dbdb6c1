"""The Presidio recognizer and the spaCy component (optional extras: skipped when the
toolkit is not installed; CI installs both). No spaCy model is needed or downloaded.
Fictional text only."""
import os
import pickle
import subprocess
import sys

import pytest

import mmbdeid
from mmbdeid.adapters.entities import ENTITY_OF_LABEL, entity_of
from mmbdeid.kinds import LABELS

from paths import REPO

LINDA = "Thanks Linda, my TSH is fine"
KAY = "Hi @kaygirl, write to kay@example.org"
PHONE = "Thanks Linda, my phone is 212-555-0123"
VISIT = "Moved to 42 Elm St, Spokane, WA 99201 on March 3, 2021. SSN 219-09-9999, MRN 00423817"


def found(text, results, label=lambda r: r.entity_type):
    return [(label(r), text[r.start:r.end]) for r in results]


def test_every_mmbdeid_label_has_an_entity_name():
    assert sorted(ENTITY_OF_LABEL) == sorted(LABELS)
    shared = [label for label in LABELS if ENTITY_OF_LABEL[label] == "LOCATION"]
    assert shared == ["ADDRESS", "POSTCODE", "PLACE"]       # Presidio's one name for them
    assert len(set(ENTITY_OF_LABEL.values())) == len(LABELS) - 2
    assert (entity_of("ID", "219-09-9999"), entity_of("ID", "00423817")) == ("US_SSN", "ID")


# -- Presidio ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def presidio():
    return pytest.importorskip("mmbdeid.adapters.presidio",
                               reason="presidio-analyzer not installed")


@pytest.fixture(scope="module")
def engine(presidio):
    return presidio.blank_analyzer_engine()


@pytest.mark.parametrize("text, supported, asked, expected", [
    (LINDA, None, None, [("PERSON", "Linda")]),                      # not TSH
    pytest.param(LINDA, None, ["USERNAME"], [], marks=pytest.mark.slow),
    (KAY, None, None, [("USERNAME", "@kaygirl")]),                   # e-mail not by default
    pytest.param(KAY, ["EMAIL_ADDRESS"], None, [("EMAIL_ADDRESS", "kay@example.org")],
                 marks=pytest.mark.slow),
    (KAY, list(ENTITY_OF_LABEL.values()), ["PERSON", "EMAIL_ADDRESS"],
     [("EMAIL_ADDRESS", "kay@example.org")]),
])
def test_recognizer_alone(presidio, text, supported, asked, expected):
    options = {} if supported is None else {"supported_entities": supported}
    recognizer = presidio.MmbdeidRecognizer(**options)
    assert found(text, recognizer.analyze(text, asked)) == expected


@pytest.mark.parametrize("supported, expected", [
    (None, [("LOCATION", "42 Elm St, Spokane, WA 99201"), ("DATE_TIME", "March 3, 2021"),
            ("US_SSN", "219-09-9999"), ("ID", "00423817")]),
    (["ID", "DATE_TIME"], [("DATE_TIME", "March 3, 2021"), ("ID", "219-09-9999"),
                           ("ID", "00423817")]),                 # an SSN is an ID too
])
def test_recognizer_reports_the_scrubbers_other_kinds(presidio, supported, expected):
    options = {} if supported is None else {"supported_entities": supported}
    recognizer = presidio.MmbdeidRecognizer(kinds="safe-harbor", **options)
    assert found(VISIT, recognizer.analyze(VISIT, None)) == expected


def test_recognizer_scores_and_explains_with_mmbdeids_span(presidio):
    [span] = mmbdeid.analyze(LINDA)
    [result] = presidio.MmbdeidRecognizer().analyze(LINDA, None)
    assert (result.start, result.end, result.score) == (span.start, span.end, span.score)
    assert 0.05 < result.score <= 1
    explanation = result.analysis_explanation
    assert explanation.recognizer == "MmbdeidRecognizer"
    assert "mmbdeid" in explanation.textual_explanation
    assert span.source in explanation.textual_explanation


@pytest.mark.parametrize("options, error", [
    ({"scrubber": mmbdeid.Scrubber(), "threshold": 0.5}, TypeError),
    ({"supported_entities": ["PERSON", "NAME"]}, ValueError),       # mmbdeid's label, not an entity
    ({"model": "no/such/model.mmbdeid"}, Exception),                # fails when built, not later
])
def test_recognizer_refuses(presidio, options, error):
    with pytest.raises(error):
        presidio.MmbdeidRecognizer(**options)


@pytest.mark.slow
def test_recognizer_takes_the_scrubbers_threshold(presidio):
    [span] = mmbdeid.analyze(LINDA)
    below = presidio.MmbdeidRecognizer(threshold=span.score - 1e-6)
    at = presidio.MmbdeidRecognizer(scrubber=mmbdeid.Scrubber(threshold=span.score))
    assert found(LINDA, below.analyze(LINDA, None)) == [("PERSON", "Linda")]
    assert at.analyze(LINDA, None) == []


@pytest.mark.parametrize("text, entities, expected", [
    (LINDA, None, [("PERSON", "Linda")]),
    pytest.param(LINDA, ["USERNAME"], [], marks=pytest.mark.slow),
    (PHONE, None, [("PERSON", "Linda"), ("PHONE_NUMBER", "212-555-0123")]),
    pytest.param(PHONE, ["PHONE_NUMBER"], [("PHONE_NUMBER", "212-555-0123")],
                 marks=pytest.mark.slow),
])
def test_analyzer_engine_on_a_blank_pipeline(engine, text, entities, expected):
    results = engine.analyze(text, language="en", entities=entities)
    assert sorted(found(text, results)) == expected


def test_analyzer_engine_keeps_mmbdeids_offsets_score_and_explanation(engine):
    [span] = mmbdeid.analyze(LINDA)
    [result] = engine.analyze(LINDA, language="en", return_decision_process=True)
    assert (result.entity_type, result.start, result.end) == ("PERSON", 7, 12)
    assert result.score == pytest.approx(span.score)
    assert "mmbdeid" in result.analysis_explanation.textual_explanation


def test_presidio_context_words_work_on_the_blank_pipeline(engine):
    # "phone" next to the number raises the PhoneRecognizer's score: the lemmas are set
    plain = engine.analyze("212-555-0123", language="en", entities=["PHONE_NUMBER"])
    context = engine.analyze(PHONE, language="en", entities=["PHONE_NUMBER"])
    assert context[0].score > plain[0].score


def test_engine_has_no_ner_recognizer(engine):
    names = {recognizer.name for recognizer in engine.registry.recognizers}
    assert "MmbdeidRecognizer" in names and "EmailRecognizer" in names
    assert "SpacyRecognizer" not in names


# With the network blocked (a proxy that refuses) and an empty cache, as on a machine
# offline: Presidio's e-mail check asks tldextract for the public suffix list, which would
# fetch it and print a traceback per failed URL (issue 21).
OFFLINE_RUN = """
from mmbdeid.adapters.presidio import blank_analyzer_engine
text = "Thanks Linda, write to kay@example.org or see www.example.org"
results = blank_analyzer_engine().analyze(text, language="en")
print(sorted((r.entity_type, text[r.start:r.end]) for r in results))
"""


def test_analyzer_engine_works_offline_without_tracebacks(presidio, tmp_path):
    blocked = "http://127.0.0.1:9"
    env = dict(os.environ, HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"),
               HTTP_PROXY=blocked, HTTPS_PROXY=blocked, http_proxy=blocked,
               https_proxy=blocked, NO_PROXY="", no_proxy="",
               PYTHONPATH=os.pathsep.join([REPO, os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", OFFLINE_RUN], env=env, cwd=str(tmp_path),
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Public Suffix" not in run.stderr, run.stderr
    assert run.stdout.strip() == ("[('EMAIL_ADDRESS', 'kay@example.org'), "
                                  "('PERSON', 'Linda'), ('URL', 'example.org'), "
                                  "('URL', 'www.example.org')]")
    assert not (tmp_path / "cache").exists()        # nothing cached on disk either


# -- spaCy ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def spacy():
    spacy = pytest.importorskip("spacy")
    pytest.importorskip("mmbdeid.adapters.spacy_component")      # registers the factory
    return spacy


def pipeline(spacy, **config):
    nlp = spacy.blank("en")
    nlp.add_pipe("mmbdeid", config=config)
    return nlp


@pytest.fixture(scope="module")
def nlp(spacy):
    return pipeline(spacy)


def annotations(doc):
    return ([(ent.text, ent.label_) for ent in doc.ents],
            [(span.text, span.label_) for span in doc.spans["mmbdeid"]])


@pytest.mark.parametrize("text, ents, spans", [
    (LINDA, [("Linda", "PERSON")], [("Linda", "PERSON")]),
    (KAY, [("@kaygirl", "USERNAME")],
     [("@kaygirl", "USERNAME"), ("kay@example.org", "EMAIL_ADDRESS")]),
    pytest.param("my TSH is fine", [], [], marks=pytest.mark.slow),
])
def test_component_sets_ents_and_spans(nlp, text, ents, spans):
    assert annotations(nlp(text)) == (ents, spans)


@pytest.mark.slow
def test_component_keeps_score_and_source(nlp):
    [span] = mmbdeid.analyze(LINDA)
    doc = nlp(LINDA)
    [linda] = doc.spans["mmbdeid"]
    assert (linda._.mmbdeid_score, linda._.mmbdeid_source) == (span.score, span.source)
    assert doc.ents[0]._.mmbdeid_score == span.score


@pytest.mark.slow
def test_component_labels_config(spacy):
    nlp = pipeline(spacy, labels=["EMAIL"])
    assert annotations(nlp(KAY))[0] == [("kay@example.org", "EMAIL_ADDRESS")]
    with pytest.raises(ValueError):
        pipeline(spacy, labels=["PERSON"])                           # an entity, not a label


@pytest.mark.parametrize("config, ents", [
    ({"kinds": "safe-harbor"}, [("42 Elm St, Spokane, WA 99201", "LOCATION"),
                                ("March 3, 2021", "DATE_TIME"), ("219-09-9999", "ID"),
                                ("00423817", "ID")]),
    ({"kinds": ["default", "ADDRESS", "DATE"], "labels": ["DATE"]},
     [("March 3, 2021", "DATE_TIME")]),
])
def test_component_kinds_config(spacy, config, ents):
    assert annotations(pipeline(spacy, **config)(VISIT))[0] == ents


@pytest.mark.slow
def test_component_threshold_config(spacy):
    [span] = mmbdeid.analyze(LINDA)
    assert annotations(pipeline(spacy, threshold=span.score - 1e-6)(LINDA))[0] == [
        ("Linda", "PERSON")]
    assert annotations(pipeline(spacy, threshold=span.score)(LINDA)) == ([], [])


@pytest.mark.slow
def test_component_pickled_and_piped_over_several_texts(nlp):
    texts = [LINDA, KAY, "my TSH is fine", PHONE]
    copy = pickle.loads(pickle.dumps(nlp))
    piped = [annotations(doc) for doc in copy.pipe(texts, batch_size=3)]
    assert piped == [annotations(nlp(text)) for text in texts]
    doc = pickle.loads(pickle.dumps(nlp(LINDA)))
    assert doc.spans["mmbdeid"][0]._.mmbdeid_score > 0.05


@pytest.mark.slow
def test_component_saved_and_loaded(spacy, nlp, tmp_path):
    nlp.to_disk(tmp_path / "nlp")
    assert annotations(spacy.load(tmp_path / "nlp")(LINDA)) == annotations(nlp(LINDA))


def test_component_with_overlapping_existing_ents(spacy):
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "GREETING", "pattern": "Thanks Linda"},
                        {"label": "TEST", "pattern": "TSH"}])
    nlp.add_pipe("mmbdeid")
    ents, spans = annotations(nlp(LINDA))
    assert ents == [("Thanks Linda", "GREETING"), ("TSH", "TEST")]   # the longer one stays
    assert spans == [("Linda", "PERSON")]
