"""One fake identity per person, shared with no one, written in every form of the person's
names (issue 30, item 5): ``Megan`` was given to three people, ``KOWALSKI, STAN`` and
``Stan Kowalski`` came out as two different people, ``Mr. Adebayo`` as ``Mr. Jill``."""
import itertools
import re

import pytest

from mmbdeid.output.surrogates import SurrogateFactory, _NamePool
from mmbdeid.people.gender import name_gender


def first_and_last(factory, person):
    return factory.name(person, "Zxq Qzx").split()


@pytest.mark.parametrize("original, people", [("Megan", 300), ("John", 300),
                                              ("Tenzin", 300), ("Megan Trapp", 300)])
def test_no_two_people_share_a_first_name_or_a_surname(original, people):
    factory = SurrogateFactory(seed=0)
    for number in range(people):
        factory.name("P%d" % number, original)       # the identity drawn from this form
    names = [first_and_last(factory, "P%d" % n) for n in range(people)]
    words = [word.lower() for name in names for word in name]
    assert len(set(words)) == len(words)            # no first name, no surname twice


def small_pools(factory, size):
    """The factory drawing from ``size`` names of each list only: every draw collides."""
    firsts = ["Ann%s" % chr(97 + i) for i in range(size)]
    lasts = ["Moss%s" % chr(97 + i) for i in range(size)]
    factory._any_first = _NamePool(dict.fromkeys(firsts, 1.0), [])
    factory._gendered = {gender: factory._any_first for gender in ("female", "male")}
    factory._last = _NamePool(dict.fromkeys(lasts, 1.0), [])


@pytest.mark.parametrize("size, people", [(12, 12), (20, 15), (26, 26)])
def test_names_stay_unique_while_the_lists_hold_enough(size, people):
    factory = SurrogateFactory(seed=4)
    small_pools(factory, size)
    names = [first_and_last(factory, "U%d" % n) for n in range(people)]
    firsts = [first for first, _ in names]
    lasts = [last for _, last in names]
    assert len(set(firsts)) == len(set(lasts)) == people


def test_more_people_than_names_share_a_first_name_never_a_full_name():
    factory = SurrogateFactory(seed=4)
    small_pools(factory, 6)
    names = [" ".join(first_and_last(factory, "U%d" % n)) for n in range(30)]
    assert len(set(names)) == 30


def test_the_identities_do_not_depend_on_the_process():
    def identities():
        factory = SurrogateFactory(seed=2)
        return [factory.name("P%d" % n, name) for n, name in
                enumerate(itertools.islice(itertools.cycle(["Megan", "Stan Kowalski"]), 80))]
    assert identities() == identities()


def test_no_surrogate_is_a_word_of_a_real_name():
    plain = SurrogateFactory(seed=11)
    first, last = first_and_last(plain, "U1")
    # the operator reserves every word of the map's names (stan of stan kowalski)
    careful = SurrogateFactory(seed=11, reserved=[first.lower(), last.lower()])
    for number in range(200):
        assert not {first.lower(), last.lower()} & {
            w.lower() for w in first_and_last(careful, "P%d" % number)}


def test_the_operator_reserves_the_words_of_multi_word_names():
    from mmbdeid.output.operators import _real_strings
    from mmbdeid.people.personmap import Person, PersonMap
    people = PersonMap()
    person = Person("U1", ["stank"])
    person.names["stan kowalski"] += 2
    people.add(person)
    assert {"stank", "stan kowalski", "stan", "kowalski"} <= set(_real_strings(people))


KOWALSKI = ["Stan Kowalski", "KOWALSKI, STAN", "Kowalski, Stanislaw J.", "Stan",
            "Kowalski"]


@pytest.mark.parametrize("original, expected", [
    ("Stan Kowalski", "{F} {L}"),
    ("KOWALSKI, STAN", "{LU}, {FU}"),
    ("Kowalski, Stanislaw J.", "{L}, {F} {M}."),
    ("Stan", "{F}"),
    ("stan", "{f}"),
    ("Kowalski", "{L}"),
    ("Mr. Kowalski", "Mr. {L}"),
    ("Stan J. Kowalski Jr.", "{F} {M}. {L} Jr."),
    ("SK", "{F0}{L0}"),
    ("S. Kowalski", "{F0}. {L}"),                 # an initial stays an initial
    ("Kowalski, S.", "{L}, {F0}."),
])
def test_every_form_of_a_person_comes_from_one_identity(original, expected):
    factory = SurrogateFactory(seed=3)
    factory.describe("U7", KOWALSKI)
    first, last = factory.name("U7", "Stan Kowalski").split()
    middle = factory.name("U7", "Stan J. Kowalski").split()[1][0]
    fields = {"F": first, "f": first.lower(), "FU": first.upper(), "L": last,
              "LU": last.upper(), "M": middle, "F0": first[0], "L0": last[0]}
    assert factory.name("U7", original) == expected.format(**fields)


