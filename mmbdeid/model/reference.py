"""Reference corpus statistics, shipped with the package, for inputs too small to have their own.

The statistics features (:mod:`mmbdeid.model.stats`) describe a term within the dump being
scrubbed. A single post or a short file is no dump: every term of a one-line post opens or
closes its paragraph (so ``Hi`` and ``Thanks`` get the border ranks of sign-off names), each
term has been seen once or twice (so nothing is known of its capitalisation), and one board
or a few users give no idf. :class:`CombinedStats` answers the Featurizer's questions as if
the input were part of a large dump, the reference (the model's training corpora, built by
``tools/build_reference_stats.py`` into ``mmbdeid/bundled/reference_stats.sqlite``):

* **Dump-wide statistics** (capitalisation share, paragraph-border rank). They are cached per
  token type, so they are decided for the whole input: below ``THIN_DUMP_TOKENS`` (20,000)
  tokens the input's counts are *added to* the reference's (the input is one more part of
  the reference dump), the border score ``border/n * ln(1 + n)`` is computed from the pooled
  counts and ranked among the reference's terms; a term unknown to the reference keeps its
  own counts, as a rare name in a large dump would. From 20,000 tokens on, the input's own.
* **Board tf-idf rank**, per board: a board with fewer than ``THIN_BOARD_TOKENS`` (20,000)
  tokens is taken as a board of the reference dump: its posts are added to the reference's
  typical board (all the reference's message-board posts, one document) and the idf is
  ln(N / n_i) over the reference boards plus this one (each training corpus without boards
  counts as one board). A name used once then ranks like a name used once on a busy board,
  and words every board uses (``thanks``, ``hi``) get no rank. A larger board: its own ranks.
* **User tf-idf rank**: a user's document is the same whatever the dump (their own posts), so
  the term frequencies stay the input's; what a small input lacks is the population the idf
  is taken over. With fewer than ``THIN_USER_POPULATION`` (100) users in the input, the idf
  comes from the reference's users (each reference document without an author counts as one
  user); otherwise the input's own ranks.
* Usernames (board and thread) always come from the input alone: the reference has none.
* Whichever answers, the ranks of a term written like a name are capped
  (:mod:`~mmbdeid.model.name_ranks`): frequency never makes a name safe.

Why 20,000 tokens: on the development data, the capitalisation and border features of a
sample of a 100,000-token dump agree with those of the whole dump less often when taken from
the sample alone than when pooled with an (unrelated) reference up to a sample of 20,000
tokens, and more often from 40,000 tokens on (own/pooled agreement 0.44/0.60 at 10,000,
0.57/0.62 at 20,000, 0.70/0.66 at 40,000); the boards the model is trained on have 2,500-4,700
tokens, and scoring them with the reference gained precision. 100 users: below that the
idf ln(N / n_i) has too few values to tell a greeting that one of a few users wrote from a
name.

Ties in a rank follow the order of the term (as in the store) among the input's terms and
are split evenly with the reference's terms, whose names the ranking does not need.

The reference is loaded lazily, once per process (``reference_stats()``); without the file
the combination answers from the input's own statistics.
"""
import bisect
import math
import os
import pathlib
import sqlite3
import threading
import warnings
from collections import Counter
from typing import Dict, Iterable, Optional, Sequence, Tuple

from ..errors import InputError, MmbdeidTypeError
from .counting import PartialCounts
from .name_ranks import capped, capped_rank, written_like_a_name
from .stats import CorpusStats, LruCache
from .stats_builder import TOP_KEEP_MIN, TOP_KEEP_SHARE
from .stats_copy import open_copy

REFERENCE_SCHEMA = "ref-1"
REFERENCE_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "bundled", "reference_stats.sqlite")
# A term is stored by name only if it occurs in at least this many reference documents
# (fewer: only in the anonymous histograms), which keeps rare names and one-off strings out.
MIN_DOCUMENTS = 3
# An author name of the reference corpora is never stored as a term, unless it is an
# ordinary English word (wordfreq Zipf level at least this: ``hope``, ``tiger``).
AUTHOR_WORD_ZIPF = 3.0


