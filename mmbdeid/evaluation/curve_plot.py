"""The precision-recall curve of a sweep drawn as an image (``sweep --plot``, ``crossval
--plot``)."""
import math
from typing import Optional, Sequence

from ..files.atomic import atomic_binary_output
from .metrics import TokenMetrics


def plot_curve(rows: Sequence[TokenMetrics], path, title: Optional[str] = None,
               mark: Optional[float] = None,
               folds: Sequence[Sequence[TokenMetrics]] = (), fmt: str = "png") -> None:
    """Precision (y) against recall (x), points labelled with their thresholds, as an
    image in format ``fmt`` (:data:`~mmbdeid.files.outputs.PLOT`: png, pdf, svg, ...);
    all or nothing.

    ``mark`` highlights the row whose threshold equals it (e.g. the default 0.05);
    ``folds``: each cross-validation fold's curve, drawn thin behind the pooled one.
    Uses the Agg canvas directly (no pyplot, no global backend switch). matplotlib is an
    optional extra (``mmbdeid[plot]``): without it, a one-line ``InputError``.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        from ..errors import InputError
        raise InputError("plotting needs matplotlib: pip install 'mmbdeid[plot]'",
                         str(path)) from None

    fig = Figure(figsize=(6, 5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    for number, fold in enumerate(folds, 1):
        ordered = sorted(fold, key=lambda r: (r.recall, -r.precision))
        ax.plot([r.recall for r in ordered], [r.precision for r in ordered], "-",
                color="0.6", linewidth=0.8, label="each fold" if number == 1 else None)
    pts = sorted(rows, key=lambda r: (r.recall, -r.precision))
    xs = [r.recall for r in pts]
    ys = [r.precision for r in pts]
    ax.plot(xs, ys, "-o", color="tab:blue", markersize=4, linewidth=1)
    for r in rows:
        if r.threshold is not None:
            ax.annotate("%g" % r.threshold, (r.recall, r.precision),
                        textcoords="offset points", xytext=(4, 4), fontsize=7)
    if mark is not None:
        hit = [r for r in rows if r.threshold is not None
               and math.isclose(r.threshold, mark, rel_tol=1e-9, abs_tol=1e-12)]
        if hit:
            r = hit[0]
            ax.plot([r.recall], [r.precision], "o", markersize=11, markerfacecolor="none",
                    markeredgecolor="tab:red", markeredgewidth=2,
                    label="threshold %g" % mark)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="lower left", fontsize=8)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.grid(True, alpha=0.3)
    ax.set_title(title if title is not None else "Name tokens: precision vs recall")
    with atomic_binary_output(path) as handle:
        fig.savefig(handle, format=fmt)
