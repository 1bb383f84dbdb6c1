"""A post as the model sees it: tokens with offsets, pattern labels, paragraphs and context.

Two ways in: raw post text (pattern identifiers found first, the rest tokenised around
them, stages 1-2 of the pipeline) or a ready token list from a CoNLL corpus (offsets then
refer to the tokens joined by single spaces).

From raw text, what is analysed is the post's visible text (:mod:`mmbdeid.text.normalize`:
``Li\u200bnda``, ``<b>Lin</b>da`` and ``&#76;inda`` read ``Linda``): ``text``, the tokens'
offsets and every detector's spans are in that text; :meth:`Document.to_original` takes
spans back to the post's own text, which is what every output is written in.
"""
import re
import sys
from bisect import bisect_right
from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Tuple

from ..spans import Span
from .normalize import Normalized, normalize
from .patterns import find_identifiers
from .placeholders import find_placeholders, stand_in
from .tokenize import offsets_and_tokens

# A paragraph is a run of text between line breaks: on boards, greetings and sign-offs
# ("Hi Kay," / "Hugs,\nBarb") usually sit on lines of their own. The line-break characters
# are found one by one, quicker than the runs and giving the same paragraphs (a run lies
# between two tokens or inside one, so a token follows one of its characters exactly when
# it follows its start).
_LINE_BREAK_CHARACTER = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]")


@dataclass
class Document:
    tokens: List[str]
    offsets: List[Tuple[int, int]]
    pattern_labels: List[Optional[str]]     # EMAIL/URL/PHONE/USER where a pattern matched
    paragraph_ids: List[int]
    board: str = ""
    thread: str = ""
    author: str = ""
    text: str = ""          # the visible text: what the offsets and detectors' spans index
    # the way back to the post's own text; None when the two are the same (most posts)
    normalized: Optional[Normalized] = None
    # indices of the tokens that are placeholders of an earlier scrub (``[NAME]``,
    # ``[U12]``): read as a stand-in (text/placeholders.py), never removed
    scrubbed: FrozenSet[int] = frozenset()

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def original_text(self) -> str:
        """The post's own text, which outputs are written in."""
        return self.text if self.normalized is None else self.normalized.original

    @property
    def original_offsets(self) -> List[Tuple[int, int]]:
        """Each token's offsets in the post's own text (gold spans are in those)."""
        if self.normalized is None:
            return self.offsets
        return [self.normalized.original_span(start, end) for start, end in self.offsets]

    def to_original(self, spans: List[Span]) -> List[Span]:
        """Spans of ``text`` as spans of the post's own text, each over the whole extent
        its characters came from (``Lin</b>da``)."""
        return spans if self.normalized is None else self.normalized.original_spans(spans)

    @classmethod
    def from_text(cls, text: str, board: str = "", thread: str = "", author: str = "") -> "Document":
        normalized = normalize(text)
        text = normalized.text
        identifiers = find_identifiers(text)
        placeholders = find_placeholders(text)
        protected = [(s.start, s.end) for s in identifiers]
        label_at = {(s.start, s.end): s.label for s in identifiers}
        if placeholders:
            protected = _with_placeholders(protected, placeholders)
            label_at = {bounds: label for bounds, label in label_at.items()
                        if bounds in protected}
        offsets, found = offsets_and_tokens(text, protected)
        scrubbed: FrozenSet[int] = frozenset()
        if placeholders:
            scrubbed, found, label_at = _read_stand_ins(offsets, found, placeholders, label_at)
        # One string object per token type, not per token (a long post repeats its words).
        types: dict = {}
        return cls(
            tokens=list(map(types.setdefault, found, found)),
            offsets=offsets,
            pattern_labels=list(map(label_at.get, offsets)) if label_at
            else [None] * len(offsets),
            paragraph_ids=_paragraph_ids(text, offsets),
            board=board, thread=thread, author=author, text=text,
            normalized=normalized if normalized.changed else None, scrubbed=scrubbed,
        )

    @classmethod
    def from_post(cls, fields: dict) -> "Document":
        """From a post record: ``text`` plus the optional ``board``/``thread``/``author``."""
        return cls.from_text(fields["text"], board=post_field(fields, "board"),
                             thread=post_field(fields, "thread"),
                             author=post_field(fields, "author"))


def post_field(fields: dict, name: str) -> str:
    """A post's field as a string, as the model and the statistics see it (None and a
    missing field are empty)."""
    value = fields.get(name)
    return "" if value is None else str(value)


def _with_placeholders(protected: List[Tuple[int, int]],
                       placeholders: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    """The pattern identifiers' bounds and the placeholders', sorted; a placeholder wins
    over an identifier it overlaps."""
    kept = [(start, end) for start, end in protected
            if not any(start < p_end and p_start < end for p_start, p_end in placeholders)]
    return sorted(kept + placeholders)


def _read_stand_ins(offsets, found, placeholders, label_at):
    """The placeholder tokens' indices, the tokens with each placeholder read as its
    stand-in, and the pattern labels with the stand-ins' labels added."""
    at = {bounds: i for i, bounds in enumerate(offsets)}
    found = list(found)
    label_at = dict(label_at)
    indices = []
    for bounds in placeholders:
        i = at.get(bounds)
        if i is None:
            continue
        indices.append(i)
        token, pattern = stand_in(found[i])
        found[i] = token
        if pattern:
            label_at[bounds] = pattern
    return frozenset(indices), found, label_at


def _paragraph_ids(text: str, offsets: List[Tuple[int, int]]) -> List[int]:
    """Each token's paragraph: the number of line-break runs before it, renumbered so that
    paragraphs without tokens are skipped (0, 0, 2 -> 0, 0, 1). Work per line break, not
    per token: the tokens before a break are found by bisection, and each paragraph's ids
    are filled in at once."""
    count = len(offsets)
    ids: List[int] = []
    current = -1
    for line_break in _LINE_BREAK_CHARACTER.finditer(text) if count else ():
        at = line_break.start()
        if offsets[len(ids)][0] > at:
            continue                # no token since the last break (``\r\n``, ``\n\n``)
        # (start, end) <= (at, maxsize): the tokens starting at or before the break
        before = bisect_right(offsets, (at, sys.maxsize), len(ids))
        current += 1
        ids += [current] * (before - len(ids))
        if before == count:
            break
    if len(ids) < count:
        ids += [current + 1] * (count - len(ids))
    return ids
