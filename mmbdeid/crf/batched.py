"""The scrubbing tagger: a trained model's marginals without crfsuite in the loop.

Training stays on crfsuite; tagging reads the model's weights once (:mod:`.marginals`),
sums each token's state scores from cached per-type vectors
(:class:`~mmbdeid.crf.emissions.EmissionScorer`) and runs forward-backward over many posts
at once (:mod:`.forward_backward`). Every CRF stage the model has is served: a second
stage's items (a few attributes per token, worked out from the first stage's scores) are
summed attribute by attribute, then go through the same batched forward-backward.

The marginals equal python-crfsuite's to about 1e-15 (a test checks 1e-6 on the samples and
a synthetic dump), so thresholds, sweeps and outputs are those of ``--tagger crfsuite``,
which keeps the previous path (crfsuite's own arithmetic) for comparison.

A post longer than ``LONG_POST`` tokens takes the previous path (its items a block at a
time, bounded memory: :class:`~.marginals.ExactTagger`): the per-post arrays here grow with
the post.
"""
import copy
from typing import List, Optional, Sequence

import numpy as np

from ..errors import MmbdeidValueError
from ..kinds import PERSON_LABELS
from . import forward_backward
from .emissions import EmissionScorer, scored_rows
from .marginals import ChainModel, ExactTagger, chain_model

LONG_POST = 4096
# Posts scored and run through forward-backward together (bounds the padded arrays).
BATCH_POSTS = 256


class _Stage:
    """One CRF's weights as the batched marginals use them."""

    def __init__(self, chain: ChainModel):
        self.chain = chain
        self.exp_transitions = np.array(chain.exp_transitions, dtype=np.float64)
        # columns of P(NAME), P(USER) (None: a label the model lacks, always 0.0)
        self.columns = [chain.labels.index(label) if label in chain.labels else None
                        for label in PERSON_LABELS]

    def name_columns(self, probabilities: np.ndarray) -> np.ndarray:
        """(tokens x 2): P(NAME), P(USER)."""
        out = np.zeros((len(probabilities), len(PERSON_LABELS)))
        for k, column in enumerate(self.columns):
            if column is not None:
                out[:, k] = probabilities[:, column]
        return out


class BatchedTagger:
    """Marginals of a fitted :class:`~mmbdeid.model.tagger.NameTagger` for scrubbing, many
    posts at once (a :class:`~.backends.MarginalsBackend`).

    Build it with :meth:`of` (None when the model cannot be read exactly: then tag with
    crfsuite's arithmetic). ``first_stage`` and ``second_stage`` give per document a
    (tokens x 2) array of P(NAME), P(USER); ``emissions`` and ``marginals`` are their two
    steps."""

    def __init__(self, chain: ChainModel, window: int, stats=None,
                 context_chain: Optional[ChainModel] = None):
        self.window = window
        self.stats = stats
        self.first = _Stage(chain)
        self.second = None if context_chain is None else _Stage(context_chain)
        self.scorer = EmissionScorer(stats, window, chain.attribute_index, chain.weights)
        self._exact: Optional[ExactTagger] = None

    @classmethod
    def of(cls, tagger, stats=None) -> Optional["BatchedTagger"]:
        chain = chain_model(tagger)
        if chain is None:
            return None
        context_chain = None
        if getattr(tagger, "has_second_stage", False):
            try:
                context_chain = ChainModel(tagger.context_bytes_)
            except (ValueError, IndexError):   # CrfsuiteFormatError is a ValueError
                return None
        return cls(chain, tagger.window, stats, context_chain)

    def with_stats(self, stats) -> "BatchedTagger":
        """The same model's tagger for other corpus statistics, sharing the weight tables
        (slow to build) with this one."""
        twin = copy.copy(self)
        twin.stats = stats
        twin.scorer = self.scorer.with_stats(stats)
        twin._exact = None
        return twin

    # -- the two steps ----------------------------------------------------------------
    def emissions(self, documents: Sequence) -> np.ndarray:
        """State scores of every token of ``documents`` (each shorter than ``LONG_POST``),
        the documents one after another."""
        if not documents:
            return np.zeros((0, len(self.first.chain.labels)))
        return np.concatenate([self.scorer.scores(document) for document in documents])

    def marginals(self, scores: np.ndarray, lengths: Sequence[int],
                  stage: Optional[_Stage] = None) -> np.ndarray:
        """P(NAME), P(USER) per token from state scores of sequences ``lengths`` long."""
        stage = stage or self.first
        return stage.name_columns(forward_backward.marginals(scores, list(lengths),
                                                             stage.exp_transitions))

    # -- per document -----------------------------------------------------------------
    def first_stage(self, documents: Sequence) -> List[np.ndarray]:
        """(tokens x 2) P(NAME), P(USER) of each document."""
        results: List[Optional[np.ndarray]] = [None] * len(documents)
        longest = min(LONG_POST, self.scorer.max_tokens)
        short = [k for k, document in enumerate(documents) if len(document) <= longest]
        for lo in range(0, len(short), BATCH_POSTS):
            batch = short[lo:lo + BATCH_POSTS]
            chosen = [documents[k] for k in batch]
            self.scorer.prefetch(chosen)
            lengths = [len(document) for document in chosen]
            probabilities = self.marginals(self.emissions(chosen), lengths)
            for k, part in zip(batch, np.split(probabilities, np.cumsum(lengths)[:-1])):
                results[k] = part
        for k, document in enumerate(documents):
            if results[k] is None:
                results[k] = self._long_post(document)
        return results

    def second_stage(self, items: Sequence[List[List[str]]]) -> List[np.ndarray]:
        """(tokens x 2) P(NAME), P(USER) of the second stage, from each document's items
        (``model.context.context_items``)."""
        if self.second is None:
            raise MmbdeidValueError("the model has no second stage")
        index = self.second.chain.attribute_index
        weights = self.second.chain.weights
        lengths = [len(document_items) for document_items in items]
        rows = [[index[a] for a in item if a in index]
                for document_items in items for item in document_items]
        probabilities = self.marginals(scored_rows(rows, weights), lengths, self.second)
        return np.split(probabilities, np.cumsum(lengths)[:-1]) if items else []

    def _long_post(self, document) -> np.ndarray:
        """A long post by the bounded-memory path (its items a block at a time)."""
        if self._exact is None:
            self._exact = ExactTagger(self.first.chain, self.window, self.stats)
        return self._exact.name_marginals(document)
