"""Labelled corpora (annotated posts or CoNLL) as documents with one label per token."""
from typing import Iterable, List, NamedTuple, Sequence, Tuple

from .document import Document
from .io import corpus_format, read_annotated, read_conll
from .spans import Span


class LabelledDocument(NamedTuple):
    document: Document
    labels: List[str]      # NAME / USER / O per token


def labels_from_spans(offsets: Sequence[Tuple[int, int]], spans: Iterable[Span]) -> List[str]:
    """A token takes the label of any gold span it overlaps (partial overlap counts, so a
    name glued to other characters is still a name), otherwise ``O``."""
    spans = sorted(spans, key=lambda s: s.start)
    labels, k = [], 0
    for start, end in offsets:
        while k < len(spans) and spans[k].end <= start:
            k += 1
        label = "O"
        j = k
        while j < len(spans) and spans[j].start < end:
            if spans[j].end > start:
                label = spans[j].label
                break
            j += 1
        labels.append(label)
    return labels


def training_labels(document: Document, labels: Sequence[str]) -> List[str]:
    """Gold labels adjusted for pattern tokens: a handle is always a USER (the WNUT files
    tag handles O, and the model must not learn that handles are safe); e-mail, URL and
    phone tokens are O for the CRF (patterns remove them)."""
    adjusted = []
    for label, pattern in zip(labels, document.pattern_labels):
        if pattern == "USER":
            adjusted.append("USER")
        elif pattern:
            adjusted.append("O")
        else:
            adjusted.append(label)
    return adjusted


def load_labelled(path: str, name_pattern: str = "person",
                  user_pattern: str = "user") -> List[LabelledDocument]:
    """Read an annotated JSONL/CSV file or a CoNLL file into labelled documents."""
    if corpus_format(path) == "conll":
        return [LabelledDocument(Document.from_tokens(doc.tokens), list(doc.labels))
                for doc in read_conll(path, name_pattern=name_pattern,
                                      user_pattern=user_pattern)]
    documents = []
    for post in read_annotated(path):
        document = Document.from_post(post.record.fields)
        documents.append(LabelledDocument(document, labels_from_spans(document.offsets,
                                                                      post.spans)))
    return documents
