"""The place and organisation steps (mmbdeid/detect/kinds/place_names.py, org_names.py; issue 21):
towns, employers, schools and hospitals removed where the text says what they are, beside
lookalikes that stay. Every text here is fictional, written for this test."""
import json

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.kinds.org_names import OrgNameDetector
from mmbdeid.detect.kinds.place_names import PlaceNameDetector
from mmbdeid.detect.registry import BY_NAME, step_names
from mmbdeid.kinds import DEFAULT_KINDS
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats
from mmbdeid.output.operators import PlaceholderOperator
from mmbdeid.spans import Span
from mmbdeid.text.document import Document

from paths import SAMPLES
from stand_in_model import WordTagger, scrub

# the kinds that run the two steps, beside the default ones
WITH_BOTH = DEFAULT_KINDS + ("PLACE", "ORG")


@pytest.fixture(scope="module")
def places():
    return PlaceNameDetector()


@pytest.fixture(scope="module")
def orgs():
    return OrgNameDetector()


def found(detector, text):
    return [text[s.start:s.end] for s in detector.detect(Document.from_text(text))]


@pytest.mark.parametrize("text, expected", [
    # cues, and the span is the place alone
    ("I live in Tulsa.", ["Tulsa"]),
    ("We moved to Fort Worth last year.", ["Fort Worth"]),
    ("My cousin is in San Luis Obispo.", ["San Luis Obispo"]),
    ("We are from St. Louis originally.", ["St. Louis"]),
    ("Lawrence, KS is home.", ["Lawrence"]),
    ("We drove through Tulsa, then near Eau Claire.", ["Tulsa", "Eau Claire"]),
    ("Clinics in Omaha, Tulsa and Wichita.", ["Omaha", "Tulsa", "Wichita"]),
    ("i live in tulsa lol", ["tulsa"]),
    ("shopping in englewood, im from tampa", ["englewood", "tampa"]),
    ("chocolate comes from cocoa; relaxing in bath", []),
    ("We moved to Fort Hollowmere.", ["Fort Hollowmere"]),     # a prefix after a cue
    ("The air in the Bronx, and The Hague.", ["Bronx", "The Hague"]),
    ("She moved her practice to Boise, and Idaho is far.", ["Boise"]),
    ("The fate of Iraq and Palestine is one.", []),            # listed with a country
    ("I love The Peak District.", []),                          # a longer name
    # first names that are places: only with a cue
    ("I live in Austin.", ["Austin"]),
    ("I'm from Florence.", ["Florence"]),
    ("in Austin and Dallas", ["Austin", "Dallas"]),
    ("Austin called me.", []),
    ("A card from Florence came today.", []),
    ("We met in Jackson's room.", []),
    ("in Austin Reed's class", []),
    ("Jack London wrote it.", []),
    # a city no one is named after needs no cue, but not at a sentence start
    ("The doctors at Pittsburgh were kind.", ["Pittsburgh"]),
    ("Pittsburgh was cold.", []),
    ("Reading the label helps. Nice to meet you.", []),
    ("I took my Mustang in.", []),
    ("I believe in Jesus and trust in God.", []),
    ("We moved to Reading.", ["Reading"]),
    ("An advert in Grand Theft Auto, and in West Texas.", []),
    ("Dr Vasquez-Thornbury said so, and Ms. Thornbury-Hale too.", []),
    # states, countries, continents; eponyms, drugs, months
    ("We live in Texas, near Canada, far from Europe.", []),
    ("Off to Georgia, Jordan and Israel.", []),
    ("Graves' disease and Hashimoto's run in my family.", []),
    ("Humira and Lyrica in March, in May.", []),
    ("I live in [PLACE] and work at [ORG].", []),
])
def test_places(places, text, expected):
    assert found(places, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("She was admitted to St. Agnes Hospital.", ["St. Agnes Hospital"]),
    ("My daughter attends Lakeview Elementary.", ["Lakeview Elementary"]),
    ("We went to Mercy Medical Center.", ["Mercy Medical Center"]),
    ("He studied at the University of Leeds.", ["University of Leeds"]),
    ("I work at Acme Freight as a driver.", ["Acme Freight"]),
    ("I work at Acme Freight and I like it.", ["Acme Freight"]),
    ("I work at Procter & Gamble.", ["Procter & Gamble"]),
    ("I work at Walmart. i work at walmart", ["Walmart", "walmart"]),
    ("My employer, Dunmore Logistics, is strict.", ["Dunmore Logistics"]),
    ("I teach at Lincoln high school.", ["Lincoln high school"]),
    ("She was transferred to Saint Brendan Infirmary.", ["Saint Brendan Infirmary"]),
    ("We drove to MD Anderson.", ["MD Anderson"]),
    ("My appointment at Mayo is soon.", ["Mayo"]),
    ("I was a welder at Gulf Coast Shipyards.", ["Gulf Coast Shipyards"]),
    ("The MS clinic at Providence St. Vincent.", ["Providence St. Vincent"]),
    ("Dialysis at the DaVita center.", ["DaVita center"]),
    ("The Greater New Orleans Fair Housing Action Center filed.",
     ["Greater New Orleans Fair Housing Action Center"]),
    # no cue, no name, a person, a title: stay
    ("Ask Google, Medicare or Aetna.", []),
    ("The Cancer Center and the Children's Hospital.", []),
    ("Cheap Hotel Rome, and the MS center.", []),
    ("The ALS clinic nurses were angels.", []),
    ("I had a party at Maren's.", []),
    ("I was referred to Neurology, then transferred to Rehab.", []),
    ("We attended Thanksgiving dinner. I work at home.", []),
    ("I work for Maren now.", []),
    ("Dr. Okafor Clinic called.", []),
    ("She attended Mass. Extra mayo, please.", []),
    ("I work at Humira.", []),
    ("She was admitted to [NAME] and I work at [NAME].", []),   # read as Mary: still kept
])
def test_organisations(orgs, text, expected):
    assert found(orgs, text) == expected


