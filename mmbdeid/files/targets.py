"""What an output path names, before anything is written to it.

* ``-``: standard output; so is a link to the file standard output is redirected to
  (``/dev/stdout`` in ``mmbdeid ... -o /dev/stdout >> log``).
* A regular file, or nothing yet: written atomically (a temporary file beside it, renamed
  onto it).
* A symbolic link: written through to the file it leads to, atomically, beside that file;
  the link stays a link.
* A character device (``/dev/null``, a terminal) or a FIFO: streamed to, like standard
  output, so not atomically. It is never replaced by a regular file.
* Anything else (a directory, a block device, a socket) is refused: writing a disk device
  in place would destroy it, and replacing it would break the system.
"""
import os
import stat
from typing import NamedTuple, Sequence

from ..errors import InputError
from .stdio import STDIO

STDOUT, STREAM, FILE = "stdout", "stream", "file"


class OutputTarget(NamedTuple):
    """``kind`` is STDOUT, STREAM or FILE; ``path`` is what to open (STREAM) or the regular
    file to replace (FILE: a symbolic link's target); ``given`` is the path as the user
    gave it, for messages."""
    kind: str
    path: str
    given: str


def output_target(path) -> OutputTarget:
    """Where an output given as ``path`` goes; ``InputError`` for a path that must not be
    written (see the module's description)."""
    path = os.fspath(path)
    if path == STDIO:
        return OutputTarget(STDOUT, path, path)
    try:
        status = os.stat(path)                  # through symbolic links
    except FileNotFoundError:
        status = None
    except OSError as error:
        raise InputError("cannot write: %s" % (error.strerror or error), path) from None
    if status is not None:
        if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
            return OutputTarget(STREAM, path, path)
        if stat.S_ISDIR(status.st_mode):
            raise InputError("is a directory, expected a file to write", path)
        if not stat.S_ISREG(status.st_mode):
            raise InputError("is a %s, not a regular file: refused (outputs are regular "
                             "files, character devices or FIFOs)"
                             % _kind_of(status.st_mode), path)
    if not os.path.islink(path):
        return OutputTarget(FILE, path, path)
    if status is not None and _same_file(1, status):
        # /dev/stdout (or /dev/fd/1) redirected to a file: written like -, into the file
        # as the shell opened it (appending after >>), never replacing it
        return OutputTarget(STDOUT, path, path)
    target = os.path.realpath(path)
    # /proc/self/fd/N and the like lead to files realpath cannot name (a deleted file)
    if status is not None and not _same_file(target, status):
        raise InputError("is a symbolic link to a file that has no path to write beside "
                         "(a deleted or unnamed file): give a regular file", path)
    return OutputTarget(FILE, target, path)


def _same_file(path_or_descriptor, status: os.stat_result) -> bool:
    try:
        other = os.stat(path_or_descriptor)
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (status.st_dev, status.st_ino)


def _kind_of(mode: int) -> str:
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def is_stream(mode: int) -> bool:
    """A file mode that an output may be streamed to."""
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def check_outputs(outputs: Sequence[str], inputs: Sequence[str]) -> None:
    """Before any work: every output must be something that may be written (above) and,
    for a file, in an existing, writable directory; none may be an input or another
    output (a run must never overwrite what it reads, nor write two results to one file;
    an input spooled from standard input or a FIFO is also the file it was read from).
    ``-`` (standard output) may be given once; a device or FIFO may take several outputs
    (nothing is overwritten there), and a character device may be an input as well
    (``--allow /dev/null -o /dev/null``)."""
    seen = {}
    for path in inputs:
        if path:
            seen.setdefault(_identity(path), ("input", path))
            # a spooled copy of standard input or a FIFO: what it was read from is the
            # input (-o dump.jsonl < dump.jsonl)
            origin = getattr(path, "origin", None)
            if origin is not None:
                seen.setdefault(("inode", origin.device, origin.inode),
                                ("input", "%s, read from %s" % (path, origin.name)))
    for path in outputs:
        if not path:
            continue
        if path.endswith(os.sep):
            raise InputError("is a directory, expected a file to write", path)
        target = output_target(path)
        if target.kind == STDOUT:
            if ("stdout",) in seen:
                raise InputError("standard output is given twice as an output", path)
            seen[("stdout",)] = ("output", path)
            key = _identity_of_descriptor(1)    # redirected to an input? (>> dump.jsonl)
        else:
            if target.kind == FILE:
                _check_writable_file(target)
            elif not os.access(path, os.W_OK):
                raise InputError("cannot write: permission denied", path)
            key = _identity(path)
        if _is_character_device(1 if target.kind == STDOUT else path):
            continue        # written to, never overwritten: /dev/null may be read too
        role, other = seen.get(key, (None, None))
        if role == "input":
            raise InputError("is also an input of this run (%s): it would be "
                             "overwritten" % other, path)
        if role == "output" and target.kind == FILE:
            raise InputError("is given twice as an output (%s)" % other, path)
        seen[key] = ("output", path)


def _check_writable_file(target: OutputTarget) -> None:
    directory = os.path.dirname(os.path.abspath(target.path))
    if not os.path.isdir(directory):
        raise InputError("cannot write: directory %s does not exist" % directory, target.given)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError("cannot write: directory %s is not writable" % directory,
                         target.given)
    if os.path.exists(target.path) and not os.access(target.path, os.W_OK):
        raise InputError("cannot write: permission denied", target.given)


def _is_character_device(path_or_descriptor) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path_or_descriptor).st_mode)
    except OSError:
        return False


def _identity_of_descriptor(descriptor: int):
    try:
        status = os.fstat(descriptor)
    except OSError:
        return ("closed", descriptor)
    return ("inode", status.st_dev, status.st_ino)


def _identity(path: str):
    """Files compare by device and inode when they exist (hard and symbolic links), else
    by their resolved path."""
    try:
        status = os.stat(path)
        return ("inode", status.st_dev, status.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))
