"""A member's own name where they sign their own post (issue 30): ``xx Pen``, ``Mo``,
``-- d``, words and a letter that the map's names are never searched for elsewhere.
Fictional posts."""
import pytest

from mmbdeid.people.own_signoff import own_signoff, signed_initial

from test_link_evidence import post

PEN = frozenset({"pen", "penny"})


@pytest.mark.parametrize("text, names, signed", [
    ("Beta on Friday.\n\nxx Pen", PEN, "Pen"),          # after a closing word
    ("Beta on Friday.\n\nPen", PEN, "Pen"),             # alone on the last line
    ("Beta on Friday.\nLove, Pen!", PEN, "Pen"),
    ("Beta on Friday.\nThanks, Penny", PEN, "Penny"),
    ("Beta on Friday.\n~pen", PEN, "pen"),              # her habit, in any case
    ("Day 3 for me.\n\n-- d", {"d", "dana"}, "d"),      # an initial after a dash
    ("Day 3 for me.\n\nd", {"d", "dana"}, None),        # a letter alone signs nothing
    ("Day 3 for me.\n\n-- x", {"x"}, None),             # a kiss, not an initial
    ("Beta on Friday.\n\nxx Jen", PEN, None),           # not one of her names
    ("Beta on Friday, I need a pen.", PEN, None),       # not on a sign-off line
    ("xx Pen", PEN, None),                              # a post of one line signs nothing
    ("Beta on Friday.\nMy Pen", PEN, None),             # 'My' is no closing word
    ("Beta on Friday.\nPen and Tom", PEN, None),        # not one word
])
def test_own_signoff(text, names, signed):
    found = own_signoff(text, names)
    assert (text[found[0]:found[1]] if found else None) == signed


@pytest.mark.parametrize("text, initial", [
    ("Day 3.\n-- d", "d"), ("Day 3.\n~J", "J"), ("Day 3.\nxx d", "d"),
    ("Day 3.\nd", None), ("Day 3.\n-- Dana", None), ("Day 3.\nLove, x", None),
])
def test_signed_initial(text, initial):
    found = signed_initial(text)
    assert (text[found[0]:found[1]] if found else None) == initial


DANA_1 = post("r1", "recovery", "t1", "day_by_day_dana", "Week two, still here.\n\n-- d")
DANA_2 = post("r2", "recovery", "t2", "day_by_day_dana", "Week three.\n\n-- d")


def test_a_habitual_initial_is_a_name_of_its_member():
    """Signed so in two posts: the letter goes on her line of the map (so her own posts'
    sign-offs can be found); signed once, it does not."""
    from mmbdeid.people.linker import Linker
    from documents import name_spans
    for posts, expected in (([DANA_1, DANA_2], True), ([DANA_1], False)):
        linker = Linker()
        for fields, names in posts:
            linker.observe(fields, name_spans(fields["text"], names))
        member = linker.person_map().by_username("day_by_day_dana")
        assert ("d" in member.names) is expected
