"""``mmbdeid sample`` (issue 33): the chosen posts keep every field and the dump's order,
the same seed gives the same sample, uncertainty picks the posts with tokens near the
threshold, and bad input is one line naming the file, exit 2, no output."""
import json
import os

import pytest

from mmbdeid.cli import main

from jsonl_files import read_jsonl, write_jsonl

# Fictional posts: the bundled model scores a token of a6 (Ember, 0.11) and two of a8
# (0.036, 0.016) within a factor of ten of the threshold 0.05; the others' names are far
# above it (Margaret, Okonkwo, Brindle, Quorra, Hollins, Bev: > 0.6) or they have none.
UNCERTAIN = [
    ("a1", "t1", "thanks for the tips, the new dose is working well for me."),
    ("a2", "t1", "i had the same side effects last winter and they went away."),
    ("a3", "t2", "Thanks Margaret, I will ask Dr Okonkwo about it tomorrow."),
    ("a4", "t2", "Went to Hollins with Tam for the scan, Bev came too."),
    ("a5", "t3", "my scan is next week, fingers crossed everyone."),
    ("a6", "t3", "Saw Brindle at the clinic, and Quorra says hi to Ember."),
    ("a7", "t4", "the nurse said to rest and drink plenty of water."),
    ("a8", "t4", "Ask Sunny or Rocky, they went to Juniper last year."),
]


def _dump(tmp_path, count=40):
    posts = [{"id": "p%d" % i, "board": "b%d" % (i % 2), "thread": "t%d" % (i % 7),
              "author": "u%d" % i, "text": "post number %d" % i, "extra": [i, None]}
             for i in range(count)]
    return write_jsonl(tmp_path / "dump.jsonl", posts), posts


def _sample(*argv):
    return main(["sample"] + [str(a) for a in argv] + ["-q", "-j", "1"])


@pytest.mark.parametrize("rule", ["random", "stratified"])
def test_same_seed_same_sample_every_field_in_order(tmp_path, rule):
    dump, posts = _dump(tmp_path)
    outs = []
    for name, seed in (("a.jsonl", 3), ("b.jsonl", 3), ("c.jsonl", 4)):
        assert _sample(dump, "-n", 10, "--by", rule, "--seed", seed,
                       "-o", tmp_path / name) == 0
        outs.append(read_jsonl(tmp_path / name))
    assert outs[0] == outs[1] != outs[2]
    assert os.stat(tmp_path / "a.jsonl").st_mode & 0o777 == 0o600     # it holds names
    assert len(outs[0]) == 10
    chosen = outs[0]
    assert all(post in posts for post in chosen)       # every field, as it was
    assert [posts.index(p) for p in chosen] == sorted(posts.index(p) for p in chosen)
    if rule == "stratified":
        threads = [p["thread"] for p in chosen]
        assert max(threads.count(t) for t in threads) <= 3


def test_uncertainty_picks_the_posts_with_tokens_near_the_threshold(tmp_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", [
        {"id": i, "board": "b", "thread": t, "text": text} for i, t, text in UNCERTAIN])
    out = tmp_path / "to_tag.jsonl"
    assert _sample(dump, "-n", 2, "--by", "uncertainty", "--threshold", 0.05,
                   "-o", out) == 0
    assert [p["id"] for p in read_jsonl(out)] == ["a6", "a8"]


BAD = [
    ('{"id": "p1", "text": "fine"}\n{"id": "p2", "text": \n', [], "dump.jsonl:2: malformed JSON"),
    ('{"id": "p1", "text": "fine"}\n{"text": "no id"}\n', [], "dump.jsonl:2: missing field 'id'"),
    ("", [], "dump.jsonl: empty file"),
    ('{"id": "p1", "text": "fine"}\n', ["-n", "0"], "-n must be at least 1"),
    ('{"id": "p1", "text": "fine"}\n', ["--stats", "s.stats"],
     "--stats goes with --by uncertainty (--by random runs no model)"),
]


@pytest.mark.parametrize("content, options, message", BAD)
def test_bad_input_one_line_exit_2_no_output(tmp_path, capsys, content, options, message):
    dump = tmp_path / "dump.jsonl"
    dump.write_text(content, encoding="utf-8")
    assert _sample(dump, "--by", "random", "-o", tmp_path / "out.jsonl", *options) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and error.startswith("mmbdeid: error: ")
    assert message in error
    assert os.listdir(tmp_path) == ["dump.jsonl"]
