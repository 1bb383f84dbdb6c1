"""``evaluate --errors``: the misses and false removals behind the figures, with context."""
import csv
import json
import os
import re

import pytest

from jsonl_files import write_jsonl
from mmbdeid.cli import main
from mmbdeid.evaluation.error_list import DocumentSource, list_errors
from mmbdeid.files.corpora import LabelledDocument
from mmbdeid.text.document import Document

# Fictional gold posts. "Dr" is tagged a name and "@kaygirl" is left untagged on purpose:
# a miss and a false removal (a handle is removed by pattern, probability 1).
GOLD = [
    {"id": "g1", "board": "ra", "thread": "t1", "author": "sunnyknits",
     "text": "Thanks Linda, my rheumy Dr says Humira is fine.\nMaggie",
     "spans": [{"start": 7, "end": 12, "label": "NAME"}, {"start": 24, "end": 26, "label": "NAME"},
               {"start": 48, "end": 54, "label": "NAME"}]},
    {"id": "g 2", "board": "ra", "thread": "t1", "author": "lindalou",
     "text": "Ask @kaygirl about the pads, or mail kay@example.org today.", "spans": []},
    {"id": 3, "board": "ra", "thread": "t2", "author": "quietday",
     "text": "Nothing new, just tired today.", "spans": []},
]
# A drug name tagged as a person: the drug filter scores it 0, so it is always missed.
CONLL = "Thanks\tO\nLinda\tB-person\n!\tO\n\nMy\tO\nrheumy\tO\nput\tO\nme\tO\non\tO\n" \
        "Humira\tB-person\n.\tO\n"


# --- the listing, on scores given by hand ------------------------------------------------

def _labelled(text, labels):
    document = Document.from_text(text)
    assert len(document.tokens) == len(labels), document.tokens
    return LabelledDocument(document, labels)


@pytest.mark.parametrize("labels,scores,threshold,expected", [
    # a name above the threshold is found; one at it is missed (removed means above)
    (["O", "NAME", "O"], [0.01, 0.9, 0.01], 0.5, []),
    (["O", "NAME", "O"], [0.01, 0.5, 0.01], 0.5, [("miss", "Kay", "NAME", 0.5, "Hi [Kay] !")]),
    # a non-name above the threshold is a false removal; a USER counts as a name
    (["O", "USER", "O"], [0.6, 0.01, 0.0], 0.5,
     [("false_removal", "Hi", "O", 0.6, "[Hi] Kay !"), ("miss", "Kay", "USER", 0.01, "Hi [Kay] !")]),
    # a token removed by pattern (score None) is neither
    (["O", "NAME", "O"], [None, None, 0.7], 0.05, [("false_removal", "!", "O", 0.7, "Hi Kay [!]")]),
])
def test_list_errors(labels, scores, threshold, expected):
    labelled = [_labelled("Hi Kay !", labels)]
    errors = list(list_errors(labelled, [scores], [DocumentSource("p9", 4)], threshold))
    assert [(e.kind, e.token, e.gold, e.prob, e.context) for e in errors] == expected
    assert all((e.post, e.line) == ("p9", 4) for e in errors)


# --- the command ------------------------------------------------------------------------

def _evaluate(capsys, *argv):
    status = main(["evaluate", *map(str, argv), "-q"])
    return status, capsys.readouterr()


def _read(path):
    if str(path).endswith(".jsonl"):
        with open(path, encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]
    with open(path, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_errors_are_the_expected_tokens_with_context(tmp_path, capsys):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    errors = tmp_path / "errors.csv"
    status, printed = _evaluate(capsys, gold, "--threshold", "0.5", "--errors", errors)
    assert status == 0
    rows = _read(errors)
    assert list(rows[0]) == ["kind", "post", "line", "token", "gold", "prob", "context"]
    assert [(r["kind"], r["post"], r["line"], r["token"], r["gold"], r["context"])
            for r in rows] == [
        ("miss", "g1", "1", "Dr", "NAME", "Thanks Linda, my rheumy [Dr] says Humira is fine. "
                                          "Maggie"),
        # a cell a spreadsheet would run as a formula is written as text (files/spreadsheet.py)
        ("false_removal", "g 2", "2", "'@kaygirl", "O",
         "Ask [@kaygirl] about the pads, or mail kay@example.org ..."),
    ]
    assert float(rows[0]["prob"]) <= 0.5 and float(rows[1]["prob"]) == 1.0
    assert printed.out.splitlines()[-1] == (
        "errors      2 written to %s (1 misses, 1 false removals)" % errors)
    assert oct(os.stat(errors).st_mode & 0o777) == oct(0o600)        # it holds names


def test_conll_errors_give_the_document_number_and_line(tmp_path, capsys):
    gold = tmp_path / "gold.conll"
    gold.write_text(CONLL, encoding="utf-8")
    errors = tmp_path / "errors.jsonl"
    status, _ = _evaluate(capsys, gold, "--threshold", "0.5", "--errors", errors)
    assert status == 0
    assert _read(errors) == [{"kind": "miss", "post": "2", "line": 5, "token": "Humira",
                              "gold": "NAME", "prob": 0.0,
                              "context": "My rheumy put me on [Humira]."}]


@pytest.mark.parametrize("threshold", [None, pytest.param("0.001", marks=pytest.mark.slow),
                                       "0.3"])
@pytest.mark.parametrize("extension", [".csv", pytest.param(".jsonl", marks=pytest.mark.slow)])
def test_error_counts_agree_with_the_summary(tmp_path, capsys, threshold, extension):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    errors = tmp_path / ("errors" + extension)
    options = ["--threshold", threshold] if threshold else []
    status, printed = _evaluate(capsys, gold, *options, "--errors", errors)
    assert status == 0
    plain_status, plain = _evaluate(capsys, gold, *options)
    assert printed.out.splitlines()[:-1] == plain.out.splitlines()   # the summary is unchanged
    found = re.search(r"missed (\d+); non-names \d+: removed (\d+)", printed.out)
    kinds = [row["kind"] for row in _read(errors)]
    assert (kinds.count("miss"), kinds.count("false_removal")) == (
        int(found.group(1)), int(found.group(2)))
    assert len(kinds) == kinds.count("miss") + kinds.count("false_removal")


@pytest.mark.parametrize("name,message", [
    ("errors.txt", "evaluate --errors writes a table (CSV, TSV or JSON Lines): use .csv, "
                   ".tsv, .jsonl, .ndjson, .json (each also .gz); not .txt"),
    ("errors", "not a name without an extension"),
    ("gold.jsonl", None),                    # the gold file itself: never overwritten
])
def test_bad_errors_file_is_refused_before_any_output(tmp_path, capsys, name, message):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    before = sorted(os.listdir(tmp_path))
    status, printed = _evaluate(capsys, gold, "--errors", tmp_path / name)
    assert status == 2 and printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mmbdeid: error: %s: " % (tmp_path / name))
    if message:
        assert lines[0].endswith(message)
    assert sorted(os.listdir(tmp_path)) == before
    assert _read(gold)[0]["id"] == "g1"
