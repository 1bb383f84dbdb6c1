"""Token-level name metrics, threshold sweeps and their tables (the plot: :mod:`.curve_plot`).

Conventions:

* A *name* is a gold token labelled ``NAME`` or ``USER``; a token counts as found when it is
  tagged with either label (callers pass plain booleans, see :func:`name_mask`).
* A token is *tagged* at threshold ``t`` when its name probability
  P(NAME) + P(USER) is **strictly greater** than ``t`` (Benton et al. 2011, "A System for
  De-Identifying Medical Message Board Text": "greater than 0.05").
* Zero division: every ratio whose denominator is zero is reported as ``0.0`` -- precision
  with nothing tagged, recall with no gold names, F1 when precision + recall is 0, and
  specificity with no non-name tokens.  One rule, no credit without evidence; check the
  raw counts (always carried along) when a denominator may be empty.
* Every result carries its operating point (``threshold``), ``None`` when the predictions
  did not come from thresholding.
* A post (a document: a record of an annotated JSONL file, a tweet of a CoNLL file)
  *leaks* at threshold ``t`` when at least one of its gold name tokens is not tagged, i.e.
  has a score ``<= t``; so it leaks iff the lowest score over its gold name tokens is
  ``<= t`` (:func:`post_name_minimum`, :func:`post_leaks`).  Tokens removed by pattern
  (score ``None``) are left out, as in the per-token metrics.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from ..files.tables import REAL, WHOLE, Column, table_output
from ..kinds import PERSON_LABELS

__all__ = [
    "DEFAULT_SWEEP",
    "TokenMetrics",
    "UnreachableRecall",
    "name_mask",
    "token_metrics",
    "sweep",
    "pick_threshold",
    "format_table",
    "write_curve",
    "read_curve_csv",
    "CSV_FIELDS",
    "LEAK_CSV_FIELDS",
    "PostLeak",
    "post_name_minimum",
    "post_leaks",
    "post_leak",
    "format_leak",
    "leak_legend",
]

#: Thresholds from 0.5 down to 0.005, as in Fig. 2 of Benton et al. 2011.
DEFAULT_SWEEP = (0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.075, 0.05, 0.04, 0.03, 0.025,
                 0.02, 0.015, 0.01, 0.0075, 0.005)

CSV_FIELDS = ("threshold", "precision", "recall", "f1", "specificity", "tp", "fp", "fn", "tn")

#: Columns appended to :data:`CSV_FIELDS` when post leaks are written along.
LEAK_CSV_FIELDS = ("leak_posts", "name_posts", "posts", "leak_share", "leak_share_all")



def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


@dataclass(frozen=True)
class TokenMetrics:
    """Confusion counts at one operating point; names are the positive class."""

    threshold: Optional[float]
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        # 2PR/(P+R) == 2tp/(2tp+fp+fn); 0.0 when there is no true positive.
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    @property
    def specificity(self) -> float:
        """Non-name tokens left alone / all non-name tokens."""
        return _ratio(self.tn, self.tn + self.fp)

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


@dataclass(frozen=True)
class PostLeak:
    """Posts still containing a gold name token at one operating point."""

    threshold: Optional[float]
    leaking: int      # posts with a gold name token scored <= threshold
    with_names: int   # posts with at least one (scored) gold name token
    posts: int        # all posts

    @property
    def share(self) -> float:
        """Leaking posts / posts with a name (the figure that matters)."""
        return _ratio(self.leaking, self.with_names)

    @property
    def share_all(self) -> float:
        """Leaking posts / all posts."""
        return _ratio(self.leaking, self.posts)


def post_name_minimum(gold_is_name: Sequence[bool],
                      scores: Sequence[Optional[float]]) -> float:
    """The lowest final score over one post's gold name tokens; ``inf`` when it has none
    (it never leaks).  Tokens with score ``None`` (removed by pattern) are skipped."""
    g = list(gold_is_name)
    s = list(scores)
    if len(g) != len(s):
        raise MmbdeidValueError("length mismatch: %d gold tokens, %d scores" % (len(g), len(s)))
    lowest = math.inf
    for is_name, score in zip(g, s):
        if score is None or not is_name:
            continue
        score = float(score)
        if math.isnan(score):
            raise MmbdeidValueError("name probabilities contain NaN")
        lowest = min(lowest, score)
    return lowest


def post_leaks(minima: Sequence[float],
               thresholds: Iterable[float] = DEFAULT_SWEEP) -> List[PostLeak]:
    """Leaking posts at each threshold, from the per-post minima of
    :func:`post_name_minimum` (one per post, ``inf`` for a post without names).

    A post leaks at ``t`` iff its minimum is ``<= t``; sorted once, then O(log n) per
    threshold, like :func:`sweep`.
    """
    m = _as_prob(minima)
    finite = np.sort(m[np.isfinite(m)])
    ts = np.asarray(list(thresholds), dtype=float)
    leaking = np.searchsorted(finite, ts, side="right")
    return [PostLeak(float(t), int(k), int(finite.size), int(m.size))
            for t, k in zip(ts, leaking)]


def post_leak(minima: Sequence[float], threshold: float) -> PostLeak:
    """:func:`post_leaks` at one threshold."""
    return post_leaks(minima, [threshold])[0]


def format_leak(leak: PostLeak) -> str:
    """``N of M posts with a name (P%); N of A posts (Q%)``."""
    return "%d of %d posts with a name (%.2f%%); %d of %d posts (%.2f%%)" % (
        leak.leaking, leak.with_names, 100 * leak.share,
        leak.leaking, leak.posts, 100 * leak.share_all)


def leak_legend(leaks: Sequence[PostLeak]) -> str:
    """The line under a table of :func:`format_table` saying what its leak columns count."""
    first = leaks[0] if leaks else PostLeak(None, 0, 0, 0)
    return ("leak_posts: posts still containing a gold name token; leak%% of the %d posts "
            "with a name, leak_all%% of all %d posts" % (first.with_names, first.posts))


class UnreachableRecall(MmbdeidValueError):
    """No threshold in (0, 1) reaches the requested recall.

    ``threshold`` is the lowest sensible threshold (it tags every token with a positive
    name probability) and ``recall`` the recall it reaches -- the best one available.
    """

    def __init__(self, target: float, recall: float, threshold: float):
        super().__init__("no threshold reaches recall %.4f; best is %.4f at threshold %g"
                         % (target, recall, threshold))
        self.target = target
        self.recall = recall
        self.threshold = threshold


def name_mask(labels: Iterable[str]) -> np.ndarray:
    """Booleans: True where a label is NAME or USER (a ``B-``/``I-`` prefix is accepted)."""
    out = []
    for lab in labels:
        lab = lab or "O"
        if len(lab) > 2 and lab[1] == "-" and lab[0] in "BIESLU":
            lab = lab[2:]
        out.append(lab in PERSON_LABELS)
    return np.asarray(out, dtype=bool)


def _as_bool(x) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 1:
        a = a.reshape(-1)
    return a.astype(bool, copy=False)


def _as_prob(x) -> np.ndarray:
    a = np.asarray(x, dtype=float).reshape(-1)
    if a.size and np.isnan(a).any():
        raise MmbdeidValueError("name probabilities contain NaN")
    return a


def _check_len(a: np.ndarray, b: np.ndarray) -> None:
    if a.shape[0] != b.shape[0]:
        raise MmbdeidValueError("length mismatch: %d gold tokens, %d predictions"
                                % (a.shape[0], b.shape[0]))


def token_metrics(gold_is_name: Sequence[bool], predicted_is_name: Sequence[bool],
                  threshold: Optional[float] = None) -> TokenMetrics:
    """Per-token confusion counts of flat, aligned boolean sequences."""
    g = _as_bool(gold_is_name)
    p = _as_bool(predicted_is_name)
    _check_len(g, p)
    tp = int(np.count_nonzero(g & p))
    fp = int(np.count_nonzero(~g & p))
    fn = int(np.count_nonzero(g & ~p))
    tn = int(g.shape[0] - tp - fp - fn)
    return TokenMetrics(None if threshold is None else float(threshold), tp, fp, fn, tn)


def sweep(gold_is_name: Sequence[bool], name_prob: Sequence[float],
          thresholds: Iterable[float] = DEFAULT_SWEEP) -> List[TokenMetrics]:
    """Metrics at each threshold (tagged means ``name_prob > threshold``), in the given order.

    O(n log n) once, then O(log n) per threshold: suitable for millions of tokens.
    """
    g = _as_bool(gold_is_name)
    prob = _as_prob(name_prob)
    _check_len(g, prob)
    pos = np.sort(prob[g])
    neg = np.sort(prob[~g])
    ts = np.asarray(list(thresholds), dtype=float)
    # count of values > t  ==  n - (count of values <= t)
    tp = pos.size - np.searchsorted(pos, ts, side="right")
    fp = neg.size - np.searchsorted(neg, ts, side="right")
    return [TokenMetrics(float(t), int(a), int(b), int(pos.size - a), int(neg.size - b))
            for t, a, b in zip(ts, tp, fp)]


def _clean_in(lo: float, hi: float, lo_inclusive: bool) -> Optional[float]:
    """The largest value with the fewest decimals lying in [lo, hi) (or (lo, hi)), > 0."""
    for d in range(1, 18):
        s = 10.0 ** d
        k = math.floor(hi * s)
        c = round(k / s, d)
        if c >= hi:
            c = round((k - 1) / s, d)
        if c <= 0 or c >= hi:
            continue
        if c > lo or (lo_inclusive and c == lo):
            return c
    return None


def pick_threshold(gold_is_name: Sequence[bool], name_prob: Sequence[float],
                   target_recall: float) -> float:
    """The highest threshold whose recall (tagging ``name_prob > t``) is >= ``target_recall``.

    The search runs over the distinct probabilities, not a grid.  Tagging is a step function
    of ``t``: with ``p`` the lowest probability that must be tagged and ``q`` the next lower
    distinct probability (0 if none), every ``t`` in ``[q, p)`` gives the same result and no
    higher one reaches the target.  The value returned is the "cleanest" number in that
    interval (fewest decimals, then the largest: 0.06 for [0.0473, 0.0612), 0.1 for
    [0.04, 0.13)), so the
    reported threshold reproduces the result exactly; it lies in (0, 1).

    Raises ``ValueError`` when the target is not in (0, 1] or there is no gold name, and
    :class:`UnreachableRecall` (a ``ValueError``, with ``.threshold`` and ``.recall``
    giving the best available operating point) when even tagging every token with a
    positive probability misses the target (names with probability 0 are never tagged).
    """
    if not (0.0 < target_recall <= 1.0):
        raise MmbdeidValueError("target recall must be in (0, 1], got %r" % (target_recall,))
    g = _as_bool(gold_is_name)
    prob = _as_prob(name_prob)
    _check_len(g, prob)
    pos = np.sort(prob[g])
    n_pos = pos.size
    if n_pos == 0:
        raise MmbdeidValueError("no gold name tokens: recall is undefined")
    levels = np.unique(prob)  # ascending, distinct
    # recall when tagging prob >= levels[j]  (non-increasing in j)
    tp = n_pos - np.searchsorted(pos, levels, side="left")
    ok = (tp / n_pos) >= target_recall
    ok &= levels > 0.0  # a threshold in (0, 1) can never tag probability 0
    if not ok.any():
        positive = levels[levels > 0.0]
        if positive.size == 0:
            lowest = 0.0005
        else:
            lowest = _clean_in(0.0, float(min(positive[0], 1.0)), False) or float(positive[0]) / 2
        best = sweep(g, prob, [lowest])[0].recall
        raise UnreachableRecall(target_recall, best, lowest)
    j = int(np.nonzero(ok)[0][-1])
    hi = float(min(levels[j], 1.0))
    lo = float(levels[j - 1]) if j > 0 else 0.0
    lo_inclusive = lo > 0.0
    lo = max(lo, 0.0)

    want = int(tp[j])
    want_fp = int(np.count_nonzero(prob >= levels[j])) - want

    def reproduces(t: float) -> bool:
        m = sweep(g, prob, [t])[0]
        return 0.0 < t < 1.0 and m.tp == want and m.fp == want_fp

    for cand in (_clean_in(lo, hi, lo_inclusive), (lo + hi) / 2.0, lo,
                 float(np.nextafter(hi, 0.0))):
        if cand is not None and reproduces(cand):
            return float(cand)
    raise AssertionError("no representable threshold in [%r, %r)" % (lo, hi))  # pragma: no cover


def _fmt_threshold(t: Optional[float]) -> str:
    return "-" if t is None else "%g" % t


def _check_leaks(rows: Sequence[TokenMetrics], leaks: Optional[Sequence[PostLeak]]) -> None:
    if leaks is not None and (len(leaks) != len(rows) or any(
            r.threshold != k.threshold for r, k in zip(rows, leaks))):
        raise MmbdeidValueError("post leaks do not match the rows' thresholds")


def format_table(rows: Sequence[TokenMetrics],
                 leaks: Optional[Sequence[PostLeak]] = None) -> str:
    """Aligned text table; ratios are percentages with two decimals.

    With ``leaks`` (one per row, same thresholds), three columns are appended:
    ``leak_posts`` (posts still containing a gold name token), ``leak%`` (of the posts
    with a name) and ``leak_all%`` (of all posts).
    """
    _check_leaks(rows, leaks)
    header = ("threshold", "precision%", "recall%", "F1%", "specificity%", "tp", "fp", "fn")
    body = [(_fmt_threshold(r.threshold),
             "%.2f" % (100 * r.precision), "%.2f" % (100 * r.recall),
             "%.2f" % (100 * r.f1), "%.2f" % (100 * r.specificity),
             str(r.tp), str(r.fp), str(r.fn)) for r in rows]
    if leaks is not None:
        header += ("leak_posts", "leak%", "leak_all%")
        body = [b + (str(k.leaking), "%.2f" % (100 * k.share), "%.2f" % (100 * k.share_all))
                for b, k in zip(body, leaks)]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(header)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(b, widths)) for b in body]
    return "\n".join(lines)


def write_curve(rows: Sequence[TokenMetrics], path, leaks: Optional[Sequence[PostLeak]] = None,
                fmt: str = "csv") -> None:
    """The rows as a table in format ``fmt`` (:mod:`mmbdeid.files.tables`: CSV, TSV or
    JSON Lines, each also .gz), columns ``threshold,precision,recall,f1,specificity,tp,fp,
    fn,tn``; all or nothing.

    Ratios are fractions with 6 decimals; an empty threshold cell (JSON null) means
    ``None``.  With ``leaks`` (one per row), the columns ``leak_posts,name_posts,posts,
    leak_share,leak_share_all`` follow (:data:`LEAK_CSV_FIELDS`): leaking posts, posts with
    a gold name, all posts, and the leaking share of each.
    """
    _check_leaks(rows, leaks)
    names = CSV_FIELDS + (LEAK_CSV_FIELDS if leaks is not None else ())
    columns = [Column(name, WHOLE if name in _COUNT_FIELDS else REAL) for name in names]
    # the curve's CSV keeps its \r\n line ends (other tables end lines in \n)
    with table_output(path, fmt, columns, csv_line_end="\r\n") as write_row:
        for i, r in enumerate(rows):
            cells = ["" if r.threshold is None else repr(float(r.threshold)),
                     "%.6f" % r.precision, "%.6f" % r.recall, "%.6f" % r.f1,
                     "%.6f" % r.specificity, r.tp, r.fp, r.fn, r.tn]
            if leaks is not None:
                k = leaks[i]
                cells += [k.leaking, k.with_names, k.posts,
                          "%.6f" % k.share, "%.6f" % k.share_all]
            write_row(cells)


_COUNT_FIELDS = ("tp", "fp", "fn", "tn", "leak_posts", "name_posts", "posts")


def read_curve_csv(path) -> List[TokenMetrics]:
    """Read a CSV file written by :func:`write_curve` (the counts are authoritative; leak
    columns, if any, are ignored)."""
    out = []
    with open(path, newline="", encoding="utf-8") as fh:
        for rec in csv.DictReader(fh):
            t = rec["threshold"].strip()
            out.append(TokenMetrics(float(t) if t else None, int(rec["tp"]), int(rec["fp"]),
                                    int(rec["fn"]), int(rec["tn"])))
    return out


def fold_metrics(folds, threshold: float) -> List[Tuple[TokenMetrics, PostLeak]]:
    return [(token_metrics(f.gold, f.probabilities > threshold, threshold=threshold),
             post_leak(f.minima, threshold)) for f in folds]


def format_fold_table(folds, threshold: float) -> str:
    """One line per cross-validation fold at ``threshold`` (objects with ``gold``,
    ``probabilities``, ``minima``, ``posts``): its size and its figures."""
    lines = ["per fold at threshold %g:" % threshold,
             "  fold  posts  names  recall%  precision%     F1%  leaking posts"]
    for number, (fold, (m, leak)) in enumerate(zip(folds, fold_metrics(folds, threshold)), 1):
        lines.append("  %4d  %5d  %5d  %7.2f  %10.2f  %6.2f  %s" % (
            number, fold.posts, m.tp + m.fn, 100 * m.recall, 100 * m.precision, 100 * m.f1,
            format_leak(leak)))
    return "\n".join(lines)


def fold_spread(folds, threshold: float) -> str:
    """Mean, standard deviation (n-1) and range over the folds of recall, precision, F1 and
    the leaking-post share: how much the pooled figures would move with another sample."""
    measured = fold_metrics(folds, threshold)
    series = [("recall", [m.recall for m, _ in measured]),
              ("precision", [m.precision for m, _ in measured]),
              ("F1", [m.f1 for m, _ in measured]),
              ("leaking posts", [leak.share for _, leak in measured])]
    parts = []
    for name, values in series:
        values = np.asarray(values, dtype=float) * 100
        sd = float(values.std(ddof=1)) if values.size > 1 else 0.0
        parts.append("%s %.2f ± %.2f (%.2f–%.2f)" % (name, values.mean(), sd, values.min(),
                                                     values.max()))
    return "spread over %d folds, mean ± sd (min–max), %%: %s" % (len(folds), "; ".join(parts))
