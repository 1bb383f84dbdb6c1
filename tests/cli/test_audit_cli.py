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
