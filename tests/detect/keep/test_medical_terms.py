"""Medical words kept, titles kept, the name after a title removed (detect/keep/medical_terms.py,
detect/names/titles.py, the keep lists in lexicons/)."""
from pathlib import Path

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.registry import Setup, build_steps, step_names
from mmbdeid.detect.base import KEEP, REMOVE
from mmbdeid.detect.keep.medical_terms import MedicalTermKeeper
from mmbdeid.detect.names.titles import TitledNameDetector, TitleKeeper
from mmbdeid.lexicon.wordlists import KEEP_LISTS, WORDLISTS, load_wordlist
from mmbdeid.text.document import Document

import paths
from documents import replace_spans

NOT_PERSON_STEPS = ("gazetteer-phrases", "places", "organisations", "institutions",
                    "prefixed-places", "calendar", "devices", "acronyms", "file-extensions",
                    "code-text", "demonyms")
LEXICONS = Path(paths.LEXICONS)


# --- the lists -------------------------------------------------------------------------

# The hand-made greetings list is short on purpose; the others hold many words.
SHORT_KEEP_LISTS = {"greetings": 10}


@pytest.mark.parametrize("name", KEEP_LISTS)
def test_keep_lists_load_lower_case_sorted_with_headers(name):
    assert name not in WORDLISTS
    words = load_wordlist(name)
    assert len(words) > SHORT_KEEP_LISTS.get(name, 50) and all(w == w.lower() and w.strip() == w for w in words)
    lines = (LEXICONS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    headers = [ln for ln in lines if ln.startswith("# ")]
    entries = [ln for ln in lines if ln and not ln.startswith("#")]
    assert any("source" in h for h in headers) and any("licence" in h for h in headers)
    assert any("rebuild" in h for h in headers)
    assert entries == sorted(entries) and len(entries) == len(set(entries))


@pytest.mark.parametrize("name, present, absent", [
    ("eponyms", ["hashimoto", "graves", "sjogren", "raynaud", "bell", "gehrig", "lou gehrig",
                 "barrett", "cushing", "epstein-barr", "crohn", "addison", "parkinson",
                 "alzheimer", "hodgkin", "asperger", "tourette", "lyme", "guillain-barre"],
     ["heart", "celiac", "peptic", "breast", "kay"]),
    ("medical_heads", ["disease", "syndrome", "palsy", "esophagus", "lymphoma", "thyroiditis",
                       "phenomenon", "sign", "test"], ["kay", "the"]),
    ("medical_abbreviations", ["tsh", "ra", "a1c", "ms", "ibs", "copd", "bp", "ekg", "mri", "ct",
                               "t3", "t4", "ft4", "hba1c", "ldl", "hdl", "pcos", "adhd", "ptsd",
                               "gerd", "uti", "cbc", "er", "icu", "pt", "ot"],
     ["al", "ed", "di", "jo", "ana", "pam", "the", "mom"]),        # first names, words
    ("kinship", ["mom", "mum", "mommy", "dad", "daddy", "grandma", "grandpa", "nana", "papa",
                 "hubby", "dh", "dd", "ds", "sis", "bro", "auntie"], ["ma", "pa", "mimi", "kay"]),
])
def test_keep_list_contents(name, present, absent):
    words = load_wordlist(name)
    assert [w for w in present if w not in words] == []
    assert [w for w in absent if w in words] == []


def test_unknown_list_names_the_keep_lists_too():
    with pytest.raises(ValueError, match="eponyms"):
        load_wordlist("pokemon")


# --- the medical-term filter -------------------------------------------------------------

def kept(detector, text):
    document = Document.from_text(text)
    spans = detector.detect(document)
    assert spans == sorted(spans, key=lambda s: s.start)
    return [text[s.start:s.end] for s in spans]


@pytest.mark.parametrize("text, expected", [
    # an eponym with a possessive, a head noun (kept with it), or both
    ("my Hashimoto's is stable", ["Hashimoto", "'s"]),
    ("Graves' disease", ["Graves", "'", "disease"]),
    ("Graves disease and graves disease", ["Graves", "disease", "graves", "disease"]),
    ("Sjogren's or Raynaud's", ["Sjogren", "'s", "Raynaud", "'s"]),
    ("Bell's palsy", ["Bell", "'s", "palsy"]),
    ("Lou Gehrig's disease", ["Lou", "Gehrig", "'s", "disease"]),
    ("Barrett's esophagus", ["Barrett", "'s", "esophagus"]),
    ("Cushing’s again", ["Cushing", "’s"]),                      # curly apostrophe
    ("non-Hodgkin's lymphoma", ["non", "-", "Hodgkin", "'s", "lymphoma"]),
    ("Down syndrome, Downs syndrome", ["Down", "syndrome", "Downs", "syndrome"]),
    # the possessive written without its apostrophe
    ("my crohns and hashimotos", ["crohns", "hashimotos"]),
    # a hyphenated compound is an eponym alone; a spaced one needs a head noun
    ("Epstein-Barr titers", ["Epstein", "-", "Barr"]),
    ("Epstein Barr virus", ["Epstein", "Barr", "virus"]),
    ("Epstein Barr", []),
    ("Guillain-Barre", ["Guillain", "-", "Barre"]),
    # alone: only an English word that is no census name, or a compound with a particle
    ("Lyme, Alzheimer, von Willebrand", ["Lyme", "Alzheimer", "von", "Willebrand"]),
    ("Parkinson came by, Graves too", []),                      # may be people
    # a first name needs the head noun, even with a possessive
    ("Barrett's car, Addison's party", []),
    ("Addison's disease", ["Addison", "'s", "disease"]),
    ("Kay's disease is back", []),                              # not an eponym
    # abbreviations written as abbreviations
    ("TSH, RA, A1C and MS", ["TSH", "RA", "A1C", "MS"]),
    ("t4 and hba1c and eGFR", ["t4", "hba1c", "eGFR"]),
    ("ms and ra and Ms", []),                                   # words, or a title
    ("MS Jones", []),                                           # a title before a name
    ("AL, Al, ED and Di", []),                                  # first names left out
    # kinship words, not before a name
    ("Mom drove, Dad waited, my mom and Nana", ["Mom", "Dad", "mom", "Nana"]),
    ("Aunt Mary and DH", ["DH"]),
    ("Mom\nKay", ["Mom"]),                                      # the name is on another line
])
def test_medical_term_filter(text, expected):
    assert kept(MedicalTermKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Graves' disease, Bell's palsy", ["Graves", "Bell"]),
    ("Lou Gehrig's disease", ["Lou Gehrig"]),
    ("my crohns disease", ["crohns"]),
    ("Barrett's car, Hashimoto's, the Graves family", []),   # no head noun after it
])
def test_eponyms_before_heads(text, expected):
    """What the leak audit asks of the step: the eponyms a medical head noun follows."""
    spans = MedicalTermKeeper().eponyms_before_heads(Document.from_text(text))
    assert [text[s.start:s.end] for s in spans] == expected


