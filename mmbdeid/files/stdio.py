"""``-`` as a file: standard input spooled to a private temporary file, standard output as a
handle that is left open.

Standard input is copied to a file first because the commands read a dump more than once
(pass 1 statistics, pass 2 scrubbing) and sniff its format; so is an input path that can
be read only once (a FIFO, a pipe such as ``<(zcat dump.gz)``, a character device).
The copy remembers the file or FIFO it came from (:class:`Origin`), so that an output
there (``-o dump.jsonl < dump.jsonl``) is refused like an output onto any input. Standard
output cannot be written atomically: what was written before an error stays written.
"""
import contextlib
import io
import os
import shutil
import stat
import sys
from typing import IO, Iterator, NamedTuple, Optional

from ..errors import InputError
from .diskerrors import open_named, temporary_directory_name
from .scratch import scratch_directory

STDIO = "-"
STDIN_NAME = "<stdin>"


class Origin(NamedTuple):
    """The file or FIFO a spooled copy was read from: its device and inode, and its path
    as far as the system knows it (for messages)."""
    device: int
    inode: int
    name: str


class Spool(NamedTuple):
    path: str                   # the private copy
    origin: Optional[Origin]    # None: a terminal, a device, a socket (nothing to clobber)


@contextlib.contextmanager
def spooled_stdin() -> Iterator[Spool]:
    """A private temporary file holding all of standard input, in a scratch directory in
    ``TMPDIR``; removed afterwards, also on an error or a stop signal."""
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    if hasattr(stdin, "isatty") and stdin.isatty():
        raise InputError("standard input is a terminal: pipe the posts in "
                         "(mmbdeid ... - < dump.jsonl)", STDIN_NAME)
    origin = _origin(stdin, "standard input")
    with _spooled(stdin) as path:
        yield Spool(path, origin)


def is_read_once(path) -> bool:
    """Whether the input at ``path`` can be read only once (a FIFO or a character
    device, such as ``/dev/fd/63`` of ``<(zcat dump.gz)``): it must be spooled."""
    try:
        mode = os.stat(os.fspath(path)).st_mode
    except OSError:
        return False            # the reader says what is wrong with it
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


@contextlib.contextmanager
def spooled_file(path: str) -> Iterator[Spool]:
    """:func:`spooled_stdin` for an input path that can be read only once."""
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error), path) from None
    with handle:
        if handle.isatty():
            raise InputError("is a terminal: give a file of posts, or pipe them in", path)
        origin = _origin(handle, path)
        with _spooled(handle, "spooled-" + os.path.basename(path)) as copy:
            yield Spool(copy, origin)


@contextlib.contextmanager
def _spooled(source: IO[bytes], name: str = "stdin") -> Iterator[str]:
    """A copy of ``source`` named ``name`` (so its extension still tells its format)."""
    with scratch_directory() as scratch:    # so a killed run's copy is removed later
        path = os.path.join(scratch, name)
        with open_named(path, temporary_directory_name(), binary=True) as spool:
            shutil.copyfileobj(source, spool, 1 << 20)
        yield path


def _origin(handle, name: str) -> Optional[Origin]:
    """The regular file or FIFO behind ``handle``, else None."""
    try:
        status = os.fstat(handle.fileno())
    except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
        return None             # a replaced sys.stdin without a descriptor
    if not (stat.S_ISREG(status.st_mode) or stat.S_ISFIFO(status.st_mode)):
        return None
    try:                        # the file's own path, where the system tells it
        name = os.readlink("/proc/self/fd/%d" % handle.fileno())
    except (OSError, ValueError):
        pass
    return Origin(status.st_dev, status.st_ino, name)


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
