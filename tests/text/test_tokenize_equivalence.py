"""The fast tokenizer, paragraph ids and identifier pre-checks give exactly what the plain
formulation gives.

The token expression is written for speed (character classes split into a BMP table and
an astral part, the text cut by ``split``, clitics looked for only at apostrophes), and
``find_identifiers`` skips expressions whose necessary conditions fail. The reference here
is the plain version of each rule, as the module states it; both must agree on every text.
"""
import random
import re

import pytest

from mmbdeid.spans import PATTERN, Span, resolve_overlaps
from mmbdeid.text import patterns
from mmbdeid.text import tokenize as T
from mmbdeid.text.document import Document
from mmbdeid.text.normalize import normalize

from documents import LINE_BREAKS

# --- the plain formulation ---------------------------------------------------------------

_REF_TOKEN = re.compile(
    T._WORD_CHAR + r"+(?:[" + T._APOSTROPHE + r"]" + T._WORD_CHAR + r"+)*"
    r"|" + T._REGIONAL_INDICATOR + r"{2}"
    r"|" + T._VISIBLE_NON_WORD + r"(?:[" + T._MARKS + T._EMOJI_MODIFIER + T._TAG_CHARACTERS
    + r"]|\u200d" + T._VISIBLE_NON_WORD + r")*"
)
_REF_AT_HANDLE = re.compile(
    r"(?<![\w@.+-])@(?!\d{1,2}(?::\d\d)?\s?(?:[ap]\.?m\b|\b))\w{1,30}\b")


def ref_span_tokenize(text, protected=()):
    def between(start, end):
        out = []
        for match in _REF_TOKEN.finditer(text, start, end):
            a, b = match.span()
            word = match.group()
            if ("'" in word or "\u2019" in word) and T._WORD_CHAR_RE.match(word):
                out.extend(T._split_clitics(a, b, text))
            else:
                out.append((a, b))
        return out

    offsets, position = [], 0
    for start, end in T._usable_protected(protected, len(text)):
        offsets += between(position, start) + [(start, end)]
        position = end
    return offsets + between(position, len(text))


def ref_paragraph_ids(text, offsets):
    breaks = [m.start() for m in LINE_BREAKS.finditer(text)]
    seen = [sum(1 for b in breaks if b < start) for start, _ in offsets]
    renumbered = {value: index for index, value in enumerate(sorted(set(seen)))}
    return [renumbered[value] for value in seen]


def ref_find_identifiers(text):
    """The identifiers without any pre-check."""
    def spans(label, matches):
        return [Span(label, m.start(), m.end(), 1.0, PATTERN) for m in matches]

    found = spans("EMAIL", patterns._EMAIL.finditer(text))
    for m in patterns._URL.finditer(text):
        url = patterns._trim_url(m.group())
        if url:
            found.append(Span("URL", m.start(), m.start() + len(url), 1.0, PATTERN))
    found += spans("PHONE", (m for m in patterns._PHONE.finditer(text)
                             if patterns._phone_digit_count_ok(m.group())))
    found += spans("USER", _REF_AT_HANDLE.finditer(text))
    found += spans("USER", patterns._REDDIT_USER.finditer(text))
    return resolve_overlaps(found)


# --- texts -------------------------------------------------------------------------------

ADVERSARIAL = [
    "", " ", "\n", "\r\n", "\t \u00a0\u200b\x00", "\r\n\r\n\r\n",
    "a\r\nb\rc\nd\u2028e\u2029f\x0bg\x0ch\x85i",
    # clitics, apostrophes and marks next to them
    "don't", "Kay's", "O'Brien's", "DON'T", "y'all'd've", "n't", "'s", "''", "can’t", "it's’s",
    "a'n't", "a'", "'a", "rock'n'roll", "x'ss", "she'D", "We'LL", "'" * 5 + "s", "don''t",
    "Kay'ſ", ".\u0301's", "'\u0301s", "cafe\u0301's", "e\U0001D165's", "\U0001D165abc",
    "a\U000E0100b", "\U00020000\U00020001's", "ab'" * 300,
    # emoji, flags, joiners, invisible characters
    "👍🏽", "👨\u200d👩\u200d👧\u200d👦", "🇺🇸🇬🇧🇫",
    "🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
    "e\u0301te\u0301", "\u0301abc", "a\u200db", "☺\ufe0f", "x\u00adyz", "\ufeffbom",
    "!!!!????......---___", "." * 300, "-" * 300, "word" * 500,
    "日本語のテキスト。中文，한국어!",
    # identifiers, glued and near misses
    "mail:joe@example.comfoo", "x@y.co", "joe.smith@mail.example.co.uk,", "@kaygirl's", "@5pm",
    "@10:30am", "@@name", "a@b", "u/someone", "/u/someone_else's", "U/ABC",
    "see www.example.com/a_(b)).", "WwW2.x.org", "(http://x.com/path?q=1#f)", "youtu.be/xyz",
    "fb.me", "e.g. a.m. Dr.Smith home.Today", "x.uſ y.\u212ae z.İt",
    "call555-123-4567now", "555-123-4567x123", "+44 20 7946 0958", "+44 (0) (20) 7946 0958",
    "020 7946 0958", "(555)1234567", "1-800-555-1234", "2010-555-1234567", "3.5551234567",
    "12345678901234567890", "١٢٣٤٥٦٧٨٩٠ ٥٥٥", "𝟘𝟙𝟚𝟛𝟜𝟝𝟞𝟟𝟠𝟡", "555\n123\n4567",
    "10/325 120/80 A1C 6.5 500mg", "Hi @kay\n\n\nBye joe@x.com\r\n",
]
SOUP = (list("abcdeXYZ019 '’\n\r\t.,@/:-_+()#?!\"<>")
        + ["\u00a0", "\u200b", "\u200d", "👍", "🏽", "🇺", "\u0301", "\U0001D165", "é", "ß",
           "\x00", "\u2028", "\ufe0f", "n't", "'s", "'ll", ".com", "www.", "http://", "u/",
           "555", "1234", "@", "x@y.com", "  ", "ext", "ſ", "\U000E0041", "\U00020000"])