def border_score(n: int, border: int) -> float:
    """The paragraph-border score of the store (``stats_builder.StatsBuilder.finish``), rounded so
    that equal counts give equal scores."""
    return round(border / n * math.log(1 + n), 9)


def _keep_limit(size: int) -> int:
    return max(TOP_KEEP_MIN, int(size * TOP_KEEP_SHARE))


class _Scores:
    """A multiset of scores: how many are greater than, and equal to, a score."""

    def __init__(self, counts: Counter):
        items = sorted((-score, n) for score, n in counts.items() if n > 0)
        self.keys = [key for key, _ in items]
        self.before = [0]
        for _, n in items:
            self.before.append(self.before[-1] + n)
        self.total = self.before[-1]

    def rank(self, score: float) -> float:
        """Rank (0 = best) of one of the members scoring ``score``: those above it, and half
        of the others tied with it."""
        above, equal = self.around(score)
        return above + max(0, equal - 1) / 2

    def around(self, score: float) -> Tuple[int, int]:
        """(members above ``score``, members equal to it)."""
        lo = bisect.bisect_left(self.keys, -score)
        hi = bisect.bisect_right(self.keys, -score)
        return self.before[lo], self.before[hi] - self.before[lo]


class _ChangedScores:
    """``_Scores(base counts + change)`` from the base's ``_Scores`` and the change (a few
    counts, some negative), without sorting the base again: counts above and equal to a
    score add up."""

    def __init__(self, base: _Scores, change: Counter):
        self.base = base
        self.change = _Scores(+change)                 # the counts added
        self.removed = _Scores(-change)                # those taken away
        self.total = base.total + self.change.total - self.removed.total

    @classmethod
    def of(cls, base: _Scores, base_counts: Counter, change: Counter):
        """The scores of ``base_counts + change``; with a count below 0 (which the sum
        would drop), sorted afresh."""
        if any(base_counts.get(score, 0) + n < 0 for score, n in change.items()):
            universe = Counter(base_counts)
            universe.update(change)
            return _Scores(universe)
        return cls(base, change)

    def rank(self, score: float) -> float:
        above, equal = self.base.around(score)
        if self.change.keys:
            more, tied = self.change.around(score)
            above, equal = above + more, equal + tied
        if self.removed.keys:
            fewer, untied = self.removed.around(score)
            above, equal = above - fewer, equal - untied
        return above + max(0, equal - 1) / 2


class ReferenceStats:
    """The shipped reference statistics, held in memory (a few MB)."""

    def __init__(self, connection: sqlite3.Connection):
        meta = dict(connection.execute("SELECT key, value FROM meta"))
        if meta.get("schema") != REFERENCE_SCHEMA:
            raise InputError("reference statistics schema %r, expected %r" % (
                meta.get("schema"), REFERENCE_SCHEMA))
        self.meta = meta
        self.n_boards = int(meta["boards"])
        self.n_users = int(meta["users"])
        # term -> (n, border, mid, capitalised, board_df, user_df, board_n)
        self.terms: Dict[str, Tuple[int, ...]] = {
            row[0]: tuple(row[1:]) for row in connection.execute(
                "SELECT term, n, border, mid, capitalised, board_df, user_df, board_n "
                "FROM term")}
        self.border_hist = Counter()       # border score -> terms (every reference term)
        for n, border, terms in connection.execute("SELECT n, border, terms FROM border_hist"):
            self.border_hist[border_score(n, border)] += terms
        self.border_scores = _Scores(self.border_hist)
        self.board_hist = Counter()        # typical board's score -> terms (every term)
        for board_n, board_df, terms in connection.execute(
                "SELECT board_n, board_df, terms FROM board_hist"):
            if board_df < self.n_boards:
                self.board_hist[self.board_score(board_n, board_df)] += terms
        self.board_size = int(meta["board_terms"])

    @classmethod
    def load(cls, path: str = REFERENCE_PATH) -> "ReferenceStats":
        try:
            uri = pathlib.Path(os.path.abspath(path)).as_uri() + "?mode=ro"
            connection = sqlite3.connect(uri, uri=True)
            try:
                return cls(connection)
            finally:
                connection.close()
        except sqlite3.Error as error:
            raise InputError("not a reference statistics file (%s)" % error, path)

    def board_score(self, count: int, board_df: int) -> float:
        """count * idf in the typical board, the input's board being one more board."""
        return round(count * math.log((self.n_boards + 1) / (board_df + 1)), 9)

    def user_idf(self, user_df: int) -> float:
        return math.log((self.n_users + 1) / (user_df + 1))

    def term(self, term: str) -> Tuple[int, ...]:
        return self.terms.get(term, (0, 0, 0, 0, 0, 0, 0))


