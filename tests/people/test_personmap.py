"""The person map file: written, edited by hand, read back."""
import io

import pytest

from mmbdeid.errors import InputError
from mmbdeid.people.personmap import Person, PersonMap


def sample_map():
    people = PersonMap()
    people.add(Person("U1", ["arthur_k"], {"arthur": 5, "arhtur": 1},
                      {"arthur": "Arthur", "arhtur": "Arhtur"}))
    people.add(Person("U2", ["mj_poe"], {"mary jane": 3, "mj": 1},
                      {"mary jane": "Mary Jane", "mj": "MJ"}))
    people.add(Person("P1", [], {"lindqvist": 2}, {"lindqvist": "Lindqvist"}))
    return people


def write(people, comments=()):
    handle = io.StringIO()
    people.write(handle, list(comments))
    return handle.getvalue()


def test_one_person_per_line_names_most_used_first():
    lines = [l for l in write(sample_map()).splitlines() if not l.startswith("#")]
    assert lines == ["U1 | @arthur_k | Arthur (5) | Arhtur (1)",
                     "U2 | @mj_poe | Mary Jane (3) | MJ (1)",
                     "P1 | Lindqvist (2)"]


def test_round_trip_with_a_hand_edit(tmp_path):
    text = write(sample_map(), ["\"robert\" could be U1 or U2"])
    assert "# warning:" in text and "SECRET" in text
    # a person moves "Arhtur" to U2 by mistake, adds a missed name without a count
    edited = text.replace(" | Arhtur (1)", "").replace("MJ (1)", "MJ (1) | Arhtur | M J")
    path = tmp_path / "people.map"
    path.write_text(edited, encoding="utf-8")
    people = PersonMap.read(str(path))
    assert [p.id for p in people] == ["U1", "U2", "P1"]
    assert dict(people["U1"].names) == {"arthur": 5}
    assert dict(people["U2"].names) == {"mary jane": 3, "mj": 2, "arhtur": 1}
    assert people.by_username("MJ_POE").id == "U2"
    assert people.next_id("P") == "P2" and people.next_id("U") == "U3"


@pytest.mark.parametrize("content, message", [
    ("U1 | Arthur\n# note\nU1 | Mary\n", "people.map:3: this line's person id is also on "
                                         "line 1"),
    ("1x | Arthur\n", "people.map:1: not a person map line: the first field must be a "
                      "person id (a letter, then letters, digits, _ or -), as in "
                      "'U12 | @username | Name (3)'"),
    ("U1 | @kay\nU2 | Mary | @Kay\n", "people.map:2: the username in field 3 is also on "
                                      "line 1"),
    ("U1 | @\n", "people.map:1: field 2 is an empty username '@'"),
    ("U1 | Arthur | ... (3)\n", "people.map:1: field 3 is not a name (no letters or "
                                "digits)"),
    # a dump given as the map by mistake: its raw post must not be echoed
    ('{"id": "p1", "author": "kay_r", "text": "Hi Arthur | see you"}\n',
     "people.map:1: not a person map line"),
    ("id,author,text\np1,kay_r,Hi Arthur\n", "people.map:1: not a person map line"),
])
def test_bad_map_lines_name_file_and_line_but_not_their_content(tmp_path, content, message):
    path = tmp_path / "people.map"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as error:
        PersonMap.read(str(path))
    said = str(error.value).replace(str(tmp_path) + "/", "")
    assert said.startswith(message)
    for secret in ("Arthur", "Mary", "kay", "Kay", "1x", "..."):
        assert secret not in said, secret
