"""Training a name tagger's CRFs: the training data from what a user holds, the lower-case
copies, and crfsuite's L-BFGS run (through ``sklearn_crfsuite.CRF``, imported only here and
only to train).
"""
import dataclasses
import functools
import random
from typing import Callable, List, Optional, Sequence, Tuple

import pycrfsuite

from ..errors import MmbdeidValueError
from ..kinds import PERSON_LABELS

# Training progress: (what is counted: "features" or "iterations", done, total).
TrainingProgress = Callable[[str, int, int], None]


def as_training_data(posts: Sequence, labels: Optional[Sequence] = None):
    """``(documents, per-token labels, statistics or None)`` for
    :meth:`~mmbdeid.model.tagger.NameTagger.fit`.

    Accepted, per item: a tokenised ``Document`` with its token labels (NAME/USER/O), as
    the command line gives them; a text with its gold spans; a post dict (``text``, and
    ``board``/``thread``/``author`` when known) with its gold spans, or carrying them in
    a ``spans`` field (``labels`` None). Spans are ``{"start", "end", "label"}`` dicts
    (the annotated-file form), ``(start, end, label)`` tuples or
    :class:`~mmbdeid.spans.Span`. Texts and posts are tokenised, the spans become token
    labels (pattern tokens adjusted as in training), and their corpus statistics are
    built from them (third item); for documents it is None.
    """
    from ..files.corpora import labels_from_spans, training_labels
    from ..spans import GOLD, Span
    from ..text.document import Document
    posts = list(posts)
    if all(isinstance(p, Document) for p in posts):
        if labels is None:
            raise MmbdeidValueError("tokenised documents need labels (one per token)")
        return posts, labels, None
    if labels is None:
        if not all(isinstance(p, dict) and "spans" in p for p in posts):
            raise MmbdeidValueError("without labels, every post must be a dict with 'text' and "
                                    "'spans'")
        labels = [p["spans"] for p in posts]
    labels = list(labels)
    if len(labels) != len(posts):
        raise MmbdeidValueError("%d posts but %d label lists" % (len(posts), len(labels)))
    documents, token_labels = [], []
    for number, (post, spans) in enumerate(zip(posts, labels), 1):
        if isinstance(post, str):
            post = {"text": post}
        if not isinstance(post, dict) or not isinstance(post.get("text"), str):
            raise MmbdeidValueError("post %d: expected a text, a Document or a dict with a 'text' "
                                    "string" % number)
        document = Document.from_post(post)
        gold = []
        for span in spans:
            if isinstance(span, dict):
                span = (span.get("start"), span.get("end"), span.get("label"))
            elif isinstance(span, Span):
                span = (span.start, span.end, span.label)
            start, end, label = span
            if label not in PERSON_LABELS:
                raise MmbdeidValueError("post %d: span label %r is not one of %s"
                                        % (number, label, ", ".join(PERSON_LABELS)))
            if not (isinstance(start, int) and isinstance(end, int)
                    and 0 <= start < end <= len(document.original_text)):
                raise MmbdeidValueError("post %d: span %r-%r outside the text"
                                        % (number, start, end))
            gold.append(Span(label, start, end, 1.0, GOLD))
        documents.append(document)
        labels_of_tokens = labels_from_spans(document.original_offsets, gold)
        token_labels.append(training_labels(document, labels_of_tokens))
    from .reference import corpus_stats
    return documents, token_labels, corpus_stats(documents)


def with_lowercase_copies(documents, labels, share: float, seed: int):
    """The documents and labels, plus a lower-case copy of about ``share`` of them (drawn
    with ``seed``)."""
    if share <= 0:
        return list(documents), list(labels)
    rng = random.Random(seed)
    chosen = [i for i in range(len(documents)) if rng.random() < share]
    copies = [dataclasses.replace(documents[i], tokens=[t.lower() for t in documents[i].tokens])
              for i in chosen]
    return list(documents) + copies, list(labels) + [labels[i] for i in chosen]


class ProgressTrainer(pycrfsuite.Trainer):
    """A crfsuite trainer that tells ``progress`` of each L-BFGS iteration and prints
    nothing: crfsuite reports iterations only to a verbose trainer, whose ``message``
    prints its log to stdout, so the log is parsed here instead."""

    def __init__(self, *args, progress: Optional[TrainingProgress] = None,
                 max_iterations: int = 0, **kwargs):
        self.progress = progress
        self.max_iterations = max_iterations
        kwargs["verbose"] = progress is not None
        super().__init__(*args, **kwargs)

    def message(self, message):
        if self.progress is not None and self.logparser.feed(message) == "iteration":
            self.progress("iterations", self.logparser.last_iteration.get("num", 0),
                          self.max_iterations)


def train_crf(items, labels: List[List[str]], c1: float, c2: float, max_iterations: int,
              all_possible_transitions: bool, progress: Optional[TrainingProgress] = None
              ) -> Tuple[bytes, List[str]]:
    """crfsuite model bytes and classes learned from items and labels. ``progress`` hears
    of each document's features and each L-BFGS iteration (see :class:`TrainingProgress`)."""
    import sklearn_crfsuite  # imported here: only training needs it

    def featurised():
        for done, document_items in enumerate(items, 1):
            if progress is not None:
                progress("features", done, len(labels))
            yield document_items

    trainer = functools.partial(ProgressTrainer, progress=progress,
                                max_iterations=max_iterations)
    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=c1, c2=c2, max_iterations=max_iterations,
                               all_possible_transitions=all_possible_transitions,
                               trainer_cls=trainer)
    crf.fit(list(featurised()), labels)
    with open(crf.modelfile.name, "rb") as handle:
        return handle.read(), list(crf.classes_)
