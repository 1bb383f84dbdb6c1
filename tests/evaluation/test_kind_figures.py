"""Figures per kind of identifier (mmbdeid/evaluation/kinds.py, ``evaluate --by kind``),
and the fictional identifier sample they are measured on
(corpora_samples/identifiers.annotated.jsonl): every identifier removed with ``--kinds
safe-harbor``, no lookalike removed."""
import json
import os

import pytest

from mmbdeid.cli import main
from mmbdeid.evaluation.kinds import KindFigures, LookalikeFigures, kind_figures
from mmbdeid.files.corpora import AnnotatedPost
from mmbdeid.files.posts import Record
from mmbdeid.spans import Span

from paths import SAMPLES

SAMPLE = os.path.join(SAMPLES, "identifiers.annotated.jsonl")
TEXT = "at 42 Elm St on March 3, took 500 mg"     # fictional


def _post(gold, keep=()):
    fields = {"id": "p1", "text": TEXT,
              "keep": [{"start": s, "end": e, "what": w} for s, e, w in keep]}
    return AnnotatedPost(Record(1, fields),
                         [Span(label, s, e, 1.0, "gold") for label, s, e in gold])


GOLD = [("ADDRESS", 3, 12), ("DATE", 16, 23)]
DOSE = [(30, 36, "dose")]
NEW_KINDS = ("ADDRESS", "POSTCODE", "ID", "IP", "DATE")


@pytest.mark.parametrize("found, kinds, lookalikes", [
    ([Span("ADDRESS", 3, 12, 1, "x"), Span("DATE", 16, 23, 1, "x")],
     [KindFigures("ADDRESS", 1, 1, 1, 0), KindFigures("DATE", 1, 1, 1, 0)], [("dose", 1, 0)]),
    # a part left is no removal; another label still removes
    ([Span("NAME", 6, 9, 1, "x"), Span("ADDRESS", 16, 23, 1, "x"), Span("NAME", 0, 2, 1, "x")],
     [KindFigures("NAME", 0, 0, 0, 1), KindFigures("ADDRESS", 1, 0, 0, 0),
      KindFigures("DATE", 1, 1, 0, 0)], [("dose", 1, 0)]),
    # a lookalike removed, and counted as the kind's false removal
    ([Span("DATE", 30, 36, 1, "x")],
     [KindFigures("ADDRESS", 1, 0, 0, 0), KindFigures("DATE", 1, 0, 0, 1)], [("dose", 1, 1)]),
])
def test_kind_figures(found, kinds, lookalikes):
    figures, looks, _ = kind_figures([_post(GOLD, DOSE)], [found])
    assert figures == kinds
    assert looks == [LookalikeFigures(*row) for row in lookalikes]


def test_the_sample_is_fictional_and_well_formed():
    with open(SAMPLE, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    labels = {span["label"] for record in records for span in record["spans"]}
    assert labels == {"ADDRESS", "POSTCODE", "ID", "IP", "DATE"}
    for record in records:
        text = record["text"]
        assert all(text[k["start"]:k["end"]] == k["text"] and k["what"]
                   for k in record["keep"])
    assert len({record["id"] for record in records}) == len(records)


def _by_kind(capsys, *options):
    """The kind table's rows and each lookalike's removed count, as printed."""
    assert main(["evaluate", SAMPLE, "--by", "kind", "-q", *options]) == 0
    lines = capsys.readouterr().out.splitlines()
    kinds_at = next(i for i, line in enumerate(lines) if line.startswith("kind "))
    looks_at = next(i for i, line in enumerate(lines) if line.startswith("lookalike "))
    rows = {line.split()[0]: line.split() for line in lines[kinds_at + 1:looks_at]
            if line.split()[0] in NEW_KINDS}
    looks = {}
    for line in lines[looks_at + 1:]:
        if ":" in line:                 # what was left or wrongly removed follows
            break
        *what, _, removed = line.split()
        looks[" ".join(what)] = removed
    return rows, looks


def test_safe_harbor_removes_every_identifier_of_the_sample_and_no_lookalike(capsys):
    rows, looks = _by_kind(capsys, "--kinds", "safe-harbor")
    assert set(rows) == {"ADDRESS", "POSTCODE", "ID", "IP", "DATE"}
    for row in rows.values():
        assert row[1] == row[2] and row[5] == "0", row        # all removed, none falsely
    assert looks and set(looks.values()) == {"0"}


def test_the_default_kinds_remove_none_of_the_new_kinds(capsys):
    rows, looks = _by_kind(capsys)
    assert all(rows[kind][2] == "0" for kind in ("ADDRESS", "POSTCODE", "IP", "DATE"))
    assert set(looks.values()) == {"0"}


def test_by_kind_refuses_conll_in_one_line(capsys):
    from paths import WNUT_STYLE
    assert main(["evaluate", WNUT_STYLE, "--by", "kind", "-q"]) == 2
    assert "--by kind needs annotated posts" in capsys.readouterr().err
