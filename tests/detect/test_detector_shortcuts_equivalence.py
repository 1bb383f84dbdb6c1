"""The detectors' shortcuts find what looking at every token (or every position) finds.

Each shortcut is checked against the plain way on random posts built to hit the edges:
title, eponym, abbreviation, kinship and drug words in every case, hyphens, possessives,
full stops, line breaks, pattern tokens, and characters that ``re`` matches to others
without regard to case (``ſ``, ``ı``, ``K``, ``İ``, Greek sigma).
"""
import random
import re

import pytest

from mmbdeid.detect import base
from mmbdeid.detect.base import indices_in, lowered_tokens
from mmbdeid.detect.keep.drugs import DrugKeeper
from mmbdeid.detect.keep.medical_terms import MedicalTermKeeper
from mmbdeid.detect.keep.terms import TermKeeper
from mmbdeid.detect.patterns import PatternDetector
from mmbdeid.detect.names.spaced_names import _SPACED_LETTERS, SPACED_NAME_MIN, spaced_name_spans
from mmbdeid.detect.names.titles import TitledNameDetector, TitleKeeper
from mmbdeid.kinds import PATTERN_LABELS
from mmbdeid.lexicon.wordlists import load_wordlist
from mmbdeid.spans import PATTERN, SPACED, Span
from mmbdeid.text.document import Document
from mmbdeid.text.terms import TermMatcher

from documents import document_of_tokens

ODD = ["ſ", "ı", "\u212a", "İ", "Σ", "σ", "ς", "é", "É", "ß", "ẞ", "µ", "\u0345",
       "\u2019", "\u201c", "…", "—", "😊", "中文", "\x1c", "\u00a0", "\u2028", "\u200b",
       "_", "-", "'", ".", "@", "İstanbul", "ΣΟΦΙΑ", "Straße", "ſam", "KAY"]
CASELESS = [c for c in ODD if c.lower() == c == c.upper()]


def cased(rng, word, odd_case=True):
    roll = rng.random()
    if roll < 0.4:
        return word
    if roll < 0.6:
        return word.capitalize()
    if roll < 0.75:
        return word.upper()
    if roll < 0.9 or not odd_case:
        return "".join(c.upper() if rng.random() < 0.5 else c for c in word)
    return word.replace("s", "ſ").replace("k", "\u212a").replace("i", "ı")


def random_text(rng, words, length, odd=ODD, odd_case=True):
    out = []
    for _ in range(length):
        roll = rng.random()
        if roll < 0.06 and odd:
            out.append(rng.choice(odd))
        elif roll < 0.12:
            out.append(rng.choice(".,-'\u2019!?@"))
        else:
            out.append(cased(rng, rng.choice(words), odd_case))
        out.append(rng.choice([" ", " ", " ", "  ", "\n", "", "\t", ". ", "-", "'s "]))
    return "".join(out)


# -- term matching --------------------------------------------------------------------

TERMS = ["kaygirl", "mary jane", "mary", "jo", "wildflower", "t1since82", "kay", "mary.jane",
         "o'brien", "@kay", "dr.", "arthur c. clarke", "josé", "maría", "straße", "中文",
         "smile😊", "jo-ann", "x", "_under", "a_b", "σοφία", "ſam", "ısık"]
WORDS = TERMS + ["hello", "the", "and", "samuel", "isik", "sam", "ann", "clarke", "c"]


def plain_finditer(matcher, text):
    """What ``TermMatcher.finditer`` finds, by its case-insensitive expression alone."""
    if matcher._regex is None:
        return []
    found = []
    for match in matcher._regex.finditer(text):
        term = matcher._by_key.get(matcher._key(match.group()))
        if term is None:
            term = matcher._slow_lookup(match.group())
        found.append((match.start(), match.end(), term))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_term_matcher_finds_what_its_expression_finds(seed):
    rng = random.Random(seed)
    for _ in range(300):
        pool = TERMS if rng.random() < 0.3 else [t for t in TERMS if t not in ("ſam", "ısık")]
        terms = [cased(rng, t) if rng.random() < 0.3 else t
                 for t in rng.sample(pool, rng.randint(1, 10))]
        case_sensitive = rng.random() < 0.15
        matcher = TermMatcher(terms, case_sensitive)
        for _ in range(8):
            odd = rng.choice([ODD, CASELESS, CASELESS, []])
            text = random_text(rng, WORDS, rng.randint(0, 30), odd, rng.random() < 0.3)
            assert list(matcher.finditer(text)) == plain_finditer(matcher, text), (terms, text)


