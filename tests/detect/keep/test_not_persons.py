"""What is not a person is kept (issue 19, item 5): places and organisations, institutions
and places named after people, months and weekdays, medical devices and eponyms, acronyms,
file-name extensions, nationalities. Every sentence here is fictional, written for this test.

Each KEEP step is asked what it keeps in a sentence; the names beside those words must
never be kept (a keep step that kept them would leak them)."""
import pytest

from mmbdeid.detect.keep.acronyms import AcronymKeeper
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.base import KEEP
from mmbdeid.detect.keep.calendar import CalendarKeeper
from mmbdeid.detect.keep.demonyms import DemonymKeeper
from mmbdeid.detect.keep.devices import DeviceKeeper
from mmbdeid.detect.keep.file_extensions import FileExtensionKeeper
from mmbdeid.detect.keep.gazetteer_phrases import GazetteerPhraseKeeper, reads_as_person
from mmbdeid.detect.keep.institutions import InstitutionKeeper, PrefixedPlaceKeeper
from mmbdeid.detect.keep.medical_terms import MedicalTermKeeper
from mmbdeid.detect.registry import (RULE, STAGES, Setup, build_steps, keep_steps,
                                     step_names)
from mmbdeid.detect.keep.organisations import OrganisationKeeper
from mmbdeid.detect.keep.places import PlaceKeeper
from mmbdeid.lexicon.wordlists import load_wordlist
from mmbdeid.text.document import Document


NOT_PERSON_STEPS = ("gazetteer-phrases", "places", "organisations", "institutions",
                    "prefixed-places", "calendar", "devices", "acronyms", "file-extensions",
                    "demonyms")


def kept(detector, text):
    document = Document.from_text(text)
    spans = detector.detect(document)
    assert spans == sorted(spans, key=lambda s: s.start)
    assert all(s.label == "KEEP" and s.source == detector.source for s in spans)
    return [text[s.start:s.end] for s in spans]


def test_the_steps_keep_and_sit_in_the_chain_after_the_medical_filter(default_tagger):
    steps = build_steps(NOT_PERSON_STEPS, Setup())
    assert all(step.effect == KEEP for step in steps)
    tagger = default_tagger
    names = [type(step).__name__ for step in Analyzer.build(
        tagger, steps=step_names(stages=[s for s in STAGES if s != RULE])).detectors]
    for step in steps:
        assert names.index("MedicalTermKeeper") < names.index(type(step).__name__) < (
            names.index("TitleKeeper"))
    kept = [type(step).__name__ for step in keep_steps()]
    assert all(type(step).__name__ in kept for step in steps)
    assert [type(s).__name__ for s in Analyzer.build(tagger, steps=step_names(
        without=NOT_PERSON_STEPS)).detectors if type(s) in {type(t) for t in steps}] == []


@pytest.mark.parametrize("text, expected", [
    ("We moved from San Diego to Santa Fe.", ["San", "Diego", "Santa", "Fe"]),
    ("Flights to New Orleans and Palo Alto", ["New", "Orleans", "Palo", "Alto"]),
    ("at St. Louis Children's", ["St", "Louis"]),              # a full stop inside
    ("Rio de Janeiro", ["Rio", "de", "Janeiro"]),              # a particle in lower case
    ("a Burger King and a Taco Bell", ["Burger", "King", "Taco", "Bell"]),  # hand-made list
    ("MD Anderson said yes", ["MD", "Anderson"]),
    ("san diego, New orleans", []),                            # not written as a name
    ("Bianca Del Rio sang, Dr. San Diego too", []),            # a first name, a title before
    ("Diego Martin called", []),                               # a place that reads as a person
    ("Santa\nFe", []),                                         # another line
])
def test_gazetteer_phrases(text, expected):
    assert kept(GazetteerPhraseKeeper(), text) == expected


@pytest.mark.parametrize("parts, person", [
    (("diego", "martin"), True), (("benito", "juarez"), True),
    (("santa", "fe"), False), (("carson", "city"), False), (("coca", "-", "cola"), False),
])
def test_an_entry_that_reads_as_a_person_is_left_out(parts, person):
    assert reads_as_person(parts) is person


