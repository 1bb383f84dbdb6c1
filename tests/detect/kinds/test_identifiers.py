"""The opt-in kinds' steps in the chain (mmbdeid/detect/kinds/identifiers.py, registry.py): run
only when their kind is chosen, one span per identifier over what the model found inside
it, and scrubbed text stays as it is. Fictional text; the stand-in model tags the words
a test names."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.registry import BY_NAME, STEP_NAMES, step_names
from mmbdeid.kinds import DEFAULT_KINDS, LABELS
from mmbdeid.text.document import Document

from stand_in_model import WordTagger, scrub

NEW_STEPS = ("addresses", "postcodes", "ids", "ips", "dates")
TEXT = ("Maren lives at 42 Birchwood Lane, Spokane, WA 99201. MRN 00423817, "
        "IP 192.168.4.20, seen March 3, 2021 at 2pm; TSH 4.5, 500 mg in 2019.")


def test_the_new_steps_run_only_for_their_kinds():
    assert not set(NEW_STEPS) & set(step_names())               # the default kinds
    assert set(NEW_STEPS) <= set(step_names(kinds=LABELS))
    assert step_names(["crf", "dates", "ips"], kinds=["DATE"]) == ("crf", "dates")
    opt_in = set(NEW_STEPS) | {"place-names", "org-names"}
    assert step_names(kinds=DEFAULT_KINDS) == tuple(n for n in STEP_NAMES if n not in opt_in)
    for name, label in zip(NEW_STEPS, ("ADDRESS", "POSTCODE", "ID", "IP", "DATE")):
        assert BY_NAME[name].produces == (label,)
    assert BY_NAME["emails"].produces == ("EMAIL",) and BY_NAME["crf"].produces == ()


@pytest.mark.parametrize("kinds, scrubbed", [
    (DEFAULT_KINDS, "[NAME] lives at 42 Birchwood Lane, Spokane, WA 99201. MRN 00423817, "
                    "IP 192.168.4.20, seen March 3, 2021 at 2pm; TSH 4.5, 500 mg in 2019."),
    (LABELS, "[NAME] lives at [ADDRESS]. MRN [ID], IP [IP], seen [DATE] at 2pm; "
             "TSH 4.5, 500 mg in 2019."),
    (("NAME", "POSTCODE", "DATE"), "[NAME] lives at 42 Birchwood Lane, Spokane, WA [POSTCODE]. "
                                   "MRN 00423817, IP 192.168.4.20, seen [DATE] at 2pm; "
                                   "TSH 4.5, 500 mg in 2019."),
])
def test_each_kind_is_removed_when_chosen(kinds, scrubbed):
    assert scrub(TEXT, {"Maren", "Birchwood"}, kinds=kinds) == scrubbed


def test_scrubbing_scrubbed_text_changes_nothing():
    once = scrub(TEXT, {"Maren", "Birchwood", "Mary"}, kinds=LABELS)
    assert scrub(once, {"Maren", "Birchwood", "Mary"}, kinds=LABELS) == once


@pytest.mark.parametrize("deny, found", [
    (["Birchwood"], [("ADDRESS", "42 Birchwood Lane")]),           # a name inside one
    # a phrase across the address's start: nothing of either stays
    (["Oyelaran 42"], [("ADDRESS", "Oyelaran 42 Birchwood Lane")]),
    ([], [("ADDRESS", "42 Birchwood Lane")]),
])
def test_a_name_found_in_an_identifier_goes_with_it(deny, found):
    text = "write to Oyelaran 42 Birchwood Lane please"
    analyzer = Analyzer.build(WordTagger(), deny=deny, kinds=LABELS)
    spans = analyzer.analyze(Document.from_text(text))
    assert [(s.label, text[s.start:s.end]) for s in spans] == found


def test_an_id_found_where_a_phone_number_was_takes_its_own_label():
    text = "My NHS number 943 476 5919 is on the letter"
    spans = Analyzer.build(WordTagger(), kinds=LABELS).analyze(Document.from_text(text))
    assert [(s.label, text[s.start:s.end]) for s in spans] == [("ID", "943 476 5919")]
