import numpy as np

from mmbdeid.evaluation.curve_plot import plot_curve
from mmbdeid.evaluation.metrics import sweep


def _random(n, seed=0):
    rng = np.random.default_rng(seed)
    gold = rng.random(n) < 0.3
    prob = np.clip(np.where(gold, rng.beta(5, 2, n), rng.beta(2, 5, n)), 0, 1)
    return gold, prob


def test_plot_png(tmp_path):
    gold, prob = _random(300)
    path = tmp_path / "curve.png"
    plot_curve(sweep(gold, prob), path, title="test", mark=0.05)
    with open(path, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
