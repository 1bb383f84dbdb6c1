"""Every output option writes the format its file name says, or is refused before any work
with one line naming the option and the extensions it takes (exit 2, nothing written).
The posts are fictional."""
import gzip
import json
import os
import sys

import pytest

from slow_cases import slow_except
from jsonl_files import write_jsonl
from mmbdeid.cli import main

POSTS = [
    {"id": "a1", "board": "bc", "thread": "t1", "author": "kaygirl",
     "text": "Hi all, finished rads today.\nHugs,\nKay"},
    {"id": "a2", "board": "bc", "thread": "t1", "author": "boo",
     "text": "Hi Kay! Write to boo@example.com.\nBarb"},
    {"id": "a3", "board": "bc", "thread": "t2", "author": "tiger", "text": None},
]
MAGIC = [(b"\x89PNG", "png"), (b"%PDF", "pdf"), (b"%!PS-Adobe-3.0 EPSF", "eps"),
         (b"%!PS", "ps"), (b"\xff\xd8\xff", "jpeg"), (b"II*\x00", "tiff"),
         (b"PK\x03\x04", "model"), (b"SQLite format 3\x00", "stats")]


def written_format(path):
    """What a file holds, by its bytes: gzip (then what is inside + '.gz'), an image, a
    zip (model), SQLite (stats), HTML, SVG, JSON Lines, TSV, CSV or a person map."""
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        inner = path + ".inner"
        open(inner, "wb").write(gzip.decompress(data))
        return written_format(inner) + ".gz"
    for magic, name in MAGIC:
        if data.startswith(magic):
            return name
    text = data.decode("utf-8")
    if "<svg" in text[:500]:
        return "svg"
    if text.lower().startswith("<!doctype html"):
        return "html"
    if text.startswith("# mmbdeid person map"):
        return "map"
    first = text.splitlines()[0]
    if first.startswith("{"):
        for line in text.splitlines():
            json.loads(line)
        return "jsonl"
    return "tsv" if "\t" in first else "csv"


@pytest.fixture
def inputs(tmp_path, tiny_corpus_path, tiny_model_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS[:2])
    bad = write_jsonl(tmp_path / "bad.jsonl", POSTS)
    return {"DUMP": dump, "BAD": bad, "GOLD": tiny_corpus_path, "MODEL": tiny_model_path,
            "OUT": str(tmp_path / "out")}


def _argv(template, inputs, tmp_path):
    """The command's words: DUMP, BAD, GOLD, MODEL as the inputs, @name as an output."""
    return [inputs.get(word, str(tmp_path / word[1:]) if word.startswith("@") else word)
            for word in template.split()]


