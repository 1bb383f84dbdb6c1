"""What the person modes find in a post beyond the model's spans (issue 30): a member's
own name where they sign their own post (``xx Pen``, ``-- d``) or where a post of their
thread greets them (``Mo, ...``), and the parts of a full
name in its post and thread (``Dolores`` after ``Dolores Nakamura-Reyes``). Fictional
boards."""
import pytest

from mmbdeid.output.operators import finder_of
from mmbdeid.people.linker import Linker
from mmbdeid.people.resolver import Resolver
from mmbdeid.spans import Span

from documents import name_spans


def removed(posts, scope="board"):
    """(post id, removed text) -> its person (username of a member, else ``P``), as pass
    3 of the person modes finds and resolves them with the map the linker built."""
    linker = Linker(scope)
    for fields, spans in posts:
        linker.observe(fields, spans)
    people = linker.person_map()
    finder, resolver = finder_of(people), Resolver(people, linker.scopes, scope)
    found = {}
    for fields, spans in posts:
        _, mentions = finder(fields["text"], spans, fields, linker.scopes.addressees(fields))
        for mention in mentions:
            person = people[resolver.resolve(mention, fields)]
            key = (fields["id"], mention.text)
            found.setdefault(key, person.usernames[0] if person.usernames else "P")
    return found


def named(post_id, board, thread, author, text, *names, parent=None):
    return ({"id": post_id, "board": board, "thread": thread, "author": author,
             "parent": parent, "text": text}, name_spans(text, names))


PEN_1 = named("p1", "ivf", "t1", "twoLinesPls", "Beta on Monday.\n\nxx Pen")
PEN_2 = named("p2", "ivf", "t2", "twoLinesPls", "Beta was 212!\n\nxx Pen")
PEN_3 = named("p3", "ivf", "t3", "twoLinesPls", "Scan on Friday. I need a new pen.\n\nxx Pen")
KAY_PEN = named("p4", "ivf", "t3", "kay_k", "Bring a Pen to the scan.\n\nxx Pen", parent="p3")
DANA_1 = named("r1", "recovery", "t4", "day_by_day_dana", "Week two, still here.\n\n-- d")
DANA_2 = named("r2", "recovery", "t5", "day_by_day_dana", "Week three.\n\n-- d")
SOCIAL = "Ours, Dolores Nakamura-Reyes, found us a grant. Dolores also told me to sleep."
DOLORES = named("d1", "care", "t6", "aggie_p", SOCIAL, "Dolores Nakamura-Reyes")
DOLORES_REPLY = named("d2", "care", "t6", "ned_n", "Is Dolores at the county office?",
                      parent="d1")
DOLORES_ELSEWHERE = named("d3", "care", "t7", "ned_n", "Our Dolores retired last year.")
MO_1 = named("g1", "recovery", "t9", "newstart_mo", "Day 3 for me.\n\n~Mo")
MO_2 = named("g2", "recovery", "t10", "newstart_mo", "Day 4 for me.\n\n~Mo")
MO_GREETED = named("g3", "recovery", "t10", "keisha_k", "Mo, the group meets Thursday.",
                   parent="g2")
MO_NOT_SET_OFF = named("g4", "recovery", "t10", "keisha_k", "Mo said the group meets.",
                       parent="g2")
MO_OTHER_THREAD = named("g5", "recovery", "t11", "keisha_k", "Mo, the group meets Thursday.")
PHARMACY = "Mine is run by Will Osei-Bonsu, a different Will entirely. Will you go?"
_AT = PHARMACY.index("Osei")
WILL = ({"id": "l1", "board": "covid", "thread": "t8", "author": "luis_l", "parent": None,
         "text": PHARMACY},
        [Span("USER", _AT, _AT + 4, 0.07, "crf"), Span("NAME", _AT + 5, _AT + 10, 0.52, "crf")])


@pytest.mark.parametrize("posts, found, expected", [
    # her own sign-off, a word, in her own posts: hers (the map has it from two of them)
    ([PEN_1, PEN_2, PEN_3], ("p3", "Pen"), "twoLinesPls"),
    ([PEN_1, PEN_2], ("p1", "Pen"), "twoLinesPls"),
    # the word elsewhere in her post, or in another member's post, is kept
    ([PEN_1, PEN_2, PEN_3], ("p3", "pen"), None),
    ([PEN_1, PEN_2, PEN_3, KAY_PEN], ("p4", "Pen"), None),
    # an initial signed after a dash, her habit
    ([DANA_1, DANA_2], ("r1", "d"), "day_by_day_dana"),
    ([DANA_1], ("r1", "d"), None),
    # her name greeting her, set off by a comma, in a thread where she posts; not
    # otherwise (a word: Mo, Pen), nor in a thread where she does not
    ([MO_1, MO_2, MO_GREETED], ("g3", "Mo"), "newstart_mo"),
    ([MO_1, MO_2, MO_NOT_SET_OFF], ("g4", "Mo"), None),
    ([MO_1, MO_2, MO_OTHER_THREAD], ("g5", "Mo"), None),
    # the given name of a full name, later in its post and in its thread; not elsewhere
    ([DOLORES], ("d1", "Dolores"), "P"),
    ([DOLORES, DOLORES_REPLY], ("d2", "Dolores"), "P"),
    ([DOLORES, DOLORES_ELSEWHERE], ("d3", "Dolores"), None),
    # a full name tagged in pieces: one name, and its given name later in the post; not
    # the word opening a question
    ([WILL], ("l1", "Will Osei-Bonsu"), "P"),
    ([WILL], ("l1", "Will"), "P"),
])
def test_found_in_a_post(posts, found, expected):
    assert removed(posts).get(found) == expected


def test_the_parts_of_a_full_name_are_one_person():
    people = removed([DOLORES, DOLORES_REPLY])
    assert len({people[("d1", "Dolores Nakamura-Reyes")], people[("d1", "Dolores")]}) == 1
    will = removed([WILL])
    assert sorted(will) == [("l1", "Will"), ("l1", "Will Osei-Bonsu")]


def test_the_parts_of_a_full_name_the_map_finds(tmp_path):
    """With a map read from a file (no threads, no probabilities), a full name the model
    missed but the map finds has its parts found in the post too."""
    from mmbdeid.people.personmap import PersonMap
    path = tmp_path / "map.txt"
    path.write_text("U1 | @aggie_p\nP1 | Dolores Nakamura-Reyes (1)\n", encoding="utf-8")
    fields = {"id": "d1", "board": "care", "thread": "t6", "author": "aggie_p",
              "text": SOCIAL}
    spans, _ = finder_of(PersonMap.read(str(path)))(SOCIAL, [], fields)
    assert [SOCIAL[s.start:s.end] for s in spans] == ["Dolores Nakamura-Reyes", "Dolores"]
