"""The corpus statistics of a small input, counted in memory, without a store.

An input thin in every way :mod:`mmbdeid.model.reference` knows of (fewer than
``THIN_DUMP_TOKENS`` tokens, so each of its boards has fewer than ``THIN_BOARD_TOKENS``,
and fewer than ``THIN_USER_POPULATION`` users: one post, or a few, as the Python API's
calls give) is combined with the reference from its raw counts alone: every term's, each
board's and each user's, and who wrote in which thread. :class:`ThinStats` holds those,
counted by :class:`~mmbdeid.model.counting.PartialCounts` as for a store, and answers
the same as the store would; building and ranking the SQLite store, which such an input
never reads, takes longer than scrubbing a post. :func:`input_stats` gives a larger input
its store.
"""
from typing import Dict, FrozenSet, Optional, Sequence, Tuple

from ..errors import MmbdeidValueError
from .counting import PartialCounts
from .reference import reference_stats
from .stats import CorpusStats
from .stats_builder import THIN_BOARD_TOKENS, THIN_DUMP_TOKENS, THIN_USER_POPULATION


class ThinStats:
    """What :class:`~mmbdeid.model.reference.CombinedStats` reads of a thin input's
    :class:`~mmbdeid.model.stats.CorpusStats`, from its counts (:meth:`of`)."""

    source: Dict[str, str] = {}        # (a store built in memory records no source)

    def __init__(self, counts: PartialCounts):
        self.n_posts = counts.n_posts
        n, border, mid, capitalised = (counts.terms, counts.border, counts.mid,
                                       counts.capitalised)
        self._terms = {term: (count, border[term], mid[term], capitalised[term])
                       for term, count in n.items()}
        self._documents: Dict[str, Dict[str, Dict[str, int]]] = {"board": {}, "user": {}}
        for kind, pairs in (("board", counts.board_terms), ("user", counts.user_terms)):
            for (document, term), count in pairs.items():
                self._documents[kind].setdefault(document, {})[term] = count
        self._thread_users: Dict[Tuple[str, str], set] = {}
        for board, thread, author in counts.thread_authors:
            self._thread_users.setdefault((board, thread), set()).add(author)
        tokens = sum(n.values())
        self.thin = {"board_tokens_below": THIN_BOARD_TOKENS, "users_kept": True,
                     "all_terms": True, "tokens": tokens,
                     "users": len(self._documents["user"])}

    @classmethod
    def of(cls, documents: Sequence) -> Optional["ThinStats"]:
        """The statistics of ``documents`` if they are thin in every way, else None."""
        if sum(len(document.tokens) for document in documents) >= THIN_DUMP_TOKENS:
            return None
        counts = PartialCounts()
        for document in documents:
            counts.add(document)
        stats = cls(counts)
        boards = stats._documents["board"].values()
        if stats.thin["users"] >= THIN_USER_POPULATION or \
                any(sum(terms.values()) >= THIN_BOARD_TOKENS for terms in boards):
            return None
        return stats

    def term_counts(self) -> Dict[str, Tuple[int, int, int, int]]:
        return dict(self._terms)

    def doc_counts(self, kind: str, document: str) -> Optional[Dict[str, int]]:
        counts = self._documents[kind].get(document)
        if counts is None:      # (the store: a board without counts is no thin board)
            return None if kind == "board" else {}
        return dict(counts)

    def ranks(self, kind: str, document: str) -> Tuple[Dict[str, int], int]:
        """Only a board without counts is asked for (the others are combined from their
        counts): no ranks, no terms."""
        if kind != "board" or document in self._documents["board"]:
            raise MmbdeidValueError("the ranks of a thin input are combined from its counts")
        return {}, 0

    def users_by_board(self) -> Dict[str, FrozenSet[str]]:
        boards: Dict[str, set] = {}
        for (board, _), authors in self._thread_users.items():
            boards.setdefault(board, set()).update(authors)
        return {board: frozenset(authors) for board, authors in boards.items()}

    def thread_users(self, board: str, thread: str) -> FrozenSet[str]:
        return frozenset(self._thread_users.get((board, thread), ()))

    def close(self) -> None:
        pass


def input_stats(documents: Sequence) -> CorpusStats:
    """The corpus statistics of ``documents`` taken as one dump, to be combined with the
    reference: :class:`ThinStats` where they are thin and the reference is there, else a
    store built in memory."""
    thin = ThinStats.of(documents) if reference_stats() is not None else None
    return thin if thin is not None else CorpusStats.build(documents)
