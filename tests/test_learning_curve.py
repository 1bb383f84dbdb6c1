"""The small parts of tools/learning_curve.py: the held-out fold keeps threads whole, the
sizes the pool allows, the grid of models, and the table and CSV of the points."""
import importlib.util
from pathlib import Path

import pytest

from paths import TOOLS


def _tool():
    spec = importlib.util.spec_from_file_location(
        "learning_curve", Path(TOOLS) / "learning_curve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


curve = _tool()


def test_the_held_out_fold_keeps_threads_whole():
    posts = [{"id": str(n), "board": "b%d" % (n % 2), "thread": "t%d" % (n % 7), "text": "x"}
             for n in range(60)]
    pool, held = curve.held_out_split(posts, 3, 0)
    assert len(pool) + len(held) == 60 and held and pool
    threads = lambda side: {(p["board"], p["thread"]) for p in side}
    assert not threads(pool) & threads(held)
    assert {p["id"] for p in pool} | {p["id"] for p in held} == {str(n) for n in range(60)}


@pytest.mark.parametrize("wanted, pool, expected", [
    ([50, 100, 200, 400, 800], 315, [50, 100, 200, 315]),   # the pool is the last point
    ([50, 100, 200], 315, [50, 100, 200]),
    ([200, 50, 50], 1000, [50, 200]),
    ([400], 400, [400]),
])
def test_curve_sizes(wanted, pool, expected):
    assert curve.curve_sizes(wanted, pool) == expected


@pytest.mark.parametrize("sizes, base_sizes, alone, expected", [
    ([50, 315], [], True, [(50, "random", False), (50, "uncertainty", False),
                           (315, "random", False)]),       # the whole pool: one rule
    ([200], [200], True, [(200, "random", False), (200, "uncertainty", False),
                          (200, "random", True), (200, "uncertainty", True)]),
    ([200], [200], False, [(200, "random", True), (200, "uncertainty", True)]),
    ([50, 315], [400], False, [(315, "random", True)]),    # a base size past the pool
])
def test_grid(sizes, base_sizes, alone, expected):
    assert curve.grid(sizes, base_sizes, 315, alone) == expected


def test_points_round_trip_and_table(tmp_path):
    points = [curve.Point(0, "default", False, 0.95, 0.7, 4, 30, 0.0),
              curve.Point(200, "random", True, 0.9712, 0.8, 3, 30, 500.0)]
    path = str(tmp_path / "points.csv")
    curve.write_points(points, path)
    assert curve.read_points(path) == [p._replace(recall=round(p.recall, 4)) for p in points]
    assert curve.markdown_table(points).splitlines()[2:] == [
        "| - | - | default model alone | 95.0% | 70.0% | 4 of 30 (13.3%) |",
        "| 200 | random | with --base default | 97.1% | 80.0% | 3 of 30 (10.0%) |"]


def test_the_whole_pool_is_on_every_rules_line():
    points = [curve.Point(50, rule, False, 0.9, 0.5, 1, 10, 1.0) for rule in curve.RULES]
    points.append(curve.Point(315, "random", False, 0.95, 0.6, 1, 10, 1.0))
    lines = curve.series(points)
    assert sorted(lines) == ["random, alone", "uncertainty, alone"]
    assert [p.posts for p in lines["uncertainty, alone"]] == [50, 315]
