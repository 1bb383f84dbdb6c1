import pytest

from mmbdeid.spans import Span, replace_spans, resolve_overlaps

TEXT = "Hi Kay, mail kay@example.com"


@pytest.mark.parametrize("spans, expected", [
    ([], TEXT),
    ([Span("NAME", 3, 6, 0.9)], "Hi [NAME], mail kay@example.com"),
    ([Span("EMAIL", 13, 28, 1.0), Span("NAME", 3, 6, 0.2)], "Hi [NAME], mail [EMAIL]"),
    ([Span("EMAIL", 13, 28, 1.0), Span("USER", 13, 16, 0.4)], "Hi Kay, mail [EMAIL]"),
])
def test_replace_spans(spans, expected):
    assert replace_spans(TEXT, spans) == expected


def test_resolve_overlaps_keeps_earlier_then_longer():
    spans = [Span("A", 5, 8, 1), Span("B", 0, 6, 1), Span("C", 0, 2, 1)]
    assert resolve_overlaps(spans) == [Span("B", 0, 6, 1)]
