"""Figures per board (or thread): where on a dump the model does well and where it leaks.

A dump mixes genres (EWT dev: e-mails, newsgroups, answers, reviews, weblogs), and a pooled
figure hides a board that leaks; ``evaluate --by board`` prints one row per group beside
the pooled figures, each with its leaking-post share.
"""
from collections import OrderedDict
from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import MmbdeidValueError
from . import GROUPINGS
from .gold import pooled_scores
from .metrics import PostLeak, TokenMetrics, post_leak, token_metrics


def group_indices(labelled: Sequence, by: str) -> Dict[str, List[int]]:
    """Group key -> indices of the documents in it, in first-seen order."""
    if by not in GROUPINGS:
        raise MmbdeidValueError("by must be one of %s" % ", ".join(GROUPINGS))
    groups: Dict[str, List[int]] = OrderedDict()
    for index, item in enumerate(labelled):
        document = item.document
        key = (document.board.split(":", 1)[0] if by == "forum"
               else getattr(document, by)) or "(none)"
        groups.setdefault(key, []).append(index)
    return groups


def figures_by_group(labelled: Sequence, scores: Sequence[Sequence[Optional[float]]],
                     threshold: float, by: str = "board"
                     ) -> List[Tuple[str, int, TokenMetrics, PostLeak]]:
    """(group, posts, token metrics, leaking posts) per group at ``threshold``."""
    rows = []
    for key, indices in group_indices(labelled, by).items():
        gold, probabilities, minima = pooled_scores([labelled[i] for i in indices],
                                                    [scores[i] for i in indices], posts=True)
        rows.append((key, len(indices),
                     token_metrics(gold, probabilities > threshold, threshold=threshold),
                     post_leak(minima, threshold)))
    return rows


def format_groups(rows: Sequence[Tuple[str, int, TokenMetrics, PostLeak]], by: str) -> str:
    """A table of :func:`figures_by_group`: one line per group."""
    width = max([len(by)] + [len(key) for key, _, _, _ in rows])
    lines = ["%-*s  posts  names  recall%%  precision%%     F1%%  leaking posts (of posts "
             "with a name)" % (width, by)]
    for key, posts, m, leak in rows:
        lines.append("%-*s  %5d  %5d  %7.2f  %10.2f  %6.2f  %d of %d (%.2f%%)" % (
            width, key, posts, m.tp + m.fn, 100 * m.recall, 100 * m.precision, 100 * m.f1,
            leak.leaking, leak.with_names, 100 * leak.share))
    return "\n".join(lines)
