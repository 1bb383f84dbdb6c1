"""The physical lines of a text input file, plain or gzip-compressed.

A file is read as gzip when its first bytes are the gzip magic number (whatever its name:
such bytes never start a UTF-8 text), and a file named ``*.gz`` must be gzip. A damaged
gzip file (truncated, corrupt data, a failed CRC check) is an ``InputError`` naming the
file and the decompressed line being read when the damage was found.
"""
import gzip
import os
import re
import zlib
from typing import IO, Callable, Iterator, Optional, Tuple

from ..errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
_BOM = "\ufeff"
# Half a UTF-16 pair alone: JSON's "\ud800" reads as one, but it is not text in UTF-8.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def first_bytes(source, count: int = 4) -> bytes:
    """The first ``count`` bytes of the file as stored (for sniffing)."""
    try:
        with open(os.fspath(source), "rb") as handle:
            return handle.read(count)
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error),
                         str(source)) from None


def open_binary(source) -> IO[bytes]:
    """The file's bytes, decompressed if it is gzip."""
    path = os.fspath(source)
    try:
        handle = open(path, "rb")
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error),
                         str(source)) from None
    try:
        magic = handle.peek(len(GZIP_MAGIC))[:len(GZIP_MAGIC)]    # peek: pipes work too
    except OSError as error:
        handle.close()
        raise InputError("cannot read file: %s" % (error.strerror or error),
                         str(source)) from None
    if magic == GZIP_MAGIC:
        return gzip.GzipFile(fileobj=handle, mode="rb")   # closing it leaves handle open
    if path.lower().endswith(".gz"):
        handle.close()
        raise InputError("not a gzip file (it is named .gz but has no gzip header)",
                         str(source))
    return handle


def _read_problem(error: BaseException) -> str:
    """What went wrong reading a (possibly gzip) file, for one line of error."""
    if isinstance(error, EOFError):
        return "truncated gzip file: the compressed data ends early"
    if isinstance(error, (zlib.error, gzip.BadGzipFile)):
        return "corrupt gzip file: %s" % error
    return "cannot read file: %s" % (getattr(error, "strerror", None) or error)


def numbered_lines(source, undecodable: Optional[Callable[[int, str, str], bool]] = None
                   ) -> Iterator[Tuple[int, str]]:
    """``(line_number, line)`` for each physical line, decoded as UTF-8, ending kept.

    ``source`` is a path or a :class:`~mmbdeid.files.postfile.PostFile`; errors name it
    as it prints. Decoding line by line from a binary stream pins an undecodable byte to
    its line (a UTF-8 sequence never spans a newline byte) and lets reading go on after
    it. A leading byte-order mark is dropped. An undecodable line raises ``InputError``;
    with ``undecodable``, it is decoded with backslash escapes and handed to
    ``undecodable(line_number, line, reason)`` instead, and is yielded only if that
    returns true.
    """
    where = str(source)
    handle = open_binary(source)
    raw_handle = getattr(handle, "fileobj", None)     # under a GzipFile: closed by us
    try:
        number = 0
        while True:
            try:
                raw = handle.readline()
            except (OSError, EOFError, zlib.error) as error:
                raise InputError(_read_problem(error), where, number + 1) from None
            if not raw:
                return
            number += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                reason = ("not UTF-8: undecodable byte 0x%02x at column %d"
                          % (raw[error.start], error.start + 1))
                if undecodable is None:
                    raise InputError(reason, where, number) from None
                line = raw.decode("utf-8", "backslashreplace")
                if not undecodable(number, line, reason):
                    continue
            if number == 1 and line.startswith(_BOM):
                line = line[len(_BOM):]
            yield number, line
    finally:
        handle.close()
        if raw_handle is not None:
            raw_handle.close()


def first_meaningful_line(source) -> str:
    """The first non-blank line of the file ("" if there is none), for sniffing."""
    # An undecodable line is sniffed as decoded with escapes; the reader reports it.
    for _, line in numbered_lines(source, lambda number, line, reason: True):
        if line.strip():
            return line
    return ""
