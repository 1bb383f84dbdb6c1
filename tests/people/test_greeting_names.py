"""``ty`` (thank you) is on the greetings list, but ``Ty`` is also a first name: a greeting
word hides no mention where it is a name (issue 30). The person modes must remove every
capitalised ``Ty`` that placeholder mode removes, and keep ``ty for the info``."""
import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.people.mentions import mentions_of

from documents import name_spans


@pytest.mark.parametrize("text, tagged, mentions", [
    ("Ty said he'd drive", ["Ty"], ["Ty"]),
    ("Thanks Ty!", ["Thanks", "Ty"], ["Ty"]),            # the greeting is no mention
    ("say hi to Ty for me", ["hi", "Ty"], ["Ty"]),
    ("Ty, can you drive?", ["Ty"], ["Ty"]),
    ("ty for the info", ["ty"], []),                       # thank you
    ("ty all\nKay", ["ty", "Kay"], ["Kay"]),
    ("Hi Kay", ["Hi", "Kay"], ["Kay"]),                   # a greeting no first name
])
def test_a_greeting_word_is_a_mention_only_where_it_is_a_name(text, tagged, mentions):
    assert [m.text for m in mentions_of(text, name_spans(text, tagged))] == mentions


POSTS = [
    {"id": "1", "board": "b", "thread": "t1", "author": "maple_mom",
     "text": "My brother Ty said he'd drive me to the infusion on Friday."},
    {"id": "2", "board": "b", "thread": "t1", "author": "rivercat", "parent": "1",
     "text": "Thanks Ty! Say hi to Ty for me."},
    {"id": "3", "board": "b", "thread": "t1", "author": "maple_mom", "parent": "2",
     "text": "ty for the info, will ask the nurse about the port."},
]


@pytest.mark.parametrize("mode", ["placeholder", "pseudonym", "surrogate"])
def test_every_mode_removes_ty_the_name_and_keeps_ty_thank_you(tmp_path, mode):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out = tmp_path / "out.jsonl"
    assert main(["scrub", str(dump), "-o", str(out), "--mode", mode, "-q", "-j", "1"]) == 0
    texts = [record["text"] for record in read_jsonl(out)]
    assert not any("Ty" in text for text in texts), texts
    assert texts[2] == POSTS[2]["text"]
