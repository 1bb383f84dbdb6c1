"""How deep a JSON text nests, found before it is parsed.

Python's json parser recurses once per level of arrays and objects: a record nested
100,000 deep raises RecursionError, and one nested 900 deep parses but then breaks pickling
it to a worker process (``--jobs``). A text nested deeper than :data:`MAX_DEPTH` is refused
before parsing: a bad record like any other. No real post's metadata comes near it.
"""
import re

MAX_DEPTH = 100
# a JSON string (skipped: brackets inside it do not nest), or one bracket
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class TooDeep(ValueError):
    """Arrays and objects nested deeper than the limit."""


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`TooDeep` when arrays and objects in ``text`` nest deeper than
    ``limit``. Cheap for the usual text: it is scanned only when it holds more than
    ``limit`` opening brackets."""
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > limit:
                raise TooDeep("JSON nested deeper than %d levels of arrays and objects"
                              % limit)
        elif bracket == "]" or bracket == "}":
            depth -= 1
