"""A single post scrubs like a post inside a dump (issue 19, item 6): ``mmbdeid.scrub`` and
``Scrubber.scrub`` take the post's ``author``, ``thread`` and ``board``.

The posts are the bundled demo dump and texts written for these tests (all fictional).
"""
import json

import pytest

import mmbdeid

from paths import DEMO_DUMP as DEMO


@pytest.mark.parametrize("call", [mmbdeid.scrub, lambda text, **fields:
                                  mmbdeid.Scrubber().scrub(text, **fields)])
def test_the_authors_username_is_removed_when_the_author_is_given(call):
    text = "best decision ever. bluebird go for whatever makes you feel like you"
    assert "bluebird" in call(text)             # a word: the model alone keeps it
    assert call(text, author="bluebird", thread="t1", board="breastcancer") == \
        "best decision ever. [USER] go for whatever makes you feel like you"


def test_analyze_takes_the_fields_too():
    spans = mmbdeid.analyze("breezy go for it", author="breezy")
    assert [(s.label, s.start, s.end) for s in spans] == [("USER", 0, 6)]


@pytest.mark.parametrize("fields, error", [
    ({"author": 7}, "author must be a string, not an int"),
    ({"thread": ["t1"]}, "thread must be a string, not a list"),
    ({"board": b"x"}, "board must be a string, not "),
])
def test_fields_that_are_not_strings_are_refused_by_name(fields, error):
    with pytest.raises(TypeError, match=error):
        mmbdeid.scrub("Hi Kay", **fields)


@pytest.mark.slow
def test_nine_in_ten_demo_posts_scrub_alone_as_in_the_dump():
    with open(DEMO, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    dump = [r["text"] for r in mmbdeid.scrub_records(records)]
    alone = [mmbdeid.scrub(r["text"], author=r["author"], thread=r["thread"],
                           board=r["board"]) for r in records]
    same = sum(a == d for a, d in zip(alone, dump))
    assert same >= 0.9 * len(records), "%d of %d the same" % (same, len(records))
