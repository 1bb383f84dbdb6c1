"""A dump must not change while a run reads it.

A run reads its dump once per pass, and applies what one pass learnt to what the next one
reads: pass 2's spans are applied to the text pass 3 reads, pass 1's statistics to pass
2's posts. A dump replaced, shortened or appended to in between would get the old spans
applied to new text (names left in), or lose records, and still exit 0. So every pass
checks that it read what pass 1 read: the same file (device and inode), size and
modification time, and the same records (their number and a running SHA-256 of their ids
and texts, :class:`~mmbdeid.model.dump_fingerprint.DumpFingerprint`); pass 3 also checks
each record against the one pass 2 read before applying its spans. A change stops the run
with one line, before any output is renamed into place.
"""
import hashlib
import os
from typing import Iterator, NamedTuple

from ..errors import InputError
from ..files.posts import Record
from ..model.dump_fingerprint import DumpFingerprint

_CHANGED = "changed during the run (%s); nothing written: run again once it stays put"


class FileState(NamedTuple):
    device: int
    inode: int
    size: int
    modified_ns: int


def file_state(source, before_reading: bool = False) -> FileState:
    """The file's identity, size and modification time. ``before_reading``: no pass has
    read it yet, so a file that cannot be read is just that, not a change."""
    try:
        status = os.stat(os.fspath(source))
    except OSError as error:
        problem = error.strerror or error
        raise InputError("cannot read file: %s" % problem if before_reading
                         else _CHANGED % ("cannot read it any more: %s" % problem),
                         str(source)) from None
    return FileState(status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


class InputWatch:
    """The dump as pass 1 found it, for later passes to check against. Made just before
    pass 1 starts reading; ``pass_one_ended`` takes pass 1's fingerprint."""

    def __init__(self, source):
        self.source = source
        self.state = file_state(source, before_reading=True)
        self._records = None            # pass 1's (records, digest)

    def pass_one_ended(self, fingerprint: DumpFingerprint) -> None:
        self.check_file("pass 1")
        self._records = _summary(fingerprint)

    def check_file(self, reader: str, when: str = "after") -> None:
        """The file is still the one pass 1 began to read (``when`` ``reader``, a pass)."""
        if file_state(self.source) != self.state:
            raise InputError(_CHANGED % ("its size, modification time or inode differ "
                                         "%s %s from when pass 1 began" % (when, reader)),
                             str(self.source))

    def guarded(self, records: Iterator[Record], reader: str) -> Iterator[Record]:
        """``records`` as ``reader`` (a pass) reads them. A file shortened or rewritten
        under the reader ends in a line cut short, or in records that were never there:
        an error reading it is reported as the change it comes from, when it changed."""
        try:
            yield from records
        except InputError:
            self.check_file(reader, "during")
            raise

    def records(self, records: Iterator[Record], reader: str) -> Iterator[Record]:
        """``records`` as a later pass (``reader``) reads them, checked against pass 1's
        when they end. A file that changed after pass 1 (while its statistics were
        being finished, say) stops the run before this pass does any work."""
        self.check_file("pass 1")
        fingerprint = DumpFingerprint()
        for record in self.guarded(records, reader):
            fingerprint.add(record.fields)
            yield record
        found = _summary(fingerprint)
        if found != self._records:
            if found[0] != self._records[0]:
                what = "%s read %s records, pass 1 %s" % (reader, found[0], self._records[0])
            else:
                what = "%s read other ids or texts than pass 1" % reader
            raise InputError(_CHANGED % what, str(self.source))
        self.check_file(reader)

    def changed_record(self, record: Record, reader: str, earlier: str) -> InputError:
        """The error for a record that is not the one ``earlier`` (a pass) read."""
        return InputError(_CHANGED % ("%s found another record here than %s"
                                      % (reader, earlier)), str(self.source), record.line)


def _summary(fingerprint: DumpFingerprint):
    source = fingerprint.as_source()
    return source["source_records"], source["source_sha256"]


def record_digest(fields: dict) -> str:
    """A short digest of one record's id and text: pass 3 checks each record it reads
    against pass 2's before applying pass 2's spans to it."""
    digest = hashlib.blake2b(digest_size=12)
    text = fields["text"]
    digest.update(b"%d\0" % len(text))
    digest.update(str(fields["id"]).encode("utf-8", "surrogatepass") + b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()
