"""Figures per kind of identifier (``evaluate --by kind``): of each kind's gold spans, how
many the scrub chain removed whole, and how many of its own spans lie outside every gold
span (false removals); and of the lookalikes the gold file lists to keep (a post's
``keep`` entries, grouped by their ``what``: ``dose``, ``lab value``, ``year``, ...), how
many were removed.

An identifier counts as removed when every letter and digit of it lies under some removed
span, whatever its label (an address removed as part of a longer address is removed: the
ethics board asks what is left, not what it was called); ``labelled`` counts those whose
removal included a span of their own kind.
"""
from collections import OrderedDict
from typing import Dict, Iterable, List, NamedTuple, Sequence, Tuple

from ..files.corpora import AnnotatedPost
from ..kinds import LABELS
from ..spans import Span

OTHER = "(other)"
SHOWN = 30          # what was left or wrongly removed, listed at most


class KindFigures(NamedTuple):
    kind: str
    identifiers: int        # gold spans of the kind
    removed: int            # removed whole
    labelled: int           # removed with a span of their own kind among those removing them
    false_removals: int     # spans of the kind found outside every gold span

    @property
    def recall(self) -> float:
        return self.removed / self.identifiers if self.identifiers else float("nan")


class LookalikeFigures(NamedTuple):
    what: str
    count: int
    removed: int            # touched by a removed span


class Left(NamedTuple):
    """A gold identifier left (in part), or a lookalike removed: for the error report."""
    post: str
    kind: str
    text: str


def _covered(text: str, start: int, end: int, spans: Sequence[Span]) -> bool:
    return all(any(s.start <= i < s.end for s in spans)
               for i in range(start, end) if text[i].isalnum())


def kind_figures(posts: Sequence[AnnotatedPost], found: Sequence[Sequence[Span]]
                 ) -> Tuple[List[KindFigures], List[LookalikeFigures], List[Left]]:
    """The figures of each kind (in table order, those with gold spans or found ones), of
    each group of lookalikes (in first-seen order), and what was left or wrongly removed;
    ``found``: per post, the removed spans in its text."""
    counts: Dict[str, List[int]] = {label: [0, 0, 0, 0] for label in LABELS}
    lookalikes: Dict[str, List[int]] = OrderedDict()
    left: List[Left] = []
    for post, spans in zip(posts, found):
        text = post.record.text
        for gold in post.spans:
            row = counts.setdefault(gold.label, [0, 0, 0, 0])
            row[0] += 1
            hits = [s for s in spans if s.overlaps(gold.start, gold.end)]
            if _covered(text, gold.start, gold.end, hits):
                row[1] += 1
                row[2] += any(s.label == gold.label for s in hits)
            else:
                left.append(Left(post.record.id, gold.label, text[gold.start:gold.end]))
        for span in spans:
            if not any(span.overlaps(g.start, g.end) for g in post.spans):
                counts.setdefault(span.label, [0, 0, 0, 0])[3] += 1
                left.append(Left(post.record.id, "false " + span.label,
                                 text[span.start:span.end]))
        for start, end, what in _keeps(post):
            row = lookalikes.setdefault(what, [0, 0])
            row[0] += 1
            if any(s.overlaps(start, end) for s in spans):
                row[1] += 1
                left.append(Left(post.record.id, "removed " + what, text[start:end]))
    kinds = [KindFigures(label, *row) for label, row in counts.items() if row[0] or row[3]]
    return kinds, [LookalikeFigures(what, *row) for what, row in lookalikes.items()], left


def _keeps(post: AnnotatedPost) -> Iterable[Tuple[int, int, str]]:
    """A post's lookalikes: its ``keep`` entries (``start``, ``end``, optional ``what``)."""
    for item in post.record.fields.get("keep") or ():
        if isinstance(item, dict) and isinstance(item.get("start"), int) \
                and isinstance(item.get("end"), int):
            yield item["start"], item["end"], str(item.get("what") or OTHER)


def format_kinds(kinds: Sequence[KindFigures], lookalikes: Sequence[LookalikeFigures],
                 left: Sequence[Left]) -> str:
    """The two tables and what was left, as ``evaluate --by kind`` prints them."""
    lines = ["%-10s %11s %8s %8s %9s %14s" % ("kind", "identifiers", "removed", "recall",
                                              "labelled", "false removals")]
    for row in kinds:
        lines.append("%-10s %11d %8d %8s %9d %14d" % (
            row.kind, row.identifiers, row.removed,
            "-" if not row.identifiers else "%.4f" % row.recall, row.labelled,
            row.false_removals))
    if lookalikes:
        lines.append("%-16s %6s %8s" % ("lookalike", "count", "removed"))
        lines += ["%-16s %6d %8d" % row for row in lookalikes]
    lines += ["%s: %s %r" % (item.post, item.kind, item.text) for item in left[:SHOWN]]
    if len(left) > SHOWN:
        lines.append("... and %d more" % (len(left) - SHOWN))
    return "\n".join(lines)
