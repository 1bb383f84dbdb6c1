import pytest

from mmbdeid.text.document import Document
from mmbdeid.detect.analyzer import drug_filter_step, pattern_spans, threshold_step
from mmbdeid.spans import Span

TEXT = "Kay takes Arimidex and doxy"
KAY, ARIMIDEX, DOXY = Span("NAME", 0, 3, 0.3), Span("NAME", 10, 18, 0.2), Span("NAME", 23, 27, 0.1)


@pytest.mark.parametrize("threshold, expected", [
    (0.05, [KAY, ARIMIDEX, DOXY]),
    (0.15, [KAY, ARIMIDEX]),
    (0.3, []),                          # strictly greater than the threshold
    (0.99, [Span("EMAIL", 0, 1, 1.0)]),
])
def test_threshold_step(threshold, expected):
    spans = [KAY, ARIMIDEX, DOXY]
    if threshold == 0.99:
        spans = [Span("EMAIL", 0, 1, 1.0)]
    assert threshold_step(spans, threshold) == expected


def test_drug_filter_untags_drug_names_only():
    assert drug_filter_step([KAY, ARIMIDEX, DOXY], TEXT) == [KAY]


def test_drug_filter_keeps_pattern_identifiers():
    handle = Span("USER", 0, 3, 1.0)
    assert drug_filter_step([handle], "zzz", drugs=frozenset({"zzz"})) == [handle]


def test_pattern_spans_from_document():
    document = Document.from_text("mail kay@example.com or call 555-123-4567")
    labels = [s.label for s in pattern_spans(document)]
    assert labels == ["EMAIL", "PHONE"]


@pytest.mark.parametrize("text, found", [
    ("Hope that helps! R o b e r t", ["R o b e r t"]),
    ("the A B C of it", []),                       # not a name
    ("x y z and M a r y\nthen", ["M a r y"]),
    ("Robert", []),
])
def test_spaced_out_names_are_one_span(text, found):
    from mmbdeid.detect.analyzer import spaced_name_spans
    assert [text[s.start:s.end] for s in spaced_name_spans(text)] == found


def test_added_spans_replace_the_spans_they_overlap():
    from mmbdeid.detect.analyzer import add_spans
    from mmbdeid.spans import Span
    model = [Span("NAME", 0, 1, 0.2), Span("NAME", 4, 5, 0.3), Span("NAME", 20, 24, 0.9)]
    added = [Span("NAME", 0, 11, 1.0)]
    assert add_spans(model, added) == [Span("NAME", 0, 11, 1.0), Span("NAME", 20, 24, 0.9)]


def test_board_usernames_that_are_not_ordinary_words_are_always_removed(tiny_model_path):
    from mmbdeid.text.document import Document
    from mmbdeid.model.tagger import NameTagger
    from mmbdeid.detect.analyzer import Scrubber, distinctive_usernames
    from mmbdeid.model.stats import CorpusStats
    posts = [{"id": "1", "board": "b", "thread": "t", "author": author, "text": "hello"}
             for author in ("gracefulgram", "hope", "wildflower_jo")]
    text = "I hope gracefulgram and wildflower see @gracefulgram at gracefulgram@example.com"
    stats = CorpusStats.build([Document.from_post(p) for p in posts])
    assert distinctive_usernames(stats) == ["gracefulgram", "wildflower", "wildflower_jo",
                                            "wildflowerjo"]
    scrubber = Scrubber(NameTagger.load(tiny_model_path), stats=stats, threshold=0.99)
    removed = {(text[s.start:s.end], s.label) for s in scrubber.analyze(Document.from_text(text))}
    assert {("gracefulgram", "USER"), ("wildflower", "USER"), ("@gracefulgram", "USER"),
            ("gracefulgram@example.com", "EMAIL")} <= removed
    assert ("hope", "USER") not in removed
