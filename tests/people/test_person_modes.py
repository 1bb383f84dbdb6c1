"""The person modes keep what the analyzer chain keeps, never give a titled name to the
post's author, apply every line of an edited map, and scrub their own output to itself
(issue 18, items 3-5). Fictional posts; the default model."""
import difflib
import re

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main


def mmbdeid(*args):
    return main([str(a) for a in args] + ["--quiet", "--jobs", "1"])


def scrub(tmp_path, posts, *options, name="out"):
    dump = write_jsonl(tmp_path / ("%s.in.jsonl" % name), posts)
    out = tmp_path / ("%s.jsonl" % name)
    assert mmbdeid("scrub", dump, "-o", out, *options) == 0
    return read_jsonl(out)


THYROID = [
    {"id": "1", "board": "thyroid", "thread": "t1", "author": "gravesgirl",
     "text": "Diagnosed last spring. Methimazole for now, RAI maybe later."},
    {"id": "2", "board": "thyroid", "thread": "t1", "author": "relapsingrita",
     "text": "My Graves' disease came back after five years. I saw Dr. Ostrowski-Vale "
             "today and she wants a new scan.\nRita"},
    {"id": "3", "board": "thyroid", "thread": "t1", "author": "gravesgirl",
     "text": "Hugs Rita. Grant drives me to every appointment, it helps."},
]


@pytest.mark.parametrize("mode", ["pseudonym", "surrogate"])
def test_a_member_name_never_overrides_a_keep_step(tmp_path, mode):
    # the map says gravesgirl is called Graves; Graves' disease is still an eponym
    people = tmp_path / "people.map"
    people.write_text("U1 | @gravesgirl | Graves (3)\nU2 | @relapsingrita | Rita (2)\n",
                      encoding="utf-8")
    out = scrub(tmp_path, THYROID, "--mode", mode, "--map", people)
    assert "Graves' disease came back" in out[1]["text"]


def test_a_name_after_a_title_is_never_the_posts_author(tmp_path):
    out = scrub(tmp_path, THYROID, "--mode", "pseudonym")
    text = out[1]["text"]
    assert "Ostrowski" not in text and "Vale" not in text
    doctor = text.split("Dr. ")[1].split()[0]
    assert doctor.startswith("[P")                  # someone only mentioned
    assert doctor != "[%s]" % out[1]["author"]


def test_every_line_of_an_edited_map_is_applied(tmp_path):
    # a name the researcher added to a P line by hand, and a new P line
    people = tmp_path / "people.map"
    people.write_text("U1 | @gravesgirl\nU2 | @relapsingrita | Rita (2)\n"
                      "P7 | Grant\nP8 | Ostrowski-Vale (1)\n", encoding="utf-8")
    out = scrub(tmp_path, THYROID, "--mode", "pseudonym", "--map", people)
    assert out[2]["text"].startswith("Hugs [U2]. [P7] drives me")
    assert "Dr. [P8] today" in out[1]["text"]


@pytest.mark.parametrize("mode", ["placeholder", "mask", "hash",
                                  pytest.param("pseudonym", marks=pytest.mark.slow)])
def test_scrubbing_the_output_again_changes_nothing(tmp_path, monkeypatch, mode):
    monkeypatch.setenv("MMBDEID_HASH_KEY", "fictional key 0123456789")      # --mode hash
    once = scrub(tmp_path, THYROID, "--mode", mode, name="once")
    twice = scrub(tmp_path, once, "--mode", mode, name="twice")
    assert twice == once


def test_pseudonym_authors_keep_their_ids_when_scrubbed_again(tmp_path):
    # a pseudonym scrub's output: every author a pseudonym, pseudonyms in the texts
    posts = [{"id": str(i), "board": "b", "thread": "t", "author": author,
              "text": "ok [P1]"} for i, author in enumerate(["U3", "U1", "U3"])]
    out = scrub(tmp_path, posts, "--mode", "pseudonym")
    assert [post["author"] for post in out] == ["U3", "U1", "U3"]


