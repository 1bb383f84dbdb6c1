"""Scoring a tagger against gold data: one name probability per gold token.

Shared by ``evaluate``, ``sweep`` and threshold selection in ``train --dev``, over the chain
each is asked for (``CHAINS``: the model with its filters, or everything ``scrub`` removes).
The scores do not depend on the threshold (the chain runs with a span on every token, and a
rule step's span counts as found exactly when scrub would remove it), so one run of the
chain gives the figures at every threshold, and a sweep's row at T is ``evaluate`` at T.
Tokens removed
by an e-mail/URL/phone pattern (or by the step of another kind that is no person: an
address, a date) are left out of the name metrics: they are removed whatever the model
says, and they are neither found names nor kept words; so are the tokens of a gold span of
such a kind.
"""
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from . import CHAINS
from ..files.corpora import LabelledDocument, load_labelled
from ..detect.analyzer import Analyzer
from ..detect.options import ChainOptions
from ..kinds import NON_PERSON_LABELS, PERSON_LABELS
from ..model.reference import corpus_stats
from .metrics import post_name_minimum


def gold_scores(tagger, labelled: Sequence[LabelledDocument], stats=None,
                options: Optional[ChainOptions] = None, posts: bool = False,
                progress: Optional[Callable[[str, int, int], None]] = None,
                chain: str = "model") -> Tuple[np.ndarray, ...]:
    """(gold is-name booleans, final name probabilities) over all scored tokens of
    ``chain`` (:func:`document_scores`).

    With ``posts``, a third array follows: per document (post), the lowest final score
    over its scored gold name tokens, ``inf`` for a post without one
    (:func:`~mmbdeid.evaluation.metrics.post_name_minimum`; for
    :func:`~mmbdeid.evaluation.metrics.post_leaks`). ``progress("posts", done, total)``
    hears of each document scored.
    """
    return pooled_scores(labelled, document_scores(tagger, labelled, stats, options,
                                                   progress, chain=chain), posts)


def document_scores(tagger, labelled: Sequence[LabelledDocument], stats=None,
                    options: Optional[ChainOptions] = None,
                    progress: Optional[Callable[[str, int, int], None]] = None,
                    chain: str = "model") -> List[List[Optional[float]]]:
    """Each document's final name probability per token, the scores :func:`gold_scores`
    pools (None: a token removed by an e-mail/URL/phone pattern, not scored); kept per
    document and token for listing the errors (:mod:`mmbdeid.evaluation.error_list`).

    ``chain``: ``model`` measures the model with its threshold and filters; ``scrub`` the
    whole chain of ``scrub`` (the rule steps too, their spans scoring 1.0); ``options``: the
    chain's (:class:`~mmbdeid.detect.options.ChainOptions`; None: the defaults), whose steps
    of those are measured and whose kinds' steps run (its threshold is left aside: every
    token is scored)."""
    if chain not in CHAINS:
        raise MmbdeidValueError("chain must be one of %s" % ", ".join(CHAINS))
    analyzer = Analyzer.for_evaluation(tagger, stats, options, stages=CHAINS[chain])
    analyzer.prepare([document for document, _ in labelled])
    scores = []
    for done, (document, _) in enumerate(labelled, 1):
        if progress is not None:
            progress("posts", done, len(labelled))
        scores.append(analyzer.token_scores(document))
    return scores


def pooled_scores(labelled: Sequence[LabelledDocument],
                  scores: Sequence[Sequence[Optional[float]]],
                  posts: bool = False) -> Tuple[np.ndarray, ...]:
    """:func:`gold_scores`'s arrays from :func:`document_scores`."""
    gold: List[bool] = []
    probabilities: List[float] = []
    minima: List[float] = []
    for (_, labels), token_scores in zip(labelled, scores):
        pairs = [(label in PERSON_LABELS, score)
                 for label, score in zip(labels, token_scores)]
        if posts:
            minima.append(post_name_minimum([n for n, _ in pairs], [s for _, s in pairs]))
        for (is_name, score), label in zip(pairs, labels):
            if score is None or label in NON_PERSON_LABELS:
                continue
            gold.append(is_name)
            probabilities.append(score)
    scored = np.asarray(gold, dtype=bool), np.asarray(probabilities, dtype=float)
    return scored + (np.asarray(minima, dtype=float),) if posts else scored


def score_gold_file(tagger, path: str, stats_path: Optional[str] = None,
                    options: Optional[ChainOptions] = None, posts: bool = False,
                    progress: Optional[Callable[[str, int, int], None]] = None,
                    chain: str = "model") -> Tuple[np.ndarray, ...]:
    """:func:`gold_scores` of a gold file (with ``posts``, the per-post minima too)."""
    labelled = load_labelled(path)
    stats = corpus_stats([d.document for d in labelled], stats_path)
    return gold_scores(tagger, labelled, stats, options, posts=posts, progress=progress,
                       chain=chain)
