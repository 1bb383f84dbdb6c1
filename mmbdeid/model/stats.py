"""Corpus statistics of a whole dump, kept in SQLite: the structure features of Benton et
al. 2011, "A System for De-Identifying Medical Message Board Text" (here "the paper").

Built in a first pass over every post, then reused (``--stats FILE``) by ``scrub`` and
``train``:

* tf-idf rank of each term when all posts of a board form one document, and when all posts
  of one user form one document.  tf = count / sqrt(tokens in the document) and the weight is
  tf * log(N / n_i): the paper prints a division by the log, contradicting its own remark that
  the metric favours terms found in few other documents, so we use the product.
* paragraph-border likelihood: the share of a term's occurrences within the first or last
  ``BORDER_WIDTH`` word tokens of a paragraph, scaled by log(1 + count), ranked over all terms.
* the board's usernames (author field) and each thread's authors.
* (beyond the paper) capitalisation: of a term's occurrences that do not open a sentence,
  how many are title-case.  Names are capitalised mid-sentence by most writers, so a
  lower-case ``kevin`` inherits the evidence of ``Kevin`` elsewhere in the dump; all-caps
  occurrences say nothing and are not counted.

Memory grows with the vocabulary only (each term, board and author once): counts are gathered in
:class:`~mmbdeid.model.counting.PartialCounts` (one per chunk of posts, mergeable, so workers
and Dask partitions can each build one), summed and ranked by
:class:`~mmbdeid.model.stats_builder.StatsBuilder` (with numpy, the counts set aside in
a scratch file once they pass its ``FLUSH_ENTRIES``), and the finished store
(:mod:`~mmbdeid.model.stats_store`) is read by :class:`CorpusStats` with bounded caches.

A small input (a single post, a short file) makes thin statistics: every term of a one-line
post opens or closes its paragraph, one board has no other board to take an idf from.  The
store then also keeps what :mod:`mmbdeid.model.reference` needs to answer from the shipped
reference statistics instead (see there; the limits are
:mod:`~mmbdeid.model.stats_builder`'s): the raw term counts of every board with fewer than
``THIN_BOARD_TOKENS`` tokens and, when there are fewer than ``THIN_USER_POPULATION`` users,
of every user; and, below ``THIN_DUMP_TOKENS`` tokens in all, every term's counts.
"""
import contextlib
import sqlite3
from collections import OrderedDict
from typing import Callable, Dict, FrozenSet, Iterable, Optional, Tuple

from ..errors import InputError, MmbdeidTypeError
from ..files.atomic import atomic_path
from .dump_fingerprint import SOURCE_KEYS
from .stats_builder import StatsBuilder
from .stats_store import SCHEMA_VERSION, StoreQueries, open_store

CACHE_ENTRIES = 200_000       # per lookup cache of CorpusStats
_TERMS_PER_QUERY = 500        # well below SQLite's limit on query parameters


