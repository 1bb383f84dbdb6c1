"""Statistics given with ``--stats`` (issue 18): they must come from this very dump, every
field they are built from included, and a damaged or tampered store is refused (one line
naming it, exit 2) without hanging the run or ignoring a stop signal."""
import os
import sqlite3

import pytest

from jsonl_files import write_jsonl
from mmbdeid.cli import main
from mmbdeid.model.stats import DumpFingerprint

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Fictional posts.
POSTS = [
    {"id": "s1", "board": "thyroid", "thread": "t1", "author": "fernhollow",
     "text": "Hi all, my levels came back fine.\nTamsin"},
    {"id": "s2", "board": "thyroid", "thread": "t1", "author": "orla_b", "time": "noon",
     "text": "So glad Tamsin! Ask fernhollow about the clinic."},
    {"id": "s3", "board": "diabetes", "thread": "t2", "author": "quillon7",
     "text": "A1C down again.\nBest, Q"},
]


def fingerprint(posts):
    prints = DumpFingerprint()
    for post in posts:
        prints.add(post)
    return prints.as_source()


def changed(field, value, index=1):
    posts = [dict(post) for post in POSTS]
    if value is None:
        del posts[index][field]
    else:
        posts[index][field] = value
    return posts


@pytest.mark.parametrize("field, value", [
    ("id", "s9"), ("text", "So glad!"), ("board", "diabetes"), ("thread", "t2"),
    ("author", "fernhollow"), ("author", None), ("thread", None),
])
def test_the_fingerprint_covers_every_field_the_statistics_use(field, value):
    assert fingerprint(changed(field, value)) != fingerprint(POSTS)


@pytest.mark.parametrize("field, value", [("time", "dusk"), ("time", None)])
def test_fields_the_statistics_do_not_use_leave_it_alone(field, value):
    assert fingerprint(changed(field, value)) == fingerprint(POSTS)


def test_the_fields_do_not_run_into_each_other():
    # "ab" + "c" and "a" + "bc" in two adjacent fields are two dumps
    one = [dict(POSTS[0], board="ab", thread="c")]
    other = [dict(POSTS[0], board="a", thread="bc")]
    assert fingerprint(one) != fingerprint(other)


def scrub(dump, tmp_path, stats, model, *extra):
    return main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", stats,
                 "--model", model, "-q", "-j", "1"] + list(extra))


def test_statistics_of_a_dump_with_other_authors_are_refused(tmp_path, capsys,
                                                             tiny_model_path):
    # the same ids and texts, other authors: the statistics' usernames are wrong
    first = write_jsonl(tmp_path / "a.jsonl", POSTS)
    other = write_jsonl(tmp_path / "b.jsonl",
                        [dict(post, author=post["author"] + "_x") for post in POSTS])
    stats = str(tmp_path / "a.stats")
    assert main(["stats", first, "-o", stats, "-q", "-j", "1"]) == 0
    assert scrub(first, tmp_path, stats, tiny_model_path) == 0
    capsys.readouterr()
    assert scrub(other, tmp_path, stats, tiny_model_path) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mmbdeid: error: %s: " % stats)
    assert "built from another dump" in err[0] and "authors" in err[0]
    assert scrub(other, tmp_path, stats, tiny_model_path, "--stats-rebuild") == 0
    assert scrub(other, tmp_path, stats, tiny_model_path) == 0        # now they are its own


def test_statistics_whose_fingerprint_left_out_authors_are_refused(tmp_path, capsys,
                                                                   tiny_model_path):
    dump = write_jsonl(tmp_path / "a.jsonl", POSTS)
    stats = str(tmp_path / "a.stats")
    assert main(["stats", dump, "-o", stats, "-q", "-j", "1"]) == 0
    with sqlite3.connect(stats) as connection:      # as an older mmbdeid wrote it
        connection.execute("DELETE FROM meta WHERE key = 'source_fields'")
    capsys.readouterr()
    assert scrub(dump, tmp_path, stats, tiny_model_path) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "older mmbdeid" in err[0] and "--stats-rebuild" in err[0]
