"""A full name the model found in pieces made whole before it becomes a mention (issue 30).
Fictional posts."""
import pytest

from mmbdeid.people.full_names import whole_full_names
from mmbdeid.people.mentions import mentions_of
from mmbdeid.spans import Span


def spans(text, *parts):
    """(word, label, score, source) in text order -> spans."""
    found, position = [], 0
    for word, label, score, source in parts:
        start = text.index(word, position)
        found.append(Span(label, start, start + len(word), score, source))
        position = start + len(word)
    return found


RUN_BY = "Mine is run by Will Osei-Bonsu, and he is kind."


@pytest.mark.parametrize("text, parts, expected", [
    # the halves of one word, one tagged a username: one name; the first name before it
    (RUN_BY, [("Osei", "USER", 0.07, "crf"), ("Bonsu", "NAME", 0.52, "crf")],
     ["Will Osei-Bonsu"]),
    (RUN_BY, [("Osei-Bonsu", "NAME", 0.6, "crf")], ["Will Osei-Bonsu"]),
    # a username of the board stays a username
    ("Ask Rose-maryk about it.", [("Rose", "NAME", 0.6, "crf"),
                                  ("maryk", "USER", 1.0, "username")], ["Rose", "maryk"]),
    # no first name before it, or a word that is no first name: nothing added
    ("Ask Dr Osei-Bonsu today.", [("Osei-Bonsu", "NAME", 0.6, "crf")], ["Osei-Bonsu"]),
    ("The Menopur Kowalski gave me.", [("Kowalski", "NAME", 0.6, "crf")], ["Kowalski"]),
    # a first name before a first name is two people (Will Dana come?)
    ("Will Dana come too?", [("Dana", "NAME", 0.9, "crf")], ["Dana"]),
    # the first name ends another word: not a given name
    ("My co-Will Kowalski story.", [("Kowalski", "NAME", 0.6, "crf")], ["Kowalski"]),
])
def test_whole_full_names(text, parts, expected):
    assert [m.text for m in mentions_of(text, spans(text, *parts))] == expected


def test_the_given_name_is_scored_as_the_surname():
    text = RUN_BY
    added = [s for s in whole_full_names(text, spans(text, ("Osei-Bonsu", "NAME", 0.6, "crf")))
             if text[s.start:s.end] == "Will"]
    assert [(s.score, s.source) for s in added] == [(0.6, "completion")]
