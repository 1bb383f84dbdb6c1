"""The curve of a sweep drawn as an image (``sweep --plot``, ``crossval --plot``): precision
and the leaking-post share against recall, each point's threshold written beside it where
there is room for it."""
import math
from typing import List, Optional, Sequence, Tuple

from ..errors import MmbdeidValueError
from ..files.atomic import atomic_binary_output
from .metrics import PostLeak, TokenMetrics

#: The figure's size in inches at :data:`DPI`: 1200 x 720 pixels, wide enough for the
#: threshold labels of a curve whose points crowd into a corner.
SIZE = (12.0, 7.2)
DPI = 100
LABEL_SIZE = 8

# Where a threshold label may sit: (x, y) offset in points from its point and the
# alignment that puts the text on that side, tried in this order.
_PLACES = ((5, 5, "left", "bottom"), (5, -5, "left", "top"),
           (-5, 5, "right", "bottom"), (-5, -5, "right", "top"),
           (0, 9, "center", "bottom"), (0, -9, "center", "top"),
           (9, 0, "left", "center"), (-9, 0, "right", "center"),
           (14, 14, "left", "bottom"), (-14, -14, "right", "top"))
_MARKER = 4           # points: the curves' marker size, kept clear of labels
_MARK = 11            # points: the circle around the marked threshold


def plot_curve(rows: Sequence[TokenMetrics], path, title: Optional[str] = None,
               mark: Optional[float] = None,
               folds: Sequence[Sequence[TokenMetrics]] = (), fmt: str = "png",
               leaks: Optional[Sequence[PostLeak]] = None) -> None:
    """:func:`curve_figure` saved as an image in format ``fmt``
    (:data:`~mmbdeid.files.outputs.PLOT`: png, pdf, svg, ...) at :data:`DPI`; all or
    nothing. matplotlib is an optional extra (``mmbdeid[plot]``): without it, a one-line
    ``InputError``."""
    figure = curve_figure(rows, title, mark, folds, leaks, where=str(path))
    with atomic_binary_output(path) as handle:
        # dpi and bbox given, so a user's matplotlibrc cannot shrink or crop the image
        figure.savefig(handle, format=fmt, dpi=DPI, bbox_inches=None)


