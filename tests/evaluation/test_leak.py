"""Leaking posts: posts still containing a gold name token after scrubbing at a threshold."""
import csv
import math

import numpy as np
import pytest

from mmbdeid.cli import main
from mmbdeid.evaluation.metrics import (
    CSV_FIELDS, LEAK_CSV_FIELDS, PostLeak, format_leak, format_table, leak_legend,
    post_leak, post_leaks, post_name_minimum, read_curve_csv, sweep, write_curve)

INF = math.inf


@pytest.mark.parametrize("gold,scores,expect", [
    ([1, 0, 1], [0.9, 0.01, 0.3], 0.3),           # lowest over the name tokens only
    ([0, 0, 0], [0.9, 0.0, 0.3], INF),            # a post without names never leaks
    ([], [], INF),                                # an empty post
    ([1, 1, 0], [None, 0.7, 0.0], 0.7),           # a pattern token (None) is skipped
    ([1, 0], [None, 0.0], INF),                   # its only name removed by pattern
    ([1, 1], [0.0, 1.0], 0.0),                    # a name scored 0 (e.g. drug filter)
    ([True, False], [0.05, 0.9], 0.05),
])
def test_post_name_minimum(gold, scores, expect):
    assert post_name_minimum([bool(g) for g in gold], scores) == expect


def test_post_name_minimum_errors():
    with pytest.raises(ValueError):
        post_name_minimum([True], [0.1, 0.2])
    with pytest.raises(ValueError):
        post_name_minimum([True], [float("nan")])


# per-post minima: 0.05, 0.3, no name, 0.0, 0.3, pattern-only (no name)
MINIMA = [0.05, 0.3, INF, 0.0, 0.3, INF]


@pytest.mark.parametrize("threshold,leaking", [
    (0.0, 1),     # 0.0 <= 0.0: a name scored 0 is never removed
    (0.049, 1),
    (0.05, 2),    # exactly at a score: the token is kept (removed iff score > t)
    (0.0500001, 2),
    (0.2999, 2),
    (0.3, 4),
    (0.5, 4),
    (1.0, 4),     # posts without names never leak
])
def test_post_leaks_at_exact_scores(threshold, leaking):
    (leak,) = post_leaks(MINIMA, [threshold])
    assert leak == PostLeak(threshold, leaking, 4, 6)
    assert post_leak(MINIMA, threshold) == leak
    assert math.isclose(leak.share, leaking / 4) and math.isclose(leak.share_all, leaking / 6)


@pytest.mark.parametrize("minima,expect", [
    ([], (0, 0, 0, 0.0, 0.0)),                    # no posts: ratios are 0.0
    ([INF, INF], (0, 0, 2, 0.0, 0.0)),            # no post with a name
    ([0.01, 0.9], (1, 2, 2, 0.5, 0.5)),
])
def test_post_leak_zero_division(minima, expect):
    leak = post_leak(minima, 0.05)
    assert (leak.leaking, leak.with_names, leak.posts, leak.share, leak.share_all) == expect


def test_post_leaks_order_and_brute_force():
    rng = np.random.default_rng(1)
    posts = []
    for _ in range(300):
        n = int(rng.integers(0, 8))
        gold = list(rng.random(n) < 0.3)
        scores = [None if rng.random() < 0.1 else round(float(rng.random()), 2)
                  for _ in range(n)]
        posts.append((gold, scores))
    minima = [post_name_minimum(g, s) for g, s in posts]
    thresholds = [0.5, 0.05, 0.3, 0.0, 0.99, 0.25]
    leaks = post_leaks(minima, thresholds)
    assert [k.threshold for k in leaks] == thresholds
    for t, leak in zip(thresholds, leaks):
        brute = sum(any(g and s is not None and s <= t for g, s in zip(gold, scores))
                    for gold, scores in posts)
        named = sum(any(g and s is not None for g, s in zip(gold, scores))
                    for gold, scores in posts)
        assert (leak.leaking, leak.with_names, leak.posts) == (brute, named, len(posts))


def test_one_name_per_post_leaks_equal_missed_names():
    gold = np.array([1, 0, 1, 1, 0], bool)
    prob = np.array([0.9, 0.2, 0.05, 0.3, 0.0])
    minima = [0.9, INF, 0.05, 0.3, INF]      # each name token in its own post
    for row, leak in zip(sweep(gold, prob), post_leaks(minima)):
        assert leak.leaking == row.fn


def test_format_leak_and_legend():
    leak = PostLeak(0.05, 37, 1000, 5000)
    assert format_leak(leak) == \
        "37 of 1000 posts with a name (3.70%); 37 of 5000 posts (0.74%)"
    assert "268 posts with a name" in leak_legend([PostLeak(0.5, 1, 268, 357)])
    assert "all 357 posts" in leak_legend([PostLeak(0.5, 1, 268, 357)])


def test_format_table_appends_leak_columns():
    rows = sweep([True, False, True], [0.9, 0.2, 0.04], [0.5, 0.05])
    leaks = post_leaks([0.3, 0.04, INF], [0.5, 0.05])
    plain = format_table(rows).splitlines()
    text = format_table(rows, leaks).splitlines()
    assert text[0].split() == plain[0].split() + ["leak_posts", "leak%", "leak_all%"]
    assert len({len(line) for line in text}) == 1  # aligned
    for old, new in zip(plain, text):
        assert new.split()[:8] == old.split()
    assert text[1].split()[8:] == ["2", "100.00", "66.67"]
    assert text[2].split()[8:] == ["1", "50.00", "33.33"]
    with pytest.raises(ValueError):
        format_table(rows, leaks[:1])
    with pytest.raises(ValueError):
        format_table(rows, post_leaks([0.9], [0.5, 0.1]))