def test_members_called_like_pseudonyms_in_a_raw_dump_get_new_ids(tmp_path):
    # kaygirl posts too, so U3 and U1 are members' usernames (issue 29): no pseudonym may
    # equal them, and theirs go; U01 is no pseudonym we write either
    posts = [{"id": str(i), "board": "b", "thread": "t", "author": author, "text": "ok"}
             for i, author in enumerate(["U3", "kaygirl", "U1", "U01"])]
    out = scrub(tmp_path, posts, "--mode", "pseudonym")
    assert [post["author"] for post in out] == ["U2", "U4", "U5", "U6"]


def test_new_people_are_numbered_after_the_pseudonyms_in_the_texts(tmp_path):
    posts = [{"id": "1", "board": "b", "thread": "t", "author": "U2",
              "text": "Thanks [P1] and [U1]. Dr. Ostrowski-Vale called."}]
    out = scrub(tmp_path, posts, "--mode", "pseudonym")
    assert out[0]["text"].startswith("Thanks [P1] and [U1]. Dr. [P2] called.")


# -- scrubbing the bundled fictional data twice -------------------------------------------
from paths import DEMO_DUMP as DEMO, SAMPLE_CORPUS as SAMPLE  # noqa: E402
_PIECES = re.compile(r"\[(?:[A-Z]+|[UP]\d+)\]|\w+|\S")


def _scrub_file(tmp_path, source, mode, name):
    out = tmp_path / ("%s.jsonl" % name)
    assert mmbdeid("scrub", source, "-o", out, "--mode", mode) == 0
    return str(out)


def _second_scrub_changes(once, twice):
    """(post id, old pieces, new pieces) of every change the second scrub made."""
    changes = []
    for first, second in zip(read_jsonl(once), read_jsonl(twice)):
        assert {k: v for k, v in first.items() if k != "text"} == \
            {k: v for k, v in second.items() if k != "text"}
        old, new = _PIECES.findall(first["text"]), _PIECES.findall(second["text"])
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        changes += [(first["id"], old[i1:i2], new[j1:j2])
                    for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]
    return changes


@pytest.mark.parametrize("mode", ["placeholder", "hash",
                                  pytest.param("pseudonym", marks=pytest.mark.slow)])
def test_the_demo_dump_scrubbed_again_is_byte_identical(tmp_path, monkeypatch, mode):
    monkeypatch.setenv("MMBDEID_HASH_KEY", "fictional key 0123456789")      # --mode hash
    once = _scrub_file(tmp_path, DEMO, mode, "once")
    twice = _scrub_file(tmp_path, once, mode, "twice")
    with open(once, "rb") as first, open(twice, "rb") as second:
        assert first.read() == second.read()


def test_the_demo_dump_masked_again_loses_only_whole_words(tmp_path):
    """Masks, punctuation and authors never change; the masked authors no longer tell the
    posters apart in the per-author statistics, so a word rated near the threshold may go
    (on the demo dump: ``Buddy``, a nickname too)."""
    once = _scrub_file(tmp_path, DEMO, "mask", "once")
    twice = _scrub_file(tmp_path, once, "mask", "twice")
    for post_id, old, new in _second_scrub_changes(once, twice):
        assert len(old) == 1 and re.fullmatch(r"\w+", old[0]), (post_id, old)
        assert new == ["*"] * len(old[0]), (post_id, new)


@pytest.mark.parametrize("mode", ["placeholder", "pseudonym"])
@pytest.mark.slow
def test_the_sample_scrubbed_again_loses_only_whole_words(tmp_path, mode):
    """Placeholders, pseudonyms, punctuation and authors never change; what the second
    scrub may still do is remove a word the model now rates above the threshold (the
    dump's statistics changed: its names are gone; see the README)."""
    once = _scrub_file(tmp_path, SAMPLE, mode, "once")
    twice = _scrub_file(tmp_path, once, mode, "twice")
    ids_once = set(re.findall(r"\[[UP]\d+\]", open(once, encoding="utf-8").read()))
    for post_id, old, new in _second_scrub_changes(once, twice):
        assert len(new) == 1 and _PIECES.fullmatch(new[0]) and new[0].startswith("["), post_id
        assert old and all(re.fullmatch(r"\w+", piece) for piece in old), (post_id, old)
        assert new[0] not in ids_once, (post_id, new)   # no one new shares an old id