def curve_figure(rows: Sequence[TokenMetrics], title: Optional[str] = None,
                 mark: Optional[float] = None,
                 folds: Sequence[Sequence[TokenMetrics]] = (),
                 leaks: Optional[Sequence[PostLeak]] = None, where: str = ""):
    """The figure: precision (y) against recall (x), a point per row; with ``leaks`` (one
    per row, same thresholds) the leaking-post share (of the posts with a name) on the same
    0-1 axis; the thresholds written beside the precision points, each label placed where
    it overlaps no other label and no point, or left out (:func:`place_labels`).

    ``mark`` circles the row whose threshold equals it (e.g. the model's); ``folds``: each
    cross-validation fold's curve, drawn thin behind the pooled one. Uses the Agg canvas
    directly (no pyplot, no global backend switch)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        from ..errors import InputError
        raise InputError("plotting needs matplotlib: pip install 'mmbdeid[plot]'",
                         where) from None
    if leaks is not None and [k.threshold for k in leaks] != [r.threshold for r in rows]:
        raise MmbdeidValueError("post leaks do not match the rows' thresholds")

    fig = Figure(figsize=SIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    # fixed margins, the legend right of the axes: label places are computed once, for
    # the layout that is saved, and no legend can cover a label
    fig.subplots_adjust(left=0.06, right=0.74, bottom=0.08, top=0.93)
    ax = fig.add_subplot(1, 1, 1)
    for number, fold in enumerate(folds, 1):
        ordered = sorted(fold, key=lambda r: (r.recall, -r.precision))
        ax.plot([r.recall for r in ordered], [r.precision for r in ordered], "-",
                color="0.6", linewidth=0.8,
                label="each fold's precision" if number == 1 else None)
    pts = sorted(rows, key=lambda r: (r.recall, -r.precision))
    ax.plot([r.recall for r in pts], [r.precision for r in pts], "-o", color="tab:blue",
            markersize=_MARKER, linewidth=1.2, label="precision (thresholds beside)")
    obstacles = [(r.recall, r.precision, _MARKER) for r in rows]
    if leaks is not None:
        pairs = sorted(zip(rows, leaks), key=lambda p: (p[0].recall, p[1].share))
        ax.plot([r.recall for r, _ in pairs], [k.share for _, k in pairs], "--s",
                color="tab:orange", markersize=_MARKER, linewidth=1.2,
                label="leaking posts (share of %d\nposts with a name)"
                % (leaks[0].with_names if leaks else 0))
        obstacles += [(r.recall, k.share, _MARKER) for r, k in pairs]
    marked = _marked(rows, mark)
    if marked is not None:
        ax.plot([marked.recall], [marked.precision], "o", markersize=_MARK,
                markerfacecolor="none", markeredgecolor="tab:red", markeredgewidth=2,
                label="threshold %g" % mark)
        obstacles.append((marked.recall, marked.precision, _MARK))
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    ax.set_xlabel("recall (name tokens found)")
    ax.set_ylabel("precision; leaking-post share" if leaks is not None else "precision")
    ax.grid(True, alpha=0.3)
    ax.set_title(title if title is not None else "Name tokens: precision vs recall")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9, borderaxespad=0.0)
    place_labels(ax, _label_points(rows, marked), obstacles)
    return fig


def _marked(rows: Sequence[TokenMetrics], mark: Optional[float]) -> Optional[TokenMetrics]:
    if mark is None:
        return None
    hit = [r for r in rows if r.threshold is not None
           and math.isclose(r.threshold, mark, rel_tol=1e-9, abs_tol=1e-12)]
    return hit[0] if hit else None


def _label_points(rows: Sequence[TokenMetrics], marked: Optional[TokenMetrics]
                  ) -> List[Tuple[str, float, float]]:
    """(text, x, y) of each point to label, most wanted first: the marked threshold, the
    two ends of the curve, then the rest in the rows' order. Thresholds that fall on one
    point share a label (``0.3–0.2``)."""
    at = {}
    for r in rows:
        if r.threshold is not None:
            at.setdefault((r.recall, r.precision), []).append(r.threshold)
    keys = list(at)
    wanted = ([(marked.recall, marked.precision)] if marked is not None else []) \
        + keys[:1] + keys[-1:] + keys
    points = []
    for x, y in dict.fromkeys(key for key in wanted if key in at):
        ts = at[(x, y)]
        text = "%g" % ts[0] if len(ts) == 1 else "%g–%g" % (max(ts), min(ts))
        points.append((text, x, y))
    return points


def place_labels(ax, points: Sequence[Tuple[str, float, float]],
                 obstacles: Sequence[Tuple[float, float, float]] = ()) -> list:
    """Write each ``(text, x, y)`` at the first of its places (:data:`_PLACES`) where, in
    display space, it lies inside the axes and overlaps no label placed before it and no
    obstacle ``(x, y, size in points)`` (the curves' markers); a point without such a
    place goes unlabelled. Returns the labels written (matplotlib annotations)."""
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    pixels = ax.figure.dpi / 72.0
    taken = []
    for x, y, size in obstacles:
        cx, cy = ax.transData.transform((x, y))
        half = size * pixels / 2.0
        taken.append((cx - half, cy - half, cx + half, cy + half))
    placed = []
    for text, x, y in points:
        for dx, dy, ha, va in _PLACES:
            label = ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy),
                                ha=ha, va=va, fontsize=LABEL_SIZE)
            box = label.get_window_extent(renderer)
            edges = (box.x0, box.y0, box.x1, box.y1)
            if (frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0
                    and box.y1 <= frame.y1 and not any(_overlap(edges, t) for t in taken)):
                taken.append(edges)
                placed.append(label)
                break
            label.remove()
    return placed


def _overlap(a, b) -> bool:
    """Two boxes (x0, y0, x1, y1) share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
