import csv
import math

import numpy as np
import pytest

from mmbdeid.evaluation.metrics import (
    CSV_FIELDS, DEFAULT_SWEEP, UnreachableRecall, format_table, name_mask,
    pick_threshold, read_curve_csv, sweep, token_metrics, write_curve)


@pytest.mark.parametrize("gold,pred,expect", [
    # tp fp fn tn, precision, recall, f1, specificity
    ([1, 1, 0, 0, 1, 0], [1, 0, 1, 0, 1, 0], (2, 1, 1, 2, 2 / 3, 2 / 3, 2 / 3, 2 / 3)),
    ([1, 0, 0, 0], [1, 1, 1, 0], (1, 2, 0, 1, 1 / 3, 1.0, 0.5, 1 / 3)),
    ([1, 1, 1, 0], [0, 0, 0, 0], (0, 0, 3, 1, 0.0, 0.0, 0.0, 1.0)),
    # zero divisions: all undefined ratios are 0.0
    ([], [], (0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0)),
    ([0, 0], [0, 0], (0, 0, 0, 2, 0.0, 0.0, 0.0, 1.0)),
    ([1, 1], [1, 1], (2, 0, 0, 0, 1.0, 1.0, 1.0, 0.0)),
])
def test_token_metrics(gold, pred, expect):
    m = token_metrics([bool(x) for x in gold], [bool(x) for x in pred], threshold=0.05)
    tp, fp, fn, tn, p, r, f, s = expect
    assert (m.tp, m.fp, m.fn, m.tn) == (tp, fp, fn, tn)
    assert m.threshold == 0.05
    for got, want in ((m.precision, p), (m.recall, r), (m.f1, f), (m.specificity, s)):
        assert math.isclose(got, want)


def test_token_metrics_length_mismatch():
    with pytest.raises(ValueError):
        token_metrics([True], [True, False])


def test_name_mask():
    assert name_mask(["O", "NAME", "USER", "B-NAME", "I-USER", "DRUG", ""]).tolist() == \
        [False, True, True, True, True, False, False]


def test_default_sweep_shape():
    assert DEFAULT_SWEEP[0] == 0.5 and DEFAULT_SWEEP[-1] == 0.005 and 0.05 in DEFAULT_SWEEP
    assert list(DEFAULT_SWEEP) == sorted(DEFAULT_SWEEP, reverse=True)


def _random(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.random(n) < 0.1
    prob = np.where(gold, rng.beta(2, 1, n), rng.beta(1, 8, n))
    prob = np.round(prob, 2)  # many ties, including values on the grid
    return gold, prob


def test_sweep_agrees_with_token_metrics_and_is_monotone():
    gold, prob = _random()
    rows = sweep(gold, prob, DEFAULT_SWEEP)
    assert [r.threshold for r in rows] == list(DEFAULT_SWEEP)
    for r in rows:
        assert r == token_metrics(gold, prob > r.threshold, threshold=r.threshold)
    by_t = sorted(rows, key=lambda r: r.threshold)
    recalls = [r.recall for r in by_t]
    assert all(a >= b for a, b in zip(recalls, recalls[1:]))


def test_sweep_strictly_greater():
    rows = sweep([True, True, False], [0.05, 0.06, 0.05], [0.05])
    assert (rows[0].tp, rows[0].fp, rows[0].fn, rows[0].tn) == (1, 0, 1, 1)


@pytest.mark.parametrize("gold,prob,target,lo,hi", [
    # names at 0.9, 0.6, 0.3; need 2 of 3 -> tag >= 0.6; next lower distinct prob is 0.4
    ([1, 1, 1, 0, 0], [0.9, 0.6, 0.3, 0.4, 0.1], 0.6, 0.4, 0.6),
    ([1, 1, 1, 0, 0], [0.9, 0.6, 0.3, 0.4, 0.1], 1.0, 0.1, 0.3),
    ([1, 1, 1, 0, 0], [0.9, 0.6, 0.3, 0.4, 0.1], 0.3, 0.6, 0.9),
    # tie between a name and a non-name at the needed level
    ([1, 0, 1], [0.05, 0.05, 0.5], 1.0, 0.0, 0.05),
    # lowest probability needed: interval is (0, p)
    ([1, 1], [0.0473, 0.9], 1.0, 0.0, 0.0473),
])
def test_pick_threshold_interval(gold, prob, target, lo, hi):
    gold = np.array(gold, bool)
    prob = np.array(prob)
    t = pick_threshold(gold, prob, target)
    assert 0.0 < t < 1.0
    assert lo <= t < hi
    assert sweep(gold, prob, [t])[0].recall >= target
    # no probability-defined higher threshold reaches the target
    assert sweep(gold, prob, [hi])[0].recall < target


def test_pick_threshold_clean_value():
    gold = np.array([1, 0, 1], bool)
    prob = np.array([0.0612, 0.0473, 0.8])
    assert pick_threshold(gold, prob, 1.0) == 0.06  # largest 2-decimal value in [0.0473, 0.0612)
    assert pick_threshold(gold, np.array([0.13, 0.04, 0.8]), 1.0) == 0.1
    assert pick_threshold(gold, np.array([0.0612, 0.0601, 0.8]), 1.0) == 0.061


def test_pick_threshold_highest_on_random():
    gold, prob = _random(seed=3)
    targets = (0.5, 0.8, 0.9, 0.95, 0.99)
    stepped_up = 0
    for target in targets:
        t = pick_threshold(gold, prob, target)
        assert sweep(gold, prob, [t])[0].recall >= target
        higher = np.unique(prob)
        higher = higher[higher > t]
        if higher.size:
            # the next step up (tagging > the next distinct prob) misses the target
            assert sweep(gold, prob, [higher[0]])[0].recall < target
            stepped_up += 1
    assert stepped_up == len(targets)


@pytest.mark.parametrize("gold,prob,target,exc", [
    ([1, 1], [0.0, 0.5], 1.0, UnreachableRecall),  # a name at probability 0
    ([0, 0], [0.1, 0.5], 0.5, ValueError),  # no gold names
    ([1], [0.5], 0.0, ValueError),
    ([1], [0.5], 1.5, ValueError),
])
def test_pick_threshold_errors(gold, prob, target, exc):
    with pytest.raises(exc) as info:
        pick_threshold(np.array(gold, bool), np.array(prob), target)
    if exc is UnreachableRecall:
        assert info.value.recall == 0.5 and 0 < info.value.threshold < 0.5


def test_format_table():
    rows = sweep([True, False, True], [0.9, 0.2, 0.04], [0.5, 0.05])
    text = format_table(rows + [token_metrics([True], [True])])
    lines = text.splitlines()
    assert "recall%" in lines[0] and "threshold" in lines[0]
    assert len({len(l) for l in lines}) == 1  # aligned
    assert lines[1].split()[:3] == ["0.5", "100.00", "50.00"]
    assert lines[-1].split()[0] == "-"


def test_csv_round_trip(tmp_path):
    gold, prob = _random(300)
    rows = sweep(gold, prob) + [token_metrics(gold, prob > 0.3)]
    path = tmp_path / "curve.csv"
    write_curve(rows, path)
    with open(path, newline="") as fh:
        recs = list(csv.reader(fh))
    assert recs[0] == list(CSV_FIELDS) == \
        "threshold,precision,recall,f1,specificity,tp,fp,fn,tn".split(",")
    assert math.isclose(float(recs[1][2]), rows[0].recall, abs_tol=1e-6)
    assert read_curve_csv(path) == rows
