"""Building a statistics store (what it holds: :mod:`mmbdeid.model.stats`).

:class:`StatsBuilder` sums counts in memory as arrays of (document, term) keys and counts,
sets them aside in a scratch file whenever they pass ``FLUSH_ENTRIES``
(:mod:`mmbdeid.model.count_runs`), and ranks them with numpy, a slice of whole documents
at a time; only the results are written. The store also keeps the raw counts of thin
inputs (``THIN_*``) that :mod:`mmbdeid.model.reference` combines with the reference
statistics.
"""
import itertools
import json
import math
import sqlite3
from typing import Callable, Dict, Iterator, Optional, Tuple

import numpy as np

from .count_runs import CountRuns
from .counting import KEY_MASK, KEY_SHIFT, CountArrays, PartialCounts
from .stats_store import DOC_TERM_TABLE, SCHEMA_VERSION, create_count_tables, honour_signals

# Ranks are kept down to this share of a document's terms (and at least TOP_KEEP_MIN terms):
# the rank buckets stop at top 25%, so deeper ranks carry no information.
TOP_KEEP_SHARE = 0.25
TOP_KEEP_MIN = 100
# What the store keeps for combining with the reference statistics (module reference, whose
# docstring explains the combination and these values).
THIN_BOARD_TOKENS = 20_000    # a smaller board's raw term counts are kept
THIN_USER_POPULATION = 100    # with fewer users, every user's raw term counts are kept
THIN_DUMP_TOKENS = 20_000     # a smaller dump keeps every term's counts (not only mid > 0)
FLUSH_ENTRIES = 1_000_000     # pairs held in memory (arrays) before they are set aside
_RANK_SLICE = 1 << 18          # pairs ranked at a time


