"""``-`` as a file: standard input spooled to a private temporary file, standard output as a
handle that is left open.

Standard input is copied to a file first because the commands read a dump more than once
(pass 1 statistics, pass 2 scrubbing) and sniff its format. Standard output cannot be
written atomically: what was written before an error stays written.
"""
import contextlib
import io
import os
import shutil
import sys
from typing import IO, Iterator

from ..errors import InputError
from .diskerrors import open_named, temporary_directory_name
from .scratch import scratch_directory

STDIO = "-"
STDIN_NAME = "<stdin>"


@contextlib.contextmanager
def spooled_stdin() -> Iterator[str]:
    """The path of a private temporary file holding all of standard input, in a scratch
    directory in ``TMPDIR``; removed afterwards, also on an error or a stop signal."""
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    if hasattr(stdin, "isatty") and stdin.isatty():
        raise InputError("standard input is a terminal: pipe the posts in "
                         "(mmbdeid ... - < dump.jsonl)", STDIN_NAME)
    with scratch_directory() as scratch:    # so a killed run's copy is removed later
        path = os.path.join(scratch, "stdin")
        with open_named(path, temporary_directory_name(), binary=True) as spool:
            shutil.copyfileobj(stdin, spool, 1 << 20)
        yield path


@contextlib.contextmanager
def stdout_binary() -> Iterator[IO[bytes]]:
    """Standard output's bytes (flushed at the end, never closed)."""
    sys.stdout.flush()
    handle = getattr(sys.stdout, "buffer", None)
    if handle is None:                      # a replaced sys.stdout without bytes
        raise InputError("standard output takes no bytes here: give a file", STDIO)
    yield handle
    handle.flush()


@contextlib.contextmanager
def stdout_text() -> Iterator[IO[str]]:
    """Standard output as UTF-8 text with untranslated line endings, whatever the
    locale (flushed at the end, never closed)."""
    with stdout_binary() as binary:
        handle = io.TextIOWrapper(binary, encoding="utf-8", newline="",
                                  errors="backslashreplace")
        try:
            yield handle
        finally:
            handle.flush()
            handle.detach()                 # leave sys.stdout open
