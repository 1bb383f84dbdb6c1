"""The detectors and the analyzer chain (mmbdeid/detect/)."""
import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.base import KEEP, REMOVE, Detector
from mmbdeid.detect.crf import EVERY_TOKEN, CrfDetector
from mmbdeid.detect.keep.drugs import DrugKeeper
from mmbdeid.detect.lists import AllowedTermKeeper, DeniedTermDetector
from mmbdeid.detect.patterns import PatternDetector
from mmbdeid.detect.registry import FILTER, MODEL, step_names
from mmbdeid.detect.names.spaced_names import spaced_name_spans
from mmbdeid.spans import Span
from mmbdeid.text.document import Document

TEXT = "Kay takes Arimidex and doxy"


class FakeTagger:
    """Stands in for a NameTagger: fixed (P(NAME), P(USER)) per token."""
    threshold = 0.05

    def __init__(self, marginals):
        self.marginals = marginals

    def featurizer(self, stats):
        return self

    def document_items(self, document):
        return document.tokens

    def name_marginals(self, items):
        assert len(items) == len(self.marginals)
        return self.marginals


# Kay 0.3 (NAME), takes 0.01, Arimidex 0.2 (USER likelier), and 0.0, doxy 0.1
MARGINALS = [(0.3, 0.0), (0.01, 0.0), (0.05, 0.15), (0.0, 0.0), (0.1, 0.0)]


def found(detector, text=TEXT):
    document = Document.from_text(text)
    return [(text[s.start:s.end], s.label, s.source) for s in detector.detect(document)]


@pytest.mark.parametrize("threshold, expected", [
    (None, ["Kay", "Arimidex", "doxy"]),          # None: the model's threshold (0.05)
    (0.15, ["Kay", "Arimidex"]),
    (0.3, []),                                     # strictly greater than the threshold
    (EVERY_TOKEN, ["Kay", "takes", "Arimidex", "and", "doxy"]),
])
def test_crf_detector_threshold(threshold, expected):
    detector = CrfDetector(FakeTagger(MARGINALS), threshold=threshold)
    assert [text for text, _, _ in found(detector)] == expected


def test_crf_detector_labels_the_likelier_and_scores_the_sum():
    spans = CrfDetector(FakeTagger(MARGINALS)).detect(Document.from_text(TEXT))
    assert [(s.label, round(s.score, 6), s.source) for s in spans] == [
        ("NAME", 0.3, "crf"), ("USER", 0.2, "crf"), ("NAME", 0.1, "crf")]


def test_crf_detector_skips_pattern_tokens():
    text = "mail kay@example.com"
    detector = CrfDetector(FakeTagger([(0.9, 0.0), (0.9, 0.0)]))
    assert found(detector, text) == [("mail", "NAME", "crf")]


@pytest.mark.parametrize("label, expected", [
    ("EMAIL", ["kay@example.com"]),
    ("PHONE", ["555-123-4567"]),
    ("USER", ["@kaygirl"]),
    ("URL", []),
])
def test_pattern_detector_finds_its_own_kind(label, expected):
    text = "mail kay@example.com or call 555-123-4567, @kaygirl"
    assert found(PatternDetector(label), text) == [(e, label, "pattern") for e in expected]


@pytest.mark.parametrize("text, expected", [
    (TEXT, ["Arimidex", "doxy"]),
    ("DOXY and doxycycline", ["DOXY", "doxycycline"]),
    ("mail arimidex@example.com", []),             # a pattern token is not a drug name
])
def test_drug_filter_keeps_drug_names(text, expected):
    assert [t for t, _, _ in found(DrugKeeper(), text)] == expected
    assert DrugKeeper.effect == KEEP


@pytest.mark.parametrize("text, spaced", [
    ("Hope that helps! R o b e r t", ["R o b e r t"]),
    ("the A B C of it", []),                       # not a name
    ("x y z and M a r y\nthen", ["M a r y"]),
    ("Robert", []),
])
def test_spaced_out_names_are_one_span(text, spaced):
    spans = spaced_name_spans(text)
    assert [text[s.start:s.end] for s in spans] == spaced
    assert all(s.source == "spaced" and s.score == 1.0 for s in spans)


class Fixed(Detector):
    def __init__(self, spans, effect=REMOVE):
        self.spans, self.effect = spans, effect

    def detect(self, document):
        return list(self.spans)


@pytest.mark.parametrize("chain, expected", [
    # a later REMOVE span replaces the earlier spans it overlaps
    ([[Span("NAME", 0, 1, 0.2, "a"), Span("NAME", 4, 5, 0.3, "a"),
       Span("NAME", 20, 24, 0.9, "a")], [Span("NAME", 0, 11, 1.0, "b")]],
     [Span("NAME", 0, 11, 1.0, "b"), Span("NAME", 20, 24, 0.9, "a")]),
    # a KEEP span drops the earlier spans lying inside it, not those reaching outside
    ([[Span("NAME", 0, 3, 0.4, "a"), Span("NAME", 2, 9, 0.4, "a")],
      (KEEP, [Span("KEEP", 0, 5, 1.0, "k")])],
     [Span("NAME", 2, 9, 0.4, "a")]),
    # and a later REMOVE span comes back after a KEEP (deny wins over allow)
    ([[Span("NAME", 0, 3, 0.4, "a")], (KEEP, [Span("KEEP", 0, 3, 1.0, "k")]),
      [Span("NAME", 0, 3, 1.0, "deny")]],
     [Span("NAME", 0, 3, 1.0, "deny")]),
])
def test_chain_merges_by_effect(chain, expected):
    detectors = [Fixed(step[1], step[0]) if isinstance(step, tuple) else Fixed(step)
                 for step in chain]
    assert Analyzer(detectors).analyze(Document.from_text("x" * 30)) == expected