@pytest.mark.parametrize("text, expected", [
    # large places that are no frequent first name or surname, wherever they stand
    ("Israel and Iraq, then Ontario", ["Israel", "Iraq", "Ontario"]),
    ("Georgia and Jordan came, Virginia too", []),             # first names: context needed
    # after a locative preposition, a place noun with of, a verb of motion with to
    ("She lives in Houston now", ["Houston"]),
    ("the city of Madison; we drove to Keene", ["Madison", "Keene"]),
    ("in Houston Smith's class", []),                          # a name follows
    ("we went to Jordan's party", []),                         # a possessive
    ("I told Houston", []),
    # a town before a comma and a state or country (the state kept too)
    ("Lawrence, KS and Hobbs, New Mexico", ["Lawrence", "KS", "Hobbs", "New", "Mexico"]),
    # an earlier scrub's town keeps its state kept (scrubbing scrubbed text changes nothing)
    ("We live in [PLACE], KS now", ["KS"]),
    ("Thanks Mariel Concepcion, NY", []),                      # a surname after a first name
    # listed with a place kept
    ("Syria and Jordan", ["Syria", "Jordan"]),
    ("in Omaha, Houston or Austin", ["Omaha", "Houston", "Austin"]),
    ("houston is hot", []),                                    # lower case: not looked at
])
def test_places(text, expected):
    assert kept(PlaceKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Google it, or ask on Facebook or WebMD", ["Google", "Facebook", "WebMD"]),
    ("Medicare and Aetna paid, the FDA agreed", ["Medicare", "Aetna", "FDA"]),
    ("Accenture and Hamas", ["Accenture", "Hamas"]),
    ("Chase, Ford, Dell and Kaiser", []),                      # may be people's names
    ("Maren Costco", []),                                      # after a first name
])
def test_organisations(text, expected):
    assert kept(OrganisationKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("at Mercy Hospital and the Mayo Clinic", ["Mercy", "Hospital", "Mayo", "Clinic"]),
    ("St. Agnes Medical Center", ["St", ".", "Agnes", "Medical", "Center"]),
    ("the J.M. Huber Corporation", ["J", ".", "M", ".", "Huber", "Corporation"]),
    ("Georgia Tech and the University of Houston", ["Georgia", "Tech", "Houston"]),
    ("Dr. Okafor Clinic", []),                                  # the title rule decides
    ("Britt's Pizza", []),                                      # a possessive: an owner
    ("Extra Garth Brooks Croke Park tickets", []),              # a person, then a surname head
    ("Ji Sung Park scored", []),
    ("ME & LEXA WILL ROAD TRIP", []),                           # a shouted head
    ("Linda\nHospital food", []),                               # another line
])
def test_institutions(text, expected):
    assert kept(InstitutionKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("at St. Agnes, Saint Vincent and Mt. Sinai", ["St. Agnes", "Saint Vincent", "Mt. Sinai"]),
    ("Fort Smith, Lake Charles, Cape Cod", ["Fort Smith", "Lake Charles", "Cape Cod"]),
    ("after Hurricane Katrina and hurricane Rita", ["Hurricane Katrina", "hurricane Rita"]),
    ("St. Mary-Corwin", ["St. Mary", "Corwin"]),
    ("Jill St. John and Ricki Lake", []),                       # surnames
    ("Ft. Jim Jones", []),                                      # "featuring"
    ("st agnes", []),
])
def test_prefixed_places(text, expected):
    assert kept(PrefixedPlaceKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Monday, October and SUNDAY", ["Monday", "October", "SUNDAY"]),
    ("Gareth, Mondays and Saturdays, evening", ["Mondays", "Saturdays"]),   # a visiting rota
    ("Christmas, Easter and Thanksgiving", ["Christmas", "Easter", "Thanksgiving"]),
    ("on Jan. 9, 2005 and June 3rd, 3 April", ["Jan", "June", "April"]),
    ("since May, last August, in June", ["May", "August", "June"]),
    ("Tue, Aug 3", ["Tue", "Aug"]),
    ("April said hi, June and May came", []),                   # first names
    ("May I ask, Jan?", []),
    ("wrote to June", []),
])
def test_calendar(text, expected):
    assert kept(CalendarKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("My Dexcom and OmniPod, then a mediport", ["Dexcom", "OmniPod", "mediport"]),
    ("Oncotype came back low", ["Oncotype"]),
    ("Foley and Holter", []),                                   # eponyms, see below
])
def test_devices(text, expected):
    assert kept(DeviceKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("the Somogyi effect", ["Somogyi", "effect"]),          # with its head noun
    ("a Foley, the Whipple, my Holter", ["Foley", "Whipple", "Holter"]),
    ("a Foley catheter", ["Foley", "catheter"]),
    ("the Graves family", []),                                  # people
    ("my Bell", []),                                            # a first name may be someone
    ("the Foley Smith case", []),                               # a name follows
    ("Foley came by", []),
])
def test_eponyms_after_a_determiner_or_before_a_new_head(text, expected):
    assert kept(MedicalTermKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("monthly infusions (IVIG) and (CPAP)", ["IVIG", "CPAP"]),
    ("a draft like GISB. Then HANO said", ["GISB"]),            # HANO: after a capital
    ("accuses HANO of fraud", ["HANO"]),
    ("(JOHN), (ENA) and (JS)", []),                             # first names, two letters
    ("a test like TOVA.", []),                                  # a first name too
    ("the hands of DLT and JFK", []),                           # initials of people
    ("thanks DMKS", []),                                        # a sign-off ends its line
    ("I LOVE JUSTIN SO MUCH", []),
    ("it was FROZEN solid", []),                                # an English word
])
def test_acronyms(text, expected):
    assert kept(AcronymKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("see Lisa_resume.doc and scan.PDF", ["doc", "PDF"]),
    ("my doc. Doc said", []),
    ("the file. doc", []),
])
def test_file_extensions(text, expected):
    assert kept(FileExtensionKeeper(), text) == expected


@pytest.mark.parametrize("text, expected", [
    ("Hispanic or Caucasian, Ashkenazi Jewish", ["Hispanic", "Caucasian", "Ashkenazi",
                                                 "Jewish"]),
    ("Arabs, Iraqis and Catholics", ["Arabs", "Iraqis", "Catholics"]),
    ("Christian, English, French and Sunni", []),               # first names, surnames
])
def test_demonyms(text, expected):
    assert kept(DemonymKeeper(), text) == expected


@pytest.mark.parametrize("name", ["organisations_extra", "medical_devices"])
def test_lists_kept_bare_hold_no_first_name(name):
    first = load_wordlist("first_names") | load_wordlist("nicknames")
    assert sorted(w for w in load_wordlist(name) if w in first) == []
