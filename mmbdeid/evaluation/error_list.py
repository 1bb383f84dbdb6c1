"""The tokens behind ``evaluate``'s figures (``evaluate --errors FILE``): every gold name
token left in place at the threshold (a miss) and every other token removed (a false
removal), one row each, with its post and the text around it.

Built from the very per-token scores ``evaluate`` counts
(:func:`~mmbdeid.evaluation.gold.document_scores`), so the misses are its ``missed`` and
the false removals its ``removed`` non-names. The file holds names: it is written private.
"""
from typing import Iterator, List, NamedTuple, Optional, Sequence

from ..files.corpora import LabelledDocument, read_annotated, read_conll
from ..files.posts import corpus_format
from ..files.tables import REAL, WHOLE, Column, table_output
from ..kinds import NON_PERSON_LABELS, PERSON_LABELS
from ..text.excerpts import context

MISS, FALSE_REMOVAL = "miss", "false_removal"
ERROR_COLUMNS = (Column("kind"), Column("post"), Column("line", WHOLE), Column("token"),
                 Column("gold"), Column("prob", REAL), Column("context"))


class ScoringError(NamedTuple):
    kind: str          # MISS or FALSE_REMOVAL
    post: str          # the post's id; in a CoNLL file the document's number, from 1
    line: int          # the line of the post's record, or of the CoNLL document's first token
    token: str
    gold: str          # the gold label: NAME, USER or O
    prob: float        # the final name probability (removed when above the threshold)
    context: str       # the text around the token, the token in [brackets]


class DocumentSource(NamedTuple):
    post: str
    line: int


def document_sources(path: str) -> List[DocumentSource]:
    """Each gold document's post id (a CoNLL document's number) and line, in the order
    :func:`~mmbdeid.files.corpora.load_labelled` reads them."""
    if corpus_format(path) == "conll":
        return [DocumentSource(str(number), document.line)
                for number, document in enumerate(read_conll(path), 1)]
    return [DocumentSource(post.record.id, post.record.line) for post in read_annotated(path)]


def list_errors(labelled: Sequence[LabelledDocument],
                scores: Sequence[Sequence[Optional[float]]],
                sources: Sequence[DocumentSource], threshold: float) -> Iterator[ScoringError]:
    """The misses and false removals at ``threshold`` in document and token order; tokens
    removed by an e-mail/URL/phone pattern (score None), or gold tokens of another kind
    that is no person (an address, a date: ``evaluate --by kind`` measures those), are
    neither."""
    for (document, labels), token_scores, source in zip(labelled, scores, sources):
        for index, (label, score) in enumerate(zip(labels, token_scores)):
            if score is None or label in NON_PERSON_LABELS:
                continue
            is_name, removed = label in PERSON_LABELS, score > threshold
            if is_name == removed:
                continue
            start, end = document.offsets[index]
            yield ScoringError(MISS if is_name else FALSE_REMOVAL, source.post, source.line,
                               document.tokens[index], label, score,
                               context(document.text, start, end).marked())


def write_errors(errors: Sequence[ScoringError], path: str, fmt: str = "csv") -> None:
    """One row per error, in table format ``fmt`` (:mod:`mmbdeid.files.tables`: CSV, TSV
    or JSON Lines, each also .gz); all or nothing, private (it holds names)."""
    with table_output(path, fmt, ERROR_COLUMNS, private=True) as write_row:
        for error in errors:
            write_row(error._replace(prob="%.6g" % error.prob))
