"""K-fold cross-validation and train/dev splits of a labelled corpus, grouped by thread.

Posts of one thread share names and usernames, so a thread never spans two folds (or both
sides of a split): the held-out scores then say how the model does on threads it has not
seen. Folds come from scikit-learn's ``GroupKFold``, which puts the largest threads first
into the lightest fold (:mod:`mmbdeid.model.folds`, as the tagger's second stage folds);
on the fictional sample it spreads the held-out names more evenly than the round-robin we
had (max/min names per fold 1.28 against 1.43; see ``tools/measure_dependencies.py``).
Several corpora fold together (a thread of one file never in two folds), each trained on
at its weight, beside fixed corpora trained on in every fold and never scored (the
default model's, ``crossval --base``). The statistics are built as ``train`` builds them
(of the training documents) and as ``evaluate`` does (of the held-out fold), so a fold
measures what training and scrubbing would do.
"""
import random
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from ..files.corpora import LabelledDocument
from ..model import folds
from ..model.base_corpora import repeated
from ..model.folds import thread_groups


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
    """One fold's held-out scores (as :func:`~.gold.gold_scores` with ``posts``) and, in
    ``groups``, the same scores of each group of its posts (source file, board)."""
    gold: np.ndarray            # is-name per scored token
    probabilities: np.ndarray   # final name probability per scored token
    minima: np.ndarray          # per post: lowest score of its gold name tokens (inf: none)
    posts: int
    groups: Optional[Dict[str, "FoldScores"]] = None


class Corpus(NamedTuple):
    """Labelled documents under one name (a file), trained on ``weight`` times: a whole
    number repeats them, a share below 1 trains on that share of them (drawn once, whole
    documents), 0 never (a cross-validated corpus is then only scored)."""
    name: str
    documents: List[LabelledDocument]
    weight: float = 1


Progress = Callable[[str, int, int], None]


def weighted(documents: Sequence[LabelledDocument], weight: float,
             seed: int = 0) -> List[LabelledDocument]:
    """The training copies of ``documents`` at ``weight`` (see :class:`Corpus`)."""
    if weight >= 1:
        return repeated(documents, int(weight))
    chosen = random.Random(seed).sample(range(len(documents)),
                                        int(round(weight * len(documents))))
    return [documents[i] for i in sorted(chosen)]


def corpus_folds(corpora: Sequence[Corpus], n_folds: int) -> List[List[Tuple[int, int]]]:
    """(corpus index, document index) pairs per fold: the corpora folded together, a
    thread (of one corpus) never in two folds."""
    keys, places = [], []
    for number, corpus in enumerate(corpora):
        documents = [item.document for item in corpus.documents]
        keys.extend((number, group) for group in folds.thread_groups(documents))
        places.extend((number, index) for index in range(len(documents)))
    return [[places[i] for i in fold] for fold in folds.group_folds(keys, n_folds)]


def without_held_documents(fixed: Sequence[Corpus], corpora: Sequence[Corpus]) -> List[Corpus]:
    """The fixed training corpora less every document that is also one of the
    cross-validated corpora (the base holds the fictional sample): a held-out post is
    never trained on."""
    seen = {tuple(item.document.tokens) for corpus in corpora for item in corpus.documents}
    return [corpus._replace(documents=[item for item in corpus.documents
                                       if tuple(item.document.tokens) not in seen])
            for corpus in fixed]


def fold_scores(labelled: Sequence[LabelledDocument], n_folds: int = 5,
                progress: Optional[Callable[[int], Progress]] = None,
                **tagger_params) -> Iterator[FoldScores]:
    """:func:`corpora_fold_scores` of one corpus, nothing else trained on."""
    return corpora_fold_scores([Corpus("corpus", list(labelled))], n_folds,
                               progress=progress, **tagger_params)


def corpora_fold_scores(corpora: Sequence[Corpus], n_folds: int = 5,
                        fixed: Sequence[Corpus] = (), chain: str = "model",
                        by_board: bool = False,
                        progress: Optional[Callable[[int], Progress]] = None,
                        **tagger_params) -> Iterator[FoldScores]:
    """Held-out scores fold by fold: each fold scored over ``chain`` by a model trained
    on the other folds (each corpus at its weight) and on the ``fixed`` corpora (every
    fold, never scored; less the documents of ``corpora``). Statistics as ``train`` and
    ``evaluate`` build them: of the training documents, and of the held-out fold.
    ``progress(fold)`` gives the progress callback of fold ``fold`` (1-based)."""
    from ..files.corpora import training_labels
    from ..model.reference import corpus_stats
    from ..model.tagger import NameTagger
    from .gold import document_scores, pooled_scores
    if n_folds < 2:
        raise MmbdeidValueError("cross-validation needs at least 2 folds")
    fixed_training = [item for corpus in without_held_documents(fixed, corpora)
                      for item in weighted(corpus.documents, corpus.weight)]
    for number, held_out in enumerate(corpus_folds(corpora, n_folds), 1):
        report = progress(number) if progress is not None else None
        held = set(held_out)
        train = [item for c, corpus in enumerate(corpora)
                 for item in weighted([d for i, d in enumerate(corpus.documents)
                                       if (c, i) not in held], corpus.weight)]
        train += fixed_training
        documents = [item.document for item in train]
        tagger = NameTagger(**tagger_params).fit(
            documents, [training_labels(item.document, item.labels) for item in train],
            stats=corpus_stats(_distinct(documents)), progress=report)
        scored = [corpora[c].documents[i] for c, i in held_out]
        scores = document_scores(tagger, scored,
                                 corpus_stats([item.document for item in scored]),
                                 progress=report, chain=chain)
        names = [_group_names(corpora[c].name, corpora[c].documents[i].document, by_board)
                 for c, i in held_out]
        groups = {}
        for group in sorted({name for row in names for name in row}):
            rows = [k for k, row in enumerate(names) if group in row]
            groups[group] = FoldScores(*pooled_scores([scored[k] for k in rows],
                                                      [scores[k] for k in rows], posts=True),
                                       len(rows))
        yield FoldScores(*pooled_scores(scored, scores, posts=True), len(scored), groups)


def _group_names(corpus: str, document, by_board: bool) -> Tuple[str, ...]:
    """The groups a held-out post is reported in: its file, and with ``by_board`` its
    board too (EWT's genre is its board: ``ewt-email``)."""
    return (corpus, "%s:%s" % (corpus, document.board or "-")) if by_board else (corpus,)


def _distinct(documents: Sequence) -> list:
    """Each document once (a repeated one counts once in the statistics, as in train)."""
    seen, kept = set(), []
    for document in documents:
        if id(document) not in seen:
            seen.add(id(document))
            kept.append(document)
    return kept
