"""The model: a NAME or USER span on every token whose P(NAME) + P(USER) exceeds the
threshold, labelled with the likelier of the two and scored with their sum.

``tagging="compiled"`` (the default): the marginals of :mod:`mmbdeid.crf.batched`,
summed from cached per-type vectors and batched over the posts given to ``prefetch`` (a
chunk of a dump, or the whole corpus given to ``prepare``). ``tagging="crfsuite"``: the
previous path, python-crfsuite's arithmetic, computed in bounded memory by
:mod:`mmbdeid.crf.marginals` (identical to the last bit) wherever the tagger's model can
be read and passes that module's check, and by python-crfsuite itself otherwise. Both give
the same marginals to within 1e-6 (a test); the compiled tagger is the faster.
"""
from typing import Dict, List, Optional, Sequence

import numpy as np

from ..crf import TAGGERS
from ..crf.batched import CompiledTagger
from ..crf.marginals import chain_model
from ..model.context import ContextTable, context_items
from ..model.features import Featurizer
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
        if tagging not in TAGGERS:
            raise ValueError("tagging must be one of %s, not %r" % (", ".join(TAGGERS), tagging))
        self.tagger = tagger
        self.two_stage = getattr(tagger, "has_second_stage", False)
        # The first stage's scores pooled over the dump's threads, authors and boards
        # (None: each post is its own corpus); set by the job after a first-stage pass.
        self.context = context
        self._prepared: Dict[int, tuple] = {}
        self.threshold = tagger.threshold if threshold is None else threshold
        # the current batch's documents: id -> (document, first stage, final marginals)
        self._batch: Dict[int, tuple] = {}
        self.compiled = CompiledTagger.of(tagger, stats) if tagging == "compiled" else None
        self.chain = None if self.compiled is not None else chain_model(tagger)
        if self.compiled is not None:
            self.featurizer = self.compiled.scorer
        elif self.chain is None:
            self.featurizer = tagger.featurizer(stats)
        else:
            self.featurizer = Featurizer(stats, window=tagger.window,
                                         attribute_index=self.chain.attribute_index)

    def prefetch(self, documents) -> None:
        """Look up a chunk's new token types at once (faster than one by one); the
        compiled tagger scores the whole chunk here, in one batch."""
        if self.compiled is None:
            self.featurizer.prefetch(documents)
            return
        first = self.compiled.first_stage(documents)
        final = first
        if self.two_stage:
            final = self._second_stages(documents, first)
        self._batch = {id(document): (document, scores, marginals)
                       for document, scores, marginals in zip(documents, first, final)}

    def _second_stages(self, documents, first) -> list:
        """The compiled second stage of documents each pooled on its own (or with the
        job's pooled ``context``), in one batch."""
        return self.compiled.second_stage([self._post_items(document, scores)
                                           for document, scores in zip(documents, first)])

    def _post_items(self, document: Document, first) -> List[List[str]]:
        """The second stage's items of a document pooled on its own (with the job's
        pooled ``context`` where there is one)."""
        first = first.tolist() if isinstance(first, np.ndarray) else first
        post = ContextTable.of([document], [first])
        return context_items(document, first, self.context or post, 0, post_table=post)

    def _batched(self, document: Document) -> Optional[tuple]:
        found = self._batch.get(id(document))
        return found if found is not None and found[0] is document else None

    def first_stage(self, document: Document):
        """The first stage's (P(NAME), P(USER)) per token."""
        if self.compiled is not None:
            found = self._batched(document)
            return found[1] if found is not None else self.compiled.first_stage([document])[0]
        if self.chain is None:
            return self.tagger.name_marginals(self.featurizer.document_items(document))
        names, users = self.chain.marginals(self.featurizer.iter_items(document),
                                            len(document), ("NAME", "USER"))
        return list(zip(names, users))

    def prepare(self, documents: Sequence[Document]) -> None:
        """Score a whole corpus with the first stage and pool the scores, so the second
        stage sees each document's threads, authors and boards (``evaluate``)."""
        if not self.two_stage:
            if self.compiled is not None:
                self.prefetch(documents)
            return
        if self.compiled is not None:
            first = [scores.tolist() for scores in self.compiled.first_stage(documents)]
        else:
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
            items = self._post_items(document, first)
        if self.compiled is not None:
            return self.compiled.second_stage([items])[0]
        return self.tagger.context_marginals(items)

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
