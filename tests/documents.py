"""Test scaffolding for documents and placeholders: a document of given tokens (which the
tokenizer might split otherwise) and a text with its spans replaced as placeholder mode
writes it."""
import re
from typing import Iterable, Optional, Sequence

from mmbdeid.output.operators import PlaceholderOperator
from mmbdeid.spans import Span
from mmbdeid.text.document import Document
from mmbdeid.text.patterns import find_identifiers

# The runs of line breaks between a post's paragraphs, written plainly (the
# package finds the characters one by one: tests check it gives the same paragraphs).
LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")


def document_of_tokens(tokens: Sequence[str]) -> Document:
    """A one-paragraph document of exactly ``tokens``, joined by single spaces; a token
    that is wholly an e-mail, URL, phone or handle carries its pattern label."""
    offsets, position = [], 0
    for token in tokens:
        offsets.append((position, position + len(token)))
        position += len(token) + 1
    return Document(tokens=list(tokens), offsets=offsets,
                    pattern_labels=[_whole_token_pattern(token) for token in tokens],
                    paragraph_ids=[0] * len(tokens), text=" ".join(tokens))


def _whole_token_pattern(token: str) -> Optional[str]:
    for span in find_identifiers(token):
        if span.start == 0 and span.end == len(token):
            return span.label
    return None


def replace_spans(text: str, spans: Iterable[Span]) -> str:
    """``text`` with each mention replaced by its kind's placeholder, as placeholder mode
    writes it (adjacent spans of one person are one placeholder)."""
    record, _ = PlaceholderOperator().rewrite({"text": text}, list(spans))
    return record["text"]


def name_spans(text: str, names: Iterable[str]) -> list:
    """``NAME`` spans (0.9, ``crf``) of ``names`` found in ``text`` in turn, each after the
    one before: the model's spans a linking test starts from."""
    spans, position = [], 0
    for name in names:
        start = text.index(name, position)
        spans.append(Span("NAME", start, start + len(name), 0.9, "crf"))
        position = start + len(name)
    return spans
