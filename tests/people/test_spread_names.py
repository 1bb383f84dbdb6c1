"""The person modes search the map's names in every post only where they are names there
(issue 30): not dictionary or medical words, not names the model only guessed at, not a
name that is also a word where a sentence starts."""
import pytest

from mmbdeid.output.operators import member_name_forms
from mmbdeid.output.person_mentions import MentionFinder
from mmbdeid.people.personmap import Person, PersonMap
from mmbdeid.people.spread import ANYWHERE, MID_SENTENCE, sentence_initial, where_searched


@pytest.mark.parametrize("form, where", [
    ("Lindqvist", ANYWHERE),            # no word: a name wherever it stands
    ("kaygril", ANYWHERE),
    ("Stan Kowalski", ANYWHERE),        # a full name
    ("Summer", MID_SENTENCE),           # a name and a word
    ("summer", ""),                     # ... and in lower case only a word
    ("Hope", MID_SENTENCE), ("Art", MID_SENTENCE),   # names, on the medical list too
    ("Aggie", ANYWHERE),                # a rare word: a name when capitalised
    ("guy", ""), ("second", ""), ("bone", ""), ("Iron", ""), ("state", ""), ("Onc", ""),
    ("methotrexate", ""),               # a drug
    ("on monday", ""),                  # every part a word
])
def test_where_a_name_of_the_map_is_searched(form, where):
    assert where_searched(form) == where


@pytest.mark.parametrize("text, word, initial", [
    ("Hope that helps", "Hope", True),
    ("Great news. Hope you're well", "Hope", True),
    ("Great news!\n\nHope you're well", "Hope", True),
    ("My sister Hope came", "Hope", False),
    ("Thanks, Hope", "Hope", False),
    ("Mo, day 3 counts", "Mo", False),          # a vocative: alone in its sentence
    ("See you Friday.\n\nSummer", "Summer", False),   # a sign-off
])
def test_sentence_initial(text, word, initial):
    start = text.index(word)
    assert sentence_initial(text, start, start + len(word)) is initial


def people(**confident):
    found = PersonMap()
    for number, (name, sure) in enumerate(confident.items(), 1):
        person = found.add(Person("P%d" % number, []))
        person.names[name.lower()] += 1
        person.forms[name.lower()] = name
        person.confident = {name.lower()} if sure else set()
    return found


def test_only_confident_names_that_are_names_are_searched():
    forms = member_name_forms(people(Lindqvist=True, Oberholzer=False, guy=True, Summer=True))
    assert forms == ["Lindqvist", "Summer"]         # Oberholzer: met once, below 0.5


def test_a_map_read_from_a_file_has_no_probabilities_and_is_searched():
    found = people(Oberholzer=True)
    found["P1"].confident = None
    assert member_name_forms(found) == ["Oberholzer"]


@pytest.mark.parametrize("text, added", [
    ("Summer is here. Ask Lindqvist", ["Lindqvist"]),
    ("Ask Lindqvist.\n\nSummer", ["Lindqvist", "Summer"]),
    ("Ask my sister Summer or Lindqvist", ["Summer", "Lindqvist"]),
    ("The guy at the desk", []),
])
def test_the_finder_adds_the_map_names_only_where_they_are_names(text, added):
    finder = MentionFinder(member_name_forms(people(Summer=True, Lindqvist=True, guy=True)))
    spans, _ = finder(text, [])
    assert [text[s.start:s.end] for s in spans] == added
