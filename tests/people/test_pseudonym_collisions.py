"""No pseudonym equals a real username, author or name of the dump, in any case, and a
member called like a pseudonym (``U2``, ``P1``) loses that name like any other (issue 29).
Fictional posts; the tiny model and the map a test gives, so the linking is the test's."""
import re

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.people.personmap import Person, PersonMap

PSEUDONYM = re.compile(r"\[([UP]\d+)\]")

# Members called U2, P1 and u1 among kaygirl and boo; a doctor and Rita only mentioned;
# codes that read like pseudonyms.
POSTS = [
    {"id": "1", "board": "b", "thread": "t1", "author": "kaygirl",
     "text": "Hi all, I am Kay. My doctor Dr. Ostrowski-Vale is great. My codes: U3, p2."},
    {"id": "2", "board": "b", "thread": "t1", "author": "U2",
     "text": "Thanks Kay! @P1 said the same.\nU2"},
    {"id": "3", "board": "b", "thread": "t1", "author": "P1",
     "text": "Agree with @U2 and @kaygirl. Rita told me too."},
    {"id": "4", "board": "b", "thread": "t1", "author": "u1", "text": "Hugs @U2 and @P1"},
    {"id": "5", "board": "b", "thread": "t1", "author": "boo", "text": "Same, @u1."},
]
REAL = {"kaygirl", "u2", "p1", "u1", "boo", "kay", "rita", "ostrowski-vale",
        "u3", "p2"}                     # words like pseudonyms, kept


def scrub(tmp_path, model, *options):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    allow = tmp_path / "allow.txt"          # the codes stay, found as names or not
    allow.write_text("U3\np2\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["scrub", str(dump), "-o", str(out), "--mode", "pseudonym", "--model",
                 model, "--allow", str(allow), "-q", "-j", "1", *map(str, options)]) == 0
    return read_jsonl(out)


@pytest.mark.parametrize("person_map", [None, "U9 | @kaygirl | Kay (1)\n"])
def test_no_pseudonym_is_a_real_username_or_name(tmp_path, tiny_model_path, person_map):
    options = []
    if person_map is not None:              # a map that lacks most members: they are
        path = tmp_path / "people.map"      # numbered in pass 3
        path.write_text(person_map, encoding="utf-8")
        options = ["--map", path]
    out = scrub(tmp_path, tiny_model_path, *options)
    authors = [post["author"] for post in out]
    in_texts = {found for post in out for found in PSEUDONYM.findall(post["text"])}
    assert len(set(authors)) == 5                        # one pseudonym per member
    assert not {pseudonym.casefold() for pseudonym in set(authors) | in_texts} & REAL
    # the members called U2 and P1 are gone from the output: their author field and the
    # mentions of their usernames became their pseudonyms
    for post in out:
        assert not re.search(r"(?<!\[)\b(?:U2|P1|u1)\b", post["text"]), post["text"]
    assert out[0]["text"].endswith(": U3, p2.")
    if person_map is None:          # linked by the run: each mention is its member's
        assert out[1]["text"].endswith("\n[%s]" % authors[1])     # U2 signing off
        assert "[%s]" % authors[1] in out[2]["text"]
        assert "[%s]" % authors[2] in out[3]["text"]


@pytest.mark.parametrize("usernames, avoided, prefix, expected", [
    ([], [], "U", "U1"),
    (["U1"], [], "U", "U2"),                      # a username, in the map
    (["u1", "kay"], ["p1", "P2"], "P", "P3"),     # names of the dump, in any case
    ([], ["U1", "u2", "U4"], "U", "U3"),
])
def test_new_ids_skip_usernames_and_the_names_avoided(usernames, avoided, prefix,
                                                      expected):
    people = PersonMap()
    for number, username in enumerate(usernames, 10):
        people.add(Person("X%d" % number, [username]))
    people.avoid(avoided)
    assert people.next_id(prefix) == expected


def test_a_read_map_gives_no_new_person_one_of_its_names(tmp_path):
    path = tmp_path / "people.map"
    path.write_text("U1 | @kay | P1 (2)\nP2 | U2 (1)\n", encoding="utf-8")
    people = PersonMap.read(str(path))
    assert (people.next_id("U"), people.next_id("P")) == ("U3", "P3")
