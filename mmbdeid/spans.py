"""Results as ``(label, start, end, score)`` spans, and text stitched back from them.

A span's offsets are character offsets into the original text, end exclusive, so any
output can be mapped back to the input (the presidio-analyzer / scrubadub convention).
"""
from typing import Iterable, List, NamedTuple, Tuple


class Span(NamedTuple):
    label: str      # NAME, USER, EMAIL, URL or PHONE
    start: int
    end: int
    score: float    # model probability; 1.0 for pattern identifiers


PLACEHOLDERS = {label: "[%s]" % label for label in ("NAME", "USER", "EMAIL", "URL", "PHONE")}


def resolve_overlaps(spans: Iterable[Span]) -> List[Span]:
    """Sorted spans with overlaps removed: the earlier, then the longer, span wins."""
    kept: List[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept


def replace_spans(text: str, spans: Iterable[Span], placeholders=PLACEHOLDERS) -> str:
    """``text`` with every span replaced by its placeholder; the rest unchanged.

    Adjacent spans of one label (``Mary Jane`` as two NAME tokens) stay two placeholders,
    so the number of removed tokens is visible to a reviewer.
    """
    return stitch(text, ((span, placeholders.get(span.label, "[%s]" % span.label))
                         for span in resolve_overlaps(spans)))


def stitch(text: str, replacements: Iterable[Tuple[Span, str]]) -> str:
    """``text`` with each (span, replacement) applied; spans sorted and not overlapping."""
    out, position = [], 0
    for span, replacement in replacements:
        out.append(text[position:span.start])
        out.append(replacement)
        position = span.end
    out.append(text[position:])
    return "".join(out)
