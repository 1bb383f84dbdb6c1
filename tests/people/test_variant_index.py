"""The indexes that find the people a name may belong to (issue 22): every kind of key
finds its person, and a misspelling is found through its deletion neighbourhood, with the
same answers as comparing it with every word, without doing so."""
import random

import jellyfish
import pytest

from mmbdeid.people import spellings
from mmbdeid.people.personmap import Person, PersonMap
from mmbdeid.people.spellings import SpellingIndex, deletions, misspelling_distance
from mmbdeid.people.variants import VariantIndex


def people_map(*people):
    """``("u1", ["kaygirl"], {"mary jane": 2})`` ... -> a PersonMap."""
    people_map = PersonMap()
    for person_id, usernames, names in people:
        people_map.add(Person(person_id, list(usernames), names=dict(names)))
    return people_map


BOARD = people_map(
    ("U1", ["arthur_k"], {"arthur": 3}),
    ("U2", ["mj_poe"], {"mary jane": 2}),
    ("U3", ["onedayatatime"], {}),
    ("U4", ["kaygirl"], {}),
    ("U5", ["rob_b"], {"robert": 1}),
    ("P1", [], {"margaret": 1}),
)


@pytest.mark.parametrize("key, person, how", [
    ("arthur", "U1", "exact"),
    ("bob", "U5", "nickname group"),             # of Robert
    ("mj", "U2", "initials"),
    ("mary", "U2", "part of a name"),
    ("arhtur", "U1", "misspelling: a transposition"),
    ("arthr", "U1", "misspelling: a letter left out"),
    ("arthuur", "U1", "misspelling: a letter added"),
    ("arthor", "U1", "misspelling: a letter changed"),
    ("margerte", "P1", "misspelling of a long name: two edits"),
    ("kaygril", "U4", "misspelling of a username variant"),
    ("oneday", "U3", "username prefix"),
])
def test_every_kind_of_key_finds_its_person(key, person, how):
    index = VariantIndex(BOARD)
    found = index.exact_people(key) if how == "exact" else index.variant_people(key)
    assert found == [person], how


@pytest.mark.parametrize("key", ["mark", "arhtr", "zrthur", "margrtt"])
def test_what_is_not_a_misspelling_finds_no_one(key):
    """A known first name (``mark``), too far (``arhtr``, ``margrtt``: two edits where one is allowed), or another
    first letter."""
    assert VariantIndex(BOARD).variant_people(key) == []


def test_deletions_keep_the_first_letter():
    assert deletions("anna", 1) == {"anna", "ana", "ann"}
    assert "arthur" in deletions("arthur", 2) and "ahur" in deletions("arthur", 2)
    assert not any(v.startswith("r") for v in deletions("arthur", 2))


def brute_force(words, key):
    """The misspelling entries as the linker found them before issue 22: every word with
    the key's first letter and a length within reach compared with the key."""
    if " " in key:
        return []
    from mmbdeid.lexicon.names import first_names
    if key in first_names():
        return []
    found = []
    for order, (word, person) in enumerate(words, 1):
        allowed = misspelling_distance(min(len(key), len(word)))
        if (word != key and word[:1] == key[:1] and allowed
                and abs(len(key) - len(word)) <= allowed
                and jellyfish.damerau_levenshtein_distance(key, word) <= allowed):
            found.append((order, word, person))
    return found


@pytest.mark.parametrize("merge_at", [spellings.MERGE_AT_LEAST, 50])
def test_the_index_answers_as_comparing_with_every_word(merge_at, monkeypatch):
    """Whether the variants are in the sorted arrays (merged every 50 variants or more) or
    still in the dict of recent ones (the default, for this few), the same answers."""
    monkeypatch.setattr(spellings, "MERGE_AT_LEAST", merge_at)
    rng = random.Random(22)
    letters = "abcdeo"              # few letters, so many words are near each other

    def word():
        return "".join(rng.choice(letters) for _ in range(rng.randint(3, 10)))

    def typo(w):
        for _ in range(rng.randint(1, 3)):
            if len(w) < 2:
                break
            i = rng.randrange(1, len(w))
            edit = rng.randrange(4)
            if edit == 0:
                w = w[:i] + w[i + 1:]
            elif edit == 1:
                w = w[:i] + rng.choice(letters) + w[i:]
            elif edit == 2:
                w = w[:i] + rng.choice(letters) + w[i + 1:]
            elif i + 1 < len(w):
                w = w[:i] + w[i + 1] + w[i] + w[i + 2:]
        return w

    words = [(word(), "U%d" % rng.randint(1, 300)) for _ in range(1500)]
    words = list(dict.fromkeys(words))              # a (word, person) pair is added once
    index = SpellingIndex()
    for w, person in words:
        index.add(w, person)
    keys = [typo(rng.choice(words)[0]) for _ in range(200)] + [word() for _ in range(50)]
    assert (len(index._hashes) > len(index) / 2) == (merge_at == 50)
    found_some = 0
    for key in keys:
        expected = brute_force(words, key)
        assert [(w, p) for _, w, p in index.misspelt(key)] == [(w, p) for _, w, p in expected]
        found_some += bool(expected)
    assert found_some > 100                         # the comparison was not vacuous


def test_a_misspelling_is_compared_with_its_neighbours_only(monkeypatch):
    """Thousands of other words on the board: the key is compared with the few that share
    a deletion with it, not with every word of its first letter and length."""
    compared = []

    def distance(a, b):
        compared.append(b)
        return jellyfish.damerau_levenshtein_distance(a, b)

    monkeypatch.setattr(spellings, "_distance", distance)
    index = SpellingIndex()
    rng = random.Random(7)
    for n in range(5000):
        index.add("a" + "".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(5)),
                  "U%d" % n)
    index.add("arthur", "U9999")
    assert [(w, p) for _, w, p in index.misspelt("arhtur")] == [("arthur", "U9999")]
    assert len(compared) < 20


def test_a_hash_shared_by_two_variants_finds_no_one_more(monkeypatch):
    """Were every variant's hash the same, each key would be compared with every word: the
    distance still decides, so the answers stay those of comparing with every word."""
    monkeypatch.setattr(spellings, "MERGE_AT_LEAST", 8)
    monkeypatch.setattr(spellings, "hash", lambda variant: 7, raising=False)
    index = SpellingIndex()
    words = [("arthur", "U1"), ("martha", "U2"), ("arthurine", "U3"), ("kaygirl", "U4")]
    for word, person in words:
        index.add(word, person)
    assert [(w, p) for _, w, p in index.misspelt("arhtur")] == [("arthur", "U1")]
    assert index.misspelt("kaygril") == [(4, "kaygirl", "U4")]
    assert index.misspelt("zzzzzz") == []
