"""Name completion (issue 19, item 1): the rest of a name goes with the part the chain
removed; the title, the full stop after a name and the words beside it stay.

Every name and post here is fictional, written for these tests. The chain runs with a
stand-in model that tags only the tokens it is told to (the seed), so each row checks what
the completion step adds, whatever a trained model would say."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.base import Completer
from mmbdeid.detect.names.completion import COMPLETION, NameCompletion
from mmbdeid.detect.registry import STAGES
from mmbdeid.spans import Span
from mmbdeid.text.document import Document
from stand_in_model import WordTagger, scrub


@pytest.mark.parametrize("text, tagged, expected", [
    # middle initials, with and without a full stop; a signature block's next line stays
    ("Maren T. Oyelaran\nAcme Freight", {"Maren"}, "[NAME]\nAcme Freight"),
    ("Maren T Oyelaran wrote", {"Maren"}, "[NAME] wrote"),
    ("Kevin A. Boone\nAccenture", {"Boone"}, "[NAME]\nAccenture"),
    # initials before the name
    ("See you there. R.E. Glenn", {"Glenn"}, "See you there. [NAME]"),
    ("Bush nominated A. Noel Kramer today", {"Noel"}, "Bush nominated [NAME] today"),
    # a following (or preceding) capitalised word that is no common word
    ("Regards, Vangie Tillotson", {"Vangie"}, "Regards, [NAME]"),
    ("cartoons of Yasser Arafat", {"Arafat"}, "cartoons of [NAME]"),
    # particles
    ("Ana de la Fuente called", {"Ana"}, "[NAME] called"),
    ("Pieter van Houten wrote", {"Pieter"}, "[NAME] wrote"),
    ("cleric Muqtada al-Sadr said", {"Muqtada"}, "cleric [NAME] said"),
    ("look to bin Laden for cues", {"Laden"}, "look to [NAME] for cues"),
    ("drove the van Houten", {"Houten"}, "drove the van [NAME]"),
    # suffixes after a name of two words or more
    ("Howard K. Pemberton Jr. called", {"Howard"}, "[NAME]. called"),
    ("Howard Pemberton III called", {"Pemberton"}, "[NAME] called"),
    ("gave Maren IV fluids", {"Maren"}, "gave [NAME] IV fluids"),
    # hyphen and apostrophe parts
    ("Tola Adeyemi-Larsson is here", {"Tola"}, "[NAME] is here"),
    ("Ask Adeyemi-Larsson now", {"Larsson"}, "Ask [NAME] now"),
    ("Gina d'Amato and Sean O'Leary", {"Gina", "Sean"}, "[NAME] and [NAME]"),
    # surname first at the start of a line or in a header
    ("Oyelaran, Maren\nI called", {"Maren"}, "[NAME], [NAME]\nI called"),
    ("Okafor, Chidinma\nLindqvist, Bertil", {"Okafor", "Bertil"},
     "[NAME], [NAME]\n[NAME], [NAME]"),      # the header's last word, no known first name
    ("Okafor, Chidinma says hi", {"Okafor"}, "[NAME], Chidinma says hi"),
    ('"Tillotson, Vangie" <vt@example.com>', {"Tillotson"}, '"[NAME], [NAME]" <[EMAIL]>'),
    # the whole name in capitals
    ("MAREN OYELARAN 09/20/2000 09:32 AM", {"MAREN"}, "[NAME] 09/20/2000 09:32 AM"),
    ("MAREN TSH AM", {"MAREN"}, "[NAME] TSH AM"),
    # a Notes address after the name is the person's address: removed whole
    ("Maren Oyelaran@ACME 08/16/2000 12:05 PM", {"Maren"}, "[NAME] 08/16/2000 12:05 PM"),
    ("Maren Oyelaran@ACME COMMUNICATIONS on", {"Oyelaran"}, "[NAME] COMMUNICATIONS on"),
    ("Maren@home tonight", {"Maren"}, "[NAME]@home tonight"),
    ("I LOVE YOUR VLOGS ESTEE", {"ESTEE"}, "I LOVE YOUR VLOGS [NAME]"),
    ("ROADTRIP VLOGS TONIGHT", {"ROADTRIP"}, "[NAME] VLOGS TONIGHT"),
    # what stays: titles, greetings, closings, kinship, common and medical words
    ("Dr. Maren Oyelaran was kind", {"Maren"}, "Dr. [NAME] was kind"),
    ("Hi Maren", {"Maren"}, "Hi [NAME]"),
    ("Love Maren", {"Maren"}, "Love [NAME]"),
    ("Aunt Maren came", {"Maren"}, "Aunt [NAME] came"),
    ("the Queen Maren of Ruritania", {"Maren"}, "the Queen [NAME] of Ruritania"),
    ("Thanks Maren Will you call", {"Maren"}, "Thanks [NAME] Will you call"),
    ("Vangie Tillotson Constellation Power", {"Vangie"}, "[NAME] Constellation Power"),
    ("Ouch Hank. My father gets gout", {"Hank"}, "Ouch [NAME]. My father gets gout"),
    ("Booing Maren Oyelaran is rude", {"Maren"}, "Booing [NAME] is rude"),
    ("Delacroix Maren wrote", {"Maren"}, "[NAME] wrote"),
    ("We flew to San Francisco", {"Francisco"}, "We flew to San Francisco"),  # a place: kept
    ("vitamin D. Maren says", {"Maren"}, "vitamin D. [NAME] says"),
    ("I got an A. Glenn was pleased", {"Glenn"}, "I got an A. [NAME] was pleased"),
    ("FYI Vince P.S. Tom, call", {"Vince"}, "FYI [NAME] P.S. Tom, call"),
    ("Maren Tamoxifen", {"Maren"}, "[NAME] Tamoxifen"),
    # what the chain's KEEP steps keep stays (an eponym before its head noun)
    ("Rosalind, Barrett's esophagus is common", {"Rosalind"},
     "[NAME], Barrett's esophagus is common"),
    # letters of spaced-out text are no initials, nor seeds
    ("S E X Y Oyelaran", {"Oyelaran"}, "S E X Y [NAME]"),
    ("S E X Y Oyelaran", {"Y"}, "S E X [NAME] Oyelaran"),
    # nothing crosses a sentence end, a comma inside a line or a line break
    ("Thanks Rita. Tomm came", {"Rita"}, "Thanks [NAME]. Tomm came"),
    ("I saw Rita, Oyelaran and Kay", {"Rita"}, "I saw [NAME], Oyelaran and Kay"),
    ("Maren\nOyelaran", {"Maren"}, "[NAME]\nOyelaran"),
    # a name word joined by "and" or "&" to a name found: people named together; not a
    # holiday, a drug or a common word
    ("Rumsfeld, Wolfowitz and Feith met", {"Rumsfeld", "Feith"},
     "[NAME], [NAME] and [NAME] met"),
    ("Oyelaran and Tillotson came", {"Tillotson"}, "[NAME] and [NAME] came"),
    ("Maren & Tillotson", {"Maren"}, "[NAME] & [NAME]"),
    ("Maren and Christmas", {"Maren"}, "[NAME] and Christmas"),
    ("Maren and Humira", {"Maren"}, "[NAME] and Humira"),
    ("Thanks Maren and Welcome!", {"Maren"}, "Thanks [NAME] and Welcome!"),
    ("Maren and\nTillotson", {"Maren"}, "[NAME] and\nTillotson"),
    # at most four words
    ("Maren Ola Tillotson Oyelaran Vangie Nemec", {"Maren"},
     "[NAME] Vangie Nemec"),
])
def test_completion(text, tagged, expected):
    assert scrub(text, tagged) == expected


def test_completed_spans_carry_their_seed_score_and_source():
    text = "Maren T. Oyelaran"
    analyzer = Analyzer.build(WordTagger({"Maren": 0.6}))
    spans = analyzer.analyze(Document.from_text(text))
    assert [(text[s.start:s.end], s.score, s.source) for s in spans] == [
        ("Maren", 0.6, "crf"), ("T", 0.6, COMPLETION), ("Oyelaran", 0.6, COMPLETION)]


def test_a_token_removed_already_keeps_its_own_span():
    """Above the threshold a token keeps the model's probability and source; only the
    evaluation chain (a span on every token) raises it to its seed's."""
    document = Document.from_text("Mary Jane wrote")
    tagger = WordTagger({"Mary": 0.9, "Jane": 0.6})
    spans = Analyzer.build(tagger).analyze(document)
    assert [(s.score, s.source) for s in spans] == [(0.9, "crf"), (0.6, "crf")]
    scores = Analyzer.for_evaluation(tagger, stages=STAGES).token_scores(document)
    assert scores == [0.9, 0.9, 0.0]


