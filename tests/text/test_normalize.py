"""The visible text detection works on (mmbdeid.text.normalize) and its map back to the
original text: invisible characters and inline tags inside a word, character references.
The texts are fictional."""
import pytest

from mmbdeid.spans import Span
from mmbdeid.text.document import Document
from mmbdeid.text.normalize import normalize, visible_text


@pytest.mark.parametrize("original, visible", [
    # invisible characters inside a word
    ("Li\u200bnda", "Linda"),                       # zero-width space
    ("Li\u200cnda", "Linda"),                       # zero-width non-joiner
    ("Li\u200dnda", "Linda"),                       # zero-width joiner
    ("Li\u2060nda", "Linda"),                       # word joiner
    ("Li\ufeffnda", "Linda"),                       # BOM
    ("Lin\u00adda", "Linda"),                       # soft hyphen
    ("Li\u200e\u200bnda", "Linda"),                 # a direction mark in the run
    # inline markup, inside a word or around one
    ("<b>Lin</b>da", "Linda"),
    ("Lin<i>da</i>", "Linda"),
    ("L<u>in</u>da", "Linda"),
    ("<em>Lin</em>da", "Linda"),
    ("<strong>Li</strong>nda", "Linda"),
    ('Li<span class="x">nda</span>', "Linda"),
    ("<B>Lin</B>da", "Linda"),
    ("[b]Lin[/b]da", "Linda"),
    ("Lin[i]da[/i]", "Linda"),
    ("[u]Li[/u]nda", "Linda"),
    ("Hi <b>Linda</b>!", "Hi Linda!"),
    # character references
    ("&#76;inda", "Linda"),
    ("&#x4c;inda", "Linda"),
    ("&#X4C;inda", "Linda"),
    ("&#76inda", "Linda"),                          # no ';': browsers still read an L
    ("Mary &amp; Jo", "Mary & Jo"),
    ("Ren&eacute;e", "Renée"),
    # mixed
    ("Li&#8203;nda", "Linda"),                      # a zero-width space as a reference
    ("Lin\u200b</b>da", "Linda"),
    ("&#76;i\u00ad<i>nda</i>", "Linda"),
    # left as they are
    ("\u200bLinda\u200b", "\u200bLinda\u200b"),      # at the word's edges: a separator
    ("ride \U0001F6B4\u200d\u2640\ufe0f", "ride \U0001F6B4\u200d\u2640\ufe0f"),   # emoji
    ("a &madeup; b", "a &madeup; b"),
    ("see x.org/?a=1&copy=2", "see x.org/?a=1&copy=2"),   # a query, not a reference
    ("Linda<br>Jo", "Linda<br>Jo"),
    ("love you <3 [NAME]", "love you <3 [NAME]"),
])
def test_visible_text(original, visible):
    assert visible_text(original) == visible


@pytest.mark.parametrize("original, name, extent", [
    ("Hi Li\u200bnda!", "Linda", "Li\u200bnda"),
    ("Hi <b>Lin</b>da!", "Linda", "Lin</b>da"),          # the tag inside goes with it
    ("Hi <b>Linda</b>!", "Linda", "Linda"),              # the tags around stay
    ("Hi [i]Li[/i]nda!", "Linda", "Li[/i]nda"),
    ("Hi &#76;inda!", "Linda", "&#76;inda"),
    ("Hi Lind&#x61;!", "Linda", "Lind&#x61;"),
    ("Hi Li&#8203;nda\u200b!", "Linda", "Li&#8203;nda"),
    ("Mary &amp; Jo", "Mary & Jo", "Mary &amp; Jo"),
    ("Mary &amp; Jo", "Jo", "Jo"),
])
def test_a_span_of_the_visible_text_maps_to_its_whole_original_extent(original, name,
                                                                        extent):
    normalized = normalize(original)
    start = normalized.text.index(name)
    mapped_start, mapped_end = normalized.original_span(start, start + len(name))
    assert original[mapped_start:mapped_end] == extent


@pytest.mark.parametrize("text", [
    "Thanks Linda, my TSH is fine.", "", "Tom & Jerry, a [note] and x < y",
])
def test_text_with_nothing_to_normalise_is_its_own_visible_text(text):
    normalized = normalize(text)
    assert not normalized.changed
    assert normalized.text is text
    assert normalized.original_span(2, 5) == (2, 5)


@pytest.mark.parametrize("text, tokens", [
    ("Thanks Li\u200bnda!", ["Thanks", "Linda", "!"]),
    ("Thanks <b>Lin</b>da!", ["Thanks", "Linda", "!"]),
    ("Thanks &#76;inda!", ["Thanks", "Linda", "!"]),
])
def test_a_document_tokenises_the_visible_text_and_keeps_the_way_back(text, tokens):
    document = Document.from_text(text)
    assert document.tokens == tokens
    assert document.original_text == text
    start, end = document.original_offsets[1]
    assert visible_text(text[start:end]) == "Linda"
    name = Span("NAME", *document.offsets[1], 0.9, "crf")
    assert document.to_original([name]) == [Span("NAME", start, end, 0.9, "crf")]

