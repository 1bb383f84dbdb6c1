"""The text detection sees: a post's visible text, with a map back to the post's own text.

A name can be split by characters or markup that a reader never
sees: ``Li\\u200bnda`` (a zero-width space), ``Lin<b></b>da`` or ``<b>Lin</b>da`` (inline
markup), ``&#76;inda`` (a character reference). The tokenizer would cut such a name into
fragments, and the fragment not tagged would stay in the output. So detection works on the
*visible* text:

* character references are decoded: numeric ones (``&#76;``, ``&#x4c;``, and without the
  ``;``, as browsers read them) and named ones ending in ``;`` (``&amp;``, ``&eacute;``,
  any HTML5 name). A named reference without the ``;`` stays: in a URL's query
  (``?a=1&copy=2``) it is no reference;
* simple inline tags (``<b>``, ``<i>``, ``<u>``, ``<em>``, ``<strong>``, ``<span ...>``,
  their closing tags, BBCode ``[b]``, ``[i]``, ``[u]`` and closings) are removed: a reader
  sees none of them, and around a name (``<b>Linda</b>``) their ``b`` and brackets would
  only be odd tokens beside it that the model may take for part of the name;
* a run of invisible format characters (zero-width space, joiner and non-joiner, word
  joiner, BOM, soft hyphen, direction marks), tags among them, is removed where it lies
  *inside a word*, between two word characters. Elsewhere such a character stays: there
  it separates tokens, as it always did (and the zero-width joiner of an emoji sequence
  is left alone).

Like NLTK's ``span_tokenize``, nothing is lost on the way: :meth:`Normalized.original_span`
maps a span of the visible text to the whole extent it came from in the original, so
``<b>Lin</b>da`` is found from ``L`` to ``a``, the tag inside the name within the span, the
tag before it outside (as both tags of ``<b>Linda</b>`` are); the output keeps both
(:mod:`mmbdeid.text.markup`). A text with nothing to normalise (checked by one quick
search) is its own visible text.
"""
import html
import re
from bisect import bisect_right
from html.entities import html5
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from .tokenize import WORD_CHARACTER

Edit = Tuple[int, int, str]           # (start, end, replacement) in the original text

# Invisible format characters: the ones that hide inside words in practice (zero-width
# space, non-joiner, joiner, word joiner, BOM, soft hyphen) and the direction marks,
# embeddings and isolates, invisible operators and the Mongolian vowel separator.
INVISIBLE_CHARACTERS = ("\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069"
                        "\ufeff")
INLINE_TAG = (r"</?(?:b|i|u|em|strong|span)(?:\s[^<>]{0,200})?>"
              r"|\[/?[biu]\]")
_HIDDEN = re.compile(
    # inside a word first, so that a run of tags and invisible characters goes whole
    r"(?<=" + WORD_CHARACTER + r")(?:[" + INVISIBLE_CHARACTERS + r"]|" + INLINE_TAG + r")+"
    r"(?=" + WORD_CHARACTER + r")"
    r"|(?:" + INLINE_TAG + r")+", re.IGNORECASE)
_REFERENCE = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[A-Za-z][A-Za-z0-9]{0,31};)")
# What every normalisation starts with: most posts have none of it and skip the step.
_MAYBE = re.compile(r"[&<\[" + INVISIBLE_CHARACTERS + r"]")


class Normalized:
    """A text as detection sees it (``text``) and the way back to the ``original``.

    The visible text is made of pieces, each either copied from the original (offsets
    map one to one) or a replacement (a decoded reference: each of its characters maps
    to the reference's whole extent). Removed runs are no piece: a span across one covers
    it in the original, a span beside it does not."""

    __slots__ = ("text", "original", "_view_starts", "_original_starts", "_original_ends",
                 "_copied")

    def __init__(self, original: str, edits: Sequence[Edit] = ()):
        self.original = original
        if not edits:
            self.text = original
            self._view_starts: Optional[List[int]] = None
            return
        pieces: List[str] = []
        self._view_starts, self._original_starts, self._original_ends = [], [], []
        self._copied: List[bool] = []
        length = 0
        position = 0
        for start, end, replacement in list(edits) + [(len(original), len(original), "")]:
            for piece, piece_start, piece_end, copied in (
                    (original[position:start], position, start, True),
                    (replacement, start, end, False)):
                if piece:
                    pieces.append(piece)
                    self._view_starts.append(length)
                    self._original_starts.append(piece_start)
                    self._original_ends.append(piece_end)
                    self._copied.append(copied)
                    length += len(piece)
            position = end
        self.text = "".join(pieces)

    @property
    def changed(self) -> bool:
        return self._view_starts is not None

    def original_span(self, start: int, end: int) -> Tuple[int, int]:
        """``[start, end)`` of the visible text as offsets into the original: from the
        original of its first character to the original of its last."""
        if self._view_starts is None:
            return start, end
        if start >= end:                # an empty span stays empty, where its start maps
            at = (self._original_start(start) if start < len(self.text)
                  else len(self.original))
            return at, at
        return self._original_start(start), self._original_end(end)

    def original_spans(self, spans: Iterable) -> list:
        """``spans`` (NamedTuples with ``start`` and ``end``: ``Span``) with offsets into
        the original."""
        if self._view_starts is None:
            return list(spans)
        mapped = []
        for span in spans:
            start, end = self.original_span(span.start, span.end)
            mapped.append(span._replace(start=start, end=end))
        return mapped

    def _original_start(self, start: int) -> int:
        piece = bisect_right(self._view_starts, start) - 1
        if self._copied[piece]:
            return self._original_starts[piece] + start - self._view_starts[piece]
        return self._original_starts[piece]

    def _original_end(self, end: int) -> int:
        piece = bisect_right(self._view_starts, end - 1) - 1
        if self._copied[piece]:
            return self._original_starts[piece] + end - self._view_starts[piece]
        return self._original_ends[piece]


def normalize(text: str) -> Normalized:
    """``text`` as detection sees it (see the module docstring)."""
    if _MAYBE.search(text) is None:
        return Normalized(text)
    references = list(_reference_edits(text))
    decoded = Normalized(text, references)
    hidden = [decoded.original_span(match.start(), match.end())
              for match in _HIDDEN.finditer(decoded.text)]
    if not hidden:
        return decoded
    # A removed run covers the references it was decoded from (``Li&#8203;nda``).
    edits = [(start, end, "") for start, end in hidden]
    edits += [edit for edit in references if not _overlaps_any(edit, hidden)]
    return Normalized(text, sorted(edits))


def visible_text(text: str) -> str:
    """Only the visible text of ``text`` (a name as people are told apart by it)."""
    return normalize(text).text


def found_in_visible(finditer: Callable[[str], Iterable[tuple]],
                     text: str) -> List[Tuple[int, int]]:
    """``(start, end)`` in ``text`` of each match ``finditer`` (yielding tuples that begin
    with start and end: ``TermMatcher.finditer``) finds in the visible text of ``text``."""
    visible = normalize(text)
    return [visible.original_span(found[0], found[1]) for found in finditer(visible.text)]


def _reference_edits(text: str) -> Iterable[Edit]:
    if "&" not in text:
        return
    for match in _REFERENCE.finditer(text):
        reference = match.group()
        if reference[1] != "#" and reference[1:] not in html5:
            continue                    # ``&madeup;``: not a reference, left as typed
        yield match.start(), match.end(), html.unescape(reference)


def _overlaps_any(edit: Edit, regions: Sequence[Tuple[int, int]]) -> bool:
    return any(start < edit[1] and edit[0] < end for start, end in regions)
