"""Resolving in the workers, settling in the main process (issue 22): for any stream of
mentions, a worker's answers on the fixed map, settled in input order, give every mention
the person, every new person the id and every warning the place that resolving them one by
one in the main process gives."""
import copy
import random

import pytest

from mmbdeid.people.mentions import Mention
from mmbdeid.people.personmap import Person, PersonMap
from mmbdeid.people.resolver import InGroup, Resolver
from mmbdeid.people.scope import ScopeIndex

NAMES = ["arthur", "mary", "mary jane", "robert", "bob", "linda", "kay", "margaret",
         "jessica", "jess", "ronald", "colleen"]
NEW_NAMES = ["lindqvist", "bartholomew", "zelda", "quentin"]     # nobody's: new people
ROLES = ["", "", "addressee", "closing", "author", "titled", "titled"]


def typo(rng, word):
    """One letter after the first changed, dropped or doubled (a misspelling)."""
    i = rng.randrange(1, len(word))
    return rng.choice([word[:i] + word[i + 1:], word[:i] + word[i] + word[i:],
                       word[:i] + "e" + word[i + 1:]])


def board(rng):
    """A map of members and people only mentioned, and the posts of three threads on two
    boards by the members (and one author the map lacks)."""
    people = PersonMap()
    for number in range(1, 9):
        person = people.add(Person("U%d" % number, ["user%d" % number]))
        for name in rng.sample(NAMES, 2):
            person.names[name] += rng.randint(1, 4)
    for number in range(1, 4):
        people.add(Person("P%d" % number, [])).names[rng.choice(NAMES)] += 1
    posts = []
    for number in range(60):
        thread = "t%d" % rng.randint(1, 3)
        author = "user%d" % rng.randint(1, 9)          # user9: not in the map
        posts.append({"id": str(number), "author": author, "thread": thread,
                      "board": "b%d" % (int(thread[1]) % 2),
                      "parent": str(rng.randrange(number)) if number else None})
    scopes = ScopeIndex()
    for fields in posts:
        scopes.add_post(fields)
    return people, scopes, posts


def mentions(rng, count):
    found = []
    for _ in range(count):
        word = rng.choice(NAMES + NEW_NAMES)
        if rng.random() < 0.3 and " " not in word:
            word = typo(rng, word)
        if rng.random() < 0.1:
            word = "user%d" % rng.randint(1, 9)       # a username
        found.append(Mention(0, len(word), word.title(), rng.choice(["NAME", "NAME", "USER"]),
                             rng.choice(ROLES)))
    return found


def one_by_one(people, scopes, scope, stream, with_authors):
    warnings = []
    resolver = Resolver(people, scopes, scope, warn=warnings.append)
    resolver.fix()
    ids = []
    for fields, found in stream:
        ids.append([resolver.resolve(mention, fields) for mention in found])
        if with_authors:
            ids[-1].append(resolver.author(fields["author"]))
    return ids, warnings


def settled(people, scopes, scope, stream, with_authors):
    worker = Resolver(copy.deepcopy(people), scopes.members_of(scope), scope)
    warnings = []
    resolver = Resolver(people, scopes, scope, warn=warnings.append)
    resolver.fix()
    ids = []
    for fields, found in stream:
        answers = []
        for mention in found:
            route = worker.route(mention, fields, scopes.addressees(fields))
            answers.append(route if isinstance(route, str) else (route,) + worker.answer(route))
        ids.append([resolver.settle(answer, mention, fields)
                    for answer, mention in zip(answers, found)])
        if with_authors:
            ids[-1].append(resolver.author(fields["author"]))
    return ids, warnings


def as_lines(people):
    return [(p.id, p.usernames, sorted(p.names.items())) for p in people]


@pytest.mark.parametrize("scope", ["board", "thread", "dump"])
@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("with_authors", [False, True])
def test_settling_the_workers_answers_is_resolving_one_by_one(scope, seed, with_authors):
    rng = random.Random(seed)
    people, scopes, posts = board(rng)
    stream = [(fields, mentions(rng, rng.randint(0, 6))) for fields in posts]
    alone, alone_map = copy.deepcopy(people), None
    expected = one_by_one(alone, scopes, scope, stream, with_authors)
    alone_map = as_lines(alone)
    got = settled(people, scopes, scope, stream, with_authors)
    assert got[0] == expected[0]
    assert got[1] == expected[1]                       # the same warnings, in order
    assert as_lines(people) == alone_map               # the same new people
    assert any(p.id.startswith("P") and p.id not in ("P1", "P2", "P3") for p in people)


def test_a_misspelling_of_a_person_added_since_is_resolved_again():
    """``Zelda`` is nobody's: the main process adds P2 for it. A worker, on the map as it
    was fixed, finds no one for ``Zeldaa`` either; settled, it is P2's, as one by one."""
    people = PersonMap()
    people.add(Person("U1", ["kay_k"])).names["kay"] += 2
    people.add(Person("P1", [])).names["margaret"] += 1
    scopes = ScopeIndex()
    fields = {"id": "1", "author": "kay_k", "thread": "t", "board": "b"}
    scopes.add_post(fields)
    worker = Resolver(copy.deepcopy(people), scopes.members_of("board"), "board")
    main = Resolver(people, scopes, "board")
    main.fix()
    zelda, zeldaa = (Mention(0, len(w), w, "NAME", "") for w in ("Zelda", "Zeldaa"))
    for mention, expected in ((zelda, "P2"), (zeldaa, "P2")):
        route = worker.route(mention, fields, [])
        assert isinstance(route, InGroup) and worker.answer(route) == (None, None, False)
        assert main.settle((route, None, None, False), mention, fields) == expected


def test_settle_needs_the_map_fixed():
    people, scopes, posts = board(random.Random(1))
    resolver = Resolver(people, scopes, "board")
    with pytest.raises(ValueError, match="fix"):
        resolver.settle("U1", Mention(0, 4, "Kay", "NAME", ""), posts[0])


def test_a_name_a_person_added_since_is_called_is_resolved_again():
    """U1 (zee, called Zelda) writes "Dr Zeld": a titled name is never its own author, so
    the main process adds P1 for it. Later, in another thread, zee writes "Zeld" again: on
    the map as the workers have it only U1 is called anything like it (a misspelling), but
    one by one P1 is, exactly and by the same author (issue 30): settled, it is P1's
    too."""
    people = PersonMap()
    people.add(Person("U1", ["zee"])).names["zelda"] += 2
    people.add(Person("U2", ["kay"]))
    scopes = ScopeIndex()
    first = {"id": "1", "author": "zee", "thread": "t1", "board": "b1"}
    second = {"id": "2", "author": "zee", "thread": "t3", "board": "b1"}
    for fields in (first, second):
        scopes.add_post(fields)
    worker = Resolver(copy.deepcopy(people), scopes.members_of("board"), "board")
    alone = Resolver(copy.deepcopy(people), scopes, "board")
    main = Resolver(people, scopes, "board")
    main.fix()
    titled, plain = Mention(3, 7, "Zeld", "NAME", "titled"), Mention(0, 4, "Zeld", "NAME", "")
    for mention, fields, expected in ((titled, first, "P1"), (plain, second, "P1")):
        route = worker.route(mention, fields, scopes.addressees(fields))
        assert main.settle((route,) + worker.answer(route), mention, fields) == expected
        assert alone.resolve(mention, fields) == expected
    assert worker.answer(worker.route(plain, second, [])) == ("U1", None, False)  # the map
