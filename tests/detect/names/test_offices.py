"""Names after a rank or office (issue 19): the name goes, the office and its domain stay.

The chain runs with a stand-in model (``tests/stand_in_model.py``) that tags only the
tokens a row names, so each row checks what the office steps (and the completion after
them) do. Texts written for these tests."""
import pytest

from mmbdeid.detect.names.offices import OFFICE, OfficeNameDetector
from mmbdeid.text.document import Document
from stand_in_model import scrub


@pytest.mark.parametrize("text, tagged, expected", [
    ("Radical cleric Muqtada al-Sadr said so.", (),
     "Radical cleric [NAME] said so."),                     # completion takes al-Sadr
    ("Radical Shiite cleric Muqtada spoke", (), "Radical Shiite cleric [NAME] spoke"),
    ("Allawi and Minister of Defense Hazem Shaalan met.", (),
     "Allawi and Minister of Defense [NAME] met."),
    ("President of the Senate Delacroix spoke", (), "President of the Senate [NAME] spoke"),
    # the office stays where the model took it with the name
    ("Minister of Defense Hazem Shaalan met.", {"Minister", "Defense", "Hazem"},
     "Minister of Defense [NAME] met."),
    ("Queen Maren opened it", (), "Queen [NAME] opened it"),
    ("Prime Minister Iyad Allawi", (), "Prime Minister [NAME]"),
    # an office word inside a name is a word of the name
    ("leader Muhammed Sheikh Khalil died", {"Muhammed", "Sheikh", "Khalil"},
     "leader [NAME] died"),
    # what stays: no name after the office, frequent words, adjectives, possessives
    ("I work at General Motors now", (), "I work at General Motors now"),
    ("in general Tylenol helps", (), "in general Tylenol helps"),
    ("Happy President's Day!", (), "Happy President's Day!"),
    ("The King of Hearts won", (), "The King of Hearts won"),
    ("KING MAREN", (), "KING MAREN"),
    ("the president said no", (), "the president said no"),
    ("Our chief Okonkwo left", (), "Our chief Okonkwo left"),
])
def test_names_after_an_office(text, tagged, expected):
    assert scrub(text, tagged) == expected


def test_office_spans_are_rule_spans_on_name_words_only():
    text = "cleric Muqtada Delacroix said"
    spans = OfficeNameDetector().detect(Document.from_text(text))
    assert [(text[s.start:s.end], s.label, s.score, s.source) for s in spans] == [
        ("Muqtada", "NAME", 1.0, OFFICE), ("Delacroix", "NAME", 1.0, OFFICE)]