def test_term_matcher_on_dense_repeats():
    """Terms that are words and parts of each other, in texts made of little else."""
    rng = random.Random(11)
    pieces = ["a", "aa", "aaa", "b", "a b", "aa-b", "a.a", "a_a", "ab", "b a"]
    for _ in range(2000):
        matcher = TermMatcher(rng.sample(pieces, rng.randint(1, 5)))
        text = "".join(rng.choice(["a", "A", "b", "B", " ", " ", "_", "-", ".", "\n", "1"])
                       for _ in range(rng.randint(0, 25)))
        assert list(matcher.finditer(text)) == plain_finditer(matcher, text), text


def test_term_matcher_fast_paths_are_taken_and_refused():
    plain = TermMatcher(["kaygirl", "mary jane", "@kay"])
    assert plain._lower_regex is not None and plain._first_words is None      # "@kay"
    words = TermMatcher(["kaygirl", "mary jane"])
    assert words._first_words == {b"kaygirl", b"mary"}
    # "ſ" and "ı" match ASCII letters without regard to case: no lower-cased search
    assert TermMatcher(["ſam"])._lower_regex is None
    assert TermMatcher(["ısık"])._lower_regex is None
    assert TermMatcher(["Mary"], case_sensitive=True)._lower_regex is None
    for text, found in [("Hi KAYGIRL!", [(3, 10, "kaygirl")]),
                        ("MARY\n Jane said", [(0, 10, "mary jane")]),
                        ("kaygirl\u2019s \U0001f60a", [(0, 7, "kaygirl")]),
                        ("\u212aaygirl", [(0, 7, "kaygirl")]),          # Kelvin sign
                        ("ΣΟΦΙΑ kaygirl", [(6, 13, "kaygirl")]),
                        ("kaygirls mary-jane", [])]:
        assert list(words.finditer(text)) == found == plain_finditer(words, text)


# -- spaced-out names -----------------------------------------------------------------

def plain_spaced(text, names):
    return [Span("NAME", m.start(), m.end(), 1.0, SPACED) for m in _SPACED_LETTERS.finditer(text)
            if len(m.group().replace(" ", "")) >= SPACED_NAME_MIN
            and m.group().replace(" ", "").lower() in names]


def test_spaced_names_as_the_expression_finds_them():
    rng = random.Random(7)
    letters = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéÉ")
    names = {"bob", "ann", "mary", "robert", "xyz"}
    for _ in range(4000):
        parts = []
        for _ in range(rng.randint(0, 12)):
            roll = rng.random()
            if roll < 0.5:
                parts.append(rng.choice(letters))
            elif roll < 0.7:
                parts.append(" ".join(cased(rng, rng.choice(sorted(names)))))
            else:
                parts.append(rng.choice(["word", "x1", "_", "9", ".", "ſ", "😊", "ab"]))
            parts.append(rng.choice([" ", " ", "  ", "\n", ""]))
        text = "".join(parts)
        assert spaced_name_spans(text, names) == plain_spaced(text, names), text


# -- the token steps ------------------------------------------------------------------

class Everything(frozenset):
    """A word set holding every word: the shortcuts then look at every token."""

    def __contains__(self, word):
        return True

    def isdisjoint(self, other):
        return False


def every_token(detector):
    if isinstance(detector, MedicalTermKeeper):
        detector.starts = detector.eponym_starts = Everything()
    elif isinstance(detector, TermKeeper):
        terms, source = detector.terms, detector.source

        def detect(document):
            return [Span("KEEP", start, end, 1.0, source)
                    for token, (start, end), pattern in zip(
                        document.tokens, document.offsets, document.pattern_labels)
                    if not pattern and token.lower() in terms]
        detector.detect = detect
    elif isinstance(detector, PatternDetector):
        label = detector.label
        detector.detect = lambda document: [
            Span(label, start, end, 1.0, PATTERN)
            for pattern, (start, end) in zip(document.pattern_labels, document.offsets)
            if pattern == label]
    else:
        detector.title_indices = lambda document: range(len(document.tokens))
    return detector


def steps():
    return [MedicalTermKeeper(), TitleKeeper(), TitledNameDetector(), DrugKeeper()] + [
        PatternDetector(label) for label in PATTERN_LABELS]


