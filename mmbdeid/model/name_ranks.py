"""Frequency never makes a name safe: the rank features of a term written like a name are
capped (issue 31).

The tf-idf ranks of a board's and a user's document and the paragraph-border rank
(:mod:`mmbdeid.model.stats`) grow with a term's count. Their top buckets are what board
words (``chemo``, ``onc``) and sign-off words (``Thanks``, ``Hugs``) get, and the model
reads them as "not a name". A name used often gets them too: a signature on its own line
in every post, a doctor thanked by everyone on the board. Scrubbed alone, such a post
gives the name the middling ranks of a name used once, and the name is found; inside the
dump it is missed. So a term that is written like a name (title-case in at least half of
its mid-sentence occurrences across the dump, or never seen mid-sentence) ranks no better
than ``CAP_SHARE`` of its document's terms: at most the ``top10%`` and ``top25%`` buckets,
as a name used once or twice on a busy board. Words that are mostly lower-case
mid-sentence keep their ranks.

The model is not retrained for this: the capped ranks are ranks it was trained on.
"""
import math
from collections.abc import Mapping
from typing import Callable, Dict, Iterator, Optional, Tuple

# A name-like term's rank is at least this share of its document's terms (top10% and
# top25% are left to it). Chosen on EWT dev and the identity sample among 2%, 5%, 10%
# and 25%: 2% misses a signature repeated in a large dump, 10% and 25% leak more posts.
CAP_SHARE = 0.05


def written_like_a_name(capitalised: int, mid: int) -> bool:
    """Title-case in at least half of the term's mid-sentence occurrences, or none seen."""
    return 2 * capitalised >= mid


def rank_floor(size: int) -> int:
    """The best rank a name-like term keeps in a ranking of ``size`` terms."""
    return math.ceil(size * CAP_SHARE)


def capped_rank(rank: Optional[int], size: int, name_like: Callable[[str], bool],
                term: str) -> Optional[int]:
    """``rank``, or :func:`rank_floor` if it is better than that and the term name-like."""
    return None if rank is None else _at_least(rank, rank_floor(size), name_like, term)


def _at_least(rank: int, floor: int, name_like: Callable[[str], bool], term: str) -> int:
    return floor if rank < floor and name_like(term) else rank


class CappedRanks(Mapping):
    """A document's term -> rank with the ranks of name-like terms capped, computed when
    read: the name-like test runs only for the top ranks of the terms looked up (``get``,
    what the taggers call), not for every term of the document."""

    __slots__ = ("ranks", "floor", "name_like")

    def __init__(self, ranks: Dict[str, int], size: int, name_like: Callable[[str], bool]):
        self.ranks = ranks
        self.floor = rank_floor(size)
        self.name_like = name_like

    def get(self, term: str, default=None):
        rank = self.ranks.get(term)
        return default if rank is None else _at_least(rank, self.floor, self.name_like, term)

    def __getitem__(self, term: str) -> int:
        rank = self.get(term)
        if rank is None:
            raise KeyError(term)
        return rank

    def __contains__(self, term) -> bool:
        return term in self.ranks

    def __iter__(self) -> Iterator[str]:
        return iter(self.ranks)

    def __len__(self) -> int:
        return len(self.ranks)


def capped(entry: Tuple[Dict[str, int], int], name_like: Callable[[str], bool]
           ) -> Tuple[CappedRanks, int]:
    """A ``(ranks, size)`` pair of ``ranks()`` with its name-like terms' ranks capped."""
    ranks, size = entry
    return CappedRanks(ranks, size, name_like), size