class StatsBuilder:
    """Adds posts (or ready partial counts) to a SQLite store and ranks them at the end.

    Counts are gathered in memory as arrays (:class:`CountArrays`, about 16 bytes a count);
    past ``flush_entries`` (document, term) pairs they are set aside in a scratch file
    (:class:`CountRuns`) and gathering goes on, so memory stays bounded however large the
    dump (but for the vocabulary: each term, board and author once). The pairs are
    ranked with numpy (:func:`_rank`) a slice of whole documents at a time, read back
    merged if they were set aside, and only the results are written.

    ``path`` None builds in memory (small corpora: training, evaluation)."""

    def __init__(self, path: Optional[str] = None, flush_entries: int = FLUSH_ENTRIES):
        self.connection = sqlite3.connect(path or ":memory:")
        # The file is private until it is renamed into place, so durability is not needed.
        self.connection.execute("PRAGMA journal_mode = OFF")
        self.connection.execute("PRAGMA synchronous = OFF")
        self.flush_entries = flush_entries
        self.source: Dict[str, str] = {}       # what the store was built from (meta rows)
        self.pending = PartialCounts()         # documents given one by one (``add``)
        self.n_posts = 0
        self._counts = CountArrays()
        self._runs = CountRuns()               # the pairs set aside
        self._thread_authors: set = set()
        self._json = _has_json_each(self.connection)
        honour_signals(self.connection)
        create_count_tables(self.connection)

    def add(self, document) -> None:
        self.pending.add(document)
        # a batch was counted (or, with a tiny ``flush_entries``, is due)
        if self.pending._blocks or self.pending._buffered >= self.flush_entries:
            self._add_pending()

    def add_counts(self, counts: PartialCounts) -> None:
        self.n_posts += counts.n_posts
        self._thread_authors |= counts.thread_authors
        for block in counts._export():
            self._counts.absorb(block)
        if self._held() >= self.flush_entries:
            self._counts.consolidate()
            if self._held() >= self.flush_entries:
                self.flush()

    def _held(self) -> int:
        return self._counts.n_pairs + len(self._thread_authors)

    def _add_pending(self) -> None:
        pending, self.pending = self.pending, PartialCounts()
        if pending.n_posts:
            self.add_counts(pending)

    def flush(self) -> None:
        """Set the (document, term) pairs gathered in memory aside and add the thread
        authors to SQLite; the vocabulary and each term's counts stay in memory."""
        self._add_pending()
        for kind in (0, 1):
            self._runs.add(kind, *self._counts.take_pairs(kind))
        thread_authors, self._thread_authors = self._thread_authors, set()
        with self.connection:
            self.connection.executemany("INSERT OR IGNORE INTO thread_author VALUES (?, ?, ?)",
                                        _sorted(thread_authors))

    def finish(self) -> sqlite3.Connection:
        """Rank everything and write the store's tables. Returns the connection to the
        finished store, which :class:`~mmbdeid.model.stats.CorpusStats` reads."""
        self._add_pending()
        try:
            if self._runs:
                self.flush()
            self._write_ranked()
        finally:
            self._runs.close()
        return self.connection

    def _write_meta(self, n_border: int, thin: Dict[str, int]) -> None:
        self.connection.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema", SCHEMA_VERSION), ("posts", str(self.n_posts)),
            ("border_terms", str(n_border))]
            + [("thin_" + key, str(int(value))) for key, value in sorted(thin.items())]
            + sorted(self.source.items()))

    def _slices(self, kind: int) -> Callable[[], Iterator[Tuple[np.ndarray, np.ndarray]]]:
        """A new iterator at each call over the sorted unique (keys, counts) pairs of
        ``kind``, in slices of whole documents: read back merged if some were set aside."""
        if self._runs:
            return lambda: self._runs.merged_slices(kind, _RANK_SLICE)
        keys, values = self._counts.pairs(kind)
        return lambda: ((keys[start:end], values[start:end])
                        for start, end in _document_slices(keys))

    def _write_ranked(self) -> None:
        """The store's tables, each written in its key order: the ranks, the sizes, the
        term counts and the raw counts of thin boards and users."""
        counts = self._counts
        connection = self.connection
        terms = list(counts.term_ids)
        n_terms = len(terms)
        term_order = _string_order(terms)
        term_objects = _objects(terms)
        stats = counts.stats[:, :n_terms]
        n, border, mid = stats[0], stats[1], stats[2]
        # paragraph border: (border / n) * ln(1 + n), best first, ties by term
        with_border = np.flatnonzero(border > 0)
        n_border = len(with_border)
        score = (border[with_border] / n[with_border]) * _table(
            n[with_border], lambda count: math.log(1 + count))
        ranked = with_border[np.lexsort((term_order[with_border], -score))]
        ranked = ranked[:max(TOP_KEEP_MIN, int(n_border * TOP_KEEP_SHARE))]
        border_rows = sorted(zip(term_objects[ranked].tolist(), range(len(ranked))))
        tokens = int(n.sum())
        thin = {"board_tokens_below": THIN_BOARD_TOKENS,
                "all_terms": tokens < THIN_DUMP_TOKENS, "tokens": tokens}
        with connection:
            connection.execute(DOC_TERM_TABLE)
            for kind, name in enumerate(("board", "user")):
                slices = self._slices(kind)
                names = list(counts.doc_ids[kind])
                name_objects, name_order = _objects(names), _string_order(names)
                df = np.zeros(n_terms, np.int64)
                n_documents = 0
                for keys, _ in slices():
                    df += np.bincount(keys & KEY_MASK, minlength=n_terms)
                    n_documents += 1 + np.count_nonzero(np.diff(keys >> KEY_SHIFT))
                if kind == 1:                   # every user is kept when there are few
                    thin["users"] = n_documents
                    thin["users_kept"] = n_documents < THIN_USER_POPULATION
                for keys, count in slices():
                    document = keys >> KEY_SHIFT
                    term = keys & KEY_MASK
                    group, starts = _groups(document)
                    present = document[starts]
                    kept, rank, size, total = _rank(group, starts, count, df[term],
                                                    term_order[term], n_documents)
                    connection.executemany("INSERT INTO doc_size VALUES (?, ?, ?)", _sorted(
                        zip(itertools.repeat(name), name_objects[present].tolist(),
                            size.tolist())))
                    _insert_by_document(connection, "term_rank", (name,), document[kept],
                                        term[kept], rank, name_objects, name_order,
                                        term_objects, term_order, self._json)
                    if kind == 0:               # boards with few tokens are kept
                        chosen = np.flatnonzero(np.isin(document,
                                                        present[total < THIN_BOARD_TOKENS]))
                    else:
                        chosen = np.arange(len(document) if thin["users_kept"] else 0)
                    if len(chosen):
                        _insert_by_document(connection, "doc_term", (name,), document[chosen],
                                            term[chosen], count[chosen], name_objects,
                                            name_order, term_objects, term_order, self._json)
            connection.executemany("INSERT INTO border_rank VALUES (?, ?)", border_rows)
            kept = np.arange(n_terms) if thin["all_terms"] else np.flatnonzero(mid > 0)
            kept = kept[np.argsort(term_order[kept])]
            connection.executemany("INSERT INTO term VALUES (?, ?, ?, ?, ?)", zip(
                term_objects[kept].tolist(), *stats[:, kept].tolist()))
            connection.executemany("INSERT OR IGNORE INTO thread_author VALUES (?, ?, ?)",
                                   _sorted(self._thread_authors))
            self._write_meta(n_border, thin)


def _string_order(strings: list) -> np.ndarray:
    """Each string's position in sorted order: SQLite's BINARY collation (UTF-8 bytes)
    orders like Python's code points."""
    try:
        order = sorted(range(len(strings)), key=strings.__getitem__)
    except TypeError:               # names that are not all strings: any order will do
        order = range(len(strings))
    position = np.empty(len(strings), np.int64)
    position[np.fromiter(order, np.int64, len(strings))] = np.arange(len(strings))
    return position


def _objects(items: list) -> np.ndarray:
    return np.fromiter(items, object, len(items))


def _sorted(items) -> list:
    try:
        return sorted(items)
    except TypeError:
        return list(items)


