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

Memory stays flat as the dump grows: counts are gathered in :class:`PartialCounts` (one per
chunk of posts, mergeable, so workers and Dask partitions can each build one), added to
SQLite by :class:`StatsBuilder` whenever they grow large, and ranked there with SQL window
functions.  :class:`CorpusStats` reads the finished store with bounded caches.

A small input (a single post, a short file) makes thin statistics: every term of a one-line
post opens or closes its paragraph, one board has no other board to take an idf from.  The
store then also keeps what :mod:`mmbdeid.model.reference` needs to answer from the shipped
reference statistics instead (see there): the raw term counts of every board with fewer than
``THIN_BOARD_TOKENS`` tokens and, when there are fewer than ``THIN_USER_POPULATION`` users,
of every user; and, below ``THIN_DUMP_TOKENS`` tokens in all, every term's counts.
"""
import hashlib
import itertools
import math
import os
import pathlib
import sqlite3
from collections import Counter, OrderedDict
from typing import Callable, Dict, FrozenSet, Iterable, Optional, Tuple

from ..errors import InputError
from ..files.atomic import atomic_path

BORDER_WIDTH = 2
# Ranks are kept down to this share of a document's terms (and at least TOP_KEEP_MIN terms):
# the rank buckets stop at top 25%, so deeper ranks carry no information.
TOP_KEEP_SHARE = 0.25
TOP_KEEP_MIN = 100
SCHEMA_VERSION = "3"
# A token after one of these (or at a paragraph start) opens a sentence: its capital says
# nothing about it being a name.
SENTENCE_OPENERS = frozenset(".!?:;\"“”()[]…-–—*•>")
# What the store keeps for combining with the reference statistics (module reference, whose
# docstring explains the combination and these values).
THIN_BOARD_TOKENS = 20_000    # a smaller board's raw term counts are kept
THIN_USER_POPULATION = 100    # with fewer users, every user's raw term counts are kept
THIN_DUMP_TOKENS = 20_000     # a smaller dump keeps every term's counts (not only mid > 0)
FLUSH_ENTRIES = 300_000       # counts held in memory before they are added to SQLite
CACHE_ENTRIES = 200_000       # per lookup cache of CorpusStats
_TERMS_PER_QUERY = 500        # well below SQLite's limit on query parameters


def term_of(token: str) -> Optional[str]:
    """The statistics key of a token: lower-cased, or None for tokens without a letter."""
    if token.isalpha() or any(ch.isalpha() for ch in token):   # most tokens: the first test
        return token.lower()
    return None


class PartialCounts:
    """The counts of some posts; ``merge`` adds another's (order does not matter)."""

    def __init__(self):
        self.board_terms: Counter = Counter()      # (board, term) -> count
        self.user_terms: Counter = Counter()       # (author, term) -> count
        self.terms: Counter = Counter()            # term -> [count, border, mid, capitalised]
        self.border: Counter = Counter()
        self.mid: Counter = Counter()
        self.capitalised: Counter = Counter()
        self.thread_authors: set = set()           # (board, thread, author)
        self.n_posts = 0

    def __len__(self) -> int:
        return len(self.board_terms) + len(self.user_terms) + len(self.terms)

    def add(self, document) -> "PartialCounts":
        self.n_posts += 1
        paragraphs: Dict[int, list] = {}
        mid, capitalised = self.mid, self.capitalised
        previous_token, previous_paragraph = None, None
        for token, pattern, paragraph in zip(document.tokens, document.pattern_labels,
                                             document.paragraph_ids):
            term = None if pattern else term_of(token)
            if term is not None:
                paragraphs.setdefault(paragraph, []).append(term)
                opens_sentence = (paragraph != previous_paragraph or previous_token is None
                                  or previous_token in SENTENCE_OPENERS)
                if not opens_sentence and not token.isupper():
                    mid[term] += 1
                    if token[0].isupper():
                        capitalised[term] += 1
            previous_token, previous_paragraph = token, paragraph
        terms = [t for paragraph in paragraphs.values() for t in paragraph]
        # Counter.update counts an iterable in C; given a mapping it loops in Python
        self.terms.update(terms)
        if document.board:
            self.board_terms.update(zip(itertools.repeat(document.board), terms))
        if document.author:
            author = document.author
            self.user_terms.update(zip(itertools.repeat(author), terms))
            self.thread_authors.add((document.board, document.thread, author))
        for paragraph in paragraphs.values():
            # the first and last BORDER_WIDTH terms (all of them in a short paragraph)
            self.border.update(paragraph if len(paragraph) <= 2 * BORDER_WIDTH
                               else paragraph[:BORDER_WIDTH] + paragraph[-BORDER_WIDTH:])
        return self

    def merge(self, other: "PartialCounts") -> "PartialCounts":
        for name in ("board_terms", "user_terms", "terms", "border", "mid", "capitalised"):
            getattr(self, name).update(getattr(other, name))
        self.thread_authors |= other.thread_authors
        self.n_posts += other.n_posts
        return self