ARTHUR_TEXT = "Reading Arthur C. Clarke again. Arthur says hi."


@pytest.mark.parametrize("allow, kept", [
    (["Arthur C. Clarke"], ["Arthur"]),                 # the lone Arthur stays removed
    (["arthur c. clarke"], ["Arthur"]),                 # case-insensitive
    (["Clarke"], ["Arthur", "C", "Arthur"]),
    ([], ["Arthur", "C", "Clarke", "Arthur"]),
])
def test_allow_list_keeps_whole_occurrences(allow, kept):
    names = [Fixed([Span("NAME", 8, 14, 0.9, "crf"), Span("NAME", 15, 16, 0.6, "crf"),
                    Span("NAME", 18, 24, 0.8, "crf"), Span("NAME", 32, 38, 0.9, "crf")])]
    spans = Analyzer(names + [AllowedTermKeeper(allow)]).analyze(Document.from_text(ARTHUR_TEXT))
    assert [ARTHUR_TEXT[s.start:s.end] for s in spans] == kept


def test_a_span_reaching_outside_an_allowed_occurrence_stays():
    wide = Span("NAME", 8, 24, 0.9, "crf")
    spans = Analyzer([Fixed([wide]), AllowedTermKeeper(["Arthur C"])]).analyze(
        Document.from_text(ARTHUR_TEXT))
    assert spans == [wide]


def test_deny_list_finds_whole_words_in_any_case():
    text = "Thanks kaygirl96 and KayGirl96, and Mary  Jane"
    assert found(DeniedTermDetector(["kaygirl96", "Mary Jane"]), text) == [
        ("kaygirl96", "NAME", "deny"), ("KayGirl96", "NAME", "deny"),
        ("Mary  Jane", "NAME", "deny")]
    assert found(DeniedTermDetector(["kaygirl96"], label="USER"), text)[0][1] == "USER"
    assert found(DeniedTermDetector([]), text) == []


def test_deny_wins_over_allow_in_the_standard_chain():
    analyzer = Analyzer.build(FakeTagger([(0.4, 0.0), (0.4, 0.0)]), allow=["Kay"],
                              deny=["Kay"], steps=step_names(stages=(MODEL, FILTER)) + ("deny",))
    spans = analyzer.analyze(Document.from_text("Dear Kay"))
    # the greeting is never a name (not_names.py); the deny list wins over the allow list
    assert [(s.start, s.end, s.source) for s in spans] == [(5, 8, "deny")]


def test_standard_chain_order():
    chain = Analyzer.build(FakeTagger([]), allow=["a"], deny=["b"]).detectors
    assert [type(d).__name__ for d in chain] == [
        "PatternDetector", "PatternDetector", "PatternDetector", "PatternDetector",
        "CrfDetector", "ConsistencyDetector", "NotNameKeeper", "DrugKeeper",
        "MedicalTermKeeper", "GazetteerPhraseKeeper", "PlaceKeeper", "OrganisationKeeper",
        "InstitutionKeeper", "PrefixedPlaceKeeper", "CalendarKeeper", "DeviceKeeper",
        "AcronymKeeper", "FileExtensionKeeper", "CodeTextKeeper", "DemonymKeeper",
        "TitleKeeper",
        "OfficeKeeper", "TitledNameDetector", "CuedNameDetector", "OfficeNameDetector",
        "SpacedNameDetector", "SeparatedNameDetector",
        "HashtagNameDetector", "SignOffDetector", "MessageLineDetector", "CapitalNameDetector",
        "MaskedNameDetector", "NameCompletion",
        "AllowedTermKeeper", "DeniedTermDetector", "PlaceholderKeeper"]


def test_token_scores_for_evaluation():
    text = "Kay takes doxy @kaygirl kay@example.com"
    analyzer = Analyzer.for_evaluation(FakeTagger([(0.3, 0.0), (0.01, 0.0), (0.9, 0.0),
                                                   (0.0, 0.0), (0.0, 0.0)]))
    # Kay: its CRF score; doxy: a drug, never tagged; the handle 1.0; the e-mail: no score
    assert analyzer.token_scores(Document.from_text(text)) == [0.3, 0.01, 0.0, 1.0, None]


def test_board_usernames_that_are_not_ordinary_words_are_always_removed(tiny_model_path):
    from mmbdeid.detect.names.usernames import distinctive_usernames
    from mmbdeid.model.stats import CorpusStats
    from mmbdeid.model.tagger import NameTagger
    posts = [{"id": "1", "board": "b", "thread": "t", "author": author, "text": "hello"}
             for author in ("gracefulgram", "hope", "wildflower_jo")]
    text = "I hope gracefulgram and wildflower see @gracefulgram at gracefulgram@example.com"
    stats = CorpusStats.build([Document.from_post(p) for p in posts])
    assert distinctive_usernames(stats) == ["gracefulgram", "wildflower", "wildflower_jo",
                                            "wildflowerjo"]
    analyzer = Analyzer.build(NameTagger.load(tiny_model_path), stats=stats, threshold=0.99)
    removed = {(text[s.start:s.end], s.label, s.source)
               for s in analyzer.analyze(Document.from_text(text))}
    assert {("gracefulgram", "USER", "username"), ("wildflower", "USER", "username"),
            ("@gracefulgram", "USER", "pattern"),
            ("gracefulgram@example.com", "EMAIL", "pattern")} <= removed
    assert not any(text == "hope" for text, _, _ in removed)
