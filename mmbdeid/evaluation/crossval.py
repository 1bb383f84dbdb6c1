"""K-fold cross-validation on a labelled corpus, folds grouped by thread.

Posts of one thread share names and usernames, so a thread never spans two folds: the
held-out scores then say how the model does on threads it has not seen. Corpus statistics
are label-free, so they come from the whole corpus (as they would from a whole dump).
"""
from typing import List, Sequence, Tuple

import numpy as np

from ..files.corpora import LabelledDocument, training_labels
from .gold import gold_scores
from ..model.tagger import NameTagger
from ..model.stats import CorpusStats


def thread_folds(labelled: Sequence[LabelledDocument], n_folds: int) -> List[List[int]]:
    """Document indices per fold; whole threads (or single CoNLL documents) go round-robin
    in order of first appearance, so the split is deterministic."""
    groups = {}
    for i, item in enumerate(labelled):
        document = item.document
        key = (document.board, document.thread) if document.thread else ("#doc", i)
        groups.setdefault(key, []).append(i)
    folds: List[List[int]] = [[] for _ in range(n_folds)]
    for k, indices in enumerate(groups.values()):
        folds[k % n_folds].extend(indices)
    return folds


def cross_validate(labelled: Sequence[LabelledDocument], n_folds: int = 5,
                   posts: bool = False, **tagger_params) -> Tuple[np.ndarray, ...]:
    """Pooled held-out (gold is-name, name probability) over all folds; with ``posts``,
    also the pooled per-post minima of :func:`~.gold.gold_scores` (every post is held out
    in exactly one fold)."""
    if n_folds < 2:
        raise ValueError("cross-validation needs at least 2 folds")
    stats = CorpusStats.build(item.document for item in labelled)
    gold_parts, probability_parts, minima_parts = [], [], []
    for held_out in thread_folds(labelled, n_folds):
        held = set(held_out)
        train = [item for i, item in enumerate(labelled) if i not in held]
        tagger = NameTagger(**tagger_params).fit(
            [item.document for item in train],
            [training_labels(item.document, item.labels) for item in train], stats=stats)
        scored = gold_scores(tagger, [labelled[i] for i in held_out], stats, posts=posts)
        gold_parts.append(scored[0])
        probability_parts.append(scored[1])
        if posts:
            minima_parts.append(scored[2])
    pooled = np.concatenate(gold_parts), np.concatenate(probability_parts)
    return pooled + (np.concatenate(minima_parts),) if posts else pooled
