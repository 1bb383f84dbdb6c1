"""The statistics store on disk: its SQLite schema, and opening a store that may have been
damaged or tampered with.

A store given with ``--stats`` is input like any other file. It is read from a private
copy (:mod:`~mmbdeid.model.stats_copy`), opened read-only and immutable; before
any query reads its data, its schema must be exactly the one
:class:`~mmbdeid.model.stats_builder.StatsBuilder` writes (the same tables with the same
columns, and no view, trigger or index of anyone else's); and every query is bounded in time.
SQLite runs a query in C, where Python's signal handlers cannot run: a progress handler
calls back into Python every few thousand steps, so Ctrl-C and SIGTERM still stop a run
in the middle of a query, in the stores being built too.
"""
import os
import pathlib
import re
import sqlite3
import stat
import time
from typing import FrozenSet, Optional, Tuple

from ..errors import InputError, raise_if_stopped

SCHEMA_VERSION = "3"        # meta row 'schema': a store of another version is refused
QUERY_SECONDS = 120.0       # no query of a real store comes near: they are key look-ups
PROGRESS_STEPS = 10_000     # SQLite virtual-machine steps between two calls into Python

COUNT_TABLES = """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE IF NOT EXISTS term (term TEXT PRIMARY KEY, n INTEGER, border INTEGER,
                                     mid INTEGER, capitalised INTEGER) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS thread_author (board TEXT, thread TEXT, author TEXT,
                                              PRIMARY KEY (board, thread, author))
                                              WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS doc_size (kind TEXT, doc TEXT, size INTEGER,
                                         PRIMARY KEY (kind, doc)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS term_rank (kind TEXT, doc TEXT, term TEXT, rank INTEGER,
                                          PRIMARY KEY (kind, doc, term)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS border_rank (term TEXT PRIMARY KEY, rank INTEGER)
                                            WITHOUT ROWID;
"""
DOC_TERM_TABLE = ("CREATE TABLE IF NOT EXISTS doc_term (kind TEXT, doc TEXT, term TEXT, "
                  "n INTEGER, PRIMARY KEY (kind, doc, term)) WITHOUT ROWID")

_SPACES = re.compile(r"\s+")


def create_count_tables(connection: sqlite3.Connection) -> None:
    """The tables of a store being built."""
    connection.executescript(COUNT_TABLES)


def honour_signals(connection: sqlite3.Connection) -> None:
    """Let stop signals interrupt this connection's queries (a store being built: its
    ranking queries run for minutes on a large dump). An interrupted query raises
    ``sqlite3.OperationalError``; the command line sees that a stop signal came."""
    connection.set_progress_handler(_go_on, PROGRESS_STEPS)


def _go_on() -> int:
    return 0        # being Python is the point: a pending signal's handler runs here


def finished_schema() -> FrozenSet[Tuple[str, str, str, str]]:
    """The schema of a finished store, as :func:`schema_of` gives it: made by the very
    statements the builder runs, so the two cannot drift apart."""
    connection = sqlite3.connect(":memory:")
    try:
        create_count_tables(connection)
        connection.execute(DOC_TERM_TABLE)
        return schema_of(connection.execute("SELECT type, name, tbl_name, sql "
                                            "FROM sqlite_master").fetchall())
    finally:
        connection.close()


def schema_of(rows) -> FrozenSet[Tuple[str, str, str, str]]:
    """(type, name, table, statement) of every schema entry; statements compared with their
    white space folded, so only a change of meaning counts."""
    return frozenset((kind, name, table, _SPACES.sub(" ", sql or "").strip())
                     for kind, name, table, sql in rows)


