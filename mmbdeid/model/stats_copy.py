"""The ``--stats`` store a run reuses: opened once, copied from that one descriptor into the
run's scratch directory, and only the copy read after that, by every pass and worker of
both engines (the Dask engine ships the copy), while the run holds the store's lock
shared (:func:`~mmbdeid.files.locks.input_lock`).

So the dump's fingerprint is checked on the very bytes the workers read: a store renamed
onto the path during the run (``mmbdeid stats -o`` of another dump, which the lock
refuses meanwhile, or any other program) is never read. A FIFO or a device is refused
before it is opened (opening a FIFO waits for a writer for ever, where no signal is
seen); a store another process holds locked to change it in place (an SQLite write lock)
is said to be in use, not copied half-written; and SQLite opens only the copy (immutable:
no locks, no journal), so nothing is made beside the store, not even the ``-wal`` and
``-shm`` files of a store in WAL mode.

A command that reads a store in one process only (``train``, ``evaluate`` and ``sweep``
with ``--stats``) opens such a copy too (:func:`open_copy`), removed as soon as it is open.
"""
import contextlib
import errno
import fcntl
import os
from typing import Iterator

from ..errors import InputError
from ..files.diskerrors import temporary_directory_name
from ..files.locks import input_lock
from ..files.scratch import scratch_directory
from .stats import CorpusStats
from .stats_store import LOCKED, check_regular_file, refuse_unless_regular

# SQLite's lock bytes on Unix (os_unix.c): a connection changing the file in place holds
# this range write-locked (EXCLUSIVE), a reader holds it read-locked (SHARED).
_SHARED_FIRST = 0x40000000 + 2
_SHARED_SIZE = 510
_BLOCK = 1 << 20
COPY_NAME = "reused.stats"


@contextlib.contextmanager
def reused_store(path: str, directory: str) -> Iterator[str]:
    """The path of a private copy, in ``directory``, of the store at ``path``; the store's
    lock is held shared until the context ends."""
    check_regular_file(path)
    with input_lock(os.path.realpath(path)):
        yield private_copy(path, os.path.join(directory, COPY_NAME))


def open_copy(path: str) -> CorpusStats:
    """The store at ``path``, read from a private copy: a scratch directory's, removed once
    the copy is open (the connection keeps reading the removed file; it never opens
    another, being immutable)."""
    check_regular_file(path)
    with scratch_directory() as directory:
        copy = private_copy(path, os.path.join(directory, COPY_NAME))
        return CorpusStats.load(copy, immutable=True, shown_as=path)


def private_copy(path: str, copy: str) -> str:
    """``path`` copied to the new file ``copy`` (mode 0600: it holds the usernames) from
    one descriptor, under SQLite's read lock."""
    try:
        # O_NONBLOCK: a FIFO put there since the check above does not block the open
        source = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error), path) from None
    try:
        refuse_unless_regular(os.fstat(source), path)
        _read_lock(source, path)
        _copy(source, path, copy)
    finally:
        os.close(source)                # which drops the read lock
    return copy


def _read_lock(source: int, path: str) -> None:
    try:
        fcntl.lockf(source, fcntl.LOCK_SH | fcntl.LOCK_NB, _SHARED_SIZE, _SHARED_FIRST)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EAGAIN):
            raise InputError(LOCKED, path) from None
        # a file system without record locks: no SQLite on it holds one either


def _copy(source: int, path: str, copy: str) -> None:
    """Block by block, in Python: a stop signal is seen between two blocks."""
    try:
        target = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise _scratch_error(error) from None
    try:
        while True:
            try:
                block = os.read(source, _BLOCK)
            except OSError as error:
                raise InputError("cannot read file: %s" % (error.strerror or error),
                                 path) from None
            if not block:
                return
            view = memoryview(block)
            while view:
                try:
                    view = view[os.write(target, view):]
                except OSError as error:
                    raise _scratch_error(error) from None
    finally:
        os.close(target)


def _scratch_error(error: OSError) -> InputError:
    return InputError("copy of the statistics store: %s; nothing written"
                      % (error.strerror or error), temporary_directory_name())
