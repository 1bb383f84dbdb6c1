"""Labelled corpora: hand-tagged posts (JSON Lines, CSV, TSV or Parquet with ``spans``) and
CoNLL files, read as documents with one label per token. Text files may be gzip-compressed
(``.conll.gz``, ``.jsonl.gz``, ...).

Every problem is an ``InputError`` naming the file and line, as for posts.
"""
import hashlib
import json
import re
from typing import Any, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..errors import InputError
from ..kinds import LABELS, PERSON_LABELS
from ..spans import GOLD, Span
from ..text.document import Document
from .formats import split_format
from .interchange import Tagged, default_label, read_tool, sniff_tool
from .jsondepth import check_depth
from .posts import Record, corpus_format, json_type, numbered_lines, read_posts

# What a hand-tagged span may be: a name or username, or another kind (an address, a
# date: left out of the name metrics, measured per kind by ``evaluate --by kind``).
SPAN_LABELS = LABELS


def file_sha256(path: str) -> str:
    """A file's SHA-256 (hex): of a corpus, recorded with what is built from it."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class AnnotatedPost(NamedTuple):
    """A hand-tagged post and its gold spans (sorted, score 1.0)."""
    record: Record
    spans: List[Span]


class ConllDocument(NamedTuple):
    """One CoNLL document: tokens, labels mapped to NAME / USER / O, first token's line."""
    tokens: List[str]
    labels: List[str]
    line: int


# --- annotated posts --------------------------------------------------------------------

