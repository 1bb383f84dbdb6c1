"""The model: a NAME or USER span on every token whose P(NAME) + P(USER) exceeds the
threshold, labelled with the likelier of the two and scored with their sum.

The marginals are those of python-crfsuite, computed in bounded memory by
:mod:`mmbdeid.detect.marginals` (identical to the last bit; a 5 MB post takes well under
1 GB instead of 11 GB) wherever the tagger's model can be read and passes that module's
check, and by python-crfsuite itself otherwise.
"""
from typing import Dict, List, Optional, Sequence

from ..model.context import ContextTable, context_items
from ..model.features import Featurizer
from ..spans import CRF, Span
from ..text.document import Document
from .base import Detector
from .marginals import chain_model

# A threshold below every probability: a span on every token (evaluation and sweeps score
# all tokens from one run).
EVERY_TOKEN = float("-inf")


class CrfDetector(Detector):
    """``threshold`` None means the model's own (resolved here, once)."""

    source = CRF

    def __init__(self, tagger, stats=None, threshold: Optional[float] = None,
                 context: Optional[ContextTable] = None):
        self.tagger = tagger
        self.two_stage = getattr(tagger, "has_second_stage", False)
        # The first stage's scores pooled over the dump's threads, authors and boards
        # (None: each post is its own corpus); set by the job after a first-stage pass.
        self.context = context
        self._prepared: Dict[int, tuple] = {}
        self.threshold = tagger.threshold if threshold is None else threshold
        self.chain = chain_model(tagger)
        if self.chain is None:
            self.featurizer = tagger.featurizer(stats)
        else:
            self.featurizer = Featurizer(stats, window=tagger.window,
                                         attribute_index=self.chain.attribute_index)

    def prefetch(self, documents) -> None:
        """Look up a chunk's new token types at once (faster than one by one)."""
        self.featurizer.prefetch(documents)

    def first_stage(self, document: Document) -> List[tuple]:
        """The first stage's (P(NAME), P(USER)) per token."""
        if self.chain is None:
            return self.tagger.name_marginals(self.featurizer.document_items(document))
        names, users = self.chain.marginals(self.featurizer.iter_items(document),
                                            len(document), ("NAME", "USER"))
        return list(zip(names, users))

    def prepare(self, documents: Sequence[Document]) -> None:
        """Score a whole corpus with the first stage and pool the scores, so the second
        stage sees each document's threads, authors and boards (``evaluate``)."""
        if not self.two_stage:
            return
        self.prefetch(documents)
        first = [self.first_stage(document) for document in documents]
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
            post = ContextTable.of([document], [first])
            items = context_items(document, first, self.context or post, 0, post_table=post)
        return self.tagger.context_marginals(items)

    def marginals(self, document: Document):
        """(P(NAME), P(USER)) per token."""
        prepared = self._prepared.get(id(document))
        if prepared is not None and prepared[0] is document:
            first = prepared[2]
        else:
            first = self.first_stage(document)
        if not self.two_stage:
            return first
        return self.second_stage(document, first)

    def detect(self, document: Document) -> List[Span]:
        marginals = self.marginals(document)
        threshold = self.threshold
        spans = []
        # Spans below the threshold are not even built: most tokens are not names.
        for (start, end), pattern, (p_name, p_user) in zip(document.offsets,
                                                            document.pattern_labels, marginals):
            if not pattern and p_name + p_user > threshold:
                spans.append(Span("USER" if p_user > p_name else "NAME", start, end,
                                  p_name + p_user, CRF))
        return spans
