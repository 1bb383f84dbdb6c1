"""Corpus statistics of a whole dump (the paper's structure features), kept in SQLite.

Built in a first pass over every post, then reused (``--stats FILE``) by ``scrub`` and
``train``:

* tf-idf rank of each term when all posts of a board form one document, and when all posts
  of one user form one document.  tf = count / sqrt(tokens in the document) and the weight is
  tf * log(N / n_i): the paper prints a division by the log, contradicting its own remark that
  the metric favours terms found in few other documents (DESIGN.md), so we use the product.
* paragraph-border likelihood: the share of a term's occurrences within the first or last
  ``BORDER_WIDTH`` word tokens of a paragraph, scaled by log(1 + count), ranked over all terms.
* the board's usernames (author field) and each thread's authors.
* (beyond the paper) capitalisation: of a term's occurrences that do not open a sentence,
  how many are title-case.  Names are capitalised mid-sentence by most writers, so a
  lower-case ``kevin`` inherits the evidence of ``Kevin`` elsewhere in the dump; all-caps
  occurrences say nothing and are not counted.
"""
import math
import sqlite3
from collections import Counter, defaultdict
from typing import Dict, FrozenSet, Iterable, Optional, Tuple

from .errors import InputError
from .io import atomic_path

BORDER_WIDTH = 2
# Ranks are kept down to this share of a document's terms (and at least TOP_KEEP_MIN terms):
# the rank buckets stop at top 25%, so deeper ranks carry no information.
TOP_KEEP_SHARE = 0.25
TOP_KEEP_MIN = 100
SCHEMA_VERSION = "2"
# A token after one of these (or at a paragraph start) opens a sentence: its capital says
# nothing about it being a name.
SENTENCE_OPENERS = frozenset(".!?:;\"“”()[]…-–—*•>")


def term_of(token: str) -> Optional[str]:
    """The statistics key of a token: lower-cased, or None for tokens without a letter."""
    if any(ch.isalpha() for ch in token):
        return token.lower()
    return None