# Meta rows saying what a store was built from: a dump's fingerprint and the code version.
SOURCE_KEYS = ("source_records", "source_sha256", "source_kind", "mmbdeid_version")


class DumpFingerprint:
    """The identity of a dump's content: its number of records and a SHA-256 of their ids
    and texts, in order. Statistics record it, so that using them on another dump (whose
    usernames, ranks and border words differ) is caught."""

    def __init__(self):
        self.records = 0
        self._digest = hashlib.sha256()

    def add(self, fields: dict) -> None:
        self.records += 1
        text = fields["text"]
        self._digest.update(b"%d\0%d\0" % (len(text), self.records))
        self._digest.update(str(fields["id"]).encode("utf-8", "surrogatepass") + b"\0")
        self._digest.update(text.encode("utf-8", "surrogatepass"))

    def as_source(self, kind: str = "dump") -> Dict[str, str]:
        from .. import __version__
        return {"source_records": str(self.records), "source_sha256": self._digest.hexdigest(),
                "source_kind": kind, "mmbdeid_version": __version__}


class StatsBuilder:
    """Adds posts (or ready partial counts) to a SQLite store and ranks them at the end.

    ``path`` None builds in memory (small corpora: training, evaluation)."""

    def __init__(self, path: Optional[str] = None, flush_entries: int = FLUSH_ENTRIES):
        self.connection = sqlite3.connect(path or ":memory:")
        # The file is private until it is renamed into place, so durability is not needed.
        self.connection.execute("PRAGMA journal_mode = OFF")
        self.connection.execute("PRAGMA synchronous = OFF")
        # Sorts and temporary tables of the ranking go to disk, not memory.
        self.connection.execute("PRAGMA temp_store = FILE")
        self.flush_entries = flush_entries
        self.source: Dict[str, str] = {}       # what the store was built from (meta rows)
        self.pending = PartialCounts()
        self.n_posts = 0
        _create_count_tables(self.connection)

    def add(self, document) -> None:
        self.pending.add(document)
        if len(self.pending) >= self.flush_entries:
            self.flush()

    def add_counts(self, counts: PartialCounts) -> None:
        self.pending.merge(counts)
        if len(self.pending) >= self.flush_entries:
            self.flush()

    def flush(self) -> None:
        counts, self.pending = self.pending, PartialCounts()
        self.n_posts += counts.n_posts
        upsert = ("INSERT INTO %s VALUES (?, ?, ?) ON CONFLICT(doc, term) "
                  "DO UPDATE SET n = n + excluded.n")
        with self.connection:
            self.connection.executemany(upsert % "board_term",
                                        ((b, t, n) for (b, t), n in counts.board_terms.items()))
            self.connection.executemany(upsert % "user_term",
                                        ((u, t, n) for (u, t), n in counts.user_terms.items()))
            self.connection.executemany(
                "INSERT INTO term VALUES (?, ?, ?, ?, ?) ON CONFLICT(term) DO UPDATE SET "
                "n = n + excluded.n, border = border + excluded.border, "
                "mid = mid + excluded.mid, capitalised = capitalised + excluded.capitalised",
                ((t, n, counts.border.get(t, 0), counts.mid.get(t, 0),
                  counts.capitalised.get(t, 0)) for t, n in counts.terms.items()))
            self.connection.executemany("INSERT OR IGNORE INTO thread_author VALUES (?, ?, ?)",
                                        counts.thread_authors)

    def finish(self) -> "CorpusStats":
        """Rank everything, drop the raw per-document counts, and open the result."""
        self.flush()
        connection = self.connection
        connection.create_function("ln", 1, math.log)
        with connection:
            for kind in ("board", "user"):
                _rank_documents(connection, kind)
            connection.execute("""
                INSERT INTO border_rank
                SELECT term, ROW_NUMBER() OVER (ORDER BY score DESC, term) - 1 FROM (
                    SELECT term, (border * 1.0 / n) * ln(1 + n) AS score FROM term
                    WHERE border > 0)""")
            n_border = connection.execute("SELECT COUNT(*) FROM border_rank").fetchone()[0]
            keep = max(TOP_KEEP_MIN, int(n_border * TOP_KEEP_SHARE))
            connection.execute("DELETE FROM border_rank WHERE rank >= ?", (keep,))
            thin = _keep_thin_counts(connection)
            if not thin["all_terms"]:
                connection.execute("DELETE FROM term WHERE mid = 0")
            connection.execute("DROP TABLE board_term")
            connection.execute("DROP TABLE user_term")
            connection.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("schema", SCHEMA_VERSION), ("posts", str(self.n_posts)),
                ("border_terms", str(n_border))]
                + [("thin_" + key, str(int(value))) for key, value in sorted(thin.items())]
                + sorted(self.source.items()))
        return CorpusStats(connection)