@pytest.mark.parametrize("threshold, expected", [
    (0.5, "[NAME] wrote"),                  # the seed is removed: so is its surname
    (0.7, "Maren Oyelaran wrote"),          # the seed stays: so does its surname
])
def test_a_completion_follows_its_seed(threshold, expected):
    assert scrub("Maren Oyelaran wrote", {"Maren": 0.6}, threshold) == expected


def test_evaluation_scores_a_completed_token_as_its_seed():
    """With a span on every token, each token scores the best of its own score and its
    seeds': at any threshold it counts as removed exactly when scrub removes it."""
    document = Document.from_text("Maren T. Oyelaran met Kay Oduya")
    tagger = WordTagger({"Maren": 0.3, "T": 0.01, "Oyelaran": 0.02, "Kay": 0.01,
                         "Oduya": 0.4})
    scores = Analyzer.for_evaluation(tagger, stages=STAGES).token_scores(document)
    assert scores == [0.3, 0.3, 0.3, 0.3, 0.0, 0.4, 0.4]
    for threshold in (0.005, 0.2, 0.35):
        removed = {document.tokens[i] for i, s in enumerate(scores) if s > threshold}
        scrubbed = scrub(document.text, tagger.tagged, threshold)
        assert all(token not in scrubbed for token in removed - {"."})
    # without the rule steps (the model chain) nothing is completed
    assert Analyzer.for_evaluation(tagger).token_scores(document)[1:4] == [0.01, 0.01, 0.02]


def test_a_completer_reads_the_spans_found_before_it():
    seen = []

    class Recorder(Completer):
        source = "recorder"

        def complete(self, document, spans):
            seen.append([(s.start, s.end) for s in spans])
            return []

    analyzer = Analyzer(list(Analyzer.build(WordTagger({"Kay"})).detectors[:5]) + [Recorder()])
    analyzer.analyze(Document.from_text("Kay came"))
    assert seen == [[(0, 3)]]
    # alone, a completer has no seeds
    assert NameCompletion().detect(Document.from_text("Maren Oyelaran")) == []


def test_a_board_username_seeds_but_no_user_tag_of_the_model():
    document = Document.from_text("Maren Oyelaran")
    member = [Span("USER", 0, 5, 1.0, "username")]
    assert NameCompletion().complete(document, member) == [
        Span("USER", 6, 14, 1.0, COMPLETION)]
    assert NameCompletion().complete(document, [Span("USER", 0, 5, 0.9, "crf")]) == []
