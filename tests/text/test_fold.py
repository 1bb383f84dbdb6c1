"""Accent folding with the map back to the original offsets (text/fold.py)."""
import pytest

from mmbdeid.text.fold import fold, fold_term


@pytest.mark.parametrize("text, casefold, folded", [
    ("Inés", False, "Ines"),
    ("Ine\u0301s", False, "Ines"),          # decomposed: the mark goes
    ("INÉS", True, "ines"),
    ("Weißberg", True, "weissberg"),        # one character becomes two
    ("ﬁona", False, "fiona"),               # a ligature too
    ("plain ascii", False, "plain ascii"),
])
def test_fold(text, casefold, folded):
    assert fold(text, casefold).text == folded == fold_term(text, casefold)


@pytest.mark.parametrize("text, casefold, span, original", [
    ("Merci Ine\u0301s!", False, (6, 10), "Ine\u0301s"),   # the mark after the match with it
    ("ask Weißberg now", True, (4, 13), "Weißberg"),
    ("Jose\u0301", False, (0, 4), "Jose\u0301"),           # to the end
    ("ask Kay", False, (4, 7), "Kay"),
])
def test_original_span(text, casefold, span, original):
    start, end = fold(text, casefold).original_span(*span)
    assert text[start:end] == original
