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
