"""The model: a NAME or USER span on every token whose P(NAME) + P(USER) exceeds the
threshold, labelled with the likelier of the two and scored with their sum.

The marginals come from the backend that ``tagging`` names (:mod:`mmbdeid.crf.backends`):
``"compiled"`` (the default), the batched tagger; ``"crfsuite"``, crfsuite's own
arithmetic. Both give the same marginals to within 1e-6 (a test); the batched tagger is
the faster. Posts are scored a batch at a time: those given to ``prefetch`` (a chunk of a
dump), or the whole corpus given to ``prepare``.
"""
import copy
from typing import Dict, List, Optional, Sequence

import numpy as np

from ..crf.backends import backend
from ..model.context import ContextTable, context_items
from ..spans import CRF, Span
from ..text.document import Document
from .base import Detector

# A threshold below every probability: a span on every token (evaluation and sweeps score
# all tokens from one run).
EVERY_TOKEN = float("-inf")


class CrfDetector(Detector):
    """``threshold`` None means the model's own (resolved here, once)."""

    source = CRF

    def __init__(self, tagger, stats=None, threshold: Optional[float] = None,
                 context: Optional[ContextTable] = None, tagging: str = "compiled"):
        self.backend = backend(tagging, tagger, stats)
        self.tagging = tagging
        self.tagger = tagger
        self.two_stage = getattr(tagger, "has_second_stage", False)
        # The first stage's scores pooled over the dump's threads, authors and boards
        # (None: each post is its own corpus); set by the job after a first-stage pass.
        self.context = context
        self._prepared: Dict[int, tuple] = {}
        self.threshold = tagger.threshold if threshold is None else threshold
        # the current batch's documents: id -> (document, first stage, final marginals)
        self._batch: Dict[int, tuple] = {}

    def with_stats(self, stats) -> "CrfDetector":
        """A detector like this one (before any batch) for other corpus statistics: the
        batched tagger's weight tables are shared, not built again."""
        twin = copy.copy(self)
        with_stats = getattr(self.backend, "with_stats", None)
        twin.backend = with_stats(stats) if with_stats is not None \
            else backend(self.tagging, self.tagger, stats)
        twin._prepared, twin._batch = {}, {}
        return twin

    def prefetch(self, documents) -> None:
        """Score a chunk's documents in one batch (faster than one by one)."""
        first = self.backend.first_stage(documents)
        final = first
        if self.two_stage:
            final = self._second_stages(documents, first)
        self._batch = {id(document): (document, scores, marginals)
                       for document, scores, marginals in zip(documents, first, final)}

    def _second_stages(self, documents, first) -> list:
        """The second stage of documents each pooled on its own (or with the job's pooled
        ``context``), in one batch."""
        return self.backend.second_stage([self._post_items(document, scores)
                                          for document, scores in zip(documents, first)])

    def _post_items(self, document: Document, first) -> List[List[str]]:
        """The second stage's items of a document pooled on its own (with the job's
        pooled ``context`` where there is one)."""
        first = _as_list(first)
        post = ContextTable.of([document], [first])
        return context_items(document, first, self.context or post, 0, post_table=post)

    def _batched(self, document: Document) -> Optional[tuple]:
        found = self._batch.get(id(document))
        return found if found is not None and found[0] is document else None

    def first_stage(self, document: Document):
        """The first stage's (P(NAME), P(USER)) per token."""
        found = self._batched(document)
        return found[1] if found is not None else self.backend.first_stage([document])[0]

    def prepare(self, documents: Sequence[Document]) -> None:
        """Score a whole corpus with the first stage and pool the scores, so the second
        stage sees each document's threads, authors and boards (``evaluate``)."""
        if not self.two_stage:
            self.prefetch(documents)
            return
        first = [_as_list(scores) for scores in self.backend.first_stage(documents)]
        table = ContextTable.of(documents, first)
        self._prepared = {id(document): (document, index, scores, table)
                          for index, (document, scores) in enumerate(zip(documents, first))}

    def second_stage(self, document: Document, first: Sequence[tuple]) -> List[tuple]:
        """The second stage's (P(NAME), P(USER)) per token, given the first's."""
        prepared = self._prepared.get(id(document))
        if prepared is not None and prepared[0] is document:
            _, index, _, table = prepared
            items = context_items(document, first, table, index)
        else:
            items = self._post_items(document, first)
        return self.backend.second_stage([items])[0]

    def marginals(self, document: Document):
        """(P(NAME), P(USER)) per token."""
        prepared = self._prepared.get(id(document))
        if prepared is not None and prepared[0] is document:
            first = prepared[2]
        else:
            batched = self._batched(document)
            if batched is not None:
                return batched[2]
            first = self.first_stage(document)
        if not self.two_stage:
            return first
        return self.second_stage(document, first)

    def detect(self, document: Document) -> List[Span]:
        marginals = self.marginals(document)
        threshold = self.threshold
        if isinstance(marginals, np.ndarray):
            return self._spans_of_array(document, marginals)
        spans = []
        # Spans below the threshold are not even built: most tokens are not names.
        for (start, end), pattern, (p_name, p_user) in zip(document.offsets,
                                                            document.pattern_labels, marginals):
            if not pattern and p_name + p_user > threshold:
                spans.append(Span("USER" if p_user > p_name else "NAME", start, end,
                                  p_name + p_user, CRF))
        return spans

    def _spans_of_array(self, document: Document, marginals: np.ndarray) -> List[Span]:
        """``detect`` for an array of marginals: only the tokens over the threshold are
        visited (most are not names)."""
        names, users = marginals[:, 0], marginals[:, 1]
        totals = names + users
        offsets, patterns = document.offsets, document.pattern_labels
        spans = []
        for i in np.flatnonzero(totals > self.threshold).tolist():
            if not patterns[i]:
                start, end = offsets[i]
                spans.append(Span("USER" if users[i] > names[i] else "NAME", start, end,
                                  float(totals[i]), CRF))
        return spans


def _as_list(scores) -> list:
    """Per token (P(NAME), P(USER)), as the pooled context tables take them."""
    return scores.tolist() if isinstance(scores, np.ndarray) else scores
