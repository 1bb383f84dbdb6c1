"""Outputs that appear whole or not at all: written to a temporary file beside the target
and renamed onto it only when the writer finished without an exception.

A path ending in ``.gz`` is written gzip-compressed (readable by ``gzip -dc``), still all
or nothing. ``-`` is standard output, and a character device or FIFO given as an output
is streamed to likewise (:mod:`mmbdeid.files.targets`): neither can be atomic, so what was
written before an error stays written. A symbolic link is written through to its target,
atomically, beside the target. Every file written is locked for the writer
(:mod:`mmbdeid.files.locks`), and its write errors name it (:mod:`mmbdeid.files.diskerrors`).

Files that hold names (the person map, review lists, reject files, statistics, spans in
the person modes) are made ``private``: mode 0600, readable by their owner only.
"""
import contextlib
import gzip
import io
import os
from typing import IO, Iterator, Optional

from ..errors import InputError, raise_if_stopped
from .diskerrors import NamedFileIO, open_named, wrap_named
from .locks import PRIVATE_MODE, new_temporary_path, output_lock
from .stdio import STDIO, stdout_binary, stdout_text
from .targets import FILE, STDOUT, STREAM, OutputTarget, check_outputs, is_stream, output_target

GZIP_LEVEL = 6                  # gzip's own default: level 9 is much slower for little gain
_CREATE_PRIVATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC

__all__ = ["atomic_output", "atomic_binary_output", "atomic_path", "optional_output",
           "output_if_written",
           "check_outputs", "PRIVATE_MODE"]


@contextlib.contextmanager
def atomic_output(path: str, private: bool = False,
                  compressed: Optional[bool] = None) -> Iterator[IO[str]]:
    """A text handle on a temporary file beside ``path``, renamed onto it on success.

    On any exception, KeyboardInterrupt included, the temporary file is removed and
    ``path`` is left as it was.  Characters UTF-8 cannot encode (lone surrogates from
    ``\\ud800`` JSON escapes) are written as backslash escapes rather than failing.
    ``compressed`` (default: ``path`` ends in ``.gz``) writes gzip. ``-``, a device or a
    FIFO is written to directly, not atomically.
    """
    path = os.fspath(path)
    target = output_target(path)
    if compressed is None:
        compressed = target.kind != STDOUT and path.lower().endswith(".gz")
    if not compressed:
        if target.kind == STDOUT:
            with stdout_text() as handle:
                yield handle
            return
        with _opened(target, private, binary=False) as handle:
            yield handle
        return
    with atomic_binary_output(path, private) as binary:
        # The name inside the gzip header is the target's, not the temporary file's, and
        # the time is 0 so that one input always gives the same bytes.
        inner = "" if path == STDIO else os.path.basename(path)[:-len(".gz")]
        with gzip.GzipFile(filename=inner, mode="wb", fileobj=binary, mtime=0,
                           compresslevel=GZIP_LEVEL) as zipped:
            # closing the wrapper closes the GzipFile (its trailer), never ``binary``
            with io.TextIOWrapper(zipped, encoding="utf-8", newline="",
                                  errors="backslashreplace") as handle:
                yield handle


@contextlib.contextmanager
def atomic_binary_output(path: str, private: bool = False) -> Iterator[IO[bytes]]:
    """``atomic_output`` for bytes (a Parquet file, gzip, a model); ``-`` is standard
    output."""
    target = output_target(path)
    if target.kind == STDOUT:
        with stdout_binary() as handle:
            yield handle
        return
    with _opened(target, private, binary=True) as handle:
        yield handle


@contextlib.contextmanager
def _opened(target: OutputTarget, private: bool, binary: bool) -> Iterator[IO]:
    if target.kind == STREAM:
        with _stream(target, binary) as handle:
            yield handle
        return
    with _atomic_file(target, private) as temporary:
        with open_named(temporary, target.given, binary) as handle:
            yield handle


def _stream(target: OutputTarget, binary: bool) -> IO:
    """A device or FIFO opened for writing, as it is: never created, never truncated."""
    try:
        descriptor = os.open(target.path, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise InputError("cannot write: %s" % (error.strerror or error), target.given) from None
    if not is_stream(os.fstat(descriptor).st_mode):     # replaced since it was looked at
        os.close(descriptor)
        raise InputError("changed while being opened (no longer a device or FIFO)",
                         target.given)
    return wrap_named(NamedFileIO(descriptor, "w", target.given), binary)


@contextlib.contextmanager
def atomic_path(path: str, private: bool = False) -> Iterator[str]:
    """The path of a new empty temporary file beside ``path`` for the caller to fill (a
    SQLite database), renamed onto ``path`` on success, removed on any exception,
    KeyboardInterrupt included. It is created 0600, so a private file is never readable
    by others, not even while it is written. Such a file cannot be streamed:
    ``-``, a device or a FIFO is refused."""
    target = output_target(path)
    if target.kind == STDOUT:
        raise InputError("this output cannot go to standard output: give a file", path)
    if target.kind == STREAM:
        raise InputError("is a device or FIFO, but this output (a database) is written in "
                         "place: give a regular file", path)
    with _atomic_file(target, private) as temporary:
        yield temporary


@contextlib.contextmanager
def _atomic_file(target: OutputTarget, private: bool) -> Iterator[str]:
    """A temporary file beside ``target.path``, with its lock held, renamed onto it on
    success (a symbolic link's target is replaced, the link stays)."""
    with output_lock(target.path):
        temporary = None
        try:
            # named before it exists, so that a stop signal at any point finds it to remove
            while True:
                temporary = new_temporary_path(target.path)
                try:
                    os.close(os.open(temporary, _CREATE_PRIVATE, PRIVATE_MODE))
                    break
                except FileExistsError:
                    continue
                except OSError as error:
                    temporary = None
                    raise InputError("cannot write: %s" % (error.strerror or error),
                                     target.given) from None
            yield temporary
            raise_if_stopped()      # never rename an output into place after a stop signal
            os.chmod(temporary, PRIVATE_MODE if private else _default_file_mode(target.path))
            os.replace(temporary, target.path)
        except BaseException:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
            raise


def _default_file_mode(path: str) -> int:
    """Keep an existing file's mode; otherwise the usual 0666 less the umask
    (temporary files are created 0600)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class optional_output:
    """``atomic_output`` when a path is given, else a no-op yielding None."""

    def __init__(self, path: Optional[str], private: bool = False):
        self._context = atomic_output(path, private) if path else None

    def __enter__(self):
        return self._context.__enter__() if self._context else None

    def __exit__(self, *exc):
        return self._context.__exit__(*exc) if self._context else False


class output_if_written:
    """An output that exists only if something is written to it (a reject file): the
    ``atomic_output`` is opened at the first ``write``. Nothing written: no new file is
    made, but a file already at the path is emptied (whatever an earlier run wrote there
    would be taken for this run's); a device, a FIFO or standard output is opened all the
    same, so that a reader waiting on it sees its end."""

    def __init__(self, path: str, private: bool = False):
        self._path, self._private = os.fspath(path), private
        self._context = None
        self._handle: Optional[IO[str]] = None

    def write(self, text: str) -> None:
        if self._handle is None:
            self._context = atomic_output(self._path, self._private)
            self._handle = self._context.__enter__()
        self._handle.write(text)

    def __enter__(self) -> "output_if_written":
        if output_target(self._path).kind != FILE:
            self.write("")
        return self

    def __exit__(self, *exc):
        if self._context is None and exc[0] is None and os.path.exists(self._path):
            self.write("")              # an earlier run's file: emptied, atomically
        return self._context.__exit__(*exc) if self._context else False
