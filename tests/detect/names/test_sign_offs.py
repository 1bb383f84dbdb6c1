"""Sign-offs (issue 19, item 3): initials and first names standing alone where a post is
signed are removed; abbreviations, interjections, medical abbreviations and stop words at
the same place stay.

Every post here is fictional, written for these tests. The chain runs with a stand-in
model that tags nothing, so each row checks what the sign-off step (and the completion
after it) removes on its own."""
import pytest

from mmbdeid.detect.registry import STAGES
from mmbdeid.detect.names.sign_offs import SIGN_OFF, SignOffDetector
from mmbdeid.text.document import Document
from stand_in_model import scrub


@pytest.mark.parametrize("text, expected", [
    # initials alone on the last line, after a dash, after a closing word
    ("Great news, all of you.\nMK", "Great news, all of you.\n[NAME]"),
    ("Love you all - D", "Love you all - [NAME]"),
    ("Love you all\n~MK", "Love you all\n~[NAME]"),
    ("Talk soon, dp", "Talk soon, [NAME]"),
    ("Hugs,\nJ.S.", "Hugs,\n[NAME]."),
    ("Take care, K.T", "Take care, [NAME]"),
    # before a signature block, on the same line or the next
    ("Thx dp Maren Oyelaran", "Thx [NAME]"),
    ("Let me know if you need anything else. dp\nMaren Oyelaran",
     "Let me know if you need anything else. [NAME]\n[NAME]"),
    ("See the revised article below.\nDp\nMaren Oyelaran\nCall me",
     "See the revised article below.\n[NAME]\n[NAME]\nCall me"),
    # a first name where a mail is signed, and its surname
    ("I will call you.\nBest regards,\nMaren Oyelaran",
     "I will call you.\nBest regards,\n[NAME]"),
    ("Thanks!!\nMaren Oyelaran\nThey take delivery today", "Thanks!!\n[NAME]\nThey take delivery today"),
    ("Regards, Maren Oyelaran See the file", "Regards, [NAME] See the file"),
    ("Good luck!\nSue", "Good luck!\n[NAME]"),
    # what stays: abbreviations, interjections, kisses, medical abbreviations, stop words
    ("Thanks for the info.\nTIA", "Thanks for the info.\nTIA"),
    ("Hope this helps.\nHTH", "Hope this helps.\nHTH"),
    ("Love you all\nxoxo", "Love you all\nxoxo"),
    ("My scan is Monday. Ugh", "My scan is Monday. Ugh"),
    ("They booked me for a scan. CT", "They booked me for a scan. CT"),
    ("OK", "OK"),
    ("That is for me.\nMe", "That is for me.\nMe"),
    ("Thanks, Will", "Thanks, [NAME]"),        # no sign-off: an address (cued_names.py)
    ("Bye", "Bye"),
    # not at a sign-off: inside a line, a file name, a name followed by more words
    ("MK said the scan was fine", "MK said the scan was fine"),
    ("Please read API.pdf", "Please read API.pdf"),
    ("Well, THANKS!: D", "Well, THANKS!: D"),
    ("that's a big Pac- Man", "that's a big Pac- Man"),
    ("it was slide. s..", "it was slide. s.."),
    ("Love you all -D", "Love you all -[NAME]"),
    # tweets: a word cut short, an interjection, a letter between stars
    ("look at my bae. G\u2026", "look at my bae. G\u2026"),
    ("or whatever.. oop", "or whatever.. oop"),
    ("LUCKY 13 * Q *", "LUCKY 13 * Q *"),
    ("Bom Dia:)", "Bom Dia:)"),
    ("Jgh", "Jgh"),
    ("Keep fighting.\nPrayers,\nMK", "Keep fighting.\nPrayers,\n[NAME]"),
    ("Mary and I went", "Mary and I went"),
    ("I told my DH about it", "I told my DH about it"),
])
def test_sign_offs(text, expected):
    assert scrub(text) == expected