# (command with its outputs; the output to look at, the format it must hold)
WRITTEN = [
    ("review DUMP --model MODEL -o @r.csv", "r.csv", "csv"),
    ("review DUMP --model MODEL -o @r.tsv", "r.tsv", "tsv"),
    ("review DUMP --model MODEL -o @r.jsonl", "r.jsonl", "jsonl"),
    ("review DUMP --model MODEL -o @r.csv.gz", "r.csv.gz", "csv.gz"),
    ("review DUMP --model MODEL -o @r.jsonl.gz --html @page.htm", "r.jsonl.gz", "jsonl.gz"),
    ("review DUMP --model MODEL -o @r.jsonl.gz --html @page.htm", "page.htm", "html"),
    ("review DUMP --model MODEL -o @list", "list", "csv"),
    ("evaluate GOLD --model MODEL --errors @e.tsv", "e.tsv", "tsv"),
    ("evaluate GOLD --model MODEL --errors @e.jsonl.gz", "e.jsonl.gz", "jsonl.gz"),
    ("sweep GOLD --model MODEL -o @c.jsonl --plot @c.pdf", "c.jsonl", "jsonl"),
    ("sweep GOLD --model MODEL -o @c.jsonl --plot @c.pdf", "c.pdf", "pdf"),
    ("sweep GOLD --model MODEL -o @c.tsv.gz --plot @c.svg", "c.tsv.gz", "tsv.gz"),
    ("sweep GOLD --model MODEL -o @c.tsv.gz --plot @c.svg", "c.svg", "svg"),
    ("sweep GOLD --model MODEL -o @c --plot @c.eps", "c", "csv"),
    ("sweep GOLD --model MODEL -o @c --plot @c.eps", "c.eps", "eps"),
    ("sweep GOLD --model MODEL --plot @c.jpg", "c.jpg", "jpeg"),
    ("sweep GOLD --model MODEL --plot @curve", "curve", "png"),
    ("crossval GOLD --folds 2 --max-iterations 5 -o @cv.jsonl --plot @cv.ps", "cv.jsonl",
     "jsonl"),
    ("crossval GOLD --folds 2 --max-iterations 5 -o @cv.jsonl --plot @cv.ps", "cv.ps", "ps"),
    ("scrub BAD --model MODEL -o @o.tsv --spans @s.jsonl.gz --skip-bad --rejects @r.jsonl.gz",
     "o.tsv", "tsv"),
    ("scrub BAD --model MODEL -o @o.tsv --spans @s.jsonl.gz --skip-bad --rejects @r.jsonl.gz",
     "s.jsonl.gz", "jsonl.gz"),
    ("scrub BAD --model MODEL -o @o.tsv --spans @s.jsonl.gz --skip-bad --rejects @r.jsonl.gz",
     "r.jsonl.gz", "jsonl.gz"),
    ("link DUMP --model MODEL -o @people.txt", "people.txt", "map"),
    ("stats DUMP -o @dump.db", "dump.db", "stats"),
    ("scrub DUMP --model MODEL -o @o.jsonl --stats @d.sqlite", "d.sqlite", "stats"),
    ("train GOLD --max-iterations 5 -o @m.zip", "m.zip", "model"),
    ("train GOLD --max-iterations 5 -o @board.model", "board.model", "model"),
    ("split GOLD -o @train.tsv.gz --dev @dev.csv", "train.tsv.gz", "tsv.gz"),
    ("split GOLD -o @train.tsv.gz --dev @dev.csv", "dev.csv", "csv"),
]


# An output of most commands in the default run; the others are marked slow.
DEFAULT_RUN_OUTPUTS = {"page.htm", "e.tsv", "curve", "s.jsonl.gz", "people.txt", "dump.db",
                       "m.zip"}


@pytest.mark.parametrize("template, output, expected", slow_except(
    WRITTEN, [written for written in WRITTEN if written[1] in DEFAULT_RUN_OUTPUTS]))
def test_each_output_holds_the_format_its_name_says(tmp_path, capsys, inputs, template,
                                                    output, expected):
    if expected in ("pdf", "svg", "eps", "ps", "png", "jpeg"):
        pytest.importorskip("matplotlib")
    if expected == "jpeg":
        pytest.importorskip("PIL")
    argv = _argv(template, inputs, tmp_path)
    if argv[0] in ("scrub", "review", "link", "stats"):
        argv += ["--jobs", "1", "--quiet"]
    assert main(argv) == 0, capsys.readouterr().err
    assert written_format(str(tmp_path / output)) == expected