@pytest.mark.parametrize("forms, surnames, original, role", [
    (["Penny", "Pen"], (), "Pen", "first"),           # a shortening: never a surname
    (["Penny", "Pen"], (), "Penny", "first"),
    (["Adebayo"], ["adebayo"], "Adebayo", "last"),    # seen after Mr. in the dump
    (["Adebayo"], (), "Mr. Adebayo", "last"),         # a title that goes with a surname
    (["Vasquez-Hall"], (), "Dr. Vasquez-Hall", "last"),
    (["Ana"], (), "aunt Ana", "first"),               # aunt goes with a first name
    (["Rose Delacroix-Mbeki", "Rose"], (), "Rose", "first"),
    (["Rose Delacroix-Mbeki", "Rose"], (), "Delacroix-Mbeki", "last"),
])
def test_one_word_gets_the_first_name_or_the_surname_it_stands_for(
        forms, surnames, original, role):
    factory = SurrogateFactory(seed=5)
    factory.describe("P1", forms, surnames=surnames)
    first, last = first_and_last(factory, "P1")
    fake = factory.name("P1", original).split()[-1]
    assert fake == (first if role == "first" else last)


@pytest.mark.parametrize("forms, gender", [
    (["Adebayo"], "male"), (["jamie"], "male"), (["Vasquez-Hall"], "male"),
    (["Jamie"], "female"), (["John"], "female"),     # the text outranks the name list
])
def test_the_gender_the_text_gives_outranks_the_name_list(forms, gender):
    factory = SurrogateFactory(seed=1)
    for number in range(20):
        factory.describe("P%d" % number, forms, gender)
        factory.name("P%d" % number, forms[0])
        first, _ = first_and_last(factory, "P%d" % number)
        assert name_gender(first) == gender


def test_a_surrogate_keeps_its_title_outside_the_marks():
    from mmbdeid.output.operators import SurrogateOperator
    from mmbdeid.people.personmap import Person, PersonMap
    from mmbdeid.people.scope import ScopeIndex
    people = PersonMap()
    person = Person("P1", [])
    person.names["osei"] += 1
    people.add(person)
    operator = SurrogateOperator(people, ScopeIndex(), mark=True)
    value = operator.person_value("P1", "NAME", "Dr. Osei ")
    assert re.fullmatch(r"Dr\. \u27e6[A-Z][\w'-]+\u27e7 ", value)
    assert operator.person_value("P1", "AUTHOR", "osei_k").isidentifier()   # a field: bare


@pytest.mark.parametrize("seed", range(6))
def test_a_person_met_first_in_pass_3_keeps_the_gender_the_text_gives(seed):
    # Jamie is on no line of the map: the resolver makes a new person while writing,
    # and the text's "my son" still outranks the name list's "female"
    from mmbdeid.output.operators import SurrogateOperator
    from mmbdeid.people.gender_cues import GenderEvidence
    from mmbdeid.people.mentions import Mention
    from mmbdeid.people.personmap import Person, PersonMap
    from mmbdeid.people.scope import ScopeIndex
    from mmbdeid.spans import Span
    people = PersonMap()
    member = Person("U1", ["kaygirl"])
    member.names["kay"] += 1
    people.add(member)
    text = "my son Jamie said he was fine."
    start = text.index("Jamie")
    mention = Mention(start, start + 5, "Jamie", "NAME", "",
                      (Span("NAME", start, start + 5, 0.9, "crf"),))
    evidence = GenderEvidence()
    evidence.observe(text, [], [mention])
    operator = SurrogateOperator(people, ScopeIndex(), evidence=evidence, seed=seed)
    record, replaced = operator.write({"id": "1", "text": text, "author": "kaygirl",
                                       "board": "b", "thread": "t"}, list(mention.parts),
                                      [mention])
    assert replaced[0].person not in ("", "U1")
    assert name_gender(record["text"].split()[2]) == "male"
