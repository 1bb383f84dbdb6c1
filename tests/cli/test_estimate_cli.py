"""mmbdeid estimate on the command line (issue 33): draw a sample of a scrubbed dump, mark
it, report the leak share with its interval; bad input is one line naming the file (and
line), exit status 2, and nothing written."""
import json
import os
import subprocess
import sys

import pytest

from mmbdeid.cli import main
from jsonl_files import read_jsonl, write_jsonl


def _posts(count=120):
    return [{"id": "p%d" % i, "text": "Thanks [NAME], see post %d" % i,
             "board": "ab"[i % 3 == 0], "thread": "t%d" % (i // 6), "likes": i}
            for i in range(count)]


@pytest.fixture
def dump(tmp_path):
    return write_jsonl(tmp_path / "scrubbed.jsonl", _posts())


def _mark(sample, marked, leaking=(), label="NAME"):
    """The sample with a span on the first word of the posts whose ids are ``leaking``."""
    records = read_jsonl(sample)
    for record in records:
        record["spans"] = ([{"start": 0, "end": 6, "label": label}]
                           if record["id"] in leaking else [])
    return write_jsonl(marked, records)


def _error(capsys):
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_draw_mark_report(tmp_path, dump, capsys):
    sample, meta = tmp_path / "sample.jsonl", tmp_path / "sample.meta.json"
    assert main(["estimate", "draw", dump, "-o", str(sample), "--upper-bound", "0.05",
                 "--seed", "3", "--by", "thread"]) == 0
    assert "drew 59 of 120 posts (by thread, 20 strata)" in capsys.readouterr().err
    drawn = read_jsonl(sample)
    assert len(drawn) == 59 and all(set(r) == {"id", "text", "board", "thread", "likes"}
                                    for r in drawn)
    assert oct(os.stat(sample).st_mode & 0o777) == oct(0o600)
    settings = json.loads(meta.read_text())
    assert settings["size"] == {"rule": "upper-bound", "requested": 59, "upper_bound": 0.05}
    marked = _mark(sample, tmp_path / "marked.jsonl", leaking={drawn[4]["id"]})
    report, as_json = tmp_path / "report.md", tmp_path / "report.json"
    assert main(["estimate", "report", marked, "--draw-info", str(meta), "-o", str(report),
                 "--json", str(as_json), "--target", "0.02"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("1 of 59 posts leak (1.69%): the leak share is below 7.")
    assert out[1].startswith("For a bound below 2.00%: ")
    figures = json.loads(as_json.read_text())
    assert figures["data"]["records"] == 120 and figures["sample"]["seed"] == 3
    assert figures["marks"]["leaking_ids"] == [drawn[4]["id"]]
    assert figures["estimate"]["clopper_pearson"][1] == pytest.approx(0.0908, abs=5e-4)
    assert report.read_text().startswith("# Leak share of a scrubbed dump\n")


def test_the_same_seed_gives_the_same_sample(tmp_path, dump):
    outputs = []
    for name in ("one", "two"):
        path = tmp_path / ("%s.jsonl" % name)
        assert main(["estimate", "draw", dump, "-o", str(path), "--n", "30",
                     "--seed", "8"]) == 0
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("size, posts", [(["--n", "25"], 25), (["--margin", "0.1"], 97),
                                         (["--margin", "0.1", "--expected", "0.1"], 35),
                                         (["--upper-bound", "0.01"], 120)])
def test_the_sample_size_from_its_rule(tmp_path, dump, size, posts):
    sample = tmp_path / "sample.jsonl"
    assert main(["estimate", "draw", dump, "-o", str(sample)] + size) == 0
    assert len(read_jsonl(sample)) == posts        # 299 asked of 120 posts: all of them


def test_standard_input_is_drawn_from(tmp_path, dump):
    sample, meta = tmp_path / "sample.jsonl", tmp_path / "draw.json"
    with open(dump, "rb") as handle:
        done = subprocess.run([sys.executable, "-m", "mmbdeid", "estimate", "draw", "-",
                               "-o", str(sample), "--meta", str(meta), "--n", "10"],
                              stdin=handle, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(read_jsonl(sample)) == 10
    assert json.loads(meta.read_text())["scrubbed"]["records"] == 120
    marked = _mark(sample, tmp_path / "marked.jsonl")
    with open(marked, "rb") as handle:
        done = subprocess.run([sys.executable, "-m", "mmbdeid", "estimate", "report", "-",
                               "--draw-info", str(meta), "-o", "-"],
                              stdin=handle, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "**0 of 10 posts leak (0.00%)" in done.stdout


def _draw(tmp_path, dump, n="20"):
    sample = tmp_path / "sample.jsonl"
    assert main(["estimate", "draw", dump, "-o", str(sample), "--n", n]) == 0
    return sample, str(tmp_path / "sample.meta.json")


def test_marks_on_posts_not_drawn_are_refused(tmp_path, dump, capsys):
    sample, meta = _draw(tmp_path, dump)
    records = read_jsonl(sample)
    records[3]["id"] = "p-other"
    marked = write_jsonl(tmp_path / "marked.jsonl", [dict(r, spans=[]) for r in records])
    report = tmp_path / "report.md"
    capsys.readouterr()
    assert main(["estimate", "report", marked, "--draw-info", meta, "-o", str(report)]) == 2
    assert _error(capsys) == ("mmbdeid: error: %s:4: post 'p-other' is not in the draw of "
                              "%s: mark the sample that draw wrote" % (marked, meta))
    assert not report.exists()


def test_marks_on_another_text_than_the_drawn_one_are_refused(tmp_path, dump, capsys):
    """The posts of the dump before scrubbing (or of another scrub) have the drawn ids but
    not the drawn texts: marking them would measure another file."""
    sample, meta = _draw(tmp_path, dump)
    records = read_jsonl(sample)
    records[5]["text"] = records[5]["text"].replace("[NAME]", "Maren")
    marked = write_jsonl(tmp_path / "marked.jsonl", [dict(r, spans=[]) for r in records])
    capsys.readouterr()
    assert main(["estimate", "report", marked, "--draw-info", meta, "-o",
                 str(tmp_path / "report.md")]) == 2
    assert _error(capsys) == (
        "mmbdeid: error: %s:6: post %r has another text than the one drawn (%s): mark the "
        "sample that draw wrote, not the dump before scrubbing or another scrub of it"
        % (marked, records[5]["id"], meta))
    assert not (tmp_path / "report.md").exists()


@pytest.mark.parametrize("line, message", [
    ('{"id": "p1", "text": "x", "spans": [}', ":3: malformed JSON"),
    ('{"id": "p1", "text": "x"}', ":3: missing field 'spans'"),
    ('{"id": "p1", "text": "x", "spans": [{"start": 0, "end": 9, "label": "NAME"}]}',
     ":3: spans[0]: offsets 0-9 outside the text (length 1) or empty"),
])
def test_a_malformed_marked_line_is_one_line_with_its_number(tmp_path, dump, capsys, line,
                                                            message):
    marked = tmp_path / "marked.jsonl"
    marked.write_text('{"id": "a", "text": "x", "spans": []}\n'
                      '{"id": "b", "text": "x", "spans": []}\n' + line + "\n",
                      encoding="utf-8")
    report, as_json = tmp_path / "report.md", tmp_path / "report.json"
    assert main(["estimate", "report", str(marked), "-o", str(report),
                 "--json", str(as_json)]) == 2
    error = _error(capsys)
    assert error.startswith("mmbdeid: error: %s%s" % (marked, message)), error
    assert not report.exists() and not as_json.exists()


@pytest.mark.parametrize("arguments, message", [
    (["draw", "{dump}", "-o", "{tmp}/s.jsonl"], "one of the arguments --n --margin "
     "--upper-bound is required"),
    (["draw", "{dump}", "-o", "{tmp}/s.jsonl", "--n", "5", "--margin", "0.1"],
     "argument --margin: not allowed with argument --n"),
    (["draw", "{dump}", "-o", "{tmp}/s.jsonl", "--n", "5", "--expected", "0.1"],
     "--expected goes with --margin"),
    (["draw", "{dump}", "-o", "{tmp}/s.jsonl", "--upper-bound", "1"],
     "--upper-bound must be"),
    (["draw", "{dump}", "-o", "{tmp}/s.csv", "--n", "5"], "estimate draw -o writes JSON "
     "Lines"),
    (["draw", "{dump}", "-o", "-", "--n", "5"], "name their file with --meta"),
    (["draw", "{tmp}/missing.jsonl", "-o", "{tmp}/s.jsonl", "--n", "5"], "missing.jsonl"),
    (["report", "{dump}", "-o", "{tmp}/r.md"], "missing field 'spans'"),
    (["report", "{tmp}/m.jsonl", "-o", "{tmp}/r.txt"], "estimate report -o writes "
     "Markdown"),
    (["report", "{tmp}/m.jsonl", "-o", "{tmp}/r.md", "--draw-info", "{dump}"],
     "not valid JSON"),
    (["report", "{tmp}/m.jsonl", "-o", "{tmp}/r.md", "--target", "0"], "--target must be"),
])
def test_bad_usage_and_input_are_one_line_exit_2_nothing_written(tmp_path, dump, capsys,
                                                                arguments, message):
    write_jsonl(tmp_path / "m.jsonl", [{"id": "a", "text": "x", "spans": []}])
    before = set(os.listdir(tmp_path))
    argv = ["estimate"] + [a.format(dump=dump, tmp=tmp_path) for a in arguments]
    assert main(argv) == 2
    error = _error(capsys)
    assert error.startswith("mmbdeid: error: ") and message in error, error
    assert set(os.listdir(tmp_path)) == before
