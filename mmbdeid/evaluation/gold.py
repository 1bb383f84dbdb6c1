"""Scoring a tagger against gold data: one name probability per gold token.

Shared by ``evaluate``, ``sweep`` and threshold selection in ``train --dev``. Tokens removed
by an e-mail/URL/phone pattern are left out of the name metrics: they are removed whatever
the model says, and they are neither found names nor kept words.
"""
import os
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..files.corpora import LabelledDocument, load_labelled
from ..detect.analyzer import Analyzer
from ..kinds import PERSON_LABELS
from ..model.stats import CorpusStats


def corpus_stats(documents: Sequence, stats_path: Optional[str] = None) -> CorpusStats:
    """Statistics from ``stats_path`` if it exists; otherwise built from the documents (the
    corpus is its own dump) and, with a path, saved there for the next run."""
    if stats_path and os.path.exists(stats_path):
        return CorpusStats.load(stats_path)
    return CorpusStats.build(documents, stats_path)


def gold_scores(tagger, labelled: Sequence[LabelledDocument], stats=None,
                drug_filter: bool = True) -> Tuple[np.ndarray, np.ndarray]:
    """(gold is-name booleans, final name probabilities) over all scored tokens."""
    analyzer = Analyzer.for_evaluation(tagger, stats, drug_filter=drug_filter)
    gold: List[bool] = []
    probabilities: List[float] = []
    for document, labels in labelled:
        for label, score in zip(labels, analyzer.token_scores(document)):
            if score is None:
                continue
            gold.append(label in PERSON_LABELS)
            probabilities.append(score)
    return np.asarray(gold, dtype=bool), np.asarray(probabilities, dtype=float)


def score_gold_file(tagger, path: str, stats_path: Optional[str] = None,
                    drug_filter: bool = True) -> Tuple[np.ndarray, np.ndarray]:
    labelled = load_labelled(path)
    stats = corpus_stats([d.document for d in labelled], stats_path)
    return gold_scores(tagger, labelled, stats, drug_filter)
