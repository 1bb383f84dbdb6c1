"""The uncertainty of each post of a dump (``mmbdeid sample --by uncertainty``): the scrub
chain is run as for ``review --html`` (passes 1-2, with the near-misses and unknown words
of :mod:`mmbdeid.detect.leftovers`), and each post scores the sum of
:func:`~mmbdeid.evaluation.choosing.token_uncertainty` over the model's tokens near the
threshold (those it removed just above it, the near-misses just under it) and
:data:`~mmbdeid.evaluation.choosing.UNKNOWN_WORD_WEIGHT` for each capitalised word no
step decided."""
from dataclasses import replace
from typing import List, Tuple

from ..evaluation.choosing import UNKNOWN_WORD_WEIGHT, PostKey, token_uncertainty
from ..spans import CRF
from .config import RunConfig
from .passes import Summary, detected_posts


def post_uncertainties(config: RunConfig, engine, threshold: float
                       ) -> Tuple[List[PostKey], List[float], Summary]:
    """Each post's board and thread, and its uncertainty, in the dump's order."""
    summary = Summary(verb="sampled")
    config = replace(config, detection=replace(config.detection, leftovers=True))
    keys: List[PostKey] = []
    scores: List[float] = []
    with detected_posts(config, engine, summary, 2, work="scoring") as (detected, _):
        for post in detected:
            summary.posts += 1
            fields = post.fields
            keys.append(PostKey(_text(fields.get("board")), _text(fields.get("thread"))))
            near = [s.score for s in post.spans if s.source == CRF]
            near += [s.score for s in post.near or ()]
            scores.append(sum(token_uncertainty(p, threshold) for p in near)
                          + UNKNOWN_WORD_WEIGHT * len(post.unknown or ()))
    return keys, scores, summary


def _text(value) -> str:
    return "" if value is None else str(value)
