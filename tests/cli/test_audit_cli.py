"""mmbdeid audit on the command line: the parts of usernames it does not search (ordinary
words) are counted on stderr, which holds no names, and listed only in the private file
``--unsearched`` names (issue 29)."""
import json
import os
import re
import stat

import pytest

from mmbdeid.audit import audit_file
from mmbdeid.cli import main

POSTS = [{"id": "p%d" % i, "author": author, "text": text} for i, (author, text) in enumerate([
    ("kaygirl96", "Round three done, [NAME] drove me."),
    ("hopefulmama", "Hugs to everyone, see you Tuesday."),
    ("kaygirl96", "My girl made soup, mama would be proud."),
])]
FRAGMENTS = {"girl", "mama"}        # of kaygirl96 and hopefulmama, not searched


@pytest.fixture
def dump(tmp_path):
    path = tmp_path / "scrubbed.jsonl"
    path.write_text("".join(json.dumps(post) + "\n" for post in POSTS), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("listed, says", [
    (False, "--unsearched FILE lists them"),
    (True, "listed in "),
])
def test_stderr_counts_the_unsearched_words_and_names_none(tmp_path, dump, capsys,
                                                           listed, says):
    unsearched = audit_file(dump)[1].unchecked
    assert FRAGMENTS <= set(unsearched)
    words = tmp_path / "unsearched.txt"
    assert main(["audit", dump] + (["--unsearched", str(words)] if listed else [])) == 0
    err = capsys.readouterr().err
    assert not [word for word in unsearched if re.search(r"\b%s\b" % re.escape(word), err)]
    assert "mmbdeid: %d parts of usernames and names not searched (ordinary words): %s" % (
        len(unsearched), says) in err
    assert words.exists() == listed
    if listed:
        assert words.read_text(encoding="utf-8").splitlines() == unsearched
        assert stat.S_IMODE(os.stat(words).st_mode) == 0o600


def test_quiet_still_writes_the_list(tmp_path, dump, capsys):
    words = tmp_path / "unsearched.txt"
    assert main(["audit", dump, "--unsearched", str(words), "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert FRAGMENTS <= set(words.read_text(encoding="utf-8").splitlines())


def test_the_list_is_refused_on_an_input(tmp_path, dump, capsys):
    before = open(dump, "rb").read()
    assert main(["audit", dump, "--unsearched", dump]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is also an input of this run" in err
    assert open(dump, "rb").read() == before


# --- what it searched (issue 30) ---------------------------------------------------------

def test_the_last_line_says_what_was_searched_never_a_bare_count(dump, capsys):
    assert main(["audit", dump]) == 0
    out, err = capsys.readouterr()
    last = err.splitlines()[-1]
    assert last.startswith("mmbdeid: 0 leaks among 2 usernames, ")
    assert "near-misses of the model listed" in last or "near-miss of" in last
    assert "not searched: " in last and "lower-case names" in last
    assert "0 leaks found" not in err
    assert all(line.startswith("post ") for line in out.splitlines())


def test_spans_need_the_original(tmp_path, dump, capsys):
    spans = tmp_path / "spans.jsonl"
    spans.write_text("", encoding="utf-8")
    assert main(["audit", dump, "--spans", str(spans)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--spans needs --original" in err


def test_a_removed_span_left_in_its_post_fails_the_audit(tmp_path, capsys):
    original = tmp_path / "dump.jsonl"
    original.write_text(json.dumps({"id": "a", "author": "kaygirl96",
                                    "text": "Will is coming. Will said so."}) + "\n",
                        encoding="utf-8")
    scrubbed = tmp_path / "out.jsonl"
    scrubbed.write_text(json.dumps({"id": "a", "author": "kaygirl96",
                                    "text": "[NAME] is coming. Will said so."}) + "\n",
                        encoding="utf-8")
    spans = tmp_path / "spans.jsonl"
    spans.write_text(json.dumps({"id": "a", "spans": [
        {"start": 0, "end": 4, "label": "NAME", "prob": 0.9, "source": "crf"}]}) + "\n",
        encoding="utf-8")
    assert main(["audit", str(scrubbed), "--original", str(original),
                 "--spans", str(spans)]) == 1
    out, err = capsys.readouterr()
    assert 'post a chars 18-22: "Will" (removed)' in out.splitlines()
    assert "1 leak among 1 username, " in err and "1 post's removed spans" in err
    assert "Will" not in err
