"""Markup kept where an identifier is replaced.

Detection reads the visible text (:mod:`mmbdeid.text.normalize`), so a name split by inline
tags (``<b>Lin</b>da``, ``Lin<span class="x">da</span>``) is found as one span, from its
first letter to its last, tags inside. Replacing the whole span would take those tags with
it and leave the others unbalanced. So a replaced span keeps its markup in place: the
replacement goes where the span's first stretch of text was, the rest of its text goes, and
every inline tag inside it stays (``<b>[NAME]</b>``, ``[NAME]<span class="x"></span>``).
Emphasis underscores a name's token carries at its ends stay as well (``_Linda_`` ->
``_[NAME]_``): no name holds one, while a username may (``_kay_`` is replaced whole).
"""
import re
from typing import Iterable, Iterator, List, Tuple

from ..spans import Span
from .normalize import INLINE_TAG

_TAG = re.compile(INLINE_TAG, re.IGNORECASE)

Piece = Tuple[int, int, bool]       # (start, end, markup) within the text


def pieces(text: str, span: Span) -> List[Piece]:
    """The span's text in order as stretches of text and of markup kept; one stretch of
    text, the whole span, when it holds nothing else but markup."""
    start, end = span.start, span.end
    kept = [(m.start(), m.end()) for m in _TAG.finditer(text, start, end)]
    if span.label == "NAME":
        name = text[start:end]
        leading = len(name) - len(name.lstrip("_"))
        trailing = len(name) - len(name.rstrip("_")) if leading < len(name) else 0
        kept += [(start, start + leading), (end - trailing, end)]
    result: List[Piece] = []
    position = start
    for markup_start, markup_end in sorted(kept):
        if markup_start < position or markup_start == markup_end:   # (no underscores)
            continue
        if position < markup_start:
            result.append((position, markup_start, False))
        result.append((markup_start, markup_end, True))
        position = markup_end
    if position < end:
        result.append((position, end, False))
    if all(markup for _, _, markup in result):
        return [(start, end, False)]
    return result


def without_markup(text: str, span: Span) -> str:
    """The span's text less the markup it keeps (what its replacement stands for)."""
    return "".join(text[s:e] for s, e, markup in pieces(text, span) if not markup)


def stitch_keeping_markup(text: str, replacements: Iterable[Tuple[Span, str]]) -> str:
    """``text`` with each (span, replacement) applied, spans sorted and not overlapping
    (as :func:`mmbdeid.spans.stitch`), each span's markup kept (see the module)."""
    out, position = [], 0
    for span, replacement in replacements:
        out.append(text[position:span.start])
        out.extend(_replaced(text, span, replacement))
        position = span.end
    out.append(text[position:])
    return "".join(out)


def _replaced(text: str, span: Span, replacement: str) -> Iterator[str]:
    placed = False
    for start, end, markup in pieces(text, span):
        if markup:
            yield text[start:end]
        elif not placed:
            yield replacement
            placed = True