# (command, the option refused as the message names it, the extensions it offers)
REFUSED = [
    ("train MISSING -o @m.csv", "train -o", ".mmbdeid, .zip"),
    ("train MISSING -o @m.mmbdeid.gz", "train -o", ".mmbdeid, .zip"),
    ("train MISSING -o @m.mmbdeid --stats @s.jsonl", "train --stats", ".stats, .sqlite"),
    ("scrub MISSING -o @o.jsonl --spans @s.csv", "scrub --spans", ".jsonl, .ndjson"),
    ("scrub MISSING -o @o.jsonl --skip-bad --rejects @r.txt", "scrub --rejects", ".jsonl"),
    ("scrub MISSING -o @o.jsonl --stats @s.parquet", "scrub --stats", ".stats"),
    ("link MISSING -o @people.json", "link -o", ".map, .txt"),
    ("link MISSING -o @people.map.gz", "link -o", ".map, .txt"),
    ("review MISSING -o @r.xlsx", "review -o", ".csv, .tsv, .jsonl"),
    ("review MISSING -o @r.parquet", "review -o", "(each also .gz)"),
    ("review MISSING -o @r.csv.bz2", "review -o", ".csv, .tsv, .jsonl"),
    ("review MISSING -o @r.csv --html @r.pdf", "review --html", ".html, .htm"),
    ("review MISSING -o @r.csv --html @r.html.gz", "review --html", ".html, .htm"),
    ("evaluate MISSING --errors @e.txt", "evaluate --errors", ".csv, .tsv, .jsonl"),
    ("evaluate MISSING --errors @errors", "evaluate --errors", "a name without an extension"),
    ("sweep MISSING -o @c.png", "sweep -o", ".csv, .tsv, .jsonl"),
    ("sweep MISSING --plot @c.txt", "sweep --plot", ".png, .pdf, .svg"),
    ("sweep MISSING --plot @c.csv", "sweep --plot", ".png, .pdf, .svg"),
    ("sweep MISSING --plot @c.png.gz", "sweep --plot", ".png, .pdf, .svg"),
    ("crossval MISSING -o @cv.pdf", "crossval -o", ".csv, .tsv, .jsonl"),
    ("crossval MISSING --plot @cv.html", "crossval --plot", ".png, .pdf, .svg"),
    ("stats MISSING -o @s.csv", "stats -o", ".stats, .sqlite, .sqlite3, .db"),
    ("stats MISSING -o @s.gz", "stats -o", ".stats, .sqlite, .sqlite3, .db"),
]


@pytest.mark.parametrize("template, option, offered", REFUSED)
def test_a_name_for_another_format_is_refused_before_any_work(tmp_path, capsys, template,
                                                              option, offered):
    # MISSING does not exist: the name is refused before any input is read
    argv = _argv(template, {"MISSING": str(tmp_path / "missing.jsonl")}, tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.jsonl" not in err
    assert (" %s writes " % option) in err and offered in err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("template", [
    "scrub GOLD -o @o.xlsx",
    "split GOLD -o @train.xlsx --dev @dev.jsonl",
])
def test_posts_outputs_refuse_unknown_extensions_too(tmp_path, capsys, inputs, template):
    before = sorted(os.listdir(tmp_path))
    assert main(_argv(template, inputs, tmp_path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown output extension '.xlsx'" in err
    assert sorted(os.listdir(tmp_path)) == before


def test_a_jpeg_plot_without_pillow_is_refused_naming_the_others(tmp_path, capsys,
                                                                   monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)          # import fails
    plot = tmp_path / "c.jpg"
    assert main(["sweep", str(tmp_path / "missing.jsonl"), "--plot", str(plot)]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: %s: sweep --plot: .jpg needs Pillow (pip install pillow); without "
        "it use .png, .pdf, .svg, .eps, .ps\n" % plot)
    assert not plot.exists()


def test_review_rows_are_the_same_in_every_table_format(tmp_path, inputs):
    rows = {}
    for name in ("r.csv", "r.tsv", "r.jsonl"):
        assert main(["review", inputs["DUMP"], "--model", inputs["MODEL"], "-o",
                     str(tmp_path / name), "--jobs", "1", "--quiet"]) == 0
        rows[name] = _table(str(tmp_path / name))
    assert rows["r.csv"] == rows["r.tsv"]
    assert rows["r.csv"] and rows["r.csv"] == [
        dict(row, count=str(row["count"]), mean_prob="%.4f" % row["mean_prob"],
             post_ids=";".join(row["post_ids"])) for row in rows["r.jsonl"]]


def _table(path):
    import csv
    if path.endswith(".jsonl"):
        return [json.loads(line) for line in open(path, encoding="utf-8")]
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t" if path.endswith(".tsv") else ","))