class CorpusStats:
    """Counts gathered with :meth:`add`, turned into ranks by :meth:`finalize`."""

    def __init__(self):
        self.board_terms: Dict[str, Counter] = defaultdict(Counter)
        self.user_terms: Dict[str, Counter] = defaultdict(Counter)
        self.term_counts: Counter = Counter()
        self.border_counts: Counter = Counter()
        self.board_authors: Dict[str, set] = defaultdict(set)
        self.thread_authors: Dict[Tuple[str, str], set] = defaultdict(set)
        self.mid_sentence_counts: Counter = Counter()
        self.mid_sentence_capitalised: Counter = Counter()
        self.n_posts = 0
        # learned by finalize(): kind -> document -> term -> rank (0 = highest weight)
        self.ranks_: Dict[str, Dict[str, Dict[str, int]]] = {"board": {}, "user": {}}
        self.doc_sizes_: Dict[str, Dict[str, int]] = {"board": {}, "user": {}}
        self.border_ranks_: Dict[str, int] = {}
        self.n_border_terms_ = 0

    # -- first pass -------------------------------------------------------------------
    def add(self, document) -> None:
        self.n_posts += 1
        terms_by_paragraph: Dict[int, list] = defaultdict(list)
        previous_token, previous_paragraph = None, None
        for token, pattern, paragraph in zip(document.tokens, document.pattern_labels,
                                             document.paragraph_ids):
            term = None if pattern else term_of(token)
            if term is not None:
                terms_by_paragraph[paragraph].append(term)
                opens_sentence = (paragraph != previous_paragraph or previous_token is None
                                  or previous_token in SENTENCE_OPENERS)
                if not opens_sentence and not token.isupper():
                    self.mid_sentence_counts[term] += 1
                    if token[0].isupper():
                        self.mid_sentence_capitalised[term] += 1
            previous_token, previous_paragraph = token, paragraph
        terms = [t for paragraph in terms_by_paragraph.values() for t in paragraph]
        self.term_counts.update(terms)
        if document.board:
            self.board_terms[document.board].update(terms)
        if document.author:
            self.user_terms[document.author].update(terms)
            self.board_authors[document.board].add(document.author)
            self.thread_authors[(document.board, document.thread)].add(document.author)
        for paragraph in terms_by_paragraph.values():
            borders = set(range(min(BORDER_WIDTH, len(paragraph))))
            borders |= set(range(max(0, len(paragraph) - BORDER_WIDTH), len(paragraph)))
            self.border_counts.update(paragraph[i] for i in borders)

    def finalize(self) -> "CorpusStats":
        for kind, documents in (("board", self.board_terms), ("user", self.user_terms)):
            self.ranks_[kind], self.doc_sizes_[kind] = _tfidf_ranks(documents)
        scores = {
            term: (border / self.term_counts[term]) * math.log1p(self.term_counts[term])
            for term, border in self.border_counts.items()
        }
        ordered = sorted(scores, key=lambda t: (-scores[t], t))
        self.n_border_terms_ = len(ordered)
        keep = max(TOP_KEEP_MIN, int(len(ordered) * TOP_KEEP_SHARE))
        self.border_ranks_ = {term: rank for rank, term in enumerate(ordered[:keep])}
        return self

    @classmethod
    def build(cls, documents: Iterable) -> "CorpusStats":
        stats = cls()
        for document in documents:
            stats.add(document)
        return stats.finalize()

    # -- lookups used by the features ------------------------------------------------
    def rank(self, kind: str, document: str, term: str) -> Tuple[Optional[int], int]:
        """(rank of term in that document or None, number of ranked terms of the document)."""
        size = self.doc_sizes_[kind].get(document, 0)
        return self.ranks_[kind].get(document, {}).get(term), size

    def capitalisation(self, term: str) -> Tuple[int, int]:
        """(mid-sentence title-case occurrences, mid-sentence occurrences) of a term."""
        return self.mid_sentence_capitalised.get(term, 0), self.mid_sentence_counts.get(term, 0)

    def border_rank(self, term: str) -> Tuple[Optional[int], int]:
        return self.border_ranks_.get(term), self.n_border_terms_

    def board_users(self, board: str) -> FrozenSet[str]:
        return frozenset(self.board_authors.get(board, ()))

    def thread_users(self, board: str, thread: str) -> FrozenSet[str]:
        return frozenset(self.thread_authors.get((board, thread), ()))

    # -- persistence ----------------------------------------------------------------
    def save(self, path: str) -> None:
        """Write the statistics to a new SQLite file at ``path``, atomically: the database is
        built beside it and renamed, so a failed run leaves no half-written file."""
        with atomic_path(path) as temporary:
            self._write_sqlite(temporary)

    def _write_sqlite(self, path: str) -> None:
        connection = sqlite3.connect(path)
        try:
            with connection:
                _create_schema(connection)
                connection.execute("INSERT INTO meta VALUES ('schema', ?), ('posts', ?), "
                                   "('border_terms', ?)",
                                   (SCHEMA_VERSION, str(self.n_posts), str(self.n_border_terms_)))
                for kind in ("board", "user"):
                    connection.executemany(
                        "INSERT INTO doc_size VALUES (?, ?, ?)",
                        ((kind, doc, size) for doc, size in self.doc_sizes_[kind].items()))
                    connection.executemany(
                        "INSERT INTO term_rank VALUES (?, ?, ?, ?)",
                        ((kind, doc, term, rank)
                         for doc, ranks in self.ranks_[kind].items()
                         for term, rank in ranks.items()))
                connection.executemany("INSERT INTO border_rank VALUES (?, ?)",
                                       self.border_ranks_.items())
                connection.executemany(
                    "INSERT INTO term_case VALUES (?, ?, ?)",
                    ((term, self.mid_sentence_capitalised.get(term, 0), count)
                     for term, count in self.mid_sentence_counts.items()))
                connection.executemany(
                    "INSERT INTO thread_author VALUES (?, ?, ?)",
                    ((board, thread, author)
                     for (board, thread), authors in self.thread_authors.items()
                     for author in sorted(authors)))
        finally:
            connection.close()

    @classmethod
    def load(cls, path: str) -> "CorpusStats":
        try:
            connection = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
            meta = dict(connection.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as error:
            raise InputError("not a statistics file (%s)" % error, path)
        if meta.get("schema") != SCHEMA_VERSION:
            raise InputError("statistics schema %r, expected %r" % (meta.get("schema"),
                                                                   SCHEMA_VERSION), path)
        stats = cls()
        try:
            stats.n_posts = int(meta["posts"])
            stats.n_border_terms_ = int(meta["border_terms"])
            for kind, doc, size in connection.execute("SELECT kind, doc, size FROM doc_size"):
                stats.doc_sizes_[kind][doc] = size
            for kind, doc, term, rank in connection.execute(
                    "SELECT kind, doc, term, rank FROM term_rank"):
                stats.ranks_[kind].setdefault(doc, {})[term] = rank
            stats.border_ranks_ = dict(connection.execute("SELECT term, rank FROM border_rank"))
            for term, capitalised, count in connection.execute(
                    "SELECT term, capitalised, mid FROM term_case"):
                stats.mid_sentence_counts[term] = count
                if capitalised:
                    stats.mid_sentence_capitalised[term] = capitalised
            for board, thread, author in connection.execute(
                    "SELECT board, thread, author FROM thread_author"):
                stats.thread_authors[(board, thread)].add(author)
                stats.board_authors[board].add(author)
        finally:
            connection.close()
        return stats


def _tfidf_ranks(documents: Dict[str, Counter]):
    """Per document: term -> rank by tf * log(N / n_i), for the top terms with weight > 0."""
    n_documents = len(documents)
    document_frequency: Counter = Counter()
    for counts in documents.values():
        document_frequency.update(counts.keys())
    ranks, sizes = {}, {}
    for name, counts in documents.items():
        norm = math.sqrt(sum(counts.values())) or 1.0
        weights = {term: (count / norm) * math.log(n_documents / document_frequency[term])
                   for term, count in counts.items()}
        ordered = sorted((t for t, w in weights.items() if w > 0),
                         key=lambda t: (-weights[t], t))
        keep = max(TOP_KEEP_MIN, int(len(counts) * TOP_KEEP_SHARE))
        ranks[name] = {term: rank for rank, term in enumerate(ordered[:keep])}
        sizes[name] = len(counts)
    return ranks, sizes


def _create_schema(connection) -> None:
    connection.executescript("""
        DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS doc_size;
        DROP TABLE IF EXISTS term_rank; DROP TABLE IF EXISTS border_rank;
        DROP TABLE IF EXISTS thread_author; DROP TABLE IF EXISTS term_case;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE doc_size (kind TEXT, doc TEXT, size INTEGER, PRIMARY KEY (kind, doc));
        CREATE TABLE term_rank (kind TEXT, doc TEXT, term TEXT, rank INTEGER,
                                PRIMARY KEY (kind, doc, term));
        CREATE TABLE border_rank (term TEXT PRIMARY KEY, rank INTEGER);
        CREATE TABLE thread_author (board TEXT, thread TEXT, author TEXT);
        CREATE TABLE term_case (term TEXT PRIMARY KEY, capitalised INTEGER, mid INTEGER);
    """)
