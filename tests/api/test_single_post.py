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
    ({"author": True}, "author must be a string or a number, not a bool"),
    ({"thread": ["t1"]}, "thread must be a string or a number, not a list"),
    ({"board": b"x"}, "board must be a string or a number, not "),
])
def test_fields_that_are_neither_strings_nor_numbers_are_refused_by_name(fields, error):
    with pytest.raises(TypeError, match=error):
        mmbdeid.scrub("Hi Kay", **fields)


NUMBERED = "best decision ever. 4417 go for whatever makes you feel like you"


@pytest.mark.parametrize("call", [mmbdeid.scrub, lambda text, **fields:
                                  mmbdeid.Scrubber().scrub(text, **fields)])
def test_numeric_fields_are_read_as_a_dump_reads_them(call):
    # a forum's member, thread and board numbers, as the command line and scrub_records
    # take them: the author's number is their username
    expected = "best decision ever. [USER] go for whatever makes you feel like you"
    assert "4417" in call(NUMBERED)              # a number: kept unless it is the author
    assert call(NUMBERED, author=4417, thread=30, board=7) == expected
    assert call(NUMBERED, author="4417", thread="30", board="7") == expected
    record = {"id": 1, "text": NUMBERED, "author": 4417, "thread": 30, "board": 7}
    assert next(mmbdeid.scrub_records([record])) == dict(record, text=expected)
    spans = mmbdeid.analyze(NUMBERED, author=4417)
    assert [(s.label, s.start, s.end) for s in spans] == [("USER", 20, 24)]


@pytest.mark.slow
def test_nine_in_ten_demo_posts_scrub_alone_as_in_the_dump():
    with open(DEMO, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    dump = [r["text"] for r in mmbdeid.scrub_records(records)]
    alone = [mmbdeid.scrub(r["text"], author=r["author"], thread=r["thread"],
                           board=r["board"]) for r in records]
    same = sum(a == d for a, d in zip(alone, dump))
    assert same >= 0.9 * len(records), "%d of %d the same" % (same, len(records))
