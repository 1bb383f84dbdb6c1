"""The model: a NAME or USER span on every token whose P(NAME) + P(USER) exceeds the
threshold, labelled with the likelier of the two and scored with their sum.

The marginals are those of python-crfsuite, computed in bounded memory by
:mod:`mmbdeid.detect.marginals` (identical to the last bit; a 5 MB post takes well under
1 GB instead of 11 GB) wherever the tagger's model can be read and passes that module's
check, and by python-crfsuite itself otherwise.
"""
from typing import List, Optional

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

    def __init__(self, tagger, stats=None, threshold: Optional[float] = None):
        self.tagger = tagger
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

    def marginals(self, document: Document):
        """(P(NAME), P(USER)) per token."""
        if self.chain is None:
            return self.tagger.name_marginals(self.featurizer.document_items(document))
        names, users = self.chain.marginals(self.featurizer.iter_items(document),
                                            len(document), ("NAME", "USER"))
        return zip(names, users)

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
