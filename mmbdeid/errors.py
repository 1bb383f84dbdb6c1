"""The one error type the command line turns into ``file:line: message`` and exit status 2."""
from typing import Optional


class InputError(Exception):
    """Bad input: a malformed record, a missing field, an unreadable or empty file."""

    def __init__(self, message: str, path: Optional[str] = None, line: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path) + (":%d" % self.line if self.line is not None else "") + ": "
        return where + self.message
