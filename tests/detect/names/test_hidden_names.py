"""Names hidden on purpose or by habit (issue 19, item 3): inside hashtags, spelled with
separators, masked with asterisks. Ordinary hashtags, abbreviations and masked swear words
stay.

Every post here is fictional, written for these tests. The chain runs with a stand-in
model that tags only the tokens it is told to, so each row checks what the rule steps do
on their own."""
import pytest

from mmbdeid.detect.names.hashtags import HASHTAG, HashtagNameDetector, segment_hashtag
from mmbdeid.detect.names.masked_names import MASKED, MaskedNameDetector
from mmbdeid.detect.names.spaced_names import separated_name_spans
from mmbdeid.spans import Span
from mmbdeid.text.document import Document
from stand_in_model import scrub


@pytest.mark.parametrize("text, expected", [
    # a name among the parts of a hashtag: the hashtag's word goes whole
    ("Scan day tomorrow #PrayForMaren", "Scan day tomorrow #[NAME]"),
    ("so proud #teammaren", "so proud #[NAME]"),
    ("#AlanPardew out", "#[NAME] out"),
    ("go #TeamKaren!", "go #[NAME]!"),
    # no name among the parts
    ("#prayforhope #breastcancerawareness #blessed",
     "#prayforhope #breastcancerawareness #blessed"),
    ("#EasterSunday #pinkribbon #ThrowbackThursday",
     "#EasterSunday #pinkribbon #ThrowbackThursday"),
    ("#tamoxifen #chemosucks #fightlikeagirl", "#tamoxifen #chemosucks #fightlikeagirl"),
    ("Room #12 and a # alone", "Room #12 and a # alone"),
    # spelled with separators
    ("Ask M.a.r.e.n about it", "Ask [NAME] about it"),
    ("Ask M-a-r-e-n about it", "Ask [NAME] about it"),
    ("Ask m_a_r_e_n about it", "Ask [NAME] about it"),
    ("The A.D.A. and the U.S.A. say so, e.g. t-i-m-e",
     "The A.D.A. and the U.S.A. say so, e.g. t-i-m-e"),
    ("mail m.a.r.e.n@example.com", "mail [EMAIL]"),
    # masked with asterisks: a first name or surname no word fits, or a name of the post
    ("I told K*thy about it", "I told [NAME] about it"),
    ("I told M*ren about it", "I told [NAME] about it"),
    ("Dr. Sm*th was kind", "Dr. [NAME] was kind"),
    ("what the f*ck, go to h*ll, sh*t", "what the f*ck, go to h*ll, sh*t"),
    ("D*ve or *** spoiler ***", "D*ve or *** spoiler ***"),
])
def test_hidden_names(text, expected):
    assert scrub(text) == expected


def test_a_masked_name_the_post_names_goes_with_it():
    text = "Dorrit said hi. Later D*rrit left"
    assert scrub(text, {"Dorrit"}) == "[NAME] said hi. Later [NAME] left"
    # the post does not name her, and no first name fits: it stays
    assert scrub("Later D*rrit left") == "Later D*rrit left"
    # the masked name is scored as the name it spells (it goes exactly when that goes)
    document = Document.from_text(text)
    spans = MaskedNameDetector().complete(document, [Span("NAME", 0, 6, 0.3, "crf")])
    assert [(text[s.start:s.end], s.score, s.source) for s in spans] == [("D*rrit", 0.3, MASKED)]


@pytest.mark.parametrize("run, parts", [
    ("teammaren", ["team", "maren"]),
    ("prayforhope", ["pray", "for", "hope"]),
    ("breastcancerawareness", ["breast", "cancer", "awareness"]),
])
def test_segment(run, parts):
    assert segment_hashtag(run) == parts


def test_hashtag_spans_are_rule_spans():
    text = "#PrayForMaren"
    spans = HashtagNameDetector().detect(Document.from_text(text))
    assert [(text[s.start:s.end], s.score, s.source) for s in spans] == [
        ("PrayForMaren", 1.0, HASHTAG)]


def test_separated_letters_in_capitals_need_five():
    assert [s.start for s in separated_name_spans(Document.from_text("K.A.R.E.N. wrote"))] == [0]
    assert separated_name_spans(Document.from_text("D.O.N. wrote")) == []


def test_the_quick_separator_check_misses_no_run():
    """The ASCII pre-check (a bytes search on marked text) passes every text in which the
    full expression finds a run of separated letters: checked on random texts."""
    import random
    from mmbdeid.detect.names.spaced_names import (_MARKED_SEPARATORS, _SEPARATED_LETTERS,
                                       _SEPARATOR_MARKS)
    chooser = random.Random(19)
    for _ in range(3000):
        text = "".join(chooser.choice("ab.-_* 1A,") for _ in range(chooser.randint(3, 12)))
        if _SEPARATED_LETTERS.search(text):
            assert _MARKED_SEPARATORS.search(text.encode("ascii").translate(_SEPARATOR_MARKS))