class StoreQueries:
    """Queries on a store, each bounded to ``QUERY_SECONDS`` and stoppable by a signal.
    A failed query (a damaged file, too slow) raises :class:`InputError` naming the file;
    a stop signal during a query raises it again, as the command line expects."""

    def __init__(self, connection: sqlite3.Connection, path: Optional[str] = None):
        self.connection = connection
        self.path = path
        self._deadline: Optional[float] = None
        self._timed_out = False
        self._raised: Optional[BaseException] = None
        connection.set_progress_handler(self._check, PROGRESS_STEPS)

    def rows(self, sql: str, parameters=()) -> list:
        self._deadline = time.monotonic() + QUERY_SECONDS
        self._timed_out, self._raised = False, None
        try:
            return self.connection.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise self._failure(error) from None
        finally:
            self._deadline = None

    def _check(self) -> int:
        try:
            if self._deadline is not None and time.monotonic() > self._deadline:
                self._timed_out = True
                return 1
            return 0
        except BaseException as error:      # a signal handler's: SQLite would drop it
            self._raised = error
            return 1

    def _failure(self, error: sqlite3.Error) -> BaseException:
        if self._raised is not None:
            return self._raised
        raise_if_stopped()
        if self._timed_out:
            return InputError("a query on the statistics took more than %g s: the file is "
                              "damaged or was tampered with; rebuild it (--stats-rebuild, "
                              "or 'mmbdeid stats')" % QUERY_SECONDS, self.path)
        if "database is locked" in str(error):
            return InputError(LOCKED, self.path)
        return InputError("damaged statistics file (%s): rebuild it (--stats-rebuild, or "
                          "'mmbdeid stats')" % error, self.path)


LOCKED = ("in use by another process, which holds it locked (SQLite) to write it: run "
          "again once it is done")


def check_regular_file(path: str, shown_as: Optional[str] = None) -> None:
    """:func:`refuse_unless_regular` of the file at ``path``, before anything opens it."""
    try:
        status = os.stat(path)
    except OSError as error:
        raise InputError("cannot read file: %s" % (error.strerror or error),
                         shown_as or path) from None
    refuse_unless_regular(status, shown_as or path)


def refuse_unless_regular(status: os.stat_result, path: str) -> None:
    """A store is a regular file: opening a FIFO would wait for a writer for ever, where
    no signal is seen; a device or a directory is no store either."""
    if not stat.S_ISREG(status.st_mode):
        kind = next((name for test, name in _KINDS if test(status.st_mode)), "special file")
        raise InputError("is a %s, not a regular file: a statistics store is an SQLite "
                         "file; refused" % kind, path)


_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
          (stat.S_ISBLK, "block device"), (stat.S_ISDIR, "directory"),
          (stat.S_ISSOCK, "socket"))


def open_store(path: str, immutable: bool = False, shown_as: Optional[str] = None
               ) -> StoreQueries:
    """A finished store opened read-only, its schema checked before anything else is read.
    Anything but a store this code wrote is refused with :class:`InputError`, naming
    ``shown_as`` (default ``path``). ``immutable``: the file is the run's own (a private
    copy, or a store it built), which nothing else changes: SQLite reads it without locks
    and never makes files beside it (a read-only connection to a WAL store would)."""
    shown_as = shown_as or path
    check_regular_file(path, shown_as)
    # as_uri() escapes '#', '?' and '%', which a formatted URI would misread
    uri = pathlib.Path(os.path.abspath(path)).as_uri() + (
        "?mode=ro&immutable=1" if immutable else "?mode=ro")
    try:
        # timeout 0: a store another process holds locked is said to be in use at once
        connection = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=0)
        # functions with side effects are never run from the file's own schema
        connection.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error as error:
        raise InputError("not a statistics file (%s)" % error, shown_as) from None
    store = StoreQueries(connection, shown_as)
    try:
        found = schema_of(store.rows("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    except BaseException:
        connection.close()
        raise
    if found != finished_schema():
        connection.close()
        raise InputError("not a statistics store as mmbdeid writes it (its tables, views or "
                         "triggers differ): damaged, tampered with, or made by another "
                         "version; rebuild it (--stats-rebuild, or 'mmbdeid stats')", shown_as)
    return store
