"""One mmbdeid run at a time per output file, and the leftovers of a run killed outright.

A run holds an exclusive ``flock`` on a hidden ``.NAME.lock`` file beside each output it
writes (beside a symbolic link's target: that is where it writes), from before any work
until its outputs are in place; a second run stops at once with one line. The kernel
drops the lock when its holder dies, even by SIGKILL.

The lock file is removed on release, so no lock files pile up beside outputs. That alone
would let two runs hold the lock at once: run B opens the file, run A removes it and lets
go, B locks the removed file while run C creates and locks a new one. So after locking, a
run checks that the path still leads to the file it locked, and starts again if not.

A run that reads a file another run may replace (a ``--stats`` store) holds the same lock
shared (:func:`input_lock`) for its duration: runs reading it share it, and a run that
would write it is refused meanwhile, as is a reader while a run writes it. A reader
removes the lock file on release only when it can take the lock exclusively (no one else
holds it), so the check above still holds.

A run killed outright (SIGKILL, the OOM killer, a power cut) cannot remove its hidden
temporary files (``.NAME.XXXXXXXX.tmp``: a partial output, a statistics store). The next
run that takes the lock of NAME removes those of NAME's that it finds: with the lock
held, no live run can be writing one. Nothing else is touched: not another output's
temporaries, not a file of another user, not a symbolic link.
"""
import contextlib
import errno
import fcntl
import os
import re
import secrets
import threading
from typing import Dict, Iterator, List, Optional, Sequence

from ..errors import InputError
from .targets import FILE, output_target

PRIVATE_MODE = 0o600
TEMPORARY_SUFFIX = ".tmp"
_RANDOM_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"     # as tempfile's
_RANDOM_LENGTH = 8
_TEMPORARY = re.compile(r"^\.(.+)\.[a-z0-9_]{%d}%s$"
                        % (_RANDOM_LENGTH, re.escape(TEMPORARY_SUFFIX)))

# Locks this process holds: lock path -> [descriptor, depth]. A run locks its outputs
# first, then each output's writer locks its path again (every writer of temporaries must
# hold the lock, or another run would take them for stale): the same lock, counted.
_held: Dict[str, List[int]] = {}
_held_guard = threading.Lock()


def lock_path(target: str) -> str:
    """Where ``target``'s lock file is; the directory resolved, so that one output
    reached by two spellings (through a linked directory) has one lock in this process."""
    directory, name = os.path.split(os.path.abspath(target))
    return os.path.join(os.path.realpath(directory), "." + name + ".lock")


def new_temporary_path(target: str) -> str:
    """A fresh name for a temporary file of ``target``, beside it:
    ``.TARGET.XXXXXXXX.tmp`` (the caller creates it, exclusively)."""
    directory, name = os.path.split(os.path.abspath(target))
    random_part = "".join(secrets.choice(_RANDOM_CHARACTERS) for _ in range(_RANDOM_LENGTH))
    return os.path.join(directory, "." + name + "." + random_part + TEMPORARY_SUFFIX)


def is_temporary_of(name: str, target_name: str) -> bool:
    """Whether ``name`` is a temporary file of ``target_name``, as
    :func:`new_temporary_path` names them, or one of such a file (a store built beside
    its temporary path), however deep."""
    while True:
        match = _TEMPORARY.match(name)
        if match is None:
            return False
        name = match.group(1)
        if name == target_name:
            return True


@contextlib.contextmanager
def output_lock(path: str) -> Iterator[None]:
    """Hold the lock of the regular file ``path`` (already resolved: not a link, not a
    stream); taken again by the same process, it is the same lock. The first taking
    removes ``path``'s stale temporary files."""
    lock = lock_path(path)
    with _held_guard:
        entry = _held.get(lock)
        if entry is not None:
            entry[1] += 1
        else:
            _held[lock] = [_acquire(lock, path), 1]
    try:
        if entry is None:
            remove_stale_temporaries(path)
        yield
    finally:
        with _held_guard:
            entry = _held[lock]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[lock]
                with contextlib.suppress(OSError):
                    os.unlink(lock)         # while still holding it: see the module's note
                os.close(entry[0])


def _acquire(lock: str, path: str) -> int:
    while True:
        try:
            descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                                 PRIVATE_MODE)
        except OSError as error:
            raise InputError("cannot write: %s" % (error.strerror or error), path) from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            held_by = _holder(descriptor, error)
            os.close(descriptor)
            raise InputError(held_by, path) from None
        if _still_at(lock, descriptor):
            return descriptor
        os.close(descriptor)                # its holder removed it meanwhile: again


def _holder(descriptor: int, error: OSError) -> str:
    """Why the lock could not be taken exclusively: readers hold it (it can be taken
    shared), or a run writing the file."""
    if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
        return "cannot lock: %s" % (error.strerror or error)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return WRITING
    return IN_USE


WRITING = "another mmbdeid run is writing this file"
IN_USE = "in use by another run, which reads it: run again once that run has ended"


@contextlib.contextmanager
def input_lock(path: str) -> Iterator[None]:
    """Hold the lock of the regular file ``path`` shared, while a run reads it (see the
    module's note). Where no lock file can be made (a directory this user cannot write),
    no run can replace the file either: it is read without one."""
    descriptor = _acquire_shared(lock_path(path), path)
    try:
        yield
    finally:
        if descriptor is not None:
            _release_shared(lock_path(path), descriptor)


def _acquire_shared(lock: str, path: str) -> Optional[int]:
    while True:
        try:
            descriptor = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                                 PRIVATE_MODE)
        except OSError:
            return None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise InputError(WRITING, path) from None
            raise InputError("cannot lock: %s" % (error.strerror or error), path) from None
        if _still_at(lock, descriptor):
            return descriptor
        os.close(descriptor)


def _release_shared(lock: str, descriptor: int) -> None:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with contextlib.suppress(OSError):
            os.unlink(lock)             # the last holder: as output_lock does
    except OSError:
        pass                            # other runs read it still: theirs to remove
    finally:
        os.close(descriptor)


def _still_at(path: str, descriptor: int) -> bool:
    try:
        found = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    mine = os.fstat(descriptor)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


@contextlib.contextmanager
def output_locks(paths: Sequence[str]) -> Iterator[None]:
    """The locks of a run's outputs as given (``-``, devices and FIFOs need none; a
    symbolic link's is its target's), for the whole run."""
    with contextlib.ExitStack() as stack:
        for path in paths:
            target = output_target(path)
            if target.kind == FILE:
                stack.enter_context(output_lock(target.path))
        yield


def remove_stale_temporaries(target: str) -> None:
    """Remove ``target``'s temporary files left by runs that died (the caller holds its
    lock): regular files of this user only."""
    directory, name = os.path.split(os.path.abspath(target))
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if not is_temporary_of(entry.name, name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and \
                    entry.stat(follow_symlinks=False).st_uid == os.getuid():
                os.unlink(entry.path)
        except OSError:
            pass                            # gone already, or not ours to remove
