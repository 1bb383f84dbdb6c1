"""Cross-validation figures of each group of the held-out posts (a source file, a board:
EWT's genre): per group, the mean, standard deviation and range over the folds of recall,
precision and the leaking-post share at one threshold, and the highest threshold whose
recall pooled over the folds reaches a target (``crossval --by``)."""
from typing import List, Optional, Sequence

import numpy as np

from .metrics import UnreachableRecall, fold_metrics, pick_threshold


def group_names(folds: Sequence) -> List[str]:
    """Every group of any fold, in order."""
    return sorted({name for fold in folds for name in (fold.groups or {})})


def spread(values: Sequence[float]) -> str:
    """``mean ± sd (min–max)`` of shares, as percentages (sd with n-1; 0 for one value)."""
    values = np.asarray(values, dtype=float) * 100
    sd = float(values.std(ddof=1)) if values.size > 1 else 0.0
    return "%.1f ± %.1f (%.1f–%.1f)" % (values.mean(), sd, values.min(), values.max())


def recall_threshold(folds: Sequence, target: float) -> Optional[float]:
    """The highest threshold whose recall pooled over ``folds`` reaches ``target``; None
    when no threshold does or there is no name."""
    gold = np.concatenate([f.gold for f in folds])
    if not gold.any():
        return None
    try:
        return pick_threshold(gold, np.concatenate([f.probabilities for f in folds]), target)
    except UnreachableRecall:
        return None


def format_group_spread(folds: Sequence, threshold: float, target: float) -> str:
    """One line for all held-out posts, then one per group: the folds it has posts in, its posts and names, recall,
    precision and leaking posts over those folds (:func:`spread`), and the pooled
    threshold for recall ``target``."""
    lines = ["per group at threshold %g, over the folds holding it, mean ± sd (min–max) %%; "
             "T: the highest threshold whose pooled recall reaches %g:" % (threshold, target),
             "  %-40s %5s %5s %5s  %-26s %-26s %-26s %s" % (
                 "group", "folds", "posts", "names", "recall", "precision", "leaking posts",
                 "T")]
    for name in ["(all)"] + group_names(folds):
        held = list(folds) if name == "(all)" else [
            fold.groups[name] for fold in folds if name in (fold.groups or {})]
        measured = fold_metrics(held, threshold)
        names = sum(int(f.gold.sum()) for f in held)
        found = recall_threshold(held, target)
        lines.append("  %-40s %5d %5d %5d  %-26s %-26s %-26s %s" % (
            name, len(held), sum(f.posts for f in held), names,
            spread([m.recall for m, _ in measured]) if names else "-",
            spread([m.precision for m, _ in measured]),
            spread([leak.share for _, leak in measured]) if names else "-",
            "-" if found is None else "%g" % found))
    return "\n".join(lines)
