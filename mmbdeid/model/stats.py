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
chunk of posts, mergeable, so workers and Dask partitions can each build one; counted with
numpy a batch of documents at a time and pickled as compact arrays), summed in memory by
:class:`StatsBuilder` as arrays of (document, term) keys and counts, added to SQLite
whenever they pass ``FLUSH_ENTRIES`` and ranked there with SQL window functions.  A dump
whose counts never passed it (some 20,000 posts of a hundred words) is ranked in memory
with numpy instead, in the same order, and only the results are written.
:class:`CorpusStats` reads the finished store with bounded caches.

A small input (a single post, a short file) makes thin statistics: every term of a one-line
post opens or closes its paragraph, one board has no other board to take an idf from.  The
store then also keeps what :mod:`mmbdeid.model.reference` needs to answer from the shipped
reference statistics instead (see there): the raw term counts of every board with fewer than
``THIN_BOARD_TOKENS`` tokens and, when there are fewer than ``THIN_USER_POPULATION`` users,
of every user; and, below ``THIN_DUMP_TOKENS`` tokens in all, every term's counts.
"""
import array
import contextlib
import hashlib
import itertools
import json
import math
import sqlite3
import threading
from collections import Counter, OrderedDict, defaultdict
from types import SimpleNamespace
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, Optional, Tuple

import numpy as np

from ..errors import InputError
from ..files.atomic import atomic_path
from ..text.document import post_field
from .stats_store import (DOC_TERM_TABLE, StoreQueries, create_count_tables, honour_signals,
                          open_store)

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
FLUSH_ENTRIES = 1_000_000     # counts held in memory (arrays) before they are added to SQLite
CACHE_ENTRIES = 200_000       # per lookup cache of CorpusStats
_TERMS_PER_QUERY = 500        # well below SQLite's limit on query parameters


def term_of(token: str) -> Optional[str]:
    """The statistics key of a token: lower-cased, or None for tokens without a letter."""
    if token.isalpha() or any(ch.isalpha() for ch in token):   # most tokens: the first test
        return token.lower()
    return None


class PartialCounts:
    """The counts of some posts; ``merge`` adds another's (order does not matter).

    Documents are counted in batches with numpy (:func:`_count_documents`); the counts are
    held as arrays over a vocabulary of the batch (:class:`_Counts`) and pickled that way,
    compact and cheap to load.  ``terms``, ``border``, ``mid``, ``capitalised`` (term ->
    count) and ``board_terms``, ``user_terms`` ((board or author, term) -> count) give the
    counts as Counters, built on each access."""

    def __init__(self):
        self.thread_authors: set = set()           # (board, thread, author)
        self.n_posts = 0
        # not yet counted: (tokens, labels, paragraph ids, board, author) of documents
        self._documents: list = []
        self._buffered = 0             # their tokens
        self._blocks: list = []        # counted (_Counts.export), not yet in _counts
        self._counts: Optional[_Counts] = None

    def __len__(self) -> int:
        counts = self._counted()
        return counts.n_pairs + len(counts.term_ids)

    def add(self, document) -> "PartialCounts":
        self.n_posts += 1
        if document.author:
            self.thread_authors.add((document.board, document.thread, document.author))
        tokens = document.tokens
        if tokens:
            self._documents.append((tokens, document.pattern_labels, document.paragraph_ids,
                                    document.board, document.author))
            self._buffered += len(tokens)
            if self._buffered >= _BATCH_TOKENS:
                self._count_buffered()
        return self

    def merge(self, other: "PartialCounts") -> "PartialCounts":
        blocks = other._export()
        counts = self._counted(consolidate=False)
        for block in blocks:
            counts.absorb(block)
        self.thread_authors |= other.thread_authors
        self.n_posts += other.n_posts
        return self

    # -- the counts as Counters ---------------------------------------------------------
    @property
    def terms(self) -> Counter:
        return self._term_counter(0)

    @property
    def border(self) -> Counter:
        return self._term_counter(1)

    @property
    def mid(self) -> Counter:
        return self._term_counter(2)

    @property
    def capitalised(self) -> Counter:
        return self._term_counter(3)

    @property
    def board_terms(self) -> Counter:
        return self._pair_counter(0)

    @property
    def user_terms(self) -> Counter:
        return self._pair_counter(1)

    def _term_counter(self, row: int) -> Counter:
        counts = self._counted()
        values = counts.stats[row, :len(counts.term_ids)].tolist()
        return Counter({term: value for term, value in zip(counts.term_ids, values) if value})

    def _pair_counter(self, kind: int) -> Counter:
        counts = self._counted()
        keys, values = counts.pairs(kind)
        docs, terms = list(counts.doc_ids[kind]), list(counts.term_ids)
        return Counter({(docs[doc], terms[term]): value for doc, term, value in zip(
            (keys >> _KEY_SHIFT).tolist(), (keys & _KEY_MASK).tolist(), values.tolist())})

    # -- internals ----------------------------------------------------------------------
    def _count_buffered(self) -> None:
        if self._documents:
            block = _count_documents(self._documents)
            self._documents, self._buffered = [], 0
            self._blocks.append(block)

    def _counted(self, consolidate: bool = True) -> "_Counts":
        """Everything counted and gathered in ``_counts``."""
        self._count_buffered()
        if self._counts is None:
            self._counts = _Counts()
        for block in self._blocks:
            self._counts.absorb(block)
        self._blocks = []
        if consolidate:
            self._counts.consolidate()
        return self._counts

    def _export(self) -> list:
        """The counts as blocks (``_Counts.export``), without changing them."""
        self._count_buffered()
        if self._counts is None:
            return list(self._blocks)
        return [self._counted().export()]

    def __getstate__(self):
        blocks = self._export()
        if len(blocks) > 1:
            blocks = [self._counted().export()]
        return {"n_posts": self.n_posts, "thread_authors": self.thread_authors,
                "blocks": blocks}

    def __setstate__(self, state) -> None:
        self.__init__()
        self.n_posts = state["n_posts"]
        self.thread_authors = state["thread_authors"]
        self._blocks = list(state["blocks"])


# Documents counted together (a chunk of posts is one batch): numpy's work per call is
# spread over many tokens, while the batch's arrays stay small.
_BATCH_TOKENS = 1 << 16
# (document, term) pairs are int64 keys: document id in the high half, term id in the low.
_KEY_SHIFT = 32
_KEY_MASK = (1 << _KEY_SHIFT) - 1
_RANK_SLICE = 1 << 18          # pairs ranked at a time
# Unmerged pairs are sorted and summed once they are as many as the merged ones (and at
# least this many): amortised O(n log n) however small the parts.
_CONSOLIDATE_MIN = 1 << 16


def _count_documents(documents: list) -> tuple:
    """The counts of some documents (tokens, pattern labels, paragraph ids, board, author)
    as a block: (terms, stats, pairs) where ``stats`` is an array (4, terms) of count,
    paragraph-border, mid-sentence and capitalised occurrences, and ``pairs`` holds for
    boards and for authors (names, pairs per name, term index, counts).

    The rules are those of a loop over the tokens: a token counts if it has no pattern
    label and has a letter; the first and last BORDER_WIDTH counted tokens of a paragraph
    are at its border; a token is mid-sentence unless it opens its document or paragraph
    or follows a SENTENCE_OPENERS token, and counts there unless it is all-caps."""
    tokens: list = []
    lengths = []
    patterned = []                      # (start, labels) of documents with pattern labels
    paragraph_lists = []
    for token_list, labels, paragraphs, _, _ in documents:
        n = len(token_list)
        if len(labels) < n or len(paragraphs) < n:     # zip() stopped at the shortest
            n = min(n, len(labels), len(paragraphs))
            token_list = token_list[:n]
        if any(itertools.islice(labels, n)):
            patterned.append((len(tokens), labels[:n]))
        paragraph_lists.append(paragraphs if len(paragraphs) == n else paragraphs[:n])
        tokens.extend(token_list)
        lengths.append(n)
    n_tokens = len(tokens)
    try:        # array('q') refuses what is not an integer (numpy would truncate 1.5)
        paragraph = np.frombuffer(array.array(
            "q", itertools.chain.from_iterable(paragraph_lists)), np.int64)
    except (TypeError, OverflowError):
        # other paragraph ids: renumbered per document (equal ids stay equal)
        paragraph = np.fromiter(itertools.chain.from_iterable(
            map(defaultdict(itertools.count().__next__).__getitem__, ids)
            for ids in paragraph_lists), np.int64, n_tokens)
    types = _TYPES.look_up(tokens)
    del tokens
    token_type = types.token_type
    term = types.term[token_type]                 # process-wide term ids, -1: none
    for start, labels in patterned:
        term[start:start + len(labels)][np.array(list(map(bool, labels)), bool)] = -1
    lengths = np.array(lengths, np.int64)
    starts = np.cumsum(lengths) - lengths
    document = np.repeat(np.arange(len(lengths)), lengths)
    opens = np.ones(n_tokens, bool)
    if n_tokens > 1:
        opens[1:] = (paragraph[1:] != paragraph[:-1]) | types.opener[token_type[:-1]]
    opens[starts[lengths > 0]] = True
    where = np.flatnonzero(term >= 0)             # the counted tokens
    # the batch's terms, numbered in order of their process-wide ids
    n_all = np.bincount(term[where], minlength=len(types.terms))
    present = np.flatnonzero(n_all)
    n_terms = len(present)
    local = np.zeros(len(n_all), np.int64)
    local[present] = np.arange(n_terms)
    c_term, c_document, c_paragraph = local[term[where]], document[where], paragraph[where]
    case = np.where(opens[where], 0, types.case[token_type[where]])
    stats = np.zeros((4, n_terms), np.int64)
    stats[0] = n_all[present]
    stats[2] = np.bincount(c_term[case > 0], minlength=n_terms)
    stats[3] = np.bincount(c_term[case == 2], minlength=n_terms)
    terms = list(map(types.terms.__getitem__, present.tolist()))

    # paragraph borders: a paragraph's counted tokens, in order, grouped by (document, id)
    b_term, b_document, b_paragraph = c_term, c_document, c_paragraph
    if len(where) > 1:
        other_document = b_document[1:] != b_document[:-1]
        if not np.all((b_paragraph[1:] >= b_paragraph[:-1]) | other_document):
            order = np.lexsort((where, b_paragraph, b_document))     # stable: token order
            b_term, b_document, b_paragraph = (b_term[order], b_document[order],
                                               b_paragraph[order])
            other_document = b_document[1:] != b_document[:-1]
        new = np.ones(len(where), bool)
        new[1:] = other_document | (b_paragraph[1:] != b_paragraph[:-1])
        group_start = np.flatnonzero(new)
        group = np.cumsum(new) - 1
        group_size = np.diff(np.append(group_start, len(where)))
        position = np.arange(len(where)) - group_start[group]
        at_border = ((position < BORDER_WIDTH)
                     | (position >= group_size[group] - BORDER_WIDTH))
        stats[1] = np.bincount(b_term[at_border], minlength=n_terms)
    else:
        stats[1] = np.bincount(b_term, minlength=n_terms)

    pairs = []
    for field in (3, 4):           # board, author
        names = defaultdict(itertools.count().__next__)
        doc_name = np.array([names[d[field]] if d[field] else -1 for d in documents],
                            np.int64)
        name = doc_name[c_document]
        chosen = name >= 0
        keys, counts = np.unique(name[chosen] * n_terms + c_term[chosen],
                                 return_counts=True)
        pairs.append((list(names), np.bincount(keys // max(n_terms, 1),
                                               minlength=len(names)),
                      _small(keys % max(n_terms, 1)), _small(counts)))
    return terms, _small(stats), pairs


class _TokenTypes:
    """Token types of this process, numbered, with what counting needs of each: its term
    (numbered too, -1 if none), case (0: never counted mid-sentence, no term or all-caps;
    1: counted; 2: counted and capitalised) and whether it opens a sentence after it.
    Starts afresh past TYPES_KEPT types, so memory stays bounded."""

    TYPES_KEPT = 1 << 17

    def __init__(self):
        self._lock = threading.Lock()           # Dask may count in several threads
        self._clear()

    def _clear(self) -> None:
        self.ids = defaultdict(itertools.count().__next__)      # token -> type id
        self.term_ids = defaultdict(itertools.count().__next__)  # term -> term id
        self.terms: list = []                                   # term id -> term
        self.term = np.zeros(0, np.int64)
        self.case = np.zeros(0, np.int8)
        self.opener = np.zeros(0, bool)

    def look_up(self, tokens: list) -> SimpleNamespace:
        """The type id of each token (``token_type``), and the tables ``term``, ``case``,
        ``opener`` (by type id) and ``terms`` (by term id) that describe them: a snapshot,
        which later look-ups only extend or replace."""
        with self._lock:
            if len(self.ids) > self.TYPES_KEPT:
                self._clear()
            known = len(self.ids)
            token_type = np.fromiter(map(self.ids.__getitem__, tokens), np.int64,
                                     len(tokens))
            if len(self.ids) > known:
                self._describe(list(itertools.islice(self.ids, known, None)))
            return SimpleNamespace(token_type=token_type, term=self.term, case=self.case,
                                   opener=self.opener, terms=self.terms)

    def _describe(self, new: list) -> None:
        term_ids, n_terms = self.term_ids, len(self.term_ids)
        term, case, opener = [], [], []
        for token in new:
            word = term_of(token)
            if word is None:
                term.append(-1)
                case.append(0)
            else:
                term.append(term_ids[word])
                case.append(0 if token.isupper() else 2 if token[0].isupper() else 1)
            opener.append(token in SENTENCE_OPENERS)
        self.terms.extend(itertools.islice(term_ids, n_terms, None))
        self.term = np.concatenate([self.term, np.array(term, np.int64)])
        self.case = np.concatenate([self.case, np.array(case, np.int8)])
        self.opener = np.concatenate([self.opener, np.array(opener, bool)])


_TYPES = _TokenTypes()


def _small(values: np.ndarray) -> np.ndarray:
    """Non-negative integers in the smallest dtype that holds them (what is pickled)."""
    top = int(values.max()) if values.size else 0
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return values.astype(dtype)
    return values


class _Counts:
    """Counts over a growing vocabulary: per term (count, border, mid, capitalised) in
    ``stats``, and (board or author, term) pairs as sorted int64 keys with their counts."""

    def __init__(self):
        # term -> id, board or author -> id: numbered in order of arrival
        self.term_ids: Dict[str, int] = defaultdict(itertools.count().__next__)
        self.doc_ids: Tuple[dict, dict] = (defaultdict(itertools.count().__next__),
                                           defaultdict(itertools.count().__next__))
        self.stats = np.zeros((4, 1024), np.int64)
        self.merged = [(_EMPTY, _EMPTY), (_EMPTY, _EMPTY)]   # sorted unique keys, counts
        self.unmerged: Tuple[list, list] = ([], [])
        self.n_merged = 0
        self.n_unmerged = 0

    @property
    def n_pairs(self) -> int:
        return self.n_merged + self.n_unmerged

    def __len__(self) -> int:
        """Entries held (pairs not yet summed count each time)."""
        return self.n_pairs + len(self.term_ids)

    def absorb(self, block: tuple) -> None:
        terms, stats, pairs = block
        term_ids = self.term_ids
        ids = np.fromiter(map(term_ids.__getitem__, terms), np.int64, len(terms))
        if len(term_ids) > self.stats.shape[1]:
            grown = np.zeros((4, max(len(term_ids), 2 * self.stats.shape[1])), np.int64)
            grown[:, :self.stats.shape[1]] = self.stats
            self.stats = grown
        if len(ids):
            self.stats[:, ids] += stats         # ids are distinct: no lost updates
        for kind, (names, sizes, term_index, counts) in enumerate(pairs):
            if not len(counts):
                continue
            docs = np.fromiter(map(self.doc_ids[kind].__getitem__, names), np.int64,
                               len(names))
            keys = (np.repeat(docs, sizes) << _KEY_SHIFT) | ids[term_index]
            self.unmerged[kind].append((keys, counts.astype(np.int64, copy=False)))
            self.n_unmerged += len(keys)
        if self.n_unmerged >= max(self.n_merged, _CONSOLIDATE_MIN):
            self.consolidate()

    def consolidate(self) -> None:
        """Sum the pairs that were added more than once. Arrays are let go as soon as
        they are used: the peak is about 32 bytes a pair."""
        for kind in (0, 1):
            parts = self.unmerged[kind]
            if not parts:
                continue
            keys, counts = self.merged[kind]
            self.n_merged -= len(keys)
            key_parts = [keys] + [k for k, _ in parts]
            count_parts = [counts] + [c for _, c in parts]
            self.merged[kind] = (_EMPTY, _EMPTY)
            parts.clear()
            del keys, counts
            keys = np.concatenate(key_parts)
            del key_parts
            order = np.argsort(keys)
            keys = keys[order]
            counts = np.concatenate(count_parts)
            del count_parts
            counts = counts[order]
            del order
            if len(keys):
                first = np.ones(len(keys), bool)
                first[1:] = keys[1:] != keys[:-1]
                starts = np.flatnonzero(first)
                del first
                if len(starts) < len(keys):
                    keys = keys[starts]
                    counts = np.add.reduceat(counts, starts)
            self.merged[kind] = (keys, counts)
            self.n_merged += len(keys)
        self.n_unmerged = 0

    def pairs(self, kind: int) -> Tuple[np.ndarray, np.ndarray]:
        self.consolidate()
        return self.merged[kind]

    def export(self) -> tuple:
        """A block (see ``_count_documents``) of these counts."""
        self.consolidate()
        n_terms = len(self.term_ids)
        pairs = []
        for kind in (0, 1):
            keys, counts = self.merged[kind]
            names = list(self.doc_ids[kind])
            sizes = np.bincount(keys >> _KEY_SHIFT, minlength=len(names))
            if not sizes.all():
                present = sizes > 0
                names = list(itertools.compress(names, present.tolist()))
                sizes = sizes[present]
            pairs.append((names, sizes, _small(keys & _KEY_MASK), _small(counts)))
        return list(self.term_ids), _small(self.stats[:, :n_terms]), pairs


_EMPTY = np.zeros(0, np.int64)


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


class StatsBuilder:
    """Adds posts (or ready partial counts) to a SQLite store and ranks them at the end.

    Counts are gathered in memory as arrays (:class:`_Counts`, about 16 bytes a count);
    past ``flush_entries`` of them they are added to SQLite and gathering starts afresh, so
    memory stays bounded however large the dump. A dump whose counts never reached the
    limit is ranked in memory with numpy (:func:`_rank`, the same order as the SQL
    ranking of a flushed store) and only the results are written.

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
        self.pending = PartialCounts()         # documents given one by one (``add``)
        self.n_posts = 0
        self._counts = _Counts()
        self._thread_authors: set = set()
        self._flushed = False                  # some counts are in SQLite
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
        if len(self._counts) + len(self._thread_authors) >= self.flush_entries:
            self._counts.consolidate()
            if len(self._counts) + len(self._thread_authors) >= self.flush_entries:
                self.flush()

    def _add_pending(self) -> None:
        pending, self.pending = self.pending, PartialCounts()
        if pending.n_posts:
            self.add_counts(pending)

    def flush(self) -> None:
        """Add the counts gathered in memory to SQLite, and start afresh."""
        self._add_pending()
        counts, self._counts = self._counts, _Counts()
        thread_authors, self._thread_authors = self._thread_authors, set()
        self._flushed = True
        terms = list(counts.term_ids)
        term_order = _string_order(terms)
        term_objects = _objects(terms)
        with self.connection:
            for kind, table in enumerate(("board_term", "user_term")):
                keys, values = counts.pairs(kind)
                names = list(counts.doc_ids[kind])
                _insert_by_document(self.connection, table, (), keys >> _KEY_SHIFT,
                                    keys & _KEY_MASK, values, _objects(names),
                                    _string_order(names), term_objects, term_order,
                                    upsert=True)
            by_term = np.argsort(term_order)
            self.connection.executemany(
                "INSERT INTO term VALUES (?, ?, ?, ?, ?) ON CONFLICT(term) DO UPDATE SET "
                "n = n + excluded.n, border = border + excluded.border, "
                "mid = mid + excluded.mid, capitalised = capitalised + excluded.capitalised",
                zip(term_objects[by_term].tolist(),
                    *counts.stats[:, :len(terms)][:, by_term].tolist()))
            self.connection.executemany("INSERT OR IGNORE INTO thread_author VALUES (?, ?, ?)",
                                        _sorted(thread_authors))

    def finish(self) -> "CorpusStats":
        """Rank everything, drop the raw per-document counts, and open the result."""
        self._add_pending()
        if not self._flushed:
            self._finish_in_memory()
            return CorpusStats(self.connection)
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
            self._write_meta(n_border, thin)
        return CorpusStats(connection)

    def _write_meta(self, n_border: int, thin: Dict[str, int]) -> None:
        self.connection.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema", SCHEMA_VERSION), ("posts", str(self.n_posts)),
            ("border_terms", str(n_border))]
            + [("thin_" + key, str(int(value))) for key, value in sorted(thin.items())]
            + sorted(self.source.items()))

    def _finish_in_memory(self) -> None:
        """``finish`` of counts that never left memory: the tables of a flushed store,
        each written in its key order, without the per-document counts."""
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
                keys, values = counts.pairs(kind)
                names = list(counts.doc_ids[kind])
                name_objects, name_order = _objects(names), _string_order(names)
                df = np.bincount(keys & _KEY_MASK, minlength=n_terms)
                n_documents = 0
                for start, end in _document_slices(keys):
                    n_documents += 1 + np.count_nonzero(np.diff(keys[start:end] >> _KEY_SHIFT))
                if kind == 1:                   # every user is kept when there are few
                    thin["users"] = n_documents
                    thin["users_kept"] = n_documents < THIN_USER_POPULATION
                for start, end in _document_slices(keys):
                    document = keys[start:end] >> _KEY_SHIFT
                    term = keys[start:end] & _KEY_MASK
                    count = values[start:end]
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
            connection.execute("DROP TABLE board_term")
            connection.execute("DROP TABLE user_term")
            self._write_meta(n_border, thin)


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
        """A finished store, opened read-only once its schema is checked (see
        :mod:`~mmbdeid.model.stats_store`)."""
        store = open_store(path)
        try:
            schema = store.rows("SELECT value FROM meta WHERE key = 'schema'")
            if schema != [(SCHEMA_VERSION,)]:
                raise InputError("statistics schema %r, expected %r: rebuild it" % (
                    schema[0][0] if schema else None, SCHEMA_VERSION), path)
            return cls(store.connection, path)
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
        raise TypeError("CorpusStats holds a database connection: pass its file path to "
                        "other processes and load it there")


