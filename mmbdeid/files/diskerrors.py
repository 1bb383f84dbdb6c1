"""Write errors that say where: a full disk, a quota or a file-size limit reported as
``PATH: No space left on device`` rather than a bare ``No space left on device``.

Python's write errors carry no file name, and a run writes several files at once (the
output, the spans, a scratch file in ``TMPDIR``): the one that failed is named by
writing through :class:`NamedFileIO`, whose errors carry the name it was given.
"""
import io
import os
import tempfile
from typing import IO


class NamedFileIO(io.FileIO):
    """A ``FileIO`` whose write errors are ``OSError``\\ s naming ``shown_as`` (the file as
    the user knows it, not a temporary name)."""

    def __init__(self, file, mode: str, shown_as: str):
        super().__init__(file, mode)
        self.shown_as = shown_as

    def write(self, data) -> int:
        try:
            return super().write(data)
        except OSError as error:
            raise _named(error, self.shown_as) from None


def _named(error: OSError, shown_as: str) -> OSError:
    if error.filename is not None:
        return error
    return OSError(error.errno, error.strerror or str(error), shown_as)


def open_named(path: str, shown_as: str, binary: bool = False):
    """``path`` opened for writing as text (UTF-8, newlines as written, unencodable
    characters as backslash escapes) or bytes; its write errors name ``shown_as``."""
    return wrap_named(NamedFileIO(path, "w", shown_as), binary)


def wrap_named(raw: NamedFileIO, binary: bool = False):
    """``raw`` buffered, as text (as ``open_named``) or bytes."""
    buffered = io.BufferedRandom(raw) if raw.readable() else io.BufferedWriter(raw)
    if binary:
        return buffered
    return io.TextIOWrapper(buffered, encoding="utf-8", newline="", errors="backslashreplace")


def temporary_directory_name() -> str:
    """How messages name ``TMPDIR`` (the directory scratch files go to)."""
    return "temporary files in %s (TMPDIR)" % tempfile.gettempdir()


def scratch_text_file() -> IO[str]:
    """An anonymous read-write text file in ``TMPDIR`` (gone as soon as it is closed, or
    the process dies), whose write errors name ``TMPDIR``."""
    return wrap_named(_scratch_file())


def scratch_binary_file() -> IO[bytes]:
    """:func:`scratch_text_file` for bytes: buffered, read-write, seekable."""
    return wrap_named(_scratch_file(), binary=True)


def _scratch_file() -> NamedFileIO:
    descriptor = _anonymous_file()
    try:
        return NamedFileIO(descriptor, "r+", temporary_directory_name())
    except BaseException:
        os.close(descriptor)
        raise


def _anonymous_file() -> int:
    """A descriptor of a new read-write file in ``TMPDIR`` that has no name: made without
    one where the system can (Linux ``O_TMPFILE``), so a stop signal never finds it named;
    elsewhere made and unlinked at once."""
    directory = tempfile.gettempdir()
    if hasattr(os, "O_TMPFILE"):
        try:
            return os.open(directory, os.O_TMPFILE | os.O_RDWR, 0o600)
        except (FileNotFoundError, PermissionError):
            raise                               # TMPDIR itself is missing or closed
        except OSError:
            pass                                # a file system without O_TMPFILE
    descriptor, path = tempfile.mkstemp(prefix="mmbdeid-", dir=directory)
    try:
        os.unlink(path)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor

