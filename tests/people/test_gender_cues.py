"""A person's gender from the text (titles, kinship, pronouns) outranks the name list, and
is collected over all the person's mentions (issue 30, item 5). Fictional sentences."""
import pytest

from mmbdeid.people.gender_cues import GenderEvidence, mention_cues
from mmbdeid.people.mentions import Mention
from mmbdeid.people.personmap import Person, PersonMap


def cues(text, name):
    start = text.index(name)
    return mention_cues(text, start, start + len(name))


@pytest.mark.parametrize("text, name, expected", [
    # titles
    ("I finally saw Mr. Adebayo about the referral.", "Adebayo", {"strong": "male"}),
    ("Mrs. Okafor runs the group on Tuesdays.", "Okafor", {"strong": "female"}),
    ("Ms Lindqvist called back.", "Lindqvist", {"strong": "female"}),
    ("Miss Harrow was our teacher.", "Harrow", {"strong": "female"}),
    # kinship before the name, after a possessive, and as an apposition after it
    ("my sister Summer drove me in.", "Summer", {"strong": "female"}),
    ("Jen and her husband Will came.", "Will", {"strong": "male"}),
    ("my little brother Sam texted.", "Sam", {"strong": "male"}),
    ("my DH Mark says hi", "Mark", {"strong": "male"}),
    ("Our daughter Robin starts school.", "Robin", {"strong": "female"}),
    ("Casey, my son, is home.", "Casey", {"strong": "male"}),
    # pronouns in the rest of the sentence and the next one
    ("Dr. Vasquez-Hall came in. Honestly he was firm but kind.", "Vasquez-Hall",
     {"weak": "male"}),
    ("I told jamie everything and he forgives me", "jamie", {"weak": "male"}),
    ("Taylor said she would call.", "Taylor", {"weak": "female"}),
    ("my son jamie said he forgives me", "jamie", {"strong": "male", "weak": "male"}),
    # nothing, or pronouns that disagree, or a pronoun after another person: no cue
    ("Robin posted the schedule.", "Robin", {}),
    ("Jordan said she told him.", "Jordan", {}),
    ("I told Jen about my dad. He was upset.", "Jen", {}),
    ("Taylor left. The weather was bad. She came back later.", "Taylor", {}),
    ("aunt Pat visited", "Pat", {}),                # aunt: no possessive, a title of its own
])
def test_cues_of_one_mention(text, name, expected):
    assert cues(text, name) == expected


def mentions(text, *names):
    found = []
    for name in names:
        start = text.index(name)
        found.append(Mention(start, start + len(name), name, "NAME", ""))
    return found


def person_map(*lines):
    people = PersonMap()
    for person_id, names in lines:
        person = Person(person_id, [])
        for name in names:
            person.names[name] += 1
        people.add(person)
    return people


@pytest.mark.parametrize("posts, expected", [
    # one strong cue anywhere decides; pronouns need no more
    ([("Mr. Adebayo was late.", ["Adebayo"]), ("Adebayo said sorry.", ["Adebayo"])],
     "male"),
    # strong cues outrank pronouns that disagree with them
    ([("my son jamie is 7.", ["jamie"]), ("jamie asked if she could come", ["jamie"])],
     "male"),
    # pronouns over several posts, all agreeing
    ([("Robin came. She was early.", ["Robin"]), ("Robin left; she was tired.", ["Robin"])],
     "female"),
    # pronouns that disagree between posts: the text does not say
    ([("Robin came. She was early.", ["Robin"]), ("Robin left; he was tired.", ["Robin"])],
     ""),
    # strong cues that disagree: the text does not say
    ([("my sister Sam came", ["Sam"]), ("my brother Sam came", ["Sam"])], ""),
])
def test_one_gender_per_person_over_all_mentions(posts, expected):
    evidence = GenderEvidence()
    for text, names in posts:
        evidence.observe(text, [], mentions(text, *names))
    people = person_map(("P1", [n.lower() for _, names in posts for n in names]))
    assert evidence.genders(people).get("P1", "") == expected


def test_a_name_two_people_share_tells_neither_of_them():
    evidence = GenderEvidence()
    evidence.observe("my brother Sam came", [], mentions("my brother Sam came", "Sam"))
    people = person_map(("P1", ["sam"]), ("P2", ["sam", "sammy"]))
    assert evidence.genders(people) == {}


def test_the_cues_of_every_name_of_a_person_count():
    evidence = GenderEvidence()
    text = "Mr. Kowalski signed. Stan was nice."
    evidence.observe(text, [], mentions(text, "Kowalski", "Stan"))
    people = person_map(("P1", ["kowalski", "stan kowalski", "stan"]))
    assert evidence.genders(people) == {"P1": "male"}


@pytest.mark.parametrize("texts, surname", [
    (["Mr. Adebayo called.", "Adebayo is nice."], True),      # titled in half its mentions
    (["Dr. Adebayo called.", "Dr. Adebayo again."], True),
    (["Adebayo called.", "Adebayo again.", "Mr. Adebayo too."], False),
    (["aunt Adebayo called."], False),                         # aunt goes with first names
])
def test_a_name_after_a_title_is_a_surname(texts, surname):
    evidence = GenderEvidence()
    for text in texts:
        evidence.observe(text, [], mentions(text, "Adebayo"))
    assert ("adebayo" in evidence.surnames()) is surname


def test_a_frequent_name_is_read_for_cues_a_bounded_number_of_times(monkeypatch):
    import mmbdeid.people.gender_cues as gender_cues
    calls = []
    real = gender_cues.mention_cues
    monkeypatch.setattr(gender_cues, "mention_cues",
                        lambda *args: calls.append(1) or real(*args))
    evidence = GenderEvidence()
    text = "my son Jamie said he was fine."
    for _ in range(gender_cues.MAX_READ * 3):
        evidence.observe(text, [], mentions(text, "Jamie"))
    assert len(calls) == gender_cues.MAX_READ
    assert evidence.genders(person_map(("P1", ["jamie"]))) == {"P1": "male"}
