"""mmbdeid as a spaCy pipeline component: the factory ``"mmbdeid"``.

    >>> import spacy
    >>> import mmbdeid.adapters.spacy_component  # registers the factory
    >>> nlp = spacy.blank("en")
    >>> _ = nlp.add_pipe("mmbdeid", config={"threshold": 0.05})
    >>> [(ent.text, ent.label_) for ent in nlp("Thanks Linda, my TSH is fine").ents]
    [('Linda', 'PERSON')]

Every mention mmbdeid finds goes to ``doc.spans["mmbdeid"]``, with its probability in
``span._.mmbdeid_score`` and its detector in ``span._.mmbdeid_source``; the mentions of
the configured ``labels`` (default names and usernames) are also added to ``doc.ents``.
Labels are those of :mod:`mmbdeid.adapters.entities` (PERSON, USERNAME, EMAIL_ADDRESS,
URL, PHONE_NUMBER). mmbdeid tokenises the text itself; a mention is mapped to the spaCy
tokens that cover it (``alignment_mode="expand"``).

Config: ``model`` (a model file; null: the bundled one), ``threshold`` (null: the
model's), ``labels`` (mmbdeid labels put in ``doc.ents``, of NAME, USER, EMAIL, URL,
PHONE), ``spans_key``.
"""
from typing import Iterable, Iterator, List, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import filter_spans, minibatch

from mmbdeid.api import Scrubber
from mmbdeid.checks import instance, names_in, string
from mmbdeid.spans import Span as Mention

from .entities import ENTITY_OF_LABEL, PERSON_LABELS

SPANS_KEY = "mmbdeid"

for _attribute in ("mmbdeid_score", "mmbdeid_source"):
    if not Span.has_extension(_attribute):
        Span.set_extension(_attribute, default=None)


class MmbdeidComponent:
    """Sets ``doc.spans[spans_key]`` to the mentions ``scrubber`` finds and adds those
    labelled one of ``labels`` (mmbdeid labels) to ``doc.ents``."""

    def __init__(self, scrubber: Scrubber, labels: Sequence[str] = PERSON_LABELS,
                 spans_key: str = SPANS_KEY):
        self.scrubber = instance(scrubber, Scrubber, "scrubber")
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
        spans = []
        for mention in mentions:
            span = doc.char_span(mention.start, mention.end,
                                 label=ENTITY_OF_LABEL[mention.label],
                                 alignment_mode="expand")
            if span is None:        # no token under the mention (whitespace only)
                continue
            span._.mmbdeid_score = mention.score
            span._.mmbdeid_source = mention.source
            spans.append(span)
        doc.spans[self.spans_key] = spans
        entities = {ENTITY_OF_LABEL[label] for label in self.labels}
        # Ours first: filter_spans keeps the longest of overlapping spans, the first on a
        # tie, so an existing longer entity ("Linda Smith") stays and ours wins ties.
        doc.ents = filter_spans([span for span in spans if span.label_ in entities]
                                + list(doc.ents))
        return doc


@Language.factory("mmbdeid",
                  default_config={"model": None, "threshold": None,
                                  "labels": list(PERSON_LABELS), "spans_key": SPANS_KEY},
                  assigns=["doc.ents", "doc.spans"])
def make_mmbdeid(nlp: Language, name: str, model: Optional[str],
                 threshold: Optional[float], labels: List[str],
                 spans_key: str) -> MmbdeidComponent:
    return MmbdeidComponent(Scrubber(model=model, threshold=threshold), labels, spans_key)