def test_medical_term_filter_is_a_keep_step_that_skips_pattern_tokens():
    assert MedicalTermKeeper.effect == KEEP and MedicalTermKeeper.source == "medical"
    assert kept(MedicalTermKeeper(), "mail mom@example.com or TSH@example.org") == []


def test_medical_term_filter_takes_its_lists():
    detector = MedicalTermKeeper(eponyms=["zork"], heads=["fever"], abbreviations=["xq"],
                                 kinship=["gramz"], names=[], first=[], words=[], titles=[])
    assert kept(detector, "Zork fever, XQ, Gramz, Hashimoto's, TSH") == [
        "Zork", "fever", "XQ", "Gramz"]


# --- titles ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, titles, names", [
    ("Dr. Lindqvist", ["Dr."], ["Lindqvist"]),
    ("Dr Okonkwo also checked me", ["Dr"], ["Okonkwo"]),
    ("Nurse Ottilie and nurse Ottilie", ["Nurse", "nurse"], ["Ottilie", "Ottilie"]),
    ("Dr. Mary J. Smith-Jones said", ["Dr."], ["Mary", "J", "Smith", "Jones"]),
    ("Prof. Xu Lei Chen Wang", ["Prof."], ["Xu", "Lei", "Chen"]),          # 3 words at most
    ("Mrs. O'Brien and Ms. Delacroix", ["Mrs.", "Ms."], ["O'Brien", "Delacroix"]),
    ("Dr. Brown's office", ["Dr."], ["Brown"]),          # a census surname, also a word
    ("Dr. Who and Dr. Google", ["Dr."], []),             # a stop word, a frequent word
    ("Nurse Practitioner Jane", ["Nurse"], []),
    ("Miss Kay but I miss Kay", ["Miss"], ["Kay"]),      # a lower-case miss is a verb
    ("I told my doctor. Hashimoto's is fine", [], []),   # the full stop ends the sentence
    ("Dr.\nKay", [], []),                                # another line
    ("Dr. Mom and Aunt Mary", ["Dr."], []),              # kinship words are no titles here
    ("Dr. kay@example.com", [], []),
])
def test_title_steps(text, titles, names):
    assert kept(TitleKeeper(), text) == titles
    assert kept(TitledNameDetector(), text) == names


