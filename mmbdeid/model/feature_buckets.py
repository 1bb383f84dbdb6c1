"""Cumulative bucket features: how near a token is to the start and end of its message and
paragraph (line), and where its term ranks in a ranking (tf-idf of a board or an author, the
paragraph-border likelihood ranking). A token gets every bucket it falls in (``start<=1`` and
``start<=2``; ``board:top10`` and ``board:top1%``). The limits are shared with
:mod:`mmbdeid.crf.emissions`, which sums the same buckets' weights.
"""
import functools
from typing import Optional

from .token_features import Features

POSITION_LIMITS = (1, 2, 3, 5, 10)          # "within 1, 2, ... tokens" of message start/end
PARAGRAPH_LIMITS = (1, 2, 3)
RANK_LIMITS = (("top5", 5, None), ("top10", 10, None), ("top50", 50, None), ("top100", 100, None),
               ("top1%", None, 0.01), ("top5%", None, 0.05), ("top10%", None, 0.10),
               ("top25%", None, 0.25))


def position_features(index: int, length: int, paragraph_index: int,
                      paragraph_length: int) -> Features:
    """Distance from the start and end of the message and of the paragraph (line)."""
    features: Features = {}
    for limit in POSITION_LIMITS:
        if index < limit:
            features["start<=%d" % limit] = 1.0
        if length - 1 - index < limit:
            features["end<=%d" % limit] = 1.0
    for limit in PARAGRAPH_LIMITS:
        if paragraph_index < limit:
            features["pstart<=%d" % limit] = 1.0
        if paragraph_length - 1 - paragraph_index < limit:
            features["pend<=%d" % limit] = 1.0
    return features


@functools.lru_cache(maxsize=1 << 16)   # pure, and asked for every token of every post
def rank_buckets(rank: Optional[int], size: int) -> tuple:
    """The names of the cumulative rank buckets a rank falls in (``top10``, ``top1%``, ...)."""
    if rank is None:
        return ()
    return tuple(name for name, absolute, share in RANK_LIMITS
                 if (absolute is not None and rank < absolute)
                 or (share is not None and rank < max(1, size * share)))


def rank_features(prefix: str, rank: Optional[int], size: int) -> Features:
    """Cumulative rank buckets, e.g. ``board:top10`` and ``board:top1%`` both set."""
    return {"%s:%s" % (prefix, name): 1.0 for name in rank_buckets(rank, size)}