@pytest.mark.parametrize("text, expected", [
    # issue 31: where a message closes (its last line, or a quoted block's), a word alone
    # on its line or after a closing word is initials even if a medical abbreviation or a
    # more frequent word, a lower-case letter after a dash too
    ("Thanks all.\n\nGT", "Thanks all.\n\n[NAME]"),
    ("Please check your patients.\n\nThanks.\nRW", "Please check your patients.\n\nThanks.\n[NAME]"),
    ("I have the dentist.\n\nThx. IC", "I have the dentist.\n\nThx. [NAME]"),
    ("Any basal rate advice?\n\nThanks,\nLC", "Any basal rate advice?\n\nThanks,\n[NAME]"),
    ("ERA next time maybe.\n\nCheers\nMo", "ERA next time maybe.\n\nCheers\n[NAME]"),
    ("Fingers crossed.\n\nxx Sky", "Fingers crossed.\n\nxx [NAME]"),
    ("Repeat in 48 hours.\n\nkisses leli", "Repeat in 48 hours.\n\nkisses [NAME]"),
    ("Once in a footnote.\n\n-- e", "Once in a footnote.\n\n-- [NAME]"),
    ("It is, booked you in.\n----cgy", "It is, booked you in.\n----[NAME]"),
    ("Got it, will do.\n\n/ D /", "Got it, will do.\n\n/ [NAME] /"),
    ("DKA is no joke.\n\nT.O.", "DKA is no joke.\n\n[NAME]."),
    # the last line of a quoted block, before an unquoted line or a quoted message's header
    ("> Can you cover Thursday?\n> Thanks,\n> ICB\n\nSorted then.",
     "> Can you cover Thursday?\n> Thanks,\n> [NAME]\n\nSorted then."),
    ("Fine by me.\nGT\n-----Original Message-----\nFrom: the clinic",
     "Fine by me.\n[NAME]\n-----Original Message-----\nFrom: the clinic"),
    # a signature followed by its role lines to the end of the post
    ("Sorted then.\nRenata Wollaston\nClinic Coordinator",
     "Sorted then.\n[NAME]\nClinic Coordinator"),
    # what stays: the same abbreviation inside a sentence or not closing the message, a
    # lone letter with no dash, interjections, stop words, a word after no closing word
    ("My GT test came back fine.\nThanks", "My GT test came back fine.\nThanks"),
    ("They booked me for a scan. CT", "They booked me for a scan. CT"),
    ("Which scan?\nCT\nThe one on Friday.", "Which scan?\nCT\nThe one on Friday."),
    ("What did the scan show?\n\nMRI", "What did the scan show?\n\nMRI"),
    ("Did you go with full PGT?\n-- p", "Did you go with full PGT?\n-- [NAME]"),
    ("Is that right?\nk", "Is that right?\nk"),
    ("Thanks all.\nLOL", "Thanks all.\nLOL"),
    ("It went well.\nYes", "It went well.\nYes"),
    ("Thanks again", "Thanks again"),
    ("Great show.\nI LOVE ITTTTTTT", "Great show.\nI LOVE ITTTTTTT"),
    ("Great show.\nlove itttttt", "Great show.\nlove itttttt"),
    ("Good night.\nLove you", "Good night.\nLove you"),
    ("Moving back to the\nU.S.", "Moving back to the\nU.S."),
    ("Meet me at 5\nP.M.", "Meet me at 5\nP.M."),
    ("Sorted then.\nRenata Wollaston\nShe will call you tomorrow, I think.",
     "Sorted then.\nRenata Wollaston\nShe will call you tomorrow, I think."),
])
def test_sign_offs_closing_a_message(text, expected):
    assert scrub(text) == expected


def test_sign_off_spans_are_rule_spans():
    text = "Love you all - D"
    spans = SignOffDetector().detect(Document.from_text(text))
    assert [(text[s.start:s.end], s.label, s.score, s.source) for s in spans] == [
        ("D", "NAME", 1.0, SIGN_OFF)]


def test_a_sign_off_the_model_removes_keeps_the_models_span():
    """Only where the model leaves the name does the rule's span go in; in evaluation (a
    span on every token) the rule's 1.0 counts at every threshold."""
    from mmbdeid.detect.analyzer import Analyzer
    from stand_in_model import WordTagger
    document = Document.from_text("Love you all - Maren")
    spans = Analyzer.build(WordTagger({"Maren": 0.4})).analyze(document)
    assert [(s.score, s.source) for s in spans] == [(0.4, "crf")]
    spans = Analyzer.build(WordTagger({"Maren": 0.01})).analyze(document)
    assert [(s.score, s.source) for s in spans] == [(1.0, SIGN_OFF)]
    scores = Analyzer.for_evaluation(WordTagger({"Maren": 0.4}), stages=STAGES).token_scores(
        document)
    assert scores[-1] == 1.0


def test_initials_the_model_half_removes_are_removed_whole():
    """``J.S.`` where the model takes ``J`` only: ``J`` keeps the model's span, ``S`` gets
    the rule's."""
    from mmbdeid.detect.analyzer import Analyzer
    from stand_in_model import WordTagger
    text = "Ice helps. Hugs to you.\nJ.S."
    spans = Analyzer.build(WordTagger({"J": 0.2})).analyze(Document.from_text(text))
    assert [(text[s.start:s.end], s.score, s.source) for s in spans] == [
        ("J", 0.2, "crf"), ("S", 1.0, SIGN_OFF)]


def test_empty_post():
    assert SignOffDetector().detect(Document.from_text("")) == []
