"""sweep measures what scrub removes: at every threshold of its grid, its row is what
``evaluate --chain scrub --threshold T`` prints (the same name tokens found and missed, the
same other tokens removed, the same leaking posts), and ``sweep --chain model`` is
``evaluate --chain model`` at every threshold. On the tiny fixture and the bundled sample
the two chains differ at the higher thresholds (a rule step finds a name the model scores
low), so a sweep of the model chain fails the first test."""
import csv
import re

import pytest

from mmbdeid.cli import main
from mmbdeid.evaluation.metrics import DEFAULT_SWEEP
from paths import SAMPLE_CORPUS, TINY

_TOKENS = re.compile(r"tokens +\d+ \(names \d+: found (\d+), missed (\d+); "
                     r"non-names (\d+): removed (\d+)\)")
_LEAKING = re.compile(r"leaking +(\d+) of (\d+) posts with a name \([\d.]+%\); "
                      r"\d+ of (\d+) posts")


def _sweep_rows(gold, extra, directory):
    """threshold -> (tp, fp, fn, tn, leaking posts, posts with a name, posts) of ``sweep
    GOLD -o CURVE.csv`` with the options ``extra``."""
    curve = str(directory / "curve.csv")
    assert main(["sweep", gold, "-o", curve, "--quiet"] + extra) == 0
    with open(curve, newline="", encoding="utf-8") as handle:
        return {float(row["threshold"]): tuple(int(row[field]) for field in (
                    "tp", "fp", "fn", "tn", "leak_posts", "name_posts", "posts"))
                for row in csv.DictReader(handle)}


def _evaluated(gold, chain, threshold, capsys):
    """The same counts as printed by ``evaluate GOLD --chain CHAIN --threshold T``."""
    capsys.readouterr()
    assert main(["evaluate", gold, "--chain", chain, "--threshold", repr(threshold),
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    found, missed, others, removed = map(int, _TOKENS.search(out).groups())
    leaking, with_names, posts = map(int, _LEAKING.search(out).groups())
    return found, removed, missed, others - removed, leaking, with_names, posts


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """(gold, sweep's options) -> its rows, each sweep run once for all thresholds."""
    rows = {}

    def rows_of(gold, extra):
        key = (gold, tuple(extra))
        if key not in rows:
            rows[key] = _sweep_rows(gold, extra, tmp_path_factory.mktemp("sweep"))
        return rows[key]
    return rows_of


CASES = [  # (gold file, the options of sweep, the chain evaluate measures)
    pytest.param(TINY, [], "scrub", id="tiny-default"),
    pytest.param(TINY, ["--chain", "model"], "model", id="tiny-model"),
    pytest.param(SAMPLE_CORPUS, [], "scrub", marks=pytest.mark.slow, id="sample-default"),
    pytest.param(SAMPLE_CORPUS, ["--chain", "model"], "model", marks=pytest.mark.slow,
                 id="sample-model"),
]


@pytest.mark.parametrize("threshold", DEFAULT_SWEEP)
@pytest.mark.parametrize("gold, extra, chain", CASES)
def test_sweep_row_is_evaluate_at_that_threshold(swept, capsys, gold, extra, chain,
                                                 threshold):
    assert swept(gold, extra)[threshold] == _evaluated(gold, chain, threshold, capsys)


@pytest.mark.parametrize("gold", [pytest.param(TINY, id="tiny"), pytest.param(
    SAMPLE_CORPUS, marks=pytest.mark.slow, id="sample")])
def test_the_two_chains_differ_where_a_rule_finds_a_name(swept, gold):
    """The cases above could not tell the chains apart if they measured the same: a rule
    step finds names the model leaves at 0.5 on both files."""
    scrub, model = swept(gold, []), swept(gold, ["--chain", "model"])
    assert swept(gold, ["--chain", "scrub"]) == scrub       # the default, spelled out
    assert scrub[0.5][0] > model[0.5][0]            # more names found by the scrub chain
    assert all(scrub[t][0] >= model[t][0] for t in DEFAULT_SWEEP)