def parse_spans(value: Any, text: str, path: str, line: int) -> List[Span]:
    """The spans of a record (a list of objects with start, end, label; CSV: its JSON
    text), checked against ``text``: bad ones are an ``InputError`` at ``path``:``line``."""
    if isinstance(value, str):           # CSV keeps the span list as a JSON string
        try:
            check_depth(value)
            value = json.loads(value) if value.strip() else []
        except ValueError as error:
            raise InputError("field 'spans' is not valid JSON: %s"
                             % getattr(error, "msg", error), path, line) from None
    if not isinstance(value, list):
        raise InputError("field 'spans' must be a list, not %s" % json_type(value),
                         path, line)
    spans = []
    for index, item in enumerate(value):
        where = "spans[%d]" % index
        if not isinstance(item, dict):
            raise InputError("%s must be an object, not %s" % (where, json_type(item)),
                             path, line)
        for key in ("start", "end", "label"):
            if key not in item:
                raise InputError("%s has no %r" % (where, key), path, line)
        start, end, label = item["start"], item["end"], item["label"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            raise InputError("%s: 'start' and 'end' must be integers" % where, path, line)
        if not 0 <= start < end <= len(text):
            raise InputError("%s: offsets %d-%d outside the text (length %d) or empty"
                             % (where, start, end, len(text)), path, line)
        if label not in SPAN_LABELS:
            raise InputError("%s: label %r is not one of %s"
                             % (where, label, ", ".join(SPAN_LABELS)), path, line)
        spans.append(Span(label, start, end, 1.0, GOLD))
    spans.sort(key=lambda s: (s.start, s.end))
    for before, after in zip(spans, spans[1:]):
        if after.start < before.end:
            raise InputError("spans %d-%d and %d-%d overlap"
                             % (before.start, before.end, after.start, after.end), path, line)
    return spans


def read_annotated(path: str, fmt: Optional[str] = None) -> Iterator[AnnotatedPost]:
    """Hand-tagged posts: ``read_posts`` records that also carry a valid ``spans`` field.

    ``spans`` stays in ``record.fields`` untouched (so it round-trips); the parsed,
    checked spans (a label of :data:`mmbdeid.kinds.LABELS`, ``0 <= start < end <=
    len(text)``, no overlaps)
    come as ``AnnotatedPost.spans``. A Label Studio or doccano export (told by its
    content) is read too, its labels mapped (``PERSON`` → ``NAME``) and its spans given
    to the record as ``spans``, in code points.
    """
    if split_format(fmt or corpus_format(path))[0] == "jsonl":
        tool = sniff_tool(path)
        if tool is not None:
            yield from _tool_posts(path, tool)
            return
    for record in read_posts(path, fmt):
        if "spans" not in record.fields:
            raise InputError("missing field 'spans'", str(path), record.line)
        spans = parse_spans(record.fields["spans"], record.text, str(path), record.line)
        yield AnnotatedPost(record, spans)


def tagged_record(post: Tagged, label_map: Optional[dict] = None) -> Record:
    """A post of an annotation tool as an annotated record: labels mapped (``label_map``
    first, then :func:`~.interchange.default_label`), ``spans`` in the spans' place, the
    line number as the id when it has none."""
    spans = [dict(span, label=(label_map or {}).get(span["label"],
                                                    default_label(span["label"])))
             for span in post.spans]
    items = list(post.fields.items())
    items.insert(len(items) if post.spans_at is None else post.spans_at, ("spans", spans))
    fields = dict(items)
    if "id" not in fields:
        fields = dict([("id", post.line)] + items)
    return Record(post.line, fields)


def _tool_posts(path, tool: str) -> Iterator[AnnotatedPost]:
    for post in read_tool(path, tool):
        record = tagged_record(post)
        yield AnnotatedPost(record, parse_spans(record.fields["spans"], record.text,
                                                str(path), record.line))


# --- CoNLL ------------------------------------------------------------------------------

_TAG_PREFIX = re.compile(r"^[BIESLU]-", re.IGNORECASE)
# On a board a mention is a username, though WNUT tags Twitter handles O.
_HANDLE = re.compile(r"^(?:@\w{1,30}|/?u/[\w-]{3,20})$")


def conll_label(tag: str, name_pattern: str = "person", user_pattern: str = "user") -> str:
    """``NAME``, ``USER`` or ``O`` for a CoNLL tag (``B-person`` → NAME).

    ``PER`` (CoNLL-2003, the Broad Twitter Corpus) and ``NAME`` (``mmbdeid convert``'s
    own CoNLL) are also person tags by default."""
    kind = _TAG_PREFIX.sub("", tag).lower()
    if kind == "o":
        return "O"
    if name_pattern.lower() in kind or (name_pattern.lower() == "person"
                                        and kind in ("per", "name")):
        return "NAME"
    if user_pattern.lower() in kind:
        return "USER"
    return "O"


def _token_and_tag(line: str) -> Optional[Tuple[str, str]]:
    """``TOKEN<TAB>TAG`` (or ``TOKEN TAG`` when there is no tab), else None."""
    separator = "\t" if "\t" in line else " "
    parts = line.split(separator)
    if len(parts) != 2 or not parts[0] or not parts[1].strip():
        return None
    return parts[0], parts[1].strip()


def read_conll(path: str, name_pattern: str = "person", user_pattern: str = "user",
               handles_as_users: bool = True) -> Iterator[ConllDocument]:
    """Documents of a ``TOKEN<TAB>TAG`` file; a blank line ends a document.

    Tags map to NAME / USER / O by case-insensitive substring (after any BIOES prefix).
    With ``handles_as_users`` an ``@handle`` or ``u/name`` token is USER whatever its tag.
    ``-DOCSTART-`` lines are skipped.
    """
    tokens: List[str] = []
    labels: List[str] = []
    first_line = 0
    count = 0
    for number, raw in numbered_lines(path):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.startswith("-DOCSTART-"):
            if tokens:
                count += 1
                yield ConllDocument(tokens, labels, first_line)
                tokens, labels = [], []
            continue
        if line.startswith("\t") and line.count("\t") == 1 and line.strip():
            continue    # an empty token (a stripped invisible character): nothing typed
        pair = _token_and_tag(line)
        if pair is None:
            # The line itself is not echoed: it may hold a name.
            raise InputError("expected TOKEN<TAB>TAG, found %d tab-separated fields"
                             % len(line.split("\t")), str(path), number)
        token, tag = pair
        label = conll_label(tag, name_pattern, user_pattern)
        if handles_as_users and _HANDLE.match(token):
            label = "USER"
        if not tokens:
            first_line = number
        tokens.append(token)
        labels.append(label)
    if tokens:
        count += 1
        yield ConllDocument(tokens, labels, first_line)
    if count == 0:
        raise InputError("empty file: no documents", str(path))



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
    phone tokens are O for the CRF (patterns remove them), and so are the other kinds'
    (an address, a date: their steps find them)."""
    adjusted = []
    for label, pattern in zip(labels, document.pattern_labels):
        if pattern == "USER":
            adjusted.append("USER")
        elif pattern:
            adjusted.append("O")
        else:
            adjusted.append(label if label in PERSON_LABELS else "O")
    return adjusted


# --- CoNLL tokens back to typed text ------------------------------------------------------

# Tokens written against the previous one ("Don 't" was typed "Don't", "here ." "here.").
_CLOSING = re.compile(r"^(?:[.,!?;:%)\]}…]+|'(?:s|re|ve|d|ll|m|t)|n't|'|’(?:s|re|ve|d|ll|m|t)|n’t)$",
                      re.IGNORECASE)
# Tokens written against the next one ("( see" was typed "(see", "@ name" "@name").
_OPENING = re.compile(r"^(?:[(\[{@#$£€]|[¿¡])$")
_QUOTES = frozenset(['"', "'\"'", "“", "”", "``", "''"])
_APOSTROPHES = frozenset(["'", "’", "´"])
_CLITIC_TAILS = frozenset(["s", "ve", "re", "d", "ll", "m", "t"])     # "should ' ve"


def detokenize(tokens: Sequence[str]) -> Tuple[str, List[Tuple[int, int]]]:
    """The text a person would have typed for CoNLL tokens, and each token's offsets in it.

    Corpora split ``Don't`` into ``Don 't``, ``@md_addam`` into ``@ md_addam`` and
    ``(see)`` into ``( see )``; joined by spaces they would look like no real post and the
    tokenizer and features would see text that never occurs. Punctuation and clitics go
    against the previous token, opening brackets, ``@`` and ``#`` against the next, and
    double quotes alternate between opening and closing.
    """
    pieces: List[str] = []
    offsets: List[Tuple[int, int]] = []
    position = 0
    glue_next = False
    quotes_open = False
    for index, token in enumerate(tokens):
        is_quote = token in _QUOTES
        if is_quote:
            token = '"'
        closing = (_CLOSING.match(token) is not None or (is_quote and quotes_open)
                   or token in _APOSTROPHES
                   or (index and tokens[index - 1] in _APOSTROPHES
                       and token.lower() in _CLITIC_TAILS))
        if index and not glue_next and not closing:
            pieces.append(" ")
            position += 1
        offsets.append((position, position + len(token)))
        pieces.append(token)
        position += len(token)
        if is_quote:
            glue_next = not quotes_open
            quotes_open = not quotes_open
        else:
            glue_next = _OPENING.match(token) is not None
    return "".join(pieces), offsets


def conll_document(tokens: Sequence[str], labels: Sequence[str],
                   handles_as_users: bool = True) -> LabelledDocument:
    """A CoNLL document as typed text (see ``detokenize``), tokenised by our tokenizer, with
    each of our tokens labelled from the gold tokens it overlaps. With ``handles_as_users``
    a token our patterns find to be an ``@handle`` is USER whatever its tag."""
    text, offsets = detokenize(tokens)
    document = Document.from_text(text)
    gold = [Span(label, start, end, 1.0, GOLD)
            for label, (start, end) in zip(labels, offsets) if label != "O"]
    ours = labels_from_spans(document.original_offsets, gold)
    if handles_as_users:
        ours = ["USER" if pattern == "USER" else label
                for label, pattern in zip(ours, document.pattern_labels)]
    return LabelledDocument(document, ours)


def load_labelled(path: str, name_pattern: str = "person",
                  user_pattern: str = "user") -> List[LabelledDocument]:
    """Read an annotated posts file (JSONL, CSV, TSV, Parquet) or a CoNLL file into
    labelled documents (CoNLL tokens are first joined into the text a person would have
    typed: ``detokenize``). ``path`` may be a ``PostFile`` (its id and text field names)."""
    fmt = corpus_format(path)
    if fmt == "conll":
        return [conll_document(doc.tokens, doc.labels)
                for doc in read_conll(path, name_pattern=name_pattern,
                                      user_pattern=user_pattern)]
    documents = []
    for post in read_annotated(path, fmt):
        document = Document.from_post(post.record.fields)
        labels = labels_from_spans(document.original_offsets, post.spans)
        documents.append(LabelledDocument(document, labels))
    return documents
