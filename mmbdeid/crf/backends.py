"""Where the CRF detector's marginals come from: one small interface, and the choice of
what is behind it by the name the user gives (``--tagger``, the job's ``tagging``).

``compiled`` (the default): :class:`~.batched.BatchedTagger`, many posts at once from
cached per-type sums. ``crfsuite``: crfsuite's own arithmetic, by
:class:`~.marginals.ExactTagger` in bounded memory (identical to the last bit) wherever the
model can be read and passes that module's check, and by python-crfsuite itself otherwise.
A model the batched tagger cannot read is tagged by the ``crfsuite`` path.
"""
from typing import List, Protocol, Sequence

from ..errors import MmbdeidValueError
from . import TAGGERS
from .batched import BatchedTagger
from .marginals import ExactTagger, chain_model


class MarginalsBackend(Protocol):
    """(P(NAME), P(USER)) per token of each document of a batch: a (tokens x 2) array or a
    list of pairs."""

    def first_stage(self, documents: Sequence) -> List[Sequence]:
        """The first stage's, per document."""

    def second_stage(self, items: Sequence[List[List[str]]]) -> List[Sequence]:
        """The second stage's, per document, from its items
        (``model.context.context_items``)."""


class CrfsuiteTagger:
    """python-crfsuite itself, one post at a time (a model that :mod:`.marginals` cannot
    read or reproduce, or a stand-in with ``featurizer`` and ``name_marginals``)."""

    def __init__(self, tagger, stats=None):
        self.tagger = tagger
        self.featurizer = tagger.featurizer(stats)

    def first_stage(self, documents: Sequence) -> List[Sequence]:
        if len(documents) > 1:    # one post's token types are looked up as it is featurized
            self.featurizer.prefetch(documents)
        return [self.tagger.name_marginals(self.featurizer.document_items(document))
                for document in documents]

    def second_stage(self, items: Sequence[List[List[str]]]) -> List[Sequence]:
        return [self.tagger.context_marginals(document_items) for document_items in items]


def backend(name: str, tagger, stats=None) -> MarginalsBackend:
    """The marginals of ``tagger`` (a fitted NameTagger) with corpus statistics ``stats``,
    computed the way ``name`` (one of ``TAGGERS``) says."""
    if name not in TAGGERS:
        raise MmbdeidValueError("tagging must be one of %s, not %r" % (", ".join(TAGGERS), name))
    if name == "compiled":
        batched = BatchedTagger.of(tagger, stats)
        if batched is not None:
            return batched
    chain = chain_model(tagger)
    if chain is not None:
        return ExactTagger(chain, tagger.window, stats, tagger)
    return CrfsuiteTagger(tagger, stats)
