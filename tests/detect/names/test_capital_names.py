"""Names in capitals inside running text (issue 31): census names in capitals among words
in lower case are removed; emphasis, acronyms, medical abbreviations and shouted lines stay.

Every text here is fictional, written for these tests. The chain runs with a stand-in
model that tags nothing, so each row checks what the rule steps find on their own."""
import pytest

from stand_in_model import scrub


@pytest.mark.parametrize("text, expected", [
    ("The court ruled on Monday. VANCE filed a dissenting opinion, in which ABERNATHY joined.",
     "The court ruled on Monday. [NAME] filed a dissenting opinion, in which [NAME] joined."),
    ("Note that the guidance is cited by DRISCOLL in a footnote.",
     "Note that the guidance is cited by [NAME] in a footnote."),
    # what stays: emphasis, acronyms, medical abbreviations, short acronyms, shouted lines
    ("I was SO tired and NEVER want to go back there.",
     "I was SO tired and NEVER want to go back there."),
    ("my TSH is high and the MMSE went down again", "my TSH is high and the MMSE went down again"),
    ("we asked NASA and FEMA about the grant", "we asked NASA and FEMA about the grant"),
    ("the pharmacist wrote DAW on the script", "the pharmacist wrote DAW on the script"),
    ("VANCE AND DRISCOLL WIN THE VOTE", "VANCE AND DRISCOLL WIN THE VOTE"),
    ("I am not RICH but we manage", "I am not RICH but we manage"),
])
def test_capital_names(text, expected):
    assert scrub(text) == expected
