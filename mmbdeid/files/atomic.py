"""Outputs that appear whole or not at all: written to a temporary file beside the target
and renamed onto it only when the writer finished without an exception.

A path ending in ``.gz`` is written gzip-compressed (readable by ``gzip -dc``), still all
or nothing. ``-`` is standard output, which cannot be atomic: what was written before an
error stays written.

Files that hold names (the person map, review lists, reject files, statistics, spans in
the person modes) are made ``private``: mode 0600, readable by their owner only.
"""
import contextlib
import fcntl
import gzip
import io
import os
import tempfile
from typing import IO, Iterator, Optional, Sequence

from ..errors import InputError, raise_if_stopped
from .stdio import STDIO, stdout_binary, stdout_text

PRIVATE_MODE = 0o600
GZIP_LEVEL = 6                  # gzip's own default: level 9 is much slower for little gain


@contextlib.contextmanager
def atomic_output(path: str, private: bool = False,
                  compressed: Optional[bool] = None) -> Iterator[IO[str]]:
    """A text handle on a temporary file beside ``path``, renamed onto it on success.

    On any exception, KeyboardInterrupt included, the temporary file is removed and
    ``path`` is left as it was.  Characters UTF-8 cannot encode (lone surrogates from
    ``\\ud800`` JSON escapes) are written as backslash escapes rather than failing.
    ``compressed`` (default: ``path`` ends in ``.gz``) writes gzip. ``-`` writes to
    standard output, not atomically.
    """
    if compressed is None:
        compressed = path != STDIO and path.lower().endswith(".gz")
    if not compressed:
        if path == STDIO:
            with stdout_text() as handle:
                yield handle
            return
        with atomic_path(path, private) as temporary:
            with open(temporary, "w", encoding="utf-8", newline="",
                      errors="backslashreplace") as handle:
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
    """``atomic_output`` for bytes (a Parquet file, gzip); ``-`` is standard output."""
    if path == STDIO:
        with stdout_binary() as handle:
            yield handle
        return
    with atomic_path(path, private) as temporary:
        with open(temporary, "wb") as handle:
            yield handle


@contextlib.contextmanager
def atomic_path(path: str, private: bool = False) -> Iterator[str]:
    """The path of a new empty temporary file beside ``path`` for the caller to fill (a
    SQLite database, a model archive); renamed onto ``path`` on success, removed on any
    exception, KeyboardInterrupt included. mkstemp creates it 0600, so a private file is
    never readable by others, not even while it is written."""
    path = os.fspath(path)
    if path == STDIO:
        raise InputError("this output cannot go to standard output: give a file", path)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    except OSError as error:
        raise InputError("cannot write: %s" % (error.strerror or error), path) from None
    os.close(descriptor)
    try:
        yield temporary
        raise_if_stopped()      # never rename an output into place after a stop signal
        os.chmod(temporary, PRIVATE_MODE if private else _default_file_mode(path))
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

    def __init__(self, path: Optional[str], private: bool = False):
        self._context = atomic_output(path, private) if path else None

    def __enter__(self):
        return self._context.__enter__() if self._context else None

    def __exit__(self, *exc):
        return self._context.__exit__(*exc) if self._context else False


def _lock_path(path: str) -> str:
    directory, name = os.path.split(os.path.abspath(path))
    return os.path.join(directory, "." + name + ".lock")


@contextlib.contextmanager
def output_locks(paths: Sequence[str]) -> Iterator[None]:
    """Exclusive locks on the outputs of one run, so that two runs writing the same file
    cannot both succeed: the second stops at once with one line. The lock is an ``flock``
    on a hidden ``.NAME.lock`` file beside the output, released by the kernel if the run
    dies and removed when the run ends."""
    held = []
    try:
        for path in paths:
            if path == STDIO:
                continue                # standard output: nothing to collide on
            lock = _lock_path(path)
            try:
                descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, PRIVATE_MODE)
            except OSError as error:
                raise InputError("cannot write: %s" % (error.strerror or error),
                                 path) from None
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(descriptor)
                raise InputError("another mmbdeid run is writing this file", path) from None
            held.append((lock, descriptor))
        yield
    finally:
        for lock, descriptor in reversed(held):
            with contextlib.suppress(OSError):
                os.unlink(lock)
            os.close(descriptor)


def check_outputs(outputs: Sequence[str], inputs: Sequence[str]) -> None:
    """Before any work: every output must be a file path (not a directory) in an existing,
    writable directory, and none may be an input or another output (a run must never
    overwrite what it reads, nor write two results to one file). ``-`` (standard output)
    may be given once."""
    seen = {}
    for path in inputs:
        if path:
            seen.setdefault(_identity(path), ("input", path))
    for path in outputs:
        if not path:
            continue
        if path == STDIO:
            if ("stdout",) in seen:
                raise InputError("standard output is given twice as an output", path)
            seen[("stdout",)] = ("output", path)
            continue
        if path.endswith(os.sep) or os.path.isdir(path):
            raise InputError("is a directory, expected a file to write", path)
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory):
            raise InputError("cannot write: directory %s does not exist" % directory, path)
        if not os.access(directory, os.W_OK | os.X_OK):
            raise InputError("cannot write: directory %s is not writable" % directory, path)
        if os.path.exists(path) and not os.access(path, os.W_OK):
            raise InputError("cannot write: permission denied", path)
        key = _identity(path)
        if key in seen:
            role, other = seen[key]
            if role == "input":
                raise InputError("is also an input of this run (%s): it would be "
                                 "overwritten" % other, path)
            raise InputError("is given twice as an output (%s)" % other, path)
        seen[key] = ("output", path)


def _identity(path: str):
    """Files compare by device and inode when they exist (hard and symbolic links), else
    by their resolved path."""
    try:
        status = os.stat(path)
        return ("inode", status.st_dev, status.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))
