"""mmbdeid as a spaCy pipeline component: the factory ``"mmbdeid"``.

    >>> import spacy
    >>> import mmbdeid.adapters.spacy_component  # registers the factory
    >>> nlp = spacy.blank("en")
    >>> _ = nlp.add_pipe("mmbdeid", config={"threshold": 0.05})
    >>> [(ent.text, ent.label_) for ent in nlp("Thanks Linda, my TSH is fine").ents]
    [('Linda', 'PERSON')]

Every mention mmbdeid finds goes to ``doc.spans["mmbdeid"]``, with its probability in
``span._.mmbdeid_score`` and its detector in ``span._.mmbdeid_source``; the mentions of
the configured ``labels`` (default names and usernames, and the ``kinds`` chosen beyond
the default ones) are also added to ``doc.ents``. Labels are those of
:mod:`mmbdeid.adapters.entities` (PERSON, USERNAME, EMAIL_ADDRESS, URL, PHONE_NUMBER,
LOCATION, ...). mmbdeid tokenises the text itself; a mention is mapped to the spaCy
tokens that cover it (``alignment_mode="expand"``).

Config: ``model`` (a model file; null: the bundled one), ``threshold`` (null: the
model's), ``kinds`` (the kinds of identifier found, as ``Scrubber(kinds=...)``: a comma
list or a list of labels and presets; null: the default ones), ``labels`` (mmbdeid labels
put in ``doc.ents``, of :data:`mmbdeid.kinds.LABELS`; null: see above), ``spans_key``.
"""
from typing import Iterable, Iterator, List, Optional, Sequence, Union

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans, minibatch

from mmbdeid.api import Scrubber
from mmbdeid.checks import instance, names_in, string
from mmbdeid.spans import Span as Mention

from .entities import ENTITY_OF_LABEL, reported_labels

SPANS_KEY = "mmbdeid"

for _attribute in ("mmbdeid_score", "mmbdeid_source"):
    if not Span.has_extension(_attribute):
        Span.set_extension(_attribute, default=None)


class MmbdeidComponent:
    """Sets ``doc.spans[spans_key]`` to the mentions ``scrubber`` finds and adds those
    labelled one of ``labels`` (mmbdeid labels) to ``doc.ents``."""

    def __init__(self, scrubber: Scrubber, labels: Optional[Sequence[str]] = None,
                 spans_key: str = SPANS_KEY):
        self.scrubber = instance(scrubber, Scrubber, "scrubber")
        if labels is None:
            labels = reported_labels(scrubber.kinds)
        self.labels = names_in(labels, ENTITY_OF_LABEL, "labels", "label")
        self.spans_key = string(spans_key, "spans_key")
        # Load the model now, so a bad model path fails in nlp.add_pipe.
        scrubber.tagger

    def __call__(self, doc: Doc) -> Doc:
        return self._annotated(doc, self.scrubber.analyze(doc.text))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        """The docs of each batch are analysed together, as one dump for the corpus
        statistics (like ``Scrubber.analyze_many``; much faster than one by one), so a
        probability may differ slightly from that of the doc alone."""
        for batch in minibatch(docs, size=batch_size):
            found = self.scrubber.analyze_many([{"text": doc.text} for doc in batch])
            for doc, mentions in zip(batch, found):
                yield self._annotated(doc, mentions)

    def _annotated(self, doc: Doc, mentions: List[Mention]) -> Doc:
        spans, entities = [], []
        for mention in mentions:
            span = doc.char_span(mention.start, mention.end,
                                 label=ENTITY_OF_LABEL[mention.label],
                                 alignment_mode="expand")
            if span is None:        # no token under the mention (whitespace only)
                continue
            span._.mmbdeid_score = mention.score
            span._.mmbdeid_source = mention.source
            spans.append(span)
            if mention.label in self.labels:     # by label: LOCATION is three of them
                entities.append(span)
        doc.spans[self.spans_key] = spans
        # Ours first: filter_spans keeps the longest of overlapping spans, the first on a
        # tie, so an existing longer entity ("Linda Smith") stays and ours wins ties.
        doc.ents = filter_spans(entities + list(doc.ents))
        return doc


@Language.factory("mmbdeid",
                  default_config={"model": None, "threshold": None, "kinds": None,
                                  "labels": None, "spans_key": SPANS_KEY},
                  assigns=["doc.ents", "doc.spans"])
def make_mmbdeid(nlp: Language, name: str, model: Optional[str],
                 threshold: Optional[float], kinds: Union[str, List[str], None],
                 labels: Optional[List[str]], spans_key: str) -> MmbdeidComponent:
    return MmbdeidComponent(Scrubber(model=model, threshold=threshold, kinds=kinds), labels,
                            spans_key)
