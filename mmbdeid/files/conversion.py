"""``mmbdeid convert``: hand-tagged posts from one annotated format to another, annotated
posts (JSON Lines, CSV, TSV, Parquet with ``spans``), Label Studio, doccano
(:mod:`.interchange`) and CoNLL, every field and offset kept where the format holds it.

CoNLL holds tokens and tags only: it is written with mmbdeid's tokenizer and BIO tags
(``B-NAME``, ``I-NAME``, one blank line after each post) and read back as the text a
person would have typed (:func:`~.corpora.detokenize`), each run of same-label tokens one
span.
"""
import json
import os
from typing import Iterable, Iterator, Optional

from ..errors import InputError
from ..text.document import Document
from .atomic import atomic_output
from .corpora import detokenize, parse_spans, read_annotated, read_conll, tagged_record
from .formats import CONLL_EXTENSIONS, corpus_format, extension_format, split_format
from .interchange import (DEFAULT_OFFSETS, DOCCANO, LABELSTUDIO, Tagged, doccano_line,
                          labelstudio_task, read_tool, sniff_tool)
from .post_writer import json_line
from .postfile import FieldNames, field_names_of

CONLL, ANNOTATED = "conll", "jsonl"
CONVERT_FORMATS = (ANNOTATED, LABELSTUDIO, DOCCANO, CONLL)


def input_kind(source, given: Optional[str] = None) -> str:
    """The annotated format of ``source``: ``given`` (--from), else Label Studio or
    doccano by content, else CoNLL by extension or content, else annotated posts."""
    if given:
        return given
    tool = sniff_tool(source)
    if tool:
        return tool
    return CONLL if corpus_format(source) == CONLL else ANNOTATED


def output_kind(path: str, given: Optional[str] = None) -> str:
    """The annotated format to write: ``given`` (--to), else by extension (``.conll``,
    ``.bio``, ``.txt``: CoNLL; ``.json``: Label Studio; ``.jsonl``: annotated posts)."""
    if given:
        return given
    name = os.path.basename(path).lower()
    name = name[:-3] if name.endswith(".gz") else name
    extension = os.path.splitext(name)[1]
    if extension in CONLL_EXTENSIONS:
        return CONLL
    if extension == ".json":
        return LABELSTUDIO
    if extension_format(path) and split_format(extension_format(path))[0] == ANNOTATED:
        return ANNOTATED
    raise InputError("cannot tell the output format from the extension %r: name it "
                     "with --to (%s)" % (extension, ", ".join(CONVERT_FORMATS)), path)


def read_tagged(source, kind: str, units: Optional[str] = None,
                label_map: Optional[dict] = None) -> Iterator[Tagged]:
    """The posts of ``source`` in annotated format ``kind``, spans in code points with
    their labels mapped (``label_map`` first, then PERSON/PER → NAME)."""
    if kind in (LABELSTUDIO, DOCCANO):
        posts: Iterable[Tagged] = read_tool(source, kind, units)
    elif kind == CONLL:
        posts = _conll_posts(source)
    else:
        posts = _annotated_posts(source)
    for post in posts:
        fields = tagged_record(post, label_map).fields
        at = None if post.spans_at is None else list(fields).index("spans")
        spans = fields.pop("spans")
        yield Tagged(post.line, fields, spans, at)


def _annotated_posts(source) -> Iterator[Tagged]:
    for post in read_annotated(source, corpus_format(source)):
        fields = dict(post.record.fields)
        raw = fields["spans"]
        spans = [dict(span) for span in (json.loads(raw) if isinstance(raw, str) else raw)]
        spans.sort(key=lambda span: (span["start"], span["end"]))
        at = list(fields).index("spans")
        del fields["spans"]
        yield Tagged(post.record.line, fields, spans, at)


def _conll_posts(source) -> Iterator[Tagged]:
    for number, document in enumerate(read_conll(source, handles_as_users=False), 1):
        text, offsets = detokenize(document.tokens)
        spans: list = []
        previous = "O"
        for label, (start, end) in zip(document.labels, offsets):
            if label != "O" and label == previous:
                spans[-1]["end"] = end          # a run of one label is one span
            elif label != "O":
                spans.append({"start": start, "end": end, "label": label})
            previous = label
        yield Tagged(document.line, {"id": number, "text": text}, spans)


def write_tagged(posts: Iterable[Tagged], path: str, kind: str, source,
                 units: Optional[str] = None) -> int:
    """Write ``posts`` to ``path`` in ``kind``, all or nothing, private (they hold names);
    the number of posts written. Errors name ``source`` and the post's line; annotated
    posts keep ``source``'s id and text field names (--id-field, --text-field), the tools
    have their own (``text``)."""
    names = field_names_of(source)
    count = 0
    with atomic_output(path, private=True) as handle:
        if kind == LABELSTUDIO:
            handle.write("[")
        for post in posts:
            count += 1
            try:
                handle.write(_written(post, kind, count, units, names))
            except InputError as error:
                raise InputError(error.message, str(source), post.line) from None
        if kind == LABELSTUDIO:
            handle.write("\n]\n")
    if count == 0:
        raise InputError("empty file: no posts", str(source))
    return count


def _written(post: Tagged, kind: str, number: int, units: Optional[str],
             names: FieldNames) -> str:
    if kind == LABELSTUDIO:
        task = labelstudio_task(number, post, units or DEFAULT_OFFSETS[LABELSTUDIO])
        return ("\n" if number == 1 else ",\n") + json_line(task)
    if kind == DOCCANO:
        return json_line(doccano_line(post, units or DEFAULT_OFFSETS[DOCCANO])) + "\n"
    if kind == CONLL:
        return conll_lines(post)
    # the labels must be ours, the spans apart and inside the text
    parse_spans(post.spans, post.fields["text"], None, None)
    items = list(post.fields.items())
    items.insert(len(items) if post.spans_at is None else post.spans_at,
                 ("spans", post.spans))
    return json_line(names.to_external(dict(items))) + "\n"


def conll_lines(post: Tagged) -> str:
    """A post as CoNLL: one ``TOKEN<TAB>TAG`` line per token of mmbdeid's tokenizer, BIO
    tags from the spans (a token inside a span takes its label), then a blank line."""
    text = post.fields["text"]
    spans = sorted(post.spans, key=lambda span: span["start"])
    lines, previous, k = [], None, 0
    for start, end in Document.from_text(text).original_offsets:
        token = "".join(text[start:end].split())
        if not token:
            continue
        while k < len(spans) and spans[k]["end"] <= start:
            k += 1
        inside = k if k < len(spans) and spans[k]["start"] < end else None
        if inside is None:
            tag = "O"
        else:
            tag = ("I-" if inside == previous else "B-") + str(spans[inside]["label"])
        previous = inside
        lines.append("%s\t%s\n" % (token, tag))
    return "".join(lines) + "\n" if lines else ""