def test_titled_names_are_name_spans_of_the_title_step():
    spans = TitledNameDetector().detect(Document.from_text("Dr. Lindqvist"))
    assert [(s.label, s.score, s.source) for s in spans] == [("NAME", 1.0, "title")]
    assert TitledNameDetector.effect == REMOVE and TitleKeeper.effect == KEEP


# --- the chain ---------------------------------------------------------------------------

class FakeTagger:
    """Stands in for a NameTagger: the same (P(NAME), P(USER)) for every token."""
    threshold = 0.05
    has_second_stage = False

    def __init__(self, p_name=0.9):
        self.p_name = p_name

    def featurizer(self, stats):
        return self

    def document_items(self, document):
        return document.tokens

    def name_marginals(self, items):
        return [(self.p_name, 0.0)] * len(items)


def scrub(analyzer, text):
    return replace_spans(text, analyzer.analyze(Document.from_text(text)))


def test_chain_order():
    chain = Analyzer.build(FakeTagger(), allow=["a"], deny=["b"]).detectors
    names = [type(d).__name__ for d in chain]
    # the KEEP steps of what is not a person come between the medical-term filter and titles
    not_persons = [type(d).__name__ for d in build_steps(NOT_PERSON_STEPS, Setup())]
    assert names[names.index("CrfDetector"):] == [
        "CrfDetector", "ConsistencyDetector", "NotNameKeeper", "DrugKeeper",
        "MedicalTermKeeper", *not_persons, "TitleKeeper", "OfficeKeeper",
        "TitledNameDetector", "CuedNameDetector", "OfficeNameDetector", "SpacedNameDetector",
        "SeparatedNameDetector", "HashtagNameDetector",
        "SignOffDetector", "MessageLineDetector", "CapitalNameDetector",
        "MaskedNameDetector", "NameCompletion", "AllowedTermKeeper", "DeniedTermDetector",
        "PlaceholderKeeper"]
    evaluation = [type(d).__name__ for d in Analyzer.for_evaluation(FakeTagger()).detectors]
    assert evaluation[-5 - len(not_persons):] == ["DrugKeeper", "MedicalTermKeeper",
                                                  *not_persons, "TitleKeeper",
                                                  "OfficeKeeper", "PlaceholderKeeper"]
    assert "TitledNameDetector" not in evaluation
    plain = [type(d).__name__ for d in Analyzer.build(FakeTagger(), steps=step_names(
        without=("medical-terms", "titles"))).detectors]
    assert "MedicalTermKeeper" not in plain and "TitleKeeper" not in plain


def test_chain_keeps_title_and_medical_words_when_the_model_tags_everything():
    analyzer = Analyzer.build(FakeTagger(0.9))
    assert scrub(analyzer, "Dr. Lindqvist") == "Dr. [NAME]"
    text = "Hashimoto's, TSH, Mom"
    spans = analyzer.analyze(Document.from_text(text))
    assert spans == []          # the commas are never names either (detect/keep/not_names.py)


def test_chain_removes_the_name_after_a_title_that_the_model_misses():
    analyzer = Analyzer.build(FakeTagger(0.0))
    assert scrub(analyzer, "Dr. Okonkwo also checked me") == "Dr. [NAME] also checked me"
    # the title step comes after the medical filter: a name after a title goes
    assert scrub(analyzer, "Dr. Parkinson's office") == "Dr. [NAME]'s office"


def test_token_scores_are_zero_on_kept_words():
    analyzer = Analyzer.for_evaluation(FakeTagger(0.7))
    text = "Dr. Lindqvist: Graves' disease, TSH 2, Mom"
    document = Document.from_text(text)
    scores = dict(zip(document.tokens, analyzer.token_scores(document)))
    kept_words = ("Dr", ".", "Graves", "'", "disease", "TSH", "Mom")    # the head noun too
    assert {t: scores[t] for t in kept_words} == dict.fromkeys(kept_words, 0.0)
    assert scores["Lindqvist"] == pytest.approx(0.7)