def test_csv_appends_leak_columns(tmp_path):
    rows = sweep([True, False, True], [0.9, 0.2, 0.04], [0.5, 0.05])
    leaks = post_leaks([0.3, 0.04, INF], [0.5, 0.05])
    plain, path = tmp_path / "plain.csv", tmp_path / "leak.csv"
    write_curve(rows, plain)
    write_curve(rows, path, leaks)
    with open(plain, newline="") as fh:
        old = list(csv.reader(fh))
    with open(path, newline="") as fh:
        new = list(csv.reader(fh))
    assert new[0] == list(CSV_FIELDS) + list(LEAK_CSV_FIELDS) == (
        "threshold,precision,recall,f1,specificity,tp,fp,fn,tn,"
        "leak_posts,name_posts,posts,leak_share,leak_share_all").split(",")
    assert [r[:len(CSV_FIELDS)] for r in new] == old  # old columns unchanged, in place
    assert new[1][9:] == ["2", "2", "3", "1.000000", "0.666667"]
    assert new[2][9:] == ["1", "2", "3", "0.500000", "0.333333"]
    assert read_curve_csv(path) == rows


# -- through the commands, on the tiny fixture -------------------------------------------
def _expected_leaks(model_path, corpus_path, thresholds):
    """Brute force over the analyzer's own per-token scores."""
    from mmbdeid.detect.analyzer import Analyzer
    from mmbdeid.model.reference import corpus_stats
    from mmbdeid.files.corpora import load_labelled
    from mmbdeid.kinds import PERSON_LABELS
    from mmbdeid.model.tagger import NameTagger
    labelled = load_labelled(corpus_path)
    analyzer = Analyzer.for_evaluation(NameTagger.load(model_path),
                                       corpus_stats([d.document for d in labelled]))
    if hasattr(analyzer, "prepare"):
        analyzer.prepare([d.document for d in labelled])
    names = [[s for label, s in zip(d.labels, analyzer.token_scores(d.document))
              if label in PERSON_LABELS and s is not None] for d in labelled]
    return [(sum(any(s <= t for s in post) for post in names),
             sum(bool(post) for post in names), len(labelled)) for t in thresholds]


def test_evaluate_prints_leaking_posts(tiny_model_path, tiny_corpus_path, capsys):
    assert main(["evaluate", tiny_corpus_path, "--model", tiny_model_path,
                 "--threshold", "0.3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[5].startswith("tokens ")      # the old lines come first, unchanged
    assert lines[6].startswith("leaking ") and len(lines) == 7
    ((leaking, named, posts),) = _expected_leaks(tiny_model_path, tiny_corpus_path, [0.3])
    assert lines[6] == "leaking     " + format_leak(PostLeak(0.3, leaking, named, posts))


def test_sweep_leak_columns(tmp_path, tiny_model_path, tiny_corpus_path, capsys):
    curve = str(tmp_path / "c.csv")
    assert main(["sweep", tiny_corpus_path, "--model", tiny_model_path, "-o", curve]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-3:] == ["leak_posts", "leak%", "leak_all%"]
    assert lines[0].split()[:8] == ["threshold", "precision%", "recall%", "F1%",
                                    "specificity%", "tp", "fp", "fn"]
    assert lines[-1].startswith("leak_posts: ")
    with open(curve, newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == list(CSV_FIELDS) + list(LEAK_CSV_FIELDS)
    thresholds = [float(r[0]) for r in rows[1:]]
    expected = _expected_leaks(tiny_model_path, tiny_corpus_path, thresholds)
    got = [tuple(int(x) for x in r[9:12]) for r in rows[1:]]
    assert got == expected
    assert [int(r[9]) for r in rows[1:]] == [int(line.split()[8]) for line in lines[1:-1]]


def test_crossval_pools_posts_of_all_folds(tmp_path, tiny_corpus_path, capsys):
    from mmbdeid.files.corpora import load_labelled
    curve = str(tmp_path / "cv.csv")
    assert main(["crossval", tiny_corpus_path, "--folds", "2", "--max-iterations", "20",
                 "-o", curve]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "cross-validation" in lines[0]
    assert lines[1].split()[-3:] == ["leak_posts", "leak%", "leak_all%"]
    n_posts = len(load_labelled(tiny_corpus_path))
    legend = next(line for line in lines if line.startswith("leak_posts: "))
    assert legend.endswith("all %d posts" % n_posts)
    assert any(line.startswith("spread over 2 folds") for line in lines)
    with open(curve, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 17
    assert {int(r["posts"]) for r in rows} == {n_posts}
    leaking = [int(r["leak_posts"]) for r in rows]   # thresholds descending
    assert leaking == sorted(leaking, reverse=True)
    for r in rows:
        assert int(r["leak_posts"]) <= int(r["name_posts"]) <= n_posts
        # every leaking post holds at least one missed name token
        assert int(r["leak_posts"]) <= int(r["fn"])
