"""The statistics store on disk: its SQLite schema, and opening a store that may have been
damaged or tampered with.

A store given with ``--stats`` is input like any other file. It is opened read-only; before
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
        return InputError("damaged statistics file (%s): rebuild it (--stats-rebuild, or "
                          "'mmbdeid stats')" % error, self.path)


def open_store(path: str) -> StoreQueries:
    """A finished store opened read-only, its schema checked before anything else is read.
    Anything but a store this code wrote is refused with :class:`InputError`."""
    # as_uri() escapes '#', '?' and '%', which a formatted URI would misread
    uri = pathlib.Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
        # functions with side effects are never run from the file's own schema
        connection.execute("PRAGMA trusted_schema = OFF")
    except sqlite3.Error as error:
        raise InputError("not a statistics file (%s)" % error, path) from None
    store = StoreQueries(connection, path)
    try:
        found = schema_of(store.rows("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    except BaseException:
        connection.close()
        raise
    if found != finished_schema():
        connection.close()
        raise InputError("not a statistics store as mmbdeid writes it (its tables, views or "
                         "triggers differ): damaged, tampered with, or made by another "
                         "version; rebuild it (--stats-rebuild, or 'mmbdeid stats')", path)
    return store