class CorpusStats:
    """Read access to a finished statistics store."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection
        meta = dict(connection.execute("SELECT key, value FROM meta"))
        self.n_posts = int(meta["posts"])
        self.source = {key: value for key, value in meta.items() if key in SOURCE_KEYS}
        self.n_border_terms_ = int(meta["border_terms"])
        # what was kept for combining with the reference (absent in stores of older code)
        self.thin = {key[5:]: int(value) for key, value in meta.items()
                     if key.startswith("thin_")}
        self.doc_sizes_ = {"board": {}, "user": {}}
        for kind, doc, size in connection.execute("SELECT kind, doc, size FROM doc_size "
                                                  "WHERE kind = 'board'"):
            self.doc_sizes_[kind][doc] = size
        self._board_ranks: Dict[str, Dict[str, int]] = {}
        self._user_ranks = _LruCache(CACHE_ENTRIES // 100)
        self._thread_users = _LruCache(CACHE_ENTRIES // 10)
        self._terms = _LruCache(CACHE_ENTRIES)

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
    def load(cls, path: str) -> "CorpusStats":
        try:
            # as_uri() escapes '#', '?' and '%', which a formatted URI would misread
            uri = pathlib.Path(os.path.abspath(path)).as_uri() + "?mode=ro"
            connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
            meta = dict(connection.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as error:
            raise InputError("not a statistics file (%s)" % error, path)
        if meta.get("schema") != SCHEMA_VERSION:
            raise InputError("statistics schema %r, expected %r: rebuild it" % (
                meta.get("schema"), SCHEMA_VERSION), path)
        return cls(connection)

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
            size = self.connection.execute(
                "SELECT size FROM doc_size WHERE kind = 'user' AND doc = ?",
                (document,)).fetchone()
            entry = (self._ranks("user", document), size[0] if size else 0)
            self._user_ranks.put(document, entry)
        return entry

    def _ranks(self, kind: str, document: str) -> Dict[str, int]:
        return dict(self.connection.execute(
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
            border = dict(self.connection.execute(
                "SELECT term, rank FROM border_rank WHERE term IN (%s)" % marks, batch))
            counts = {term: (mid, capitalised) for term, mid, capitalised
                      in self.connection.execute("SELECT term, mid, capitalised FROM term "
                                                 "WHERE term IN (%s)" % marks, batch)}
            for term in batch:
                mid, capitalised = counts.get(term, (0, 0))
                self._terms.put(term, (border.get(term), mid or 0, capitalised or 0))

    def _term(self, term: str) -> Tuple[Optional[int], int, int]:
        entry = self._terms.get(term)
        if entry is None:
            row = self.connection.execute(
                "SELECT (SELECT rank FROM border_rank WHERE term = ?), "
                "(SELECT mid FROM term WHERE term = ?), "
                "(SELECT capitalised FROM term WHERE term = ?)", (term, term, term)).fetchone()
            entry = (row[0], row[1] or 0, row[2] or 0)
            self._terms.put(term, entry)
        return entry

    # -- raw counts of thin inputs (module reference) ----------------------------------
    def doc_counts(self, kind: str, document: str) -> Optional[Dict[str, int]]:
        """term -> count of a board's or user's document if the store kept them (a thin
        board; every user when there are few), else None."""
        if not self.thin.get("board_tokens_below" if kind == "board" else "users_kept"):
            return None
        rows = self.connection.execute(
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
                in self.connection.execute("SELECT term, n, border, mid, capitalised "
                                           "FROM term")}

    def users_by_board(self) -> Dict[str, FrozenSet[str]]:
        """Every board's usernames (the author field)."""
        boards: Dict[str, set] = {}
        for board, author in self.connection.execute(
                "SELECT DISTINCT board, author FROM thread_author"):
            boards.setdefault(board, set()).add(author)
        return {board: frozenset(users) for board, users in boards.items()}

    def thread_users(self, board: str, thread: str) -> FrozenSet[str]:
        key = (board, thread)
        users = self._thread_users.get(key)
        if users is None:
            users = frozenset(row[0] for row in self.connection.execute(
                "SELECT author FROM thread_author WHERE board = ? AND thread = ?", key))
            self._thread_users.put(key, users)
        return users

    def __getstate__(self):
        raise TypeError("CorpusStats holds a database connection: pass its file path to "
                        "other processes and load it there")