_LOCK = threading.Lock()
_LOADED: Dict[str, Optional[ReferenceStats]] = {}


def reference_stats(path: str = REFERENCE_PATH) -> Optional[ReferenceStats]:
    """The reference statistics at ``path``, read once per process; None (with a warning)
    if the file is missing."""
    with _LOCK:
        if path not in _LOADED:
            if os.path.exists(path):
                _LOADED[path] = ReferenceStats.load(path)
            else:
                warnings.warn("no reference statistics at %s: small inputs are scrubbed "
                              "with their own statistics only" % path)
                _LOADED[path] = None
        return _LOADED[path]


class CombinedStats:
    """The lookups of :class:`~mmbdeid.model.stats.CorpusStats` that the Featurizer makes,
    answered from the input's statistics where they are thick enough and from the
    reference otherwise (see the module docstring). ``reference`` None: the one at ``path``
    (by default the shipped one), if that file exists."""

    def __init__(self, own: CorpusStats, reference: Optional[ReferenceStats] = None,
                 path: str = REFERENCE_PATH):
        self.own = own
        self.reference = reference if reference is not None else reference_stats(path)
        ref = self.reference
        self.n_posts = own.n_posts
        self.source = own.source
        self._board_ranks: Dict[str, tuple] = {}
        self._user_ranks = LruCache(2000)
        thin = getattr(own, "thin", {})
        self.thin_users = ref is not None and bool(thin.get("users_kept"))
        self.thin_boards = ref is not None and bool(thin.get("board_tokens_below"))
        own_terms = own.term_counts() if ref is not None else None
        self.thin_dump = own_terms is not None
        if self.thin_dump:
            self._pool_terms(own_terms)

    # -- dump-wide term statistics: pooled with the reference ------------------------
    def _pool_terms(self, own_terms: Dict[str, Tuple[int, int, int, int]]) -> None:
        ref = self.reference
        self._pooled: Dict[str, Tuple[int, int, int, int]] = {}
        self._pooled_scores: Dict[str, float] = {}      # those with a border score
        change = Counter()          # to the reference's scores (not sorted again per input)
        for term, (n, border, mid, capitalised) in own_terms.items():
            r = ref.term(term)
            if r[1]:
                change[border_score(r[0], r[1])] -= 1       # replaced by its pooled score
            pooled = (r[0] + n, r[1] + border, r[2] + mid, r[3] + capitalised)
            self._pooled[term] = pooled
            if pooled[1]:
                score = self._pooled_scores[term] = border_score(pooled[0], pooled[1])
                change[score] += 1
        self._border = _ChangedScores.of(ref.border_scores, ref.border_hist, change)

    def _pooled_term(self, term: str) -> Tuple[int, int, int, int]:
        pooled = self._pooled.get(term)
        return pooled if pooled is not None else self.reference.term(term)[:4]

    def border_rank(self, term: str) -> Tuple[Optional[int], int]:
        rank, size = self._border_rank(term)
        return capped_rank(rank, size, self.name_like, term), size

    def name_like(self, term: str) -> bool:
        """Whether ``term`` is written like a name across the dump: its ranks are capped
        (:mod:`~mmbdeid.model.name_ranks`)."""
        return written_like_a_name(*self.capitalisation(term))

    def _border_rank(self, term: str) -> Tuple[Optional[int], int]:
        if not self.thin_dump:
            return self.own.border_rank(term)
        size = self._border.total
        score = self._pooled_scores.get(term)
        if score is None:                   # (a term of the reference alone, or none)
            n, border, _, _ = self._pooled_term(term)
            if not border:
                return None, size
            score = border_score(n, border)
        rank = int(self._border.rank(score))
        return (rank if rank < _keep_limit(size) else None), size

    def capitalisation(self, term: str) -> Tuple[int, int]:
        if not self.thin_dump:
            return self.own.capitalisation(term)
        _, _, mid, capitalised = self._pooled_term(term)
        return capitalised, mid

    def prefetch_terms(self, terms: Iterable[str]) -> None:
        if not self.thin_dump:
            self.own.prefetch_terms(terms)

    # -- tf-idf ranks -----------------------------------------------------------------
    def ranks(self, kind: str, document: str) -> tuple:
        """(term -> rank, number of terms) of a board's or user's document, the ranks of
        name-like terms capped (:mod:`~mmbdeid.model.name_ranks`): read with ``.get``."""
        if kind == "board":
            entry = self._board_ranks.get(document)
            if entry is None:
                counts = self.own.doc_counts("board", document) if self.thin_boards else None
                entry = self.own.ranks(kind, document) if counts is None \
                    else self._thin_board_ranks(counts)
                entry = self._board_ranks[document] = capped(entry, self.name_like)
            return entry
        entry = self._user_ranks.get(document)
        if entry is None:
            entry = capped(self.own.ranks(kind, document) if not self.thin_users else
                           self._thin_user_ranks(self.own.doc_counts("user", document) or {}),
                           self.name_like)
            self._user_ranks.put(document, entry)
        return entry

    def _thin_board_ranks(self, counts: Dict[str, int]) -> Tuple[Dict[str, int], int]:
        """The board's terms ranked in (the reference's typical board + the board's posts),
        idf over the reference boards and this one."""
        ref = self.reference
        universe = Counter(ref.board_hist)
        scores: Dict[str, float] = {}
        new_terms = 0
        for term, n in counts.items():
            r = ref.term(term)
            board_df, board_n = r[4], r[6]
            if board_n:
                if board_df < ref.n_boards:
                    universe[ref.board_score(board_n, board_df)] -= 1
            else:
                new_terms += 1
            if board_df < ref.n_boards:        # a term of every board has no idf
                scores[term] = ref.board_score(board_n + n, board_df)
                universe[scores[term]] += 1
        ranked = _Scores(universe)
        size = ref.board_size + new_terms
        limit = _keep_limit(size)
        ranks = {term: int(ranked.rank(score)) for term, score in scores.items()}
        return {term: rank for term, rank in ranks.items() if rank < limit}, size

    def _thin_user_ranks(self, counts: Dict[str, int]) -> Tuple[Dict[str, int], int]:
        """The user's own terms ranked by count * idf, the idf over the reference users and
        this one (ties by term, as in the store)."""
        ref = self.reference
        weighted = sorted((-n * ref.user_idf(ref.term(term)[5]), term)
                          for term, n in counts.items())
        limit = _keep_limit(len(counts))
        return {term: rank for rank, (_, term) in enumerate(weighted[:limit])}, len(counts)

    # -- the rest is the input's -------------------------------------------------------
    def users_by_board(self):
        return self.own.users_by_board()

    def thread_users(self, board: str, thread: str):
        return self.own.thread_users(board, thread)

    def close(self) -> None:
        self.own.close()

    def __getattr__(self, name):
        if name == "own":       # not yet set (during unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.own, name)

    def __getstate__(self):
        raise MmbdeidTypeError("CombinedStats holds a database connection: pass the statistics "
                               "file path to other processes and combine it there")