@pytest.fixture(scope="module")
def pool():
    from mmbdeid.lexicon.names import title_words
    words = (sorted(load_wordlist("eponyms"))
             + sorted(load_wordlist("medical_abbreviations"))[:300]
             + sorted(load_wordlist("kinship")) + sorted(title_words()) * 5
             + sorted(load_wordlist("drugs"))[:200] + sorted(load_wordlist("first_names"))[:200]
             + ["the", "and", "disease", "syndrome", "palsy", "s", "'s", "\u2019s", "'", "-", ".",
                ".", "Who", "google", "J", "A", "Smith", "Jones", "O'Brien", "Mary", "\n", "Dr",
                "MS", "RA", "t4", "eGFR", "crohns", "Hashimotos", "Downs", "Lou", "Gehrig", "von",
                "Willebrand", "kay@example.com", "@kay", "www.example.com", "555-123-4567"] * 10)
    return [part for word in words for part in (word.replace("-", " - ").split() or [word])]


@pytest.mark.parametrize("seed", range(3))
def test_token_steps_find_what_looking_at_every_token_finds(pool, seed):
    rng = random.Random(seed)
    fast, plain = steps(), [every_token(step) for step in steps()]
    for _ in range(600):
        words = [cased(rng, rng.choice(pool)) for _ in range(rng.randint(0, 40))]
        text = "".join(w + rng.choice([" ", " ", " ", "", "\n", "  "]) for w in words)
        documents = [Document.from_text(text)]
        if all(w.strip() for w in words):
            documents.append(document_of_tokens(words))
        for document in documents:
            for quick, slow in zip(fast, plain):
                assert quick.detect(document) == slow.detect(document), (quick, text)


# -- lower-cased tokens, remembered ---------------------------------------------------

def test_lowered_tokens_never_answer_a_changed_list():
    tokens = ["Mom", "said", "Dr", "Osei"]
    assert lowered_tokens(tokens) == ("mom", "said", "dr", "osei")
    assert lowered_tokens(tokens) is lowered_tokens(tokens)
    tokens[0] = "AUNT"                                   # changed in place
    assert lowered_tokens(tokens) == ("aunt", "said", "dr", "osei")
    tokens.append("MD")
    assert lowered_tokens(tokens)[-1] == "md"
    assert lowered_tokens(("A", "B")) == ("a", "b")      # not a list: never remembered
    assert lowered_tokens([]) == ()
    assert base._LOWERED[0] == [] and base._LOWERED[0] is not tokens


def test_indices_in():
    lowered = ("mom", "and", "dad", "mom")
    assert list(indices_in(frozenset({"mom"}), lowered)) == [0, 3]
    assert list(indices_in(frozenset({"aunt"}), lowered)) == []
    assert list(indices_in(frozenset(), ())) == []


def test_spaced_prefilter_keeps_every_real_run():
    for text in ["R o b e r t", "x R o b e r t.", "(b o b)", "b o b_", "1b o b", "a b c d e"]:
        assert spaced_name_spans(text, {"robert", "bob", "abcde"}) == plain_spaced(
            text, {"robert", "bob", "abcde"}), text
    assert re.search(_SPACED_LETTERS, "R o b") is not None


def test_unicode_case_tables_behave_as_the_lower_cased_search_assumes():
    """The lower-cased search (``text/terms.py``) takes a character without case
    (``str.lower`` and ``str.upper`` leave it) for one ``re`` matches only to itself without
    regard to case: ``re`` sees no case in it either, lower-cases no character with case to
    one without, and puts none in its classes of extra equivalents (``ſ`` and ``s``).
    Checked over every code point with ``re``'s own tables."""
    _sre = pytest.importorskip("_sre")
    if not hasattr(_sre, "unicode_iscased") or not hasattr(_sre, "unicode_tolower"):
        pytest.skip("no case tables in _sre")

    def caseless(char):
        return char.lower() == char == char.upper()

    for code in range(0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        if _sre.unicode_iscased(code):
            assert not caseless(chr(code)), hex(code)
            assert not caseless(chr(_sre.unicode_tolower(code))), hex(code)
    try:
        from re._casefix import _EXTRA_CASES
    except ImportError:
        pytest.skip("no table of extra equivalents")
    for code, others in _EXTRA_CASES.items():
        assert not any(caseless(chr(c)) for c in (code, *others)), hex(code)
