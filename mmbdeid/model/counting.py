"""Counting the corpus statistics of some posts (what is counted: :mod:`mmbdeid.model.stats`).

:class:`PartialCounts` holds the counts of a chunk of posts; it is mergeable, so workers and
Dask partitions each build one, and pickled as compact arrays to be sent back. Documents are
counted with numpy a batch at a time; the counts are held as arrays over a growing
vocabulary (:class:`CountArrays`), which :class:`~mmbdeid.model.stats_builder.StatsBuilder`
sums too.
"""
import array
import itertools
import threading
from collections import Counter, defaultdict
from types import SimpleNamespace
from typing import Dict, Optional, Tuple

import numpy as np

BORDER_WIDTH = 2
# A token after one of these (or at a paragraph start) opens a sentence: its capital says
# nothing about it being a name.
SENTENCE_OPENERS = frozenset(".!?:;\"“”()[]…-–—*•>")
# Documents counted together (a chunk of posts is one batch): numpy's work per call is
# spread over many tokens, while the batch's arrays stay small.
_BATCH_TOKENS = 1 << 16
# (document, term) pairs are int64 keys: document id in the high half, term id in the low.
KEY_SHIFT = 32
KEY_MASK = (1 << KEY_SHIFT) - 1
# Unmerged pairs are sorted and summed once they are as many as the merged ones (and at
# least this many): amortised O(n log n) however small the parts.
_CONSOLIDATE_MIN = 1 << 16


def term_of(token: str) -> Optional[str]:
    """The statistics key of a token: lower-cased, or None for tokens without a letter."""
    if token.isalpha() or any(ch.isalpha() for ch in token):   # most tokens: the first test
        return token.lower()
    return None


class PartialCounts:
    """The counts of some posts; ``merge`` adds another's (order does not matter).

    Documents are counted in batches with numpy (:func:`_count_documents`); the counts are
    held as arrays over a vocabulary of the batch (:class:`CountArrays`) and pickled that way,
    compact and cheap to load.  ``terms``, ``border``, ``mid``, ``capitalised`` (term ->
    count) and ``board_terms``, ``user_terms`` ((board or author, term) -> count) give the
    counts as Counters, built on each access."""

    def __init__(self):
        self.thread_authors: set = set()           # (board, thread, author)
        self.n_posts = 0
        # not yet counted: (tokens, labels, paragraph ids, board, author) of documents
        self._documents: list = []
        self._buffered = 0             # their tokens
        self._blocks: list = []        # counted (CountArrays.export), not yet in _counts
        self._counts: Optional[CountArrays] = None

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
            (keys >> KEY_SHIFT).tolist(), (keys & KEY_MASK).tolist(), values.tolist())})

    # -- internals ----------------------------------------------------------------------
    def _count_buffered(self) -> None:
        if self._documents:
            block = _count_documents(self._documents)
            self._documents, self._buffered = [], 0
            self._blocks.append(block)

    def _counted(self, consolidate: bool = True) -> "CountArrays":
        """Everything counted and gathered in ``_counts``."""
        self._count_buffered()
        if self._counts is None:
            self._counts = CountArrays()
        for block in self._blocks:
            self._counts.absorb(block)
        self._blocks = []
        if consolidate:
            self._counts.consolidate()
        return self._counts

    def _export(self) -> list:
        """The counts as blocks (``CountArrays.export``), without changing them."""
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


class CountArrays:
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
            keys = (np.repeat(docs, sizes) << KEY_SHIFT) | ids[term_index]
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
            order = np.argsort(keys, kind="stable")     # timsort: the merged keys are one run
            keys = keys[order]
            counts = np.concatenate(count_parts)
            del count_parts
            counts = counts[order]
            del order
            keys, counts = sum_sorted_pairs(keys, counts)
            self.merged[kind] = (keys, counts)
            self.n_merged += len(keys)
        self.n_unmerged = 0

    def pairs(self, kind: int) -> Tuple[np.ndarray, np.ndarray]:
        self.consolidate()
        return self.merged[kind]

    def take_pairs(self, kind: int) -> Tuple[np.ndarray, np.ndarray]:
        """The pairs of ``kind`` (sorted unique keys, counts), let go of here: the
        vocabulary and the per-term counts stay."""
        keys, counts = self.pairs(kind)
        self.merged[kind] = (_EMPTY, _EMPTY)
        self.n_merged -= len(keys)
        return keys, counts

    def export(self) -> tuple:
        """A block (see ``_count_documents``) of these counts."""
        self.consolidate()
        n_terms = len(self.term_ids)
        pairs = []
        for kind in (0, 1):
            keys, counts = self.merged[kind]
            names = list(self.doc_ids[kind])
            sizes = np.bincount(keys >> KEY_SHIFT, minlength=len(names))
            if not sizes.all():
                present = sizes > 0
                names = list(itertools.compress(names, present.tolist()))
                sizes = sizes[present]
            pairs.append((names, sizes, _small(keys & KEY_MASK), _small(counts)))
        return list(self.term_ids), _small(self.stats[:, :n_terms]), pairs


def sum_sorted_pairs(keys: np.ndarray, counts: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Sorted ``keys`` made unique, the ``counts`` of equal keys summed."""
    if len(keys) > 1:
        first = np.ones(len(keys), bool)
        first[1:] = keys[1:] != keys[:-1]
        starts = np.flatnonzero(first)
        del first
        if len(starts) < len(keys):
            return keys[starts], np.add.reduceat(counts, starts)
    return keys, counts


_EMPTY = np.zeros(0, np.int64)