@pytest.mark.parametrize("earlier, expected", [
    ([], ["PLACE"]),
    ([Span("NAME", 10, 16, 0.4, "crf")], ["PLACE"]),        # the model's NAME on Austin
    ([Span("NAME", 2, 16, 1.0, "deny")], []),               # a span reaching beyond
])
def test_a_place_replaces_a_name_inside_it_but_never_cuts_one(places, earlier, expected):
    document = Document.from_text("I live in Austin now.")
    assert [s.label for s in places.complete(document, earlier)] == expected


@pytest.mark.parametrize("text, tagged, kinds, scrubbed", [
    ("I live in Austin. Austin is my son.", {"Austin"}, DEFAULT_KINDS,
     "I live in Austin. [NAME] is my son."),
    ("I live in Austin. Austin is my son.", {"Austin"}, WITH_BOTH,
     "I live in [PLACE]. [NAME] is my son."),
    ("I work at Acme Freight with Maren.", {"Maren"}, WITH_BOTH,
     "I work at [ORG] with [NAME]."),
    ("Maren was admitted to St. Agnes Hospital.", {"Maren", "Agnes"}, WITH_BOTH,
     "[NAME] was admitted to [ORG]."),
    ("I live in [PLACE] and work at [ORG].", (), WITH_BOTH,
     "I live in [PLACE] and work at [ORG]."),
])
def test_in_the_chain(text, tagged, kinds, scrubbed):
    assert scrub(text, tagged, kinds=kinds) == scrubbed


def test_the_steps_run_for_their_kinds_and_say_what_they_produce():
    both = {"place-names", "org-names"}
    assert not both & set(step_names())
    assert both <= set(step_names(kinds=WITH_BOTH))
    chain = {d.source for d in Analyzer.build(WordTagger()).detectors}
    assert not {"place-name", "org-name"} & chain
    assert (BY_NAME["place-names"].produces, BY_NAME["org-names"].produces) == (
        ("PLACE",), ("ORG",))
    assert BY_NAME["crf"].produces == ()
    built = Analyzer.build(WordTagger(), steps=["place-names", "org-names"],
                           kinds=WITH_BOTH)
    assert [d.source for d in built.detectors] == ["place-name", "org-name"]


def read_sample():
    with open(SAMPLES + "/places_orgs.annotated.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def test_the_sample_is_fictional_and_well_formed():
    records = read_sample()
    assert len(records) == 45
    for record in records:
        assert {s["label"] for s in record["spans"]} <= {"PLACE", "ORG", "NAME"}
        assert all(record["text"][k["start"]:k["end"]] == k["text"] for k in record["keep"])


@pytest.fixture(scope="module")
def sample_scrubbed(default_tagger):
    records = read_sample()
    documents = [Document.from_post(record) for record in records]
    analyzer = Analyzer.build(default_tagger, with_reference(CorpusStats.build(documents)),
                              kinds=WITH_BOTH)
    return records, documents, analyzer.analyze_all(documents)


def words(document, start, end):
    return [(s, e) for s, e in document.offsets
            if start <= s and e <= end and document.text[s:e][:1].isalnum()]


def label_at(spans, start, end):
    return next((s.label for s in spans if s.start < end and start < s.end), None)


def test_on_the_sample_every_place_and_organisation_goes_and_no_lookalike(sample_scrubbed):
    """With the default model: every gold word removed under its own label, and no word
    to keep (states, countries, eponyms, drugs, months) removed as a place or an
    organisation."""
    wrong, lookalikes = [], []
    for record, document, spans in zip(*sample_scrubbed):
        for gold in record["spans"]:
            for start, end in words(document, gold["start"], gold["end"]):
                if label_at(spans, start, end) != gold["label"]:
                    wrong.append((record["id"], document.text[start:end]))
        for keep in record["keep"]:
            if label_at(spans, keep["start"], keep["end"]) in ("PLACE", "ORG"):
                lookalikes.append((record["id"], keep["text"]))
    assert wrong == [] and lookalikes == []


def test_scrubbing_the_scrubbed_sample_changes_nothing_more(default_tagger):
    """With both steps, a second scrub of the sample's output changes no post that a second
    scrub with the default chain leaves alone: ``[PLACE]`` and ``[ORG]`` are an earlier
    scrub's placeholders (without them, ``admitted to [ORG]`` became ``admitted to
    [[NAME]]``)."""
    records = read_sample()
    changed = {}
    for kinds in (DEFAULT_KINDS, WITH_BOTH):
        once = scrubbed(records, default_tagger, kinds)
        twice = scrubbed(once, default_tagger, kinds)
        changed[kinds] = [r["id"] for r, again in zip(once, twice) if r["text"] != again["text"]]
    assert "[PLACE]" in str(once) and "[ORG]" in str(once)
    assert set(changed[WITH_BOTH]) <= set(changed[DEFAULT_KINDS])


def scrubbed(records, tagger, kinds):
    """``records`` scrubbed as one dump (threads and authors kept) in placeholder mode."""
    documents = [Document.from_post(record) for record in records]
    analyzer = Analyzer.build(tagger, with_reference(CorpusStats.build(documents)),
                              kinds=kinds)
    return [PlaceholderOperator().rewrite(record, spans)[0]
            for record, spans in zip(records, analyzer.analyze_all(documents))]
