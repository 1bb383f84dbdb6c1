"""Names addressed in a reply (thanks, greetings, ``@``, a vocative) link to the person
addressed, never to the reply's author; a signature links to the author. Fictional threads."""
import pytest

from mmbdeid.people.linker import Linker
from mmbdeid.people.mentions import mentions_of
from mmbdeid.people.personmap import name_key
from mmbdeid.people.resolver import Resolver
from mmbdeid.people.scope import ScopeIndex

from documents import name_spans as spans_of


def post(post_id, author, text, parent=None, *names):
    fields = {"id": post_id, "author": author, "text": text, "parent": parent,
              "thread": "t1", "board": "b"}
    return fields, names


def owner(posts, post_id, name):
    """Who ``name`` in post ``post_id`` is, as the scrubber resolves it with the map the
    linker built: a username, or ``P`` for a person who never posts."""
    linker = Linker()
    for fields, names in posts:
        linker.observe(fields, spans_of(fields["text"], names))
    people = linker.person_map()
    fields, names = next(p for p in posts if p[0]["id"] == post_id)
    mention = next(m for m in mentions_of(fields["text"], spans_of(fields["text"], names))
                   if m.text == name)
    person = people[Resolver(people, linker.scopes).resolve(mention, fields)]
    assert name_key(name) in person.names           # the map says so too
    return person.usernames[0] if person.usernames else "P"


LINDA_ASKS = post("1", "linda_k", "Any tips for fatigue?")
LINDA_SIGNS = post("1", "gardengal", "Any tips for fatigue?\nLinda", None, "Linda")
KAY_ANSWERS = post("2", "kay_p", "Naps help me.\nKay", "1", "Kay")


def case(name, *values):
    return pytest.param(*values, id=name)


@pytest.mark.parametrize("thread, expected", [
    # thanks and greetings at the start of a reply, to the parent post's author
    case("thanks", [LINDA_ASKS, post("2", "ron77", "Thanks Linda, I nap daily.", "1", "Linda")],
         "linda_k"),
    case("hi-signed", [LINDA_SIGNS, post("2", "ron77", "Hi Linda! I nap daily.", "1", "Linda")],
         "gardengal"),
    case("dear", [LINDA_ASKS, post("2", "ron77", "Dear Linda, so sorry.", "1", "Linda")],
         "linda_k"),
    case("vocative", [LINDA_ASKS, post("2", "ron77", "Linda, welcome! Naps help.", "1", "Linda")],
         "linda_k"),
    # the reported case: thanks ending a reply is not the reply's author signing
    case("thanks-ending", [LINDA_ASKS, post("2", "ron77", "Naps help.\nThanks Linda", "1",
                                            "Linda")], "linda_k"),
    case("hugs-to", [LINDA_ASKS, post("2", "ron77", "Naps help. Big hugs to Linda", "1",
                                      "Linda")], "linda_k"),
    case("at", [LINDA_ASKS, post("2", "ron77", "I agree with @Linda here", "1", "Linda")],
         "linda_k"),
    # the earlier poster called so, not the parent post's author, who is called otherwise
    case("earlier-poster", [LINDA_ASKS, KAY_ANSWERS,
                            post("3", "ron77", "Thanks Linda and hugs.", "2", "Linda")],
         "linda_k"),
    case("no-parent-field", [LINDA_ASKS, post("2", "ron77", "Naps help.\nThanks Linda", None,
                                              "Linda")], "linda_k"),
    # the parent's author, of whom no name is known yet (Farrow et al.)
    case("unknown-parent", [post("1", "gardengal", "Any tips?"),
                            post("2", "ron77", "Hi Linda, naps.", "1", "Linda")], "gardengal"),
    # a name matching no earlier poster: a person of its own
    case("nobody-matches", [post("1", "kay_p", "Any tips?\nKay", None, "Kay"),
                            post("2", "ron77", "Naps help.\nThanks Linda", "1", "Linda")], "P"),
    # a person does not thank themselves, even in their own thread
    case("not-oneself", [post("1", "linda_k", "Any tips?\nLinda", None, "Linda"),
                         post("2", "linda_k", "Thanks Linda, I mean my sister.", "1", "Linda")],
         "P"),
])
def test_a_name_addressed_is_the_person_addressed(thread, expected):
    assert owner(thread, thread[-1][0]["id"], "Linda") == expected


@pytest.mark.parametrize("thread, name, expected", [
    case("dash", [post("1", "ron77", "Any tips?"),
                  post("2", "linda_k", "Naps help.\n- Linda", "1", "Linda")], "Linda", "linda_k"),
    case("self-introduction", [post("1", "ron77", "Any tips?\nRon", None, "Ron"),
                               post("2", "gardengal", "I'm Linda btw. Naps help.", "1", "Linda")],
         "Linda", "gardengal"),
    # thanks then the author's own name: a sign-off, whoever the parent's author is
    case("thanks-own-name", [post("1", "ron77", "Any tips?\nRon", None, "Ron"),
                             post("2", "linda_k", "Naps help. Thanks, Linda", "1", "Linda")],
         "Linda", "linda_k"),
    # opening a thread, thanks (in advance) then a name: a sign-off
    case("opening-post", [post("1", "mj_poe", "Can you explain? Thanks Mary Jane", None,
                               "Mary Jane")], "Mary Jane", "mj_poe"),
])
def test_a_signature_is_the_author(thread, name, expected):
    assert owner(thread, thread[-1][0]["id"], name) == expected


@pytest.mark.parametrize("author, parent, expected", [
    ("dee", "2", ["bo", "cy", "al"]),      # the parent's author, then the latest first
    ("dee", None, ["cy", "al", "bo"]),
    ("al", "2", ["bo", "cy"]),             # never the post's own author
])
def test_whom_a_post_may_address(author, parent, expected):
    scopes = ScopeIndex()
    for post_id, poster in enumerate(["al", "bo", "al", "cy"], 1):
        scopes.add_post({"id": str(post_id), "author": poster, "thread": "t1"})
    reply = {"id": "5", "author": author, "parent": parent, "thread": "t1"}
    scopes.add_post(reply)
    assert scopes.addressees(reply) == expected
