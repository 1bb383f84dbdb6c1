"""K-fold cross-validation and train/dev splits of a labelled corpus, grouped by thread.

Posts of one thread share names and usernames, so a thread never spans two folds (or both
sides of a split): the held-out scores then say how the model does on threads it has not
seen. Folds come from scikit-learn's ``GroupKFold``, which puts the largest threads first
into the lightest fold (:mod:`mmbdeid.model.folds`, as the tagger's second stage folds);
on the fictional sample it spreads the held-out names more evenly than the round-robin we
had (max/min names per fold 1.28 against 1.43; see ``tools/measure_dependencies.py``).
Corpus statistics are label-free, so they come from the whole corpus (as they would from a
whole dump).
"""
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from ..files.corpora import LabelledDocument, training_labels
from ..model import folds
from ..model.folds import thread_groups
from ..model.stats import CorpusStats
from ..model.tagger import NameTagger
from .gold import gold_scores


def thread_folds(labelled: Sequence[LabelledDocument], n_folds: int) -> List[List[int]]:
    """Document indices per fold (``GroupKFold`` by thread: deterministic)."""
    return folds.thread_folds([item.document for item in labelled], n_folds)


def train_dev_split(labelled: Sequence[LabelledDocument], dev_share: float,
                    seed: int = 0) -> Tuple[List[int], List[int]]:
    """(train indices, dev indices), whole threads on either side, about ``dev_share`` of
    the threads in dev (``GroupShuffleSplit``; ``seed`` makes it repeatable)."""
    from sklearn.model_selection import GroupShuffleSplit
    groups = thread_groups([item.document for item in labelled])
    if len(set(groups)) < 2:
        raise MmbdeidValueError("a split needs at least 2 threads; the corpus has %d"
                                % len(set(groups)))
    splitter = GroupShuffleSplit(n_splits=1, test_size=dev_share, random_state=seed)
    train, dev = next(splitter.split(np.zeros(len(groups)), groups=groups))
    return sorted(int(i) for i in train), sorted(int(i) for i in dev)


class FoldScores(NamedTuple):
    """One fold's held-out scores (as :func:`~.gold.gold_scores` with ``posts``)."""
    gold: np.ndarray            # is-name per scored token
    probabilities: np.ndarray   # final name probability per scored token
    minima: np.ndarray          # per post: lowest score of its gold name tokens (inf: none)
    posts: int


Progress = Callable[[str, int, int], None]


def fold_scores(labelled: Sequence[LabelledDocument], n_folds: int = 5,
                progress: Optional[Callable[[int], Progress]] = None,
                **tagger_params) -> Iterator[FoldScores]:
    """Held-out scores fold by fold: each fold scored by a model trained on the others.
    ``progress(fold)`` gives the progress callback of fold ``fold`` (1-based) for its
    training and scoring."""
    if n_folds < 2:
        raise MmbdeidValueError("cross-validation needs at least 2 folds")
    stats = CorpusStats.build(item.document for item in labelled)
    for number, held_out in enumerate(thread_folds(labelled, n_folds), 1):
        report = progress(number) if progress is not None else None
        held = set(held_out)
        train = [item for i, item in enumerate(labelled) if i not in held]
        tagger = NameTagger(**tagger_params).fit(
            [item.document for item in train],
            [training_labels(item.document, item.labels) for item in train], stats=stats,
            progress=report)
        gold, probabilities, minima = gold_scores(
            tagger, [labelled[i] for i in held_out], stats, posts=True, progress=report)
        yield FoldScores(gold, probabilities, minima, len(held_out))
