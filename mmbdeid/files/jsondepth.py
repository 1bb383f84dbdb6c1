"""How deep a JSON text nests, found before it is parsed.

Python's json parser recurses once per level of arrays and objects: a record nested
100,000 deep raises RecursionError, and one nested 900 deep parses but then breaks pickling
it to a worker process (``--jobs``). A text nested deeper than :data:`MAX_DEPTH` is refused
before parsing: a bad record like any other. No real post's metadata comes near it.
"""
import re
from typing import Iterator

from ..errors import MmbdeidValueError

MAX_DEPTH = 100
# a JSON string (skipped: brackets inside it do not nest), one left open (group 1 empty:
# matched up to where it cannot go on, so that no later quote rescans it), or one bracket
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*("?)|[\[\]{}]')
_BRACKETS = re.compile(r"[\[\]{}]")


class TooDeep(MmbdeidValueError):
    """Arrays and objects nested deeper than the limit."""


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`TooDeep` when arrays and objects in ``text`` nest deeper than
    ``limit``. Cheap for the usual text: it is scanned only when it holds more than
    ``limit`` opening brackets. Linear in the text."""
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for bracket in brackets(text):
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > limit:
                raise TooDeep("JSON nested deeper than %d levels of arrays and objects"
                              % limit)
        else:
            depth -= 1


def brackets(text: str) -> Iterator[str]:
    """The brackets of ``text`` outside its strings, in order. A quote that opens no
    string (none closes it) counts as no quote, as a scan trying each quote in turn would
    find, but without reading the rest of the text again at each later quote: every quote
    in what it would have opened is escaped there, so it opens no string either."""
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket[0] != '"':
            yield bracket
        elif not token.group(1):                         # a quote left open
            for inside in _BRACKETS.finditer(text, token.start() + 1, token.end()):
                yield inside.group()
