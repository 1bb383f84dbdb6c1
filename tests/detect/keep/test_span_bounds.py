"""A removed span covers name characters only, never crosses a sentence end, and leaves the
placeholders of an earlier scrub alone (issue 18, items 2 and 3).

The chain runs with a stand-in model that tags the tokens it is told to (as the real model
at a recall-first threshold tags the full stop or the greeting beside a name), so each row
checks what the chain does with them, whatever a trained model would say."""
import pytest

from mmbdeid.detect.keep import not_names
from mmbdeid.detect.registry import step_names
from mmbdeid.detect.keep.not_names import NotNameKeeper, never_a_name
from mmbdeid.text.document import Document
from mmbdeid.text.placeholders import NAME_STAND_IN, find_placeholders
from stand_in_model import scrub


@pytest.mark.parametrize("text, tagged, expected", [
    # the full stop after a name stays
    ("Thanks Bernard. My wife says hi", {"Bernard", "."}, "Thanks [NAME]. My wife says hi"),
    ("We were with Agnes Okafor.", {"Agnes", "Okafor", "."}, "We were with [NAME]."),
    # two mentions at a sentence end, not one
    ("Thank you Tom and Rita. Tomm, you too", {"Tom", "and", "Rita", ".", "Tomm", ","},
     "Thank you [NAME] and [NAME]. [NAME], you too"),
    # greetings and titles stay
    ("Hi Priscilla, how are you", {"Hi", "Priscilla", ","}, "Hi [NAME], how are you"),
    ("Dear Kay", {"Dear", "Kay"}, "Dear [NAME]"),
    ("I saw Dr. van der Meulen today", {"Dr", ".", "van", "der", "Meulen"},
     "I saw Dr. [NAME] today"),
    ("ask dr van Houten", {"dr", "van", "Houten"}, "ask dr [NAME]"),
    ("Mrs. Smith-Jones called", {"Mrs", ".", "Smith", "-", "Jones"}, "Mrs. [NAME] called"),
    # a possessive is not the name; an initial's dot inside a name is
    ("Kay's scan was clear", {"Kay", "'s"}, "[NAME]'s scan was clear"),
    ("David A. Foti wrote", {"David", "A", ".", "Foti"}, "[NAME] wrote"),
    # a stop word between two names is not a name
    ("Kay and Rita came", {"Kay", "and", "Rita"}, "[NAME] and [NAME] came"),
    # a first name that is also a greeting word: the name when capitalised
    ("Ty said hi", {"Ty"}, "[NAME] said hi"),
    ("thanks ty", {"thanks", "ty"}, "thanks ty"),
])
def test_removed_spans_cover_name_characters_only(text, tagged, expected):
    assert scrub(text, tagged) == expected


@pytest.mark.parametrize("scrubbed, tagged", [
    # the model tagging the stand-in and everything it could merge with
    ("Dr. [NAME] was kind", {"Dr", ".", NAME_STAND_IN}),
    ("[NAME] chews ice", {NAME_STAND_IN}),
    ("Thanks [NAME]. My wife [NAME] says hi", {NAME_STAND_IN, "."}),
    ("Write to [EMAIL] or [U12], or ask [P3]", {NAME_STAND_IN, "[EMAIL]"}),
    ("[USER] said [NAME] and [NAME] came", {NAME_STAND_IN, "and", "[USER]"}),
    # --mode hash (issue 21): a hashed placeholder reads as its kind's placeholder
    ("Dr. [NAME:1a2b3c4d5e6f] and [USER:0a1b2c3d4e5f] came", {"Dr", NAME_STAND_IN, "[USER]"}),
    ("Mail [EMAIL:ffffffffffff] or [PHONE:000000000000]", {"[EMAIL]", "[PHONE]"}),
])
def test_placeholders_are_never_removed(scrubbed, tagged):
    assert scrub(scrubbed, tagged) == scrubbed


