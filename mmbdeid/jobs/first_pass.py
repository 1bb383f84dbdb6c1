"""Pass 1 over a dump: every record read once before any output exists, its counts built
into the corpus statistics store (or, with statistics reused, only checked against it),
and what later passes need of it (:class:`DumpScan`: the dump's fingerprint, field names
and column kinds)."""
import sqlite3
from typing import Dict, Iterator, List, Optional

from ..errors import InputError
from ..files.parquet import ColumnKinds
from ..files.posts import read_posts
from ..model.dump_fingerprint import DumpFingerprint
from ..model.stats import CorpusStats, build_store
from ..model.stats_builder import StatsBuilder
from .chunks import chunked, count_chunk
from .collection import fewer_collections
from .config import MAX_POST_CHARS
from .input_watch import InputWatch
from .progress import Progress


class DumpScan:
    """What pass 1 learns of the records besides the statistics: the dump's fingerprint
    (what statistics built from it record, and what later passes must read again: see
    ``input_watch``) and its field names in order of first appearance (the header of a
    CSV output, so no record's field is lost) and, with ``kinds``
    (:class:`~mmbdeid.files.parquet.ColumnKinds`), the types of their values (the column
    types of a Parquet output)."""

    def __init__(self, kinds: Optional[ColumnKinds] = None):
        self.fingerprint = DumpFingerprint()
        self.input_watch: Optional[InputWatch] = None   # the file as pass 1 found it
        self._fields: Dict[str, None] = {}
        self.kinds = kinds

    @property
    def field_names(self) -> List[str]:
        return list(self._fields)

    @property
    def column_kinds(self) -> Optional[dict]:
        return None if self.kinds is None else self.kinds.kinds

    def watch(self, records) -> Iterator[dict]:
        fields_seen = self._fields
        for record in records:
            fields = record.fields
            self.fingerprint.add(fields)
            if self.kinds is not None:
                self.kinds.observe(fields, record.line)
            if len(fields) != len(fields_seen) or any(name not in fields_seen
                                                       for name in fields):
                for name in fields:
                    fields_seen.setdefault(name)
            yield fields


@fewer_collections()
def build_stats(dump: str, stats_path: str, engine, on_bad=None, quiet: bool = False,
                passes: int = 2, scan: Optional[DumpScan] = None,
                max_chars: Optional[int] = MAX_POST_CHARS, in_place: bool = False,
                shown_as: Optional[str] = None) -> int:
    """Pass 1: count every post (in chunks, by the engine) into a new store at
    ``stats_path`` (private: it holds the usernames), which records the dump's
    fingerprint. Returns the number of posts read. ``in_place``: ``stats_path`` is
    already a private temporary file; ``shown_as``: how errors name the store."""
    scan = scan or DumpScan()
    progress = Progress("pass 1/%d statistics" % passes, quiet=quiet)
    scan.input_watch = InputWatch(dump)
    posts = scan.watch(scan.input_watch.guarded(
        read_posts(dump, on_bad=on_bad, max_chars=max_chars), "pass 1"))

    def fill(builder: StatsBuilder) -> None:
        for chunk, counts in engine.map_ordered(_count_factory, (), chunked(posts)):
            builder.add_counts(counts)
            progress.update(len(chunk))
        scan.input_watch.pass_one_ended(scan.fingerprint)
        builder.source = scan.fingerprint.as_source()

    try:
        build_store(fill, stats_path, in_place).close()
    except sqlite3.Error as error:      # a full disk, mostly: say where
        raise InputError("statistics store: %s; nothing written" % error,
                         shown_as or stats_path) from None
    progress.close()
    return progress.posts


def _count_factory():
    return count_chunk


def validate_only(dump: str, on_bad=None, quiet: bool = False, passes: int = 2,
                  scan: Optional[DumpScan] = None,
                  max_chars: Optional[int] = MAX_POST_CHARS) -> int:
    """Pass 1 with statistics reused: still read every record before any output exists."""
    scan = scan or DumpScan()
    progress = Progress("pass 1/%d checking records" % passes, quiet=quiet)
    scan.input_watch = InputWatch(dump)
    for _ in scan.watch(scan.input_watch.guarded(
            read_posts(dump, on_bad=on_bad, max_chars=max_chars), "pass 1")):
        progress.update(1)
    scan.input_watch.pass_one_ended(scan.fingerprint)
    progress.close()
    return progress.posts


def check_stats_source(stats: CorpusStats, scan: DumpScan, path: str) -> None:
    """Statistics must come from this very dump and this version of mmbdeid: another
    dump's usernames and ranks would silently weaken detection."""
    expected = scan.fingerprint.as_source()
    found = stats.source
    if found.get("source_kind") != "dump":
        raise InputError("these statistics were not built from a dump (made by 'train' from "
                         "a training corpus, or by an older mmbdeid): build them from this "
                         "dump with --stats-rebuild, or with 'mmbdeid stats'", path)
    if found.get("source_fields") != expected["source_fields"]:
        raise InputError("these statistics were made by an older mmbdeid, whose check of the "
                         "dump left out authors, boards and threads: use --stats-rebuild",
                         path)
    if (found.get("source_records"), found.get("source_sha256")) != (
            expected["source_records"], expected["source_sha256"]):
        raise InputError("these statistics were built from another dump (%s records; this "
                         "one has %s, or the same number with other ids, texts, authors, "
                         "boards or threads): use --stats-rebuild, or another --stats path"
                         % (found.get("source_records"), expected["source_records"]), path)
    if found.get("mmbdeid_version") != expected["mmbdeid_version"]:
        raise InputError("these statistics were built by mmbdeid %s, this is %s: use "
                         "--stats-rebuild" % (found.get("mmbdeid_version"),
                                              expected["mmbdeid_version"]), path)


def reread(config) -> Iterator:
    """The dump of ``config`` (a :class:`~mmbdeid.jobs.config.RunConfig`) read again
    after pass 1, which logged the bad records already (with --skip-bad)."""
    return read_posts(config.dump, on_bad=_logged_already if config.skip_bad else None,
                      max_chars=config.max_post_chars)


def _logged_already(bad) -> None:
    """A later pass meets the bad records pass 1 logged: nothing to do."""