def build_store(fill: Callable[[StatsBuilder], None], path: Optional[str] = None,
                in_place: bool = False) -> CorpusStats:
    """A finished store filled by ``fill(builder)``: in memory, or built on disk beside
    ``path`` and renamed into place only once complete (a failed run leaves no file).
    ``in_place``: ``path`` is already the caller's private temporary file, filled as is."""
    if path is None:
        builder = StatsBuilder()
        fill(builder)
        return builder.finish()
    place = contextlib.nullcontext(path) if in_place else atomic_path(path, private=True)
    with place as temporary:                            # it holds the usernames
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
            end = int(np.searchsorted(keys, ((int(keys[end - 1]) >> _KEY_SHIFT) + 1)
                                      << _KEY_SHIFT))
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
                        as_json: bool = False, upsert: bool = False) -> None:
    """Rows (*prefix, document name, term, value) of ``table`` (``names``, ``terms``:
    object arrays by id; ``*_order``: their positions in BINARY order), added in key
    order: the B-tree then only appends. ``as_json``: a statement per document, its terms
    and values passed as a JSON object that SQLite's ``json_each`` unpacks, several times
    faster than a statement per row. ``upsert``: a statement per row adding the value to
    that of an existing row (tables board_term, user_term)."""
    order = np.lexsort((term_order[term], name_order[document]))
    document = document[order]
    terms, values = terms[term[order]].tolist(), value[order].tolist()
    marks = "?, " * len(prefix)
    if upsert or not as_json or "\0" in "".join(terms):   # JSON strings end at a NUL
        columns = [itertools.repeat(value) for value in prefix]
        connection.executemany("INSERT INTO %s VALUES (%s?, ?, ?)%s" % (
            table, marks, " ON CONFLICT(doc, term) DO UPDATE SET n = n + excluded.n"
            if upsert else ""), zip(*columns, names[document].tolist(), terms, values))
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
    connection.execute(DOC_TERM_TABLE)
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
