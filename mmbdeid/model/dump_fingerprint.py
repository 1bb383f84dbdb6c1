"""What a statistics store was built from: a dump's fingerprint (:class:`DumpFingerprint`)
and the code version, kept as meta rows of the store (``SOURCE_KEYS``)."""
import hashlib
from typing import Dict

from ..text.document import post_field

# Meta rows saying what a store was built from: a dump's fingerprint and the code version.
SOURCE_KEYS = ("source_records", "source_sha256", "source_fields", "source_kind",
               "mmbdeid_version")
# Every field the statistics are built from (usernames come from the author field, ranks
# from boards and users, thread usernames from threads), and the id.
FINGERPRINT_FIELDS = ("id", "text", "board", "thread", "author")


class DumpFingerprint:
    """The identity of a dump's content: its number of records and a SHA-256 of every field
    the statistics are built from (``FINGERPRINT_FIELDS``), in order. Statistics record it,
    so that using them on another dump (whose usernames, ranks and border words differ) is
    caught, also when only its authors, boards or threads differ."""

    def __init__(self):
        self.records = 0
        self._digest = hashlib.sha256()

    def add(self, fields: dict) -> None:
        self.records += 1
        update = self._digest.update
        update(b"%d\0" % self.records)
        for name in FINGERPRINT_FIELDS:
            # as the statistics see it (a missing field is an empty one), length first
            value = post_field(fields, name).encode("utf-8", "surrogatepass")
            update(b"%d\0" % len(value))
            update(value)

    def as_source(self, kind: str = "dump") -> Dict[str, str]:
        from .. import __version__
        return {"source_records": str(self.records), "source_sha256": self._digest.hexdigest(),
                "source_fields": " ".join(FINGERPRINT_FIELDS), "source_kind": kind,
                "mmbdeid_version": __version__}
