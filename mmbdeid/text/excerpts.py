"""A string in its context: the few words either side of it, as the review list, the review
page and the evaluation error listing show it (``... thanks [Linda] for the ...``)."""
import re
from typing import NamedTuple

CONTEXT_CHARS = 40          # characters of context on each side, before cutting at a word

_SPACE = re.compile(r"\s+")
ELLIPSIS = "..."


class Context(NamedTuple):
    """``before`` + ``string`` + ``after`` is a stretch of the text, whitespace runs shown
    as single spaces; ``before`` starts with ``"... "`` and ``after`` ends with
    ``" ..."`` where the text goes on."""
    before: str
    string: str
    after: str

    def marked(self) -> str:
        """The one-line form: the string in square brackets."""
        return "%s[%s]%s" % self


def context(text: str, start: int, end: int, width: int = CONTEXT_CHARS) -> Context:
    """``text[start:end]`` with up to ``width`` characters either side, cut back to whole
    words (a single word longer than ``width`` is kept cut)."""
    left = max(0, start - width)
    before = text[left:start]
    if left > 0 and not (text[left - 1].isspace() or text[left].isspace()):
        match = _SPACE.search(before)            # the cut is inside a word: drop that word
        if match and match.end() < len(before):
            before = before[match.end():]
    right = min(len(text), end + width)
    after = text[end:right]
    if right < len(text) and not (text[right - 1].isspace() or text[right].isspace()):
        spaces = list(_SPACE.finditer(after))
        if spaces and spaces[-1].start() > 0:
            after = after[:spaces[-1].start()]
    before, string, after = (_SPACE.sub(" ", part) for part in (before, text[start:end], after))
    if left > 0:
        before = ELLIPSIS + " " + before.lstrip(" ")
    if right < len(text):
        after = after.rstrip(" ") + " " + ELLIPSIS
    return Context(before, string, after)
