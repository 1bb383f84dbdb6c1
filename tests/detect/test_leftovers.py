"""What the chain leaves for the review page (detect/leftovers.py): near-misses, with the
keep step that holds one, and capitalised words not in the dictionary. Fictional text."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.leftovers import near_misses, unknown_word, unknown_words
from mmbdeid.text.document import Document
from stand_in_model import WordTagger

# The stand-in model's threshold is 0.05: a near-miss scores from 0.005 up to 0.05.
SCORES = {"Maren": 0.02, "maren": 0.03, "Bob": 0.9, "Tamoxifen": 0.03, "Ivo": 0.005,
          "Ula": 0.0049, "Edda": 0.05, "Zoe": 0.02}
# (not "Maren and Bob": a name word joined by "and" to a name removed goes with it)
TEXT = "Thanks Maren, hi Bob, Tamoxifen helps. maren, Ivo, Ula, Edda and Zoe came."


def _near(text=TEXT, **lists):
    analyzer = Analyzer.build(WordTagger(SCORES), **lists)
    document = Document.from_text(text)
    spans = analyzer.analyze(document)
    return {text[s.start:s.end]: (round(s.score, 4), s.source)
            for s in near_misses(analyzer.detectors, document, spans)}


@pytest.mark.parametrize("word,expected", [
    ("Maren", (0.02, "crf")),           # capitalised, under the threshold
    ("maren", None),                    # not capitalised
    ("Bob", None),                      # removed
    ("Tamoxifen", (0.03, "drugs")),     # a keep step holds it: named
    ("Ivo", (0.005, "crf")),            # a tenth of the threshold: in
    ("Ula", None),                      # under a tenth: out
    ("Edda", (0.05, "crf")),            # at the threshold (not removed: not above it)
    ("Zoe", (0.02, "crf")),
])
def test_near_misses(word, expected):
    assert _near().get(word) == expected


@pytest.mark.parametrize("lists,word", [
    ({"deny": ("Zoe",)}, "Zoe"),        # a rule step removed it
    ({"allow": ("Maren",)}, "Maren"),   # the user allowed it: decided
])
def test_no_near_miss_where_the_user_decided(lists, word):
    assert word in _near() and word not in _near(**lists)


def test_near_misses_have_offsets_into_the_post_itself():
    text = "<p>Hi &amp; <b>Maren</b></p>"
    assert _near(text) == {"Maren": (0.02, "crf")}


def test_near_misses_need_the_model():
    analyzer = Analyzer.build(WordTagger(SCORES), steps=["not-names"])
    document = Document.from_text(TEXT)
    assert near_misses(analyzer.detectors, document, []) == []


@pytest.mark.parametrize("token,expected", [
    ("Maren", True),        # in no list
    ("Linda", True),        # a given name, although a common word
    ("Will", True),         # so is this one, at a sentence start too
    ("Seronegative", True),
    ("Monday", False),      # a common word
    ("Tamoxifen", False),   # a drug
    ("Dexcom", False),      # a device
    ("TSH", False),         # a medical abbreviation
    ("LOL", False),         # chat
    ("The", False),
    ("maren", False),       # not capitalised
    ("42", False),
])
def test_unknown_word(token, expected):
    assert unknown_word(token) is expected


def test_unknown_words_in_a_post_leave_patterns_out():
    text = "Saw Maren at the Monday group, mail Kay@example.org"
    assert [text[s.start:s.end] for s in unknown_words(Document.from_text(text))] == ["Maren"]
