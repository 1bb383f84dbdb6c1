"""A run's private scratch directory in ``TMPDIR`` (the statistics store of a run without
``--stats``, the workers' temporary files, standard input spooled), removed when the run
ends; and the scratch directories of runs killed outright, removed by the next run.

A scratch directory ``mmbdeid-run-XXXXXXXX`` holds a file ``lock`` that its run locks
(``flock``) for as long as the directory lives, and writes to once locked. The kernel
drops the lock when the run dies, even by SIGKILL; so a later run of the same user that
can lock a written lock file knows its run is gone, and removes the directory. A lock file
still empty belongs to a run that is just starting: it is left alone, as is anything not
named so, not a directory, or another user's.
"""
import contextlib
import fcntl
import os
import shutil
import tempfile
from typing import Iterator, Optional

SCRATCH_PREFIX = "mmbdeid-run-"
_LOCK_NAME = "lock"


class ScratchDirectory:
    """A new scratch directory (``path``), locked; ``remove()`` removes it. Stale ones are
    removed first."""

    def __init__(self):
        remove_stale_scratch()
        self.path = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)      # mode 0700
        self._descriptor: Optional[int] = None
        try:
            self._descriptor = os.open(os.path.join(self.path, _LOCK_NAME),
                                       os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                                       0o600)
            fcntl.flock(self._descriptor, fcntl.LOCK_EX)   # a sweeping run lets go at once
            os.write(self._descriptor, b"locked\n")
        except OSError:
            pass        # no locks here (or no room): never taken for stale, never removed
        except BaseException:
            self.remove()
            raise

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if self._descriptor is not None:    # released only once the directory is gone
            os.close(self._descriptor)
            self._descriptor = None


@contextlib.contextmanager
def scratch_directory() -> Iterator[str]:
    """The path of a new scratch directory, removed afterwards (also on an error or a stop
    signal)."""
    scratch = ScratchDirectory()
    try:
        yield scratch.path
    finally:
        scratch.remove()


def remove_stale_scratch(directory: Optional[str] = None) -> None:
    """Remove this user's scratch directories in ``directory`` (default ``TMPDIR``) whose
    run is gone."""
    directory = directory or tempfile.gettempdir()
    try:
        entries = [entry for entry in os.scandir(directory)
                   if entry.name.startswith(SCRATCH_PREFIX)]
    except OSError:
        return
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False) or \
                    entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            descriptor = os.open(os.path.join(entry.path, _LOCK_NAME),
                                 os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.fstat(descriptor).st_size > 0:    # locked by its run once, not now
                shutil.rmtree(entry.path, ignore_errors=True)
        except OSError:
            pass                                    # held: its run is alive
        finally:
            os.close(descriptor)