class CorpusStats:
    """Read access to a finished statistics store."""

    def __init__(self, connection: sqlite3.Connection, path: Optional[str] = None):
        self.connection = connection
        self._store = StoreQueries(connection, path)    # time-bounded, stoppable queries
        rows = self._store.rows
        meta = dict(rows("SELECT key, value FROM meta"))
        self.n_posts = int(meta["posts"])
        self.source = {key: value for key, value in meta.items() if key in SOURCE_KEYS}
        self.n_border_terms_ = int(meta["border_terms"])
        # what was kept for combining with the reference (absent in stores of older code)
        self.thin = {key[5:]: int(value) for key, value in meta.items()
                     if key.startswith("thin_")}
        self.doc_sizes_ = {"board": {}, "user": {}}
        for kind, doc, size in rows("SELECT kind, doc, size FROM doc_size "
                                    "WHERE kind = 'board'"):
            self.doc_sizes_[kind][doc] = size
        self._board_ranks: Dict[str, Dict[str, int]] = {}
        self._user_ranks = LruCache(CACHE_ENTRIES // 100)
        self._thread_users = LruCache(CACHE_ENTRIES // 10)
        self._terms = LruCache(CACHE_ENTRIES)

    @classmethod
    def build(cls, documents: Iterable, path: Optional[str] = None) -> "CorpusStats":
        """Statistics of ``documents``: in memory, or with ``path`` built on disk beside it
        and renamed into place once complete."""
        def fill(builder: StatsBuilder) -> None:
            for document in documents:
                builder.add(document)
        return build_store(fill, path)

    def close(self) -> None:
        self.connection.close()

    @classmethod
    def load(cls, path: str, immutable: bool = False,
             shown_as: Optional[str] = None) -> "CorpusStats":
        """A finished store, opened read-only once its schema is checked (see
        :func:`~mmbdeid.model.stats_store.open_store`, and its ``immutable`` and
        ``shown_as``)."""
        store = open_store(path, immutable, shown_as)
        try:
            schema = store.rows("SELECT value FROM meta WHERE key = 'schema'")
            if schema != [(SCHEMA_VERSION,)]:
                raise InputError("statistics schema %r, expected %r: rebuild it" % (
                    schema[0][0] if schema else None, SCHEMA_VERSION), store.path)
            return cls(store.connection, store.path)
        except BaseException:
            store.connection.close()
            raise

    # -- lookups used by the features ------------------------------------------------
    def ranks(self, kind: str, document: str) -> Tuple[Dict[str, int], int]:
        """(term -> rank, number of distinct terms) of one board's or user's document:
        fetched once per post, then looked up per token."""
        if kind == "board":
            ranks = self._board_ranks.get(document)
            if ranks is None:
                ranks = self._board_ranks[document] = self._ranks("board", document)
            return ranks, self.doc_sizes_["board"].get(document, 0)
        entry = self._user_ranks.get(document)
        if entry is None:
            size = self._store.rows(
                "SELECT size FROM doc_size WHERE kind = 'user' AND doc = ?", (document,))
            entry = (self._ranks("user", document), size[0][0] if size else 0)
            self._user_ranks.put(document, entry)
        return entry

    def _ranks(self, kind: str, document: str) -> Dict[str, int]:
        return dict(self._store.rows(
            "SELECT term, rank FROM term_rank WHERE kind = ? AND doc = ?", (kind, document)))

    def border_rank(self, term: str) -> Tuple[Optional[int], int]:
        return self._term(term)[0], self.n_border_terms_

    def capitalisation(self, term: str) -> Tuple[int, int]:
        """(mid-sentence title-case occurrences, mid-sentence occurrences) of a term."""
        _, mid, capitalised = self._term(term)
        return capitalised, mid

    def prefetch_terms(self, terms: Iterable[str]) -> None:
        """Read the statistics of many terms in a few queries (a query per term costs more
        than its lookup), ahead of ``border_rank`` and ``capitalisation``."""
        new = [term for term in dict.fromkeys(terms) if self._terms.get(term) is None]
        for start in range(0, len(new), _TERMS_PER_QUERY):
            batch = new[start:start + _TERMS_PER_QUERY]
            marks = ",".join("?" * len(batch))
            border = dict(self._store.rows(
                "SELECT term, rank FROM border_rank WHERE term IN (%s)" % marks, batch))
            counts = {term: (mid, capitalised) for term, mid, capitalised
                      in self._store.rows("SELECT term, mid, capitalised FROM term "
                                          "WHERE term IN (%s)" % marks, batch)}
            for term in batch:
                mid, capitalised = counts.get(term, (0, 0))
                self._terms.put(term, (border.get(term), mid or 0, capitalised or 0))

    def _term(self, term: str) -> Tuple[Optional[int], int, int]:
        entry = self._terms.get(term)
        if entry is None:
            row, = self._store.rows(
                "SELECT (SELECT rank FROM border_rank WHERE term = ?), "
                "(SELECT mid FROM term WHERE term = ?), "
                "(SELECT capitalised FROM term WHERE term = ?)", (term, term, term))
            entry = (row[0], row[1] or 0, row[2] or 0)
            self._terms.put(term, entry)
        return entry

    # -- raw counts of thin inputs (module reference) ----------------------------------
    def doc_counts(self, kind: str, document: str) -> Optional[Dict[str, int]]:
        """term -> count of a board's or user's document if the store kept them (a thin
        board; every user when there are few), else None."""
        if not self.thin.get("board_tokens_below" if kind == "board" else "users_kept"):
            return None
        rows = self._store.rows(
            "SELECT term, n FROM doc_term WHERE kind = ? AND doc = ?", (kind, document))
        counts = dict(rows)
        if not counts and kind == "board":
            # a thick board (or one never seen): only thin boards are kept
            return None
        return counts

    def term_counts(self) -> Optional[Dict[str, Tuple[int, int, int, int]]]:
        """term -> (count, border, mid-sentence, capitalised) of every term of a thin dump
        (the store keeps them all below THIN_DUMP_TOKENS tokens), else None."""
        if not self.thin.get("all_terms"):
            return None
        return {term: (n, border, mid, capitalised) for term, n, border, mid, capitalised
                in self._store.rows("SELECT term, n, border, mid, capitalised FROM term")}

    def users_by_board(self) -> Dict[str, FrozenSet[str]]:
        """Every board's usernames (the author field)."""
        boards: Dict[str, set] = {}
        for board, author in self._store.rows(
                "SELECT DISTINCT board, author FROM thread_author"):
            boards.setdefault(board, set()).add(author)
        return {board: frozenset(users) for board, users in boards.items()}

    def thread_users(self, board: str, thread: str) -> FrozenSet[str]:
        key = (board, thread)
        users = self._thread_users.get(key)
        if users is None:
            users = frozenset(row[0] for row in self._store.rows(
                "SELECT author FROM thread_author WHERE board = ? AND thread = ?", key))
            self._thread_users.put(key, users)
        return users

    def __getstate__(self):
        raise MmbdeidTypeError("CorpusStats holds a database connection: pass its file path to "
                               "other processes and load it there")


def build_store(fill: Callable[[StatsBuilder], None], path: Optional[str] = None,
                in_place: bool = False) -> CorpusStats:
    """A finished store filled by ``fill(builder)``: in memory, or built on disk beside
    ``path`` and renamed into place only once complete (a failed run leaves no file).
    ``in_place``: ``path`` is already the caller's private temporary file, filled as is."""
    if path is None:
        builder = StatsBuilder()
        fill(builder)
        return CorpusStats(builder.finish())
    place = contextlib.nullcontext(path) if in_place else atomic_path(path, private=True)
    with place as temporary:                            # it holds the usernames
        builder = StatsBuilder(temporary)
        fill(builder)
        builder.finish().close()
    return CorpusStats.load(path)


class LruCache:
    """A small least-recently-used cache: lookups stay fast and memory stays bounded."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self.data: OrderedDict = OrderedDict()

    def get(self, key):
        value = self.data.get(key)
        if value is not None:
            self.data.move_to_end(key)
        return value

    def put(self, key, value) -> None:
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)