@pytest.mark.parametrize("steps", [None, step_names(without=["not-names"])])
@pytest.mark.parametrize("masked", [
    "Thanks *****, see you soon Kay",
    "Hi ********* and ****, write to ***************",
    "*******\nGood luck ****!",
])
def test_masks_are_never_removed(masked, steps):
    # --mode mask (issue 21): a word of stars is kept by the last step, even when the model
    # tags it and the step that keeps punctuation is left out
    assert scrub(masked, {"*", "Kay"}, steps=steps) == masked.replace("Kay", "[NAME]")


def test_stars_inside_a_word_are_still_a_masked_name():
    assert scrub("Hugs from Maren to M*ren") == "Hugs from Maren to [NAME]"


def test_placeholders_are_read_as_a_stand_in():
    document = Document.from_text("Dr. [NAME] and [U7] wrote to [EMAIL] and [USER]")
    assert document.tokens == ["Dr", ".", NAME_STAND_IN, "and", NAME_STAND_IN, "wrote", "to",
                               "[EMAIL]", "and", "[USER]"]
    assert document.pattern_labels[7] == "EMAIL" and document.pattern_labels[9] == "USER"
    assert document.scrubbed == {2, 4, 7, 9}
    # offsets still point at the placeholder in the text
    assert [document.text[slice(*document.offsets[i])] for i in sorted(document.scrubbed)] \
        == ["[NAME]", "[U7]", "[EMAIL]", "[USER]"]


def test_masks_are_read_as_a_name():
    document = Document.from_text("Dr. ***** says * no")
    assert document.tokens == ["Dr", ".", NAME_STAND_IN, "says", "*", "no"]
    assert document.scrubbed == {2}


def test_hashed_placeholders_are_read_as_their_kinds_placeholder():
    document = Document.from_text("Hi [NAME:1a2b3c4d5e6f], mail [EMAIL:0123456789ab]")
    assert document.tokens == ["Hi", NAME_STAND_IN, ",", "mail", "[EMAIL]"]
    assert document.pattern_labels[4] == "EMAIL" and document.scrubbed == {1, 4}


@pytest.mark.parametrize("text, found", [
    ("[NAME] [USER] [EMAIL] [URL] [PHONE] [U1] [P23]", 7),
    ("[name] [X1] [U] [NAME [Mary] U12", 0),      # not what a scrub writes
    ("[NAME:1a2b3c4d5e6f] [USER:000000000000]", 2),
    ("Dr. ***** and ** (*****), *****'s", 4),                    # masks
    ("* a bullet, M*ren, J**n, **bold**, 5*****", 0),
    ("[NAME:1A2B3C4D5E6F] [NAME:123] [NAME:1a2b3c4d5e6f0] [U1:1a2b3c4d5e6f] [:1a2b3c4d5e6f]", 0),
    ("no brackets at all", 0),
])
def test_find_placeholders(text, found):
    assert len(find_placeholders(text)) == found


@pytest.mark.parametrize("token, following, never", [
    (".", "", True), (",", "Kay", True), ("'s", "", True), ("n't", "", True),
    ("Hi", "Kay", True), ("thanks", "", True), ("Ty", "said", False), ("ty", "", True),
    ("I", "was", True), ("I", ".", False), ("and", "Rita", True), ("van", "Houten", False),
    ("d", "", False), ("Kay", "", False), ("B12", "", False),
])
def test_never_a_name(token, following, never):
    assert never_a_name(token, following, frozenset({"and", "i", "d"})) == never


@pytest.mark.parametrize("cache", [100_000, 2])
def test_the_keeper_keeps_what_never_a_name_says_token_by_token(monkeypatch, cache):
    monkeypatch.setattr(not_names, "VERDICT_CACHE", cache)
    keeper = NotNameKeeper()
    for text in ["Hi Kay, I. M. Pei and I met Ty. Thanks!", "Thanks, I", "I. and Kay's",
                 "Hi Kay, I. M. Pei and I met Ty. Thanks!"]:
        document = Document.from_text(text)
        tokens = document.tokens
        expected = [document.offsets[i] for i, token in enumerate(tokens) if never_a_name(
            token, tokens[i + 1] if i + 1 < len(tokens) else "", keeper.stop_words)]
        assert [(s.start, s.end) for s in keeper.detect(document)] == expected, text
