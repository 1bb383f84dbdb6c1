"""Results as ``(label, start, end, score, source)`` spans, the operations on them, and text
stitched back from them.

A span's offsets are character offsets into the original text, end exclusive, so any
output can be mapped back to the input (the presidio-analyzer / scrubadub convention).
``source`` names the detector that found it, so no step has to guess where a span came
from by its score.
"""
from bisect import bisect_left
from itertools import accumulate
from typing import Iterable, List, NamedTuple, Sequence, Tuple

from .kinds import placeholder

# Detector names (``Span.source``).
PATTERN = "pattern"      # e-mail, URL, phone, @handle: a regular expression
CRF = "crf"              # the model's marginals above the threshold
USERNAME = "username"    # the board's distinctive usernames
SPACED = "spaced"        # spaced-out names (``R o b e r t``)
DENY = "deny"            # the user's deny list
MEMBER = "member"        # a board member's name from the person map (person modes)
MENTION = "mention"      # adjacent name spans joined into one mention (person modes)
GOLD = "gold"            # hand-tagged spans of an annotated corpus


class Span(NamedTuple):
    label: str      # NAME, USER, EMAIL, URL or PHONE (see mmbdeid.kinds)
    start: int
    end: int
    score: float    # model probability; 1.0 for identifiers found by rule or pattern
    source: str     # the detector that found it (PATTERN, CRF, ...)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether the span shares a character with ``[start, end)``."""
        return self.start < end and start < self.end

    def contains(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` lies within the span."""
        return self.start <= start and end <= self.end

    def inside(self, start: int, end: int) -> bool:
        """Whether the span lies within ``[start, end)``."""
        return start <= self.start and self.end <= end


def by_position(spans: Iterable[Span]) -> List[Span]:
    return sorted(spans, key=lambda s: (s.start, s.end))


def resolve_overlaps(spans: Iterable[Span]) -> List[Span]:
    """Sorted spans with overlaps removed: the earlier, then the longer, span wins."""
    kept: List[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept


def overlapping_any(spans: Sequence[Span], others: Sequence[Span]) -> List[bool]:
    """For each of ``spans``, whether it overlaps any of ``others`` (in O((n + m) log m))."""
    if not others:
        return [False] * len(spans)
    ordered = sorted(others, key=lambda s: s.start)
    starts = [s.start for s in ordered]
    # the furthest end among the others starting before a point
    furthest = list(accumulate((s.end for s in ordered), max))
    result = []
    for span in spans:
        before = bisect_left(starts, span.end)       # others starting before span.end
        result.append(before > 0 and furthest[before - 1] > span.start)
    return result


def add_spans(spans: Iterable[Span], added: Sequence[Span]) -> List[Span]:
    """``spans`` plus ``added``, dropping spans that overlap an added one (the added span
    covers the whole identifier: a deny-list phrase, a spaced-out name), sorted."""
    if not added:
        return list(spans)
    spans = list(spans)
    kept = [s for s, hit in zip(spans, overlapping_any(spans, added)) if not hit]
    return by_position(kept + list(added))


def drop_inside(spans: Iterable[Span], regions: Sequence[Tuple[int, int]]) -> List[Span]:
    """``spans`` less those lying entirely inside one of ``regions`` (sorted, disjoint
    ``(start, end)`` pairs: an allowed phrase, a drug name)."""
    spans = list(spans)
    if not spans or not regions:
        return spans
    starts = [start for start, _ in regions]
    kept = []
    for span in spans:
        # regions are disjoint: only the last one starting at or before the span can hold it
        index = bisect_left(starts, span.start + 1) - 1
        if not (index >= 0 and span.inside(*regions[index])):
            kept.append(span)
    return kept


def replace_spans(text: str, spans: Iterable[Span]) -> str:
    """``text`` with every span replaced by its kind's placeholder; the rest unchanged.

    Adjacent spans of one label (``Mary Jane`` as two NAME tokens) stay two placeholders,
    so the number of removed tokens is visible to a reviewer.
    """
    return stitch(text, ((span, placeholder(span.label)) for span in resolve_overlaps(spans)))


def stitch(text: str, replacements: Iterable[Tuple[Span, str]]) -> str:
    """``text`` with each (span, replacement) applied; spans sorted and not overlapping."""
    out, position = [], 0
    for span, replacement in replacements:
        out.append(text[position:span.start])
        out.append(replacement)
        position = span.end
    out.append(text[position:])
    return "".join(out)