def with_reference(stats: Optional[CorpusStats]) -> Optional[CombinedStats]:
    """``stats`` combined with the shipped reference (None stays None)."""
    return None if stats is None else CombinedStats(stats)


def corpus_stats(documents: Sequence, stats_path: Optional[str] = None
                 ) -> Optional[CombinedStats]:
    """Statistics from ``stats_path`` if it exists; otherwise built from the documents (the
    corpus is its own dump) and, with a path, saved there for the next run; pooled with
    the reference statistics (training, evaluation). A store is read from a private copy
    (:func:`~mmbdeid.model.stats_copy.open_copy`)."""
    if stats_path and os.path.exists(stats_path):
        return with_reference(open_copy(stats_path))
    return with_reference(CorpusStats.build(documents, stats_path))


# -- building the reference ---------------------------------------------------------------

def build_reference(corpora: Sequence[Tuple[str, Sequence]], path: str,
                    sources: Sequence[dict] = (), zipf: Optional[Dict[str, float]] = None
                    ) -> None:
    """Write reference statistics of labelled corpora to ``path``.

    ``corpora``: (name, labelled documents) pairs (``files.corpora.load_labelled``).
    Privacy: the file holds term statistics only, no text, no usernames and no author
    names. Gold USER tokens are not counted (like ``@handles``, which are pattern tokens);
    boards and authors only count documents for the idf, and their names are not written;
    an author name is never stored as a term unless it is an ordinary word (``zipf``); a
    term seen in fewer than MIN_DOCUMENTS documents is kept only in anonymous histograms.
    ``sources``: provenance rows (file, sha256, licence) written to the meta table.
    """
    import dataclasses
    import json

    counts = PartialCounts()
    typical = Counter()            # the typical board: every message-board post
    document_df = Counter()
    authors = set()
    n_documents = 0
    has_boards = any(item.document.board for _, documents in corpora for item in documents)
    for name, documents in corpora:
        for item in documents:
            document = item.document
            masked = ["USER" if label == "USER" and not pattern else pattern
                      for label, pattern in zip(item.labels, document.pattern_labels)]
            n_documents += 1
            if document.author:
                authors.add(document.author.lower())
            document = dataclasses.replace(
                document, pattern_labels=masked,
                board=document.board or "corpus:%s" % name,
                author=document.author or "document:%d" % n_documents)
            one = PartialCounts().add(document)
            counts.merge(one)
            document_df.update(one.terms.keys())
            if not has_boards or item.document.board:
                typical.update(one.terms)
    board_df = Counter(term for _, term in counts.board_terms)
    user_df = Counter(term for _, term in counts.user_terms)
    n_boards = len({board for board, _ in counts.board_terms})
    n_users = len({user for user, _ in counts.user_terms})
    zipf = zipf or {}

    def storable(term: str) -> bool:
        if document_df[term] < MIN_DOCUMENTS:
            return False
        return term not in authors or zipf.get(term, 0.0) >= AUTHOR_WORD_ZIPF

    if os.path.exists(path):
        os.remove(path)
    connection = sqlite3.connect(path)
    with connection:
        connection.executescript("""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE term (term TEXT PRIMARY KEY, n INTEGER, border INTEGER, mid INTEGER,
                               capitalised INTEGER, board_df INTEGER, user_df INTEGER,
                               board_n INTEGER) WITHOUT ROWID;
            CREATE TABLE border_hist (n INTEGER, border INTEGER, terms INTEGER,
                                      PRIMARY KEY (n, border)) WITHOUT ROWID;
            CREATE TABLE board_hist (board_n INTEGER, board_df INTEGER, terms INTEGER,
                                     PRIMARY KEY (board_n, board_df)) WITHOUT ROWID;
        """)
        connection.executemany("INSERT INTO term VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (
            (term, n, counts.border[term], counts.mid[term], counts.capitalised[term],
             board_df[term], user_df[term], typical[term])
            for term, n in sorted(counts.terms.items()) if storable(term)))
        border_hist = Counter((n, counts.border[term]) for term, n in counts.terms.items()
                              if counts.border[term])
        connection.executemany("INSERT INTO border_hist VALUES (?, ?, ?)",
                               ((n, b, k) for (n, b), k in sorted(border_hist.items())))
        board_hist = Counter((n, board_df[term]) for term, n in typical.items())
        connection.executemany("INSERT INTO board_hist VALUES (?, ?, ?)",
                               ((n, df, k) for (n, df), k in sorted(board_hist.items())))
        connection.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema", REFERENCE_SCHEMA), ("documents", str(n_documents)),
            ("tokens", str(sum(counts.terms.values()))), ("boards", str(n_boards)),
            ("users", str(n_users)), ("board_tokens", str(sum(typical.values()))),
            ("board_terms", str(len(typical))), ("min_documents", str(MIN_DOCUMENTS)),
            ("sources", json.dumps(list(sources), sort_keys=True))])
    connection.execute("VACUUM")
    connection.close()
