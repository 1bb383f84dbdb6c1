import itertools
import struct

import numpy as np
import pytest

from mmbdeid.evaluation.curve_plot import curve_figure, plot_curve
from mmbdeid.evaluation.metrics import DEFAULT_SWEEP, PostLeak, TokenMetrics, post_leaks, sweep


def _random(n, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.random(n) < 0.1
    prob = np.where(gold, rng.beta(2, 1, n), rng.beta(1, 8, n))
    return sweep(gold, prob)


def _crowded():
    """17 thresholds whose points lie within 0.03 of each other (a small dev set)."""
    return [TokenMetrics(t, 900 + i, 1200 + 2 * i, 100 - i, 9000 - 2 * i)
            for i, t in enumerate(DEFAULT_SWEEP)]


def _ties():
    """The top thresholds all on one point, the rest on another: two labels."""
    return [TokenMetrics(t, 8 if t >= 0.2 else 10, 2 if t >= 0.2 else 5,
                         2 if t >= 0.2 else 0, 90) for t in DEFAULT_SWEEP]


def _corner():
    """Recall and precision 1.0 at the top thresholds: labels must turn inward."""
    return [TokenMetrics(t, 50, 0 if t >= 0.1 else 3 * i, 0, 100)
            for i, t in enumerate(DEFAULT_SWEEP)]


def _leaks(rows, seed=1):
    minima = np.random.default_rng(seed).random(120)
    return post_leaks(minima, [r.threshold for r in rows])


CASES = [  # (name, rows, with leaks, folds, mark)
    ("spread", _random(3000), True, (), 0.05),
    ("crowded", _crowded(), True, (), 0.05),
    ("ties", _ties(), False, (), 0.5),
    ("corner", _corner(), True, (), 0.3),
    ("folds", _random(2000), True, (_random(600, 1), _random(600, 2)), 0.05),
    ("unmarked", _crowded(), False, (), 0.012),
]


def _boxes(figure):
    figure.canvas.draw()                     # the positions as drawn, not as planned
    renderer = figure.canvas.get_renderer()
    ax = figure.axes[0]
    return ({t.get_text(): t.get_window_extent(renderer) for t in ax.texts},
            ax.get_window_extent(renderer), ax.get_legend().get_window_extent(renderer))


def _overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("name, rows, with_leaks, folds, mark", CASES)
def test_threshold_labels_do_not_overlap(name, rows, with_leaks, folds, mark):
    figure = curve_figure(rows, name, mark, folds, _leaks(rows) if with_leaks else None)
    labels, frame, legend = _boxes(figure)
    assert labels, name
    for (a, box_a), (b, box_b) in itertools.combinations(labels.items(), 2):
        assert not _overlap(box_a, box_b), (name, a, b)
    for text, box in labels.items():
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, (name, text)
        assert frame.y0 <= box.y0 and box.y1 <= frame.y1, (name, text)
        assert not _overlap(box, legend), (name, text)
    assert 0 <= legend.x0 and legend.x1 <= figure.bbox.x1 and legend.y0 >= 0
    if any(r.threshold == mark for r in rows):
        assert any(_covers(text, mark) for text in labels), name


def _covers(label, threshold):
    """A label names the threshold, or a range of thresholds holding it."""
    ends = [float(end) for end in label.split("–")]
    return min(ends) <= threshold <= max(ends)


def test_crowded_points_would_overlap_unplaced():
    """The test above can fail: the crowded curve's labels, all up and right of their
    points as the old plot put them, overlap."""
    figure = curve_figure(_crowded(), leaks=_leaks(_crowded()))
    ax = figure.axes[0]
    for text in list(ax.texts):
        text.remove()
    for r in _crowded():
        ax.annotate("%g" % r.threshold, (r.recall, r.precision), textcoords="offset points",
                    xytext=(4, 4), fontsize=7)
    labels, _, _ = _boxes(figure)
    assert any(_overlap(a, b) for a, b in itertools.combinations(labels.values(), 2))


def test_ties_share_a_label():
    labels, _, _ = _boxes(curve_figure(_ties()))
    assert sorted(labels) == ["0.15–0.005", "0.5–0.2"]


@pytest.mark.parametrize("with_leaks, curves", [(True, 2), (False, 1)])
def test_leaking_share_is_a_second_curve(with_leaks, curves):
    rows = _random(1000)
    leaks = _leaks(rows) if with_leaks else None
    ax = curve_figure(rows, leaks=leaks).axes[0]
    drawn = [line for line in ax.get_lines() if len(line.get_xdata()) == len(rows)]
    assert len(drawn) == curves
    if with_leaks:
        assert sorted(drawn[1].get_ydata()) == sorted(k.share for k in leaks)
        assert "leaking posts" in " ".join(t.get_text() for t in ax.get_legend().get_texts())


def test_leaks_of_other_thresholds_are_refused():
    rows = _random(500)
    with pytest.raises(ValueError):
        curve_figure(rows, leaks=[PostLeak(0.9, 0, 1, 1)] * len(rows))


def test_saved_png_is_at_least_1000_pixels_wide(tmp_path):
    rows = _random(300)
    path = tmp_path / "curve.png"
    plot_curve(rows, path, title="test", mark=0.05, leaks=_leaks(rows))
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    assert width >= 1000 and height >= 600, (width, height)