def _table(values: np.ndarray, function) -> np.ndarray:
    """``function`` (Python floats, as SQLite calls ``ln``) of each value, computed once
    per distinct value."""
    if not len(values):
        return np.zeros(0)
    top = int(values.max())
    if top <= 4 * len(values) + 1024:         # small values: a lookup table
        distinct = np.flatnonzero(np.bincount(values, minlength=top + 1))
        table = np.zeros(top + 1)
        table[distinct] = [function(value) for value in distinct.tolist()]
        return table[values]
    distinct, inverse = np.unique(values, return_inverse=True)
    return np.array([function(value) for value in distinct.tolist()],
                    np.float64)[inverse.reshape(-1)]


def _document_slices(keys: np.ndarray) -> Iterator[Tuple[int, int]]:
    """(start, end) of consecutive slices of sorted pair keys, about _RANK_SLICE long, that
    hold whole documents: ranked one at a time, they bound the temporary arrays."""
    start = 0
    while start < len(keys):
        end = start + _RANK_SLICE
        if end < len(keys):
            end = int(np.searchsorted(keys, ((int(keys[end - 1]) >> KEY_SHIFT) + 1)
                                      << KEY_SHIFT))
        else:
            end = len(keys)
        yield start, end
        start = end


def _groups(document: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(group of each row, first row of each group) of non-decreasing document ids."""
    first = np.ones(len(document), bool)
    first[1:] = document[1:] != document[:-1]
    return np.cumsum(first) - 1, np.flatnonzero(first)


def _rank(group: np.ndarray, starts: np.ndarray, n: np.ndarray, df: np.ndarray,
          term_order: np.ndarray, n_documents: int):
    """The tf-idf ranks of some documents' (document, term) rows, grouped by document
    (``_groups``), with each row's count ``n``, the number of documents with its term
    ``df`` and the term's position in BINARY order: weight (n / sqrt(document tokens)) *
    ln(documents / df), terms found in every document left out, rank 0 for the heaviest,
    ties by term, kept while below TOP_KEEP_MIN or TOP_KEEP_SHARE of the document's terms
    (what SQL window functions computed before; the float operations are the same).
    Returns (kept rows in increasing order, their ranks, terms and tokens per group)."""
    size = np.diff(np.append(starts, len(n)))
    total = np.add.reduceat(n, starts) if len(n) else n[:0]
    chosen = np.flatnonzero(df < n_documents)
    weight = (n[chosen] / np.sqrt(total[group[chosen]].astype(np.float64))) * _table(
        df[chosen], lambda count: math.log(n_documents * 1.0 / count))
    chosen = chosen[np.lexsort((term_order[chosen], -weight, group[chosen]))]
    chosen_group = group[chosen]
    new = np.ones(len(chosen), bool)
    new[1:] = chosen_group[1:] != chosen_group[:-1]
    rank = np.arange(len(chosen)) - np.flatnonzero(new)[np.cumsum(new) - 1]
    limit = np.maximum(TOP_KEEP_MIN, (size * TOP_KEEP_SHARE).astype(np.int64))
    kept = rank < limit[chosen_group]
    chosen, rank = chosen[kept], rank[kept]
    order = np.argsort(chosen)
    return chosen[order], rank[order], size, total


def _insert_by_document(connection, table: str, prefix: tuple, document: np.ndarray,
                        term: np.ndarray, value: np.ndarray, names: np.ndarray,
                        name_order: np.ndarray, terms: np.ndarray, term_order: np.ndarray,
                        as_json: bool = False) -> None:
    """Rows (*prefix, document name, term, value) of ``table`` (``names``, ``terms``:
    object arrays by id; ``*_order``: their positions in BINARY order), added in key
    order: the B-tree then only appends. ``as_json``: a statement per document, its terms
    and values passed as a JSON object that SQLite's ``json_each`` unpacks, several times
    faster than a statement per row."""
    order = np.lexsort((term_order[term], name_order[document]))
    document = document[order]
    terms, values = terms[term[order]].tolist(), value[order].tolist()
    marks = "?, " * len(prefix)
    if not as_json or "\0" in "".join(terms):     # JSON strings end at a NUL
        columns = [itertools.repeat(value) for value in prefix]
        connection.executemany("INSERT INTO %s VALUES (%s?, ?, ?)" % (table, marks),
                               zip(*columns, names[document].tolist(), terms, values))
        return
    first = np.ones(len(document), bool)
    first[1:] = document[1:] != document[:-1]
    starts = np.flatnonzero(first).tolist()
    statement = "INSERT INTO %s SELECT %s?, key, value FROM json_each(?)" % (table, marks)
    for name, start, end in zip(names[document[starts]].tolist(), starts,
                                starts[1:] + [len(terms)]):
        connection.execute(statement, prefix + (name, json.dumps(
            dict(zip(terms[start:end], values[start:end])), ensure_ascii=False)))


def _has_json_each(connection) -> bool:
    try:
        return connection.execute("""SELECT key, value FROM json_each('{"a\\"b":1}')"""
                                  ).fetchall() == [('a"b', 1)]
    except sqlite3.Error:
        return False
