"""Allow and deny entries that say more than a term (issue 31): ``=Grace`` in that case
only, ``Hope | name`` where a cue says a person's name, ``Grace | word`` where none does.

Every text here is fictional, written for these tests."""
import pytest

from mmbdeid.detect.lists import AllowedTermKeeper, DeniedTermDetector
from mmbdeid.text.document import Document
from mmbdeid.text.terms import Entry, parse_entry
from stand_in_model import WordTagger

TEXT = "I hope so. My sister Hope said hi. GRACE and grace, Grace. Thanks, Grace!"


@pytest.mark.parametrize("line, entry", [
    ("Hope", Entry("Hope")),
    ("=Grace", Entry("Grace", exact=True)),
    ("Hope | name", Entry("Hope", context="name")),
    ("  =Grace   |   word ", Entry("Grace", True, "word")),
    ("Mary  Jane | name", Entry("Mary Jane", context="name")),
    ("=", Entry("=")),                        # a lone sign is a term
    ("a|b", Entry("a|b")),                    # the mark has spaces around it
])
def test_parse_entry(line, entry):
    assert parse_entry(line) == entry


def test_an_unknown_context_says_the_known_ones():
    with pytest.raises(ValueError, match="unknown context 'nme'.*name, word"):
        parse_entry("Hope | nme")


@pytest.mark.parametrize("terms, found", [
    (["hope"], ["hope", "Hope"]),
    (["Hope | name"], ["Hope"]),                          # the sister, not "I hope so"
    (["hope | word"], ["hope"]),
    (["=Grace"], ["Grace", "Grace"]),                     # not GRACE, not grace
    (["=GRACE"], ["GRACE"]),
    (["=Grace | word"], ["Grace"]),                       # not the one thanked
    (["Grace | name", "hope"], ["hope", "Hope", "Grace"]),
])
def test_which_occurrences_an_entry_matches(terms, found):
    document = Document.from_text(TEXT)
    for step in (DeniedTermDetector(terms), AllowedTermKeeper(terms)):
        assert [TEXT[s.start:s.end] for s in step.detect(document)] == found


def test_an_allowed_word_keeps_the_word_not_the_name():
    import mmbdeid
    from mmbdeid.detect.analyzer import Analyzer
    from mmbdeid.output.operators import PlaceholderOperator
    text = "Amazing Grace played. Thanks, Grace! GRACE"
    analyzer = Analyzer.build(WordTagger({"Grace": 0.9, "GRACE": 0.9}),
                              allow=["=Grace | word"])
    record, _ = PlaceholderOperator().rewrite(
        {"text": text}, analyzer.analyze(Document.from_text(text)))
    assert record["text"] == "Amazing Grace played. Thanks, [NAME]! [NAME]"
    assert mmbdeid.Scrubber(deny=["Hope | name"]).scrub("I hope so. Hope said hi.") == (
        "I hope so. [NAME] said hi.")
