"""Outputs that appear whole or not at all: written to a temporary file beside the target
and renamed onto it only when the writer finished without an exception."""
import contextlib
import os
import tempfile
from typing import IO, Iterator, Optional

from ..errors import InputError


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text handle on a temporary file beside ``path``, renamed onto it on success.

    On any exception, KeyboardInterrupt included, the temporary file is removed and
    ``path`` is left as it was.  Characters UTF-8 cannot encode (lone surrogates from
    ``\\ud800`` JSON escapes) are written as backslash escapes rather than failing.
    """
    with atomic_path(path) as temporary:
        with open(temporary, "w", encoding="utf-8", newline="",
                  errors="backslashreplace") as handle:
            yield handle


@contextlib.contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """The path of a new empty temporary file beside ``path`` for the caller to fill (a
    SQLite database, a model archive); renamed onto ``path`` on success, removed on any
    exception, KeyboardInterrupt included."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    except OSError as error:
        raise InputError("cannot write: %s" % (error.strerror or error), path) from None
    os.close(descriptor)
    try:
        yield temporary
        os.chmod(temporary, _default_file_mode(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _default_file_mode(path: str) -> int:
    """Keep an existing file's mode; otherwise the usual 0666 less the umask
    (mkstemp creates files 0600)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask




class optional_output:
    """``atomic_output`` when a path is given, else a no-op yielding None."""

    def __init__(self, path: Optional[str]):
        self._context = atomic_output(path) if path else None

    def __enter__(self):
        return self._context.__enter__() if self._context else None

    def __exit__(self, *exc):
        return self._context.__exit__(*exc) if self._context else False
