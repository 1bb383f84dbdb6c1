"""Any number of boards, threads and authors (issue 18): the username index past the 63
lists a tag mask holds, and every command that runs the model on dumps of many boards and
many authors. The posts are fictional, generated here."""
import random

import pytest

from mmbdeid.model.fuzzy import FuzzyIndex, MultiListIndex
from mmbdeid.model.many_lists import MASK_LISTS, ListMembership


def _username_lists(n_lists, seed):
    """Fictional usernames over ``n_lists`` boards, close to one another (a small
    alphabet), some on several boards."""
    rng = random.Random(seed)
    alphabet = "aeiklmnr"
    pool = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 11)))
            for _ in range(40 * n_lists)]
    return {"board%03d" % k: set(rng.sample(pool, rng.randint(1, 30))) for k in range(n_lists)}


def _tokens(lists, seed):
    """Entries, entries with one or two edits, and strings unlike any entry."""
    rng = random.Random(seed)
    words = sorted(set().union(*lists.values()))
    tokens = []
    for word in rng.sample(words, min(60, len(words))):
        chars = list(word)
        for _ in range(rng.randint(0, 2)):
            p = rng.randrange(len(chars))
            chars[p] = rng.choice("aeiklmnrz")
        tokens += [word, "".join(chars), word + "z", word[1:]]
    return list(dict.fromkeys(tokens + ["", "q", "zzzzzzz", "\ud800mar"]))


@pytest.mark.parametrize("n_lists", [5, MASK_LISTS, MASK_LISTS + 1, 70, 200])
def test_each_lists_distance_is_that_of_its_own_index(n_lists):
    lists = _username_lists(n_lists, seed=n_lists)
    index = MultiListIndex(lists)
    own = {name: FuzzyIndex(words) for name, words in lists.items()}
    tokens = _tokens(lists, seed=n_lists + 1)
    index.prefetch(tokens)
    found = 0
    for token in tokens:
        expected = {name: own[name].distance(token) for name in lists}
        expected = {name: d for name, d in expected.items() if d is not None}
        answer = index.nearest(token)
        assert answer == expected, token
        assert list(answer) == [name for name in lists if name in answer]   # list order
        found += len(answer)
    assert found > len(tokens)          # the lists share entries and near entries


@pytest.mark.parametrize("n_lists", [3, MASK_LISTS])
def test_membership_answers_equal_the_mask_answers(n_lists):
    """The two ways of answering agree where both can (what keeps outputs the same)."""
    lists = _username_lists(n_lists, seed=7 * n_lists)
    index = MultiListIndex(lists)
    names = list(lists)
    lists_of = {}
    for number, name in enumerate(names):
        for word in lists[name]:
            lists_of.setdefault(word, []).append(number)
    tokens = [t.replace("\ud800", "\ufffd") for t in _tokens(lists, seed=3)]
    membership = ListMembership(index.index.words, lists_of)
    index.prefetch(tokens)
    assert membership.nearest(index.index, tokens, names) == [index.nearest(t) for t in tokens]


def test_a_word_repeated_in_a_list_counts_once():
    lists = {"board%03d" % k: ["kimmie", "kimmie"] if k == 80 else ["x%d" % k]
             for k in range(100)}
    assert MultiListIndex(lists).nearest("kimmie") == {"board080": 0}
    assert MultiListIndex(lists).nearest("kimie") == {"board080": 1}


def test_variant_index_with_thousands_of_people_sharing_a_prefix():
    """Every ``mary...`` username has the prefix ``mary``: the people come back once each,
    in the order they were added, the one called exactly so left out."""
    from mmbdeid.people.linking import VariantIndex
    from mmbdeid.people.personmap import Person, PersonMap

    people = PersonMap()
    for k in range(3000):
        people.add(Person(people.next_id("U"), ["mary%04d" % k]))
    people.add(Person(people.next_id("U"), ["mary"]))
    index = VariantIndex(people)
    ids = [person.id for person in people]
    index.add_usernames(people[ids[5]])             # added again: keeps its place
    assert index.exact_people("mary") == [ids[-1]]
    assert index.variant_people("mary") == ids[:3000]
