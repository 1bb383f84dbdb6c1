import pytest

from mmbdeid.document import Document
from mmbdeid.pipeline import drug_filter_step, pattern_spans, threshold_step
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
    from mmbdeid.pipeline import spaced_name_spans
    assert [text[s.start:s.end] for s in spaced_name_spans(text)] == found


def test_added_spans_replace_the_spans_they_overlap():
    from mmbdeid.pipeline import add_spans
    from mmbdeid.spans import Span
    model = [Span("NAME", 0, 1, 0.2), Span("NAME", 4, 5, 0.3), Span("NAME", 20, 24, 0.9)]
    added = [Span("NAME", 0, 11, 1.0)]
    assert add_spans(model, added) == [Span("NAME", 0, 11, 1.0), Span("NAME", 20, 24, 0.9)]
