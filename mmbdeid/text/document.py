"""A post as the model sees it: tokens with offsets, pattern labels, paragraphs and context.

Two ways in: raw post text (pattern identifiers found first, the rest tokenised around
them, stages 1-2 of the pipeline) or a ready token list from a CoNLL corpus (offsets then
refer to the tokens joined by single spaces).
"""
import re
import sys
from bisect import bisect_right
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from .patterns import find_identifiers
from .tokenize import offsets_and_tokens

# A paragraph is a run of text between line breaks: on boards, greetings and sign-offs
# ("Hi Kay," / "Hugs,\nBarb") usually sit on lines of their own.
_LINE_BREAK = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
# One of its characters: finding these one by one is quicker than finding the runs, and
# gives the same paragraphs (a run lies between two tokens or inside one, so a token
# follows one of its characters exactly when it follows its start).
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
    text: str = ""

    def __len__(self) -> int:
        return len(self.tokens)

    @classmethod
    def from_text(cls, text: str, board: str = "", thread: str = "", author: str = "") -> "Document":
        identifiers = find_identifiers(text)
        offsets, found = offsets_and_tokens(text, [(s.start, s.end) for s in identifiers])
        label_at = {(s.start, s.end): s.label for s in identifiers}
        # One string object per token type, not per token (a long post repeats its words).
        types: dict = {}
        return cls(
            tokens=list(map(types.setdefault, found, found)),
            offsets=offsets,
            pattern_labels=list(map(label_at.get, offsets)) if label_at
            else [None] * len(offsets),
            paragraph_ids=_paragraph_ids(text, offsets),
            board=board, thread=thread, author=author, text=text,
        )

    @classmethod
    def from_post(cls, fields: dict) -> "Document":
        """From a post record: ``text`` plus the optional ``board``/``thread``/``author``."""
        return cls.from_text(fields["text"], board=post_field(fields, "board"),
                             thread=post_field(fields, "thread"),
                             author=post_field(fields, "author"))

    @classmethod
    def from_tokens(cls, tokens: Sequence[str], board: str = "", thread: str = "",
                    author: str = "") -> "Document":
        offsets, position = [], 0
        for token in tokens:
            offsets.append((position, position + len(token)))
            position += len(token) + 1
        return cls(
            tokens=list(tokens),
            offsets=offsets,
            pattern_labels=[_whole_token_pattern(t) for t in tokens],
            paragraph_ids=[0] * len(tokens),
            board=board, thread=thread, author=author, text=" ".join(tokens),
        )


def post_field(fields: dict, name: str) -> str:
    """A post's field as a string, as the model and the statistics see it (None and a
    missing field are empty)."""
    value = fields.get(name)
    return "" if value is None else str(value)


def _whole_token_pattern(token: str) -> Optional[str]:
    for span in find_identifiers(token):
        if span.start == 0 and span.end == len(token):
            return span.label
    return None


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