def texts():
    rnd = random.Random(1)
    yield from ADVERSARIAL
    for _ in range(3000):
        yield "".join(rnd.choice(SOUP) for _ in range(rnd.randint(0, 40)))


# --- tests -------------------------------------------------------------------------------

def test_bmp_tables_are_re_classes():
    characters = "".join(map(chr, range(0x10000)))
    for kind, expression in (("w", r"\w"), ("s", r"\s")):
        table = re.compile("[" + T._BMP[kind] + "]")
        assert [m.start() for m in table.finditer(characters)] == \
            [m.start() for m in re.finditer(expression, characters)]


def test_tokens_as_plain_rules():
    for text in texts():
        expected = ref_span_tokenize(text)
        assert T.span_tokenize(text) == expected, repr(text)
        assert T.tokenize(text) == [text[a:b] for a, b in expected], repr(text)


@pytest.mark.slow
def test_every_code_point_in_context():
    code_points = [chr(c) for c in list(range(0xD800)) + list(range(0xE000, 0x20000))
                   + list(range(0xE0000, 0xE1000))]
    for template in ("{}", "a{}'s", ".{}\u200d{}", "{}\u0301'"):
        for separator in (" ", ""):
            for index in range(0, len(code_points), 8192):
                text = separator.join(template.format(c, c)
                                      for c in code_points[index:index + 8192])
                assert T.span_tokenize(text) == ref_span_tokenize(text), (template, index)


def test_protected_spans_as_plain_rules():
    rnd = random.Random(2)
    for text in texts():
        protected = []
        for _ in range(rnd.randint(0, 4)):
            start = rnd.randint(-3, len(text) + 3)
            end = start + rnd.randint(-2, 15)
            protected.append(Span("X", start, end, 1.0, "p") if rnd.random() < .5
                             else (start, end))
        assert T.span_tokenize(text, protected) == ref_span_tokenize(text, protected), \
            repr(text)


def test_identifiers_as_without_prechecks():
    for text in texts():
        assert patterns.find_identifiers(text) == ref_find_identifiers(text), repr(text)


def test_documents_as_plain_rules():
    for original in texts():
        doc = Document.from_text(original, board="b")
        # a document reads the visible text (``a\u200db`` is one word there): text/normalize.py
        text = normalize(original).text
        assert (doc.text, doc.original_text) == (text, original)
        identifiers = ref_find_identifiers(text)
        offsets = ref_span_tokenize(text, [(s.start, s.end) for s in identifiers])
        labels = {(s.start, s.end): s.label for s in identifiers}
        assert doc.offsets == offsets, repr(text)
        assert doc.tokens == [text[a:b] for a, b in offsets]
        assert doc.pattern_labels == [labels.get(o) for o in offsets]
        assert doc.paragraph_ids == ref_paragraph_ids(text, offsets), repr(text)


def test_long_post_shares_adjacent_offsets():
    """In a long post a token starting where the one before ends shares its int."""
    text = "1,2,3;4!5 " * 1000 + "end."
    offsets = T.span_tokenize(text)
    assert offsets == ref_span_tokenize(text)
    adjacent = [(a, b) for a, b in zip(offsets, offsets[1:]) if a[1] == b[0]]
    assert len(adjacent) > 7000 and all(a[1] is b[0] for a, b in adjacent)


def test_many_apostrophes_in_one_word_stay_linear():
    # one word of 40,000 characters holding 20,000 apostrophes: looked at once, not per
    # apostrophe (that took seconds)
    text = "a'b" * 20000 + "'s"
    assert T.span_tokenize(text) == [(0, 60000), (60000, 60002)]
