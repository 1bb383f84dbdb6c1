"""evaluate --people through the command line: a person-mode scrub of a tiny gold file
(tests/fixtures/tiny_people.annotated.jsonl) scored against its gold persons."""
import json
import os
import re

import pytest

import paths
from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main

GOLD = os.path.join(paths.FIXTURES, "tiny_people.annotated.jsonl")
# the figures the gold alone decides, then those of the run, in this order
REPORT = [r"threshold       0\.05",
          r"mode            (pseudonym|surrogate), scope board",
          r"mentions        27 \(8 by authors; not removed \d+\)",
          r"people          8 \(4 who never post\)",
          r"link precision  [01]\.\d{4} \(\d+ of \d+ pairs given one id share a person\)",
          r"link recall     [01]\.\d{4} \(\d+ of 44 pairs of one person given one id\)",
          r"wrong merges    \d+ \(\d+ across threads\)",
          r"splits          \d+"]


def evaluate(capsys, *options):
    status = main(["evaluate", GOLD, "--people", "-q"] + [str(o) for o in options])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_report_and_json_agree(tmp_path, capsys):
    figures_path = tmp_path / "identity.json"
    status, lines, err = evaluate(capsys, "--json", figures_path)
    assert (status, err) == (0, [])
    for line, pattern in zip(lines, REPORT):
        assert re.fullmatch(pattern, line), line
    figures = json.loads(figures_path.read_text(encoding="utf-8"))
    assert os.stat(figures_path).st_mode & 0o777 == 0o600      # it holds names
    assert lines[4].split()[2] == "%.4f" % figures["precision"]
    assert lines[5].split()[2] == "%.4f" % figures["recall"]
    merges = [line for line in lines if line.startswith("merge ")]
    splits = [line for line in lines if line.startswith("split ")]
    assert [m["tool"] for m in figures["merges"]] == [m.split()[1].rstrip(":") for m in merges]
    assert [s["person"] for s in figures["splits"]] == [s[6:-1] for s in splits]
    assert lines[6] == "wrong merges    %d (%d across threads)" % (
        len(merges), figures["merges_across_threads"])


def test_surrogate_mode_gives_its_persons_the_same_ids(capsys):
    # both person modes take their ids from one linking: the figures are the same
    status, pseudonym, _ = evaluate(capsys)
    status_surrogate, surrogate, _ = evaluate(capsys, "--mode", "surrogate")
    assert (status, status_surrogate) == (0, 0)
    assert surrogate[1] == "mode            surrogate, scope board"
    assert surrogate[2:] == pseudonym[2:]


def test_gold_without_persons_is_refused_in_one_line(tmp_path, capsys):
    gold = tmp_path / "plain.jsonl"
    write_jsonl(gold, [dict(post, spans=[{k: v for k, v in span.items() if k != "person"}
                                         for span in post["spans"]])
                       for post in read_jsonl(GOLD)])
    status = main(["evaluate", str(gold), "--people", "-q", "--json",
                   str(tmp_path / "out.json")])
    err = capsys.readouterr().err.splitlines()
    assert status == 2
    assert err == ["mmbdeid: error: %s: no span has a 'person': --people needs gold person "
                   "identities (a member's username, or ~id for someone who never posts, "
                   "on NAME and USER spans)" % gold]
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("options, message", [
    (["--mode", "surrogate"], "--mode needs --people"),
    (["--scope", "dump", "--json", "x.json"], "--scope, --json need --people"),
    (["--map", "people.map"], "--map needs --people"),
    (["--people", "--by", "board"], "--by does not go with --people (it lists tokens; "
                                    "--people scores persons)"),
])
def test_options_that_do_not_go_together(capsys, options, message):
    assert main(["evaluate", GOLD, "-q"] + options) == 2
    assert capsys.readouterr().err.splitlines() == ["mmbdeid: error: " + message]


def _joined(map_text, first, second):
    """The map with the line holding name ``second`` merged into the one holding ``first``
    (the edit a user makes to say two ids are one person)."""
    lines = map_text.splitlines()
    keep = next(line for line in lines if " | %s (" % first in line)
    moved = next(line for line in lines if " | %s (" % second in line)
    return "\n".join(keep + moved.split(" ", 1)[1][1:] if line == keep else line
                     for line in lines if line != moved) + "\n"


def test_an_edited_map_is_what_is_scored(tmp_path, capsys):
    """--map scores the map the user edited: joining Will's line (IVF board) and Bill's
    (dementia board) makes one tool person of two gold people."""
    people_map = tmp_path / "people.map"
    assert main(["link", GOLD, "-o", str(people_map), "-q"]) == 0
    status, linked, _ = evaluate(capsys)
    status_map, as_linked, _ = evaluate(capsys, "--map", people_map)
    assert (status, status_map) == (0, 0)
    assert as_linked[1] == "mode            pseudonym, scope board, map %s" % people_map
    assert as_linked[2:] == linked[2:]          # the map unedited: the same figures
    joined = tmp_path / "joined.map"
    joined.write_text(_joined(people_map.read_text(encoding="utf-8"), "Will", "Bill"),
                      encoding="utf-8")
    status, edited, _ = evaluate(capsys, "--map", joined)
    assert status == 0
    assert float(edited[4].split()[2]) < float(linked[4].split()[2]) == 1.0
    assert edited[6] == "wrong merges    1 (1 across threads)"
    merge = edited.index(next(line for line in edited if line.startswith("merge ")))
    assert edited[merge + 1:merge + 3] == ["  ~bill-care: 'Bill' in c1-1, 'Bill' in c1-3",
                                           "  ~will-ivf: 'Will' in i1-1"]


def test_a_bad_map_is_refused_before_any_work(tmp_path, capsys):
    bad = tmp_path / "bad.map"
    bad.write_text("U1 | @a | Ann (1)\nU1 | @b | Bob (1)\n", encoding="utf-8")
    figures = tmp_path / "out.json"
    assert main(["evaluate", GOLD, "--people", "-q", "--map", str(bad),
                 "--json", str(figures)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["mmbdeid: error: %s:2: this line's person id is also on line 1" % bad]
    assert not figures.exists()
