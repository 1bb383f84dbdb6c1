"""Documents grouped by thread, and cross-validation folds that keep each group whole.

Posts of one thread share names and usernames, so a thread never spans two folds: what is
held out is then text the model has not seen. Folds come from scikit-learn's
``GroupKFold`` (deterministic: the largest groups first, each into the lightest fold).
Cross-validation (:mod:`mmbdeid.evaluation.crossval`) and the tagger's second stage, whose
training scores come from first stages that did not see them, fold the same way.
"""
from typing import Hashable, List, Sequence

import numpy as np

from ..errors import MmbdeidValueError


def thread_groups(documents: Sequence) -> List[str]:
    """One group key per document: its board and thread, or the document alone (CoNLL
    documents and posts without a thread)."""
    return ["%s\x00%s" % (document.board, document.thread) if document.thread
            else "#%d" % index for index, document in enumerate(documents)]


def group_folds(groups: Sequence[Hashable], n_folds: int) -> List[List[int]]:
    """Document indices per fold, the documents of one group (``groups``: one key per
    document) always in the same fold."""
    from sklearn.model_selection import GroupKFold  # imported here: a scrub never folds
    distinct = set(groups)
    if len(distinct) < n_folds:
        raise MmbdeidValueError("%d folds need at least %d threads; the corpus has %d"
                                % (n_folds, n_folds, len(distinct)))
    # Numbered in sorted order (by repr where keys do not compare, as tuples of mixed
    # types), so that keys of any kind fold as GroupKFold folds strings.
    try:
        ordered = sorted(distinct)
    except TypeError:
        ordered = sorted(distinct, key=repr)
    number = {group: k for k, group in enumerate(ordered)}
    ids = np.array([number[group] for group in groups], dtype=np.int64)
    return [sorted(int(i) for i in test) for _, test in
            GroupKFold(n_splits=n_folds).split(np.zeros(len(ids)), groups=ids)]


def thread_folds(documents: Sequence, n_folds: int) -> List[List[int]]:
    """Document indices per fold, a thread never in two."""
    return group_folds(thread_groups(documents), n_folds)
