"""Tokens with offsets: Treebank-like splits, Unicode, emoji, invisible characters."""
import random

import pytest

from mmbdeid.text.patterns import find_identifiers
from mmbdeid.text.tokenize import span_tokenize, tokenize

CASES = [
    ("Hello, world!", ["Hello", ",", "world", "!"]),
    ("  leading and trailing  ", ["leading", "and", "trailing"]),
    ("Kay's husband", ["Kay", "'s", "husband"]),
    ("don't", ["do", "n't"]),
    ("I can't, won't", ["I", "ca", "n't", ",", "wo", "n't"]),
    ("DON'T", ["DO", "N'T"]),
    ("it’s Kay’s", ["it", "’s", "Kay", "’s"]),
    ("we'll they're I've he'd I'm", ["we", "'ll", "they", "'re", "I", "'ve", "he", "'d", "I", "'m"]),
    ("O'Brien's dog", ["O'Brien", "'s", "dog"]),
    ("my parents' house", ["my", "parents", "'", "house"]),
    ("'quoted'", ["'", "quoted", "'"]),
    ("Mary-Jane", ["Mary", "-", "Jane"]),
    ("3.5mg of x", ["3", ".", "5mg", "of", "x"]),
    ("hippie_963 posted", ["hippie_963", "posted"]),
    ("wait...", ["wait", ".", ".", "."]),
    ("(see)", ["(", "see", ")"]),
    # Unicode letters and combining marks
    ("José Zoë Łukasz", ["José", "Zoë", "Łukasz"]),
    ("Zoe\u0308 says", ["Zoe\u0308", "says"]),
    ("東京 に", ["東京", "に"]),
    ("हिन्दी text", ["हिन्दी", "text"]),
    ("Ålesund–Oslo", ["Ålesund", "–", "Oslo"]),
    # emoji: one token per emoji, modifiers/joiners/selectors attached
    ("love it😀😀", ["love", "it", "😀", "😀"]),
    ("I ❤️ you", ["I", "❤️", "you"]),
    ("👍🏽ok", ["👍🏽", "ok"]),
    ("👨\u200d👩\u200d👧 family", ["👨\u200d👩\u200d👧", "family"]),
    ("🇺🇸🇬🇧", ["🇺🇸", "🇬🇧"]),
    ("1️⃣ first", ["1️⃣", "first"]),
    # invisible characters separate and never become tokens
    ("a\u200bb", ["a", "b"]),
    ("a\xa0b\tc\rd\ne", ["a", "b", "c", "d", "e"]),
    ("a\x00b\x1fc\x7fd", ["a", "b", "c", "d"]),
    ("soft\xadhyphen \ufeffbom", ["soft", "hyphen", "bom"]),
    ("x\u200dy \u200d", ["x", "y"]),
    ("\u2028line\u2029para\u3000wide", ["line", "para", "wide"]),
    ("", []),
    (" \t\n\u200b ", []),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_tokens(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize("text, expected", CASES)
def test_offsets_point_at_tokens(text, expected):
    assert [text[s:e] for s, e in span_tokenize(text)] == expected


def test_protected_spans_are_single_tokens():
    text = "Kay (kay@x.com, 555 123 4567) see www.x.com/a_(b)."
    spans = find_identifiers(text)
    assert tokenize(text, spans) == [
        "Kay", "(", "kay@x.com", ",", "555 123 4567", ")", "see", "www.x.com/a_(b)", "."]


def test_protected_pairs_clipped_and_overlaps_dropped():
    text = "abc def ghi"
    assert span_tokenize(text, [(4, 7), (5, 9), (8, 100), (2, 2)]) == [(0, 3), (4, 7), (8, 11)]


def test_protected_span_may_split_a_word():
    assert tokenize("call5551234567now", [(4, 14)]) == ["call", "5551234567", "now"]


_ALPHABET = (
    "abcXYZ019_ '’\"-.,;:!?()[]@/#$%&*+=<>\\|~`^"
    "\t\n\r\x00\x0b\x1f\x7f\x85\xa0\u200b\u200c\u200d\u2028\u3000\ufeff\xad"
    "éøŁ東京\u0301\u0308\u093f\u094d"
    "😀👍🏽❤\ufe0f\u20e3🇺🇸\U000E0067\U0001F3FB\ud800"
)


def _random_texts(count=2000, seed=7):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40)))


def test_offsets_are_increasing_non_empty_and_whitespace_free():
    tokens = 0
    for text in _random_texts():
        offsets = span_tokenize(text)
        position = 0
        for start, end in offsets:
            assert position <= start < end <= len(text), (text, offsets)
            token = text[start:end]
            assert not any(ch.isspace() for ch in token), (text, token)
            assert token[0] not in "\u200b\u200c\u200d\ufeff\xad\x00", (text, token)
            position = end
            tokens += 1
    assert tokens > 1000


def test_nothing_visible_is_lost():
    # Every character outside the tokens is whitespace, a control or a format character.
    import unicodedata
    uncovered = 0
    for text in _random_texts():
        covered = set()
        for start, end in span_tokenize(text):
            covered.update(range(start, end))
        for index, ch in enumerate(text):
            if index not in covered:
                assert ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf"), (text, ch)
                uncovered += 1
    assert uncovered > 100


def test_protected_spans_survive_random_text():
    rng = random.Random(11)
    checked = 0
    for text in _random_texts(500):
        if len(text) < 2:
            continue
        start = rng.randrange(len(text) - 1)
        end = rng.randrange(start + 1, len(text) + 1)
        offsets = span_tokenize(text, [(start, end)])
        assert (start, end) in offsets
        assert all(a[1] <= b[0] for a, b in zip(offsets, offsets[1:]))
        checked += 1
    assert checked > 400


@pytest.mark.parametrize("text, expected", [
    ("don't go", ["do", "n't", "go"]),
    ("Kay’s and y'all'd've", ["Kay", "’s", "and", "y'all", "'d", "'ve"]),
    ("' 's x'", ["'", "'", "s", "x", "'"]),
    ("no apostrophe here", ["no", "apostrophe", "here"]),
])
def test_clitics_are_split_only_where_an_apostrophe_is(text, expected):
    assert tokenize(text) == expected