def build_store(fill: Callable[[StatsBuilder], None], path: Optional[str] = None) -> CorpusStats:
    """A finished store filled by ``fill(builder)``: in memory, or built on disk beside
    ``path`` and renamed into place only once complete (a failed run leaves no file)."""
    if path is None:
        builder = StatsBuilder()
        fill(builder)
        return builder.finish()
    with atomic_path(path, private=True) as temporary:    # it holds the usernames
        builder = StatsBuilder(temporary)
        fill(builder)
        builder.finish().close()
    return CorpusStats.load(path)


class _LruCache:
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


def _rank_documents(connection, kind: str) -> None:
    """term_rank and doc_size of one kind: weight tf * ln(N / n_i), rank within document."""
    table = kind + "_term"
    connection.execute("CREATE TEMP TABLE doc AS SELECT doc, SUM(n) AS total, COUNT(*) AS size "
                       "FROM %s GROUP BY doc" % table)
    connection.execute("CREATE UNIQUE INDEX temp.doc_doc ON doc(doc)")
    n_documents = connection.execute("SELECT COUNT(*) FROM doc").fetchone()[0]
    # ln(N / n_i) once per term, not once per (document, term) row: the same values
    connection.execute("CREATE TEMP TABLE df AS SELECT term, COUNT(*) AS df, "
                       "ln(? * 1.0 / COUNT(*)) AS idf FROM %s GROUP BY term" % table,
                       (n_documents,))
    connection.execute("CREATE UNIQUE INDEX temp.df_term ON df(term)")
    connection.execute("INSERT INTO doc_size SELECT ?, doc, size FROM doc", (kind,))
    connection.execute("""
        INSERT INTO term_rank
        SELECT ?, doc, term, rank FROM (
            SELECT t.doc, t.term, d.size,
                   ROW_NUMBER() OVER (PARTITION BY t.doc
                                      ORDER BY (t.n / sqrt(d.total)) * f.idf DESC,
                                               t.term) - 1 AS rank
            FROM %s AS t JOIN df AS f ON f.term = t.term JOIN doc AS d ON d.doc = t.doc
            WHERE f.df < ?)
        WHERE rank < MAX(?, CAST(size * ? AS INTEGER))""" % table,
                       (kind, n_documents, TOP_KEEP_MIN, TOP_KEEP_SHARE))
    connection.execute("DROP TABLE temp.df")
    connection.execute("DROP TABLE temp.doc")


def _keep_thin_counts(connection) -> Dict[str, int]:
    """Keep the raw counts the reference combination needs (``doc_term``) before the
    per-document counts are dropped: every board with fewer than THIN_BOARD_TOKENS tokens,
    and every user when there are fewer than THIN_USER_POPULATION users. Returns what was
    kept, as meta rows: ``thin_board_tokens_below`` (the limit used), ``thin_users_kept``,
    ``thin_all_terms`` (the term table keeps every term: fewer than THIN_DUMP_TOKENS)."""
    connection.execute("CREATE TABLE IF NOT EXISTS doc_term (kind TEXT, doc TEXT, term TEXT, "
                       "n INTEGER, PRIMARY KEY (kind, doc, term)) WITHOUT ROWID")
    connection.execute("""
        INSERT INTO doc_term SELECT 'board', doc, term, n FROM board_term WHERE doc IN (
            SELECT doc FROM board_term GROUP BY doc HAVING SUM(n) < ?)""",
                       (THIN_BOARD_TOKENS,))
    n_users = connection.execute("SELECT COUNT(DISTINCT doc) FROM user_term").fetchone()[0]
    users_kept = n_users < THIN_USER_POPULATION
    if users_kept:
        connection.execute("INSERT INTO doc_term SELECT 'user', doc, term, n FROM user_term")
    tokens = connection.execute("SELECT COALESCE(SUM(n), 0) FROM term").fetchone()[0]
    return {"board_tokens_below": THIN_BOARD_TOKENS, "users_kept": users_kept,
            "all_terms": tokens < THIN_DUMP_TOKENS, "tokens": tokens, "users": n_users}


def _create_count_tables(connection) -> None:
    connection.executescript("""
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE IF NOT EXISTS board_term (doc TEXT, term TEXT, n INTEGER,
                                               PRIMARY KEY (doc, term)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS user_term (doc TEXT, term TEXT, n INTEGER,
                                              PRIMARY KEY (doc, term)) WITHOUT ROWID;
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
    """)
