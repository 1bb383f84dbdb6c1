"""The model's near-misses in scrubbed output: the tokens it still finds name-like there.

A string search sees only the names it is given (usernames, the person map). A name the
run never knew (a third party the model missed, ``Hope is flying in``) is seen, if at all,
by the model: run on the scrubbed text, every capitalised token whose P(NAME) + P(USER) is
at least ``NEAR_FLOOR`` is a candidate for a person to check, listed with its post id and
probability, and so is a lower-case one the model finds more likely a name than not
(``LOWER_FLOOR``: ``jamie``). The floor is far under any threshold in use (0.05 by
default), so what the scrub weighed and kept shows too. Stop words (``I``, ``my``: next
to a placeholder the model scores them high) and placeholders and pseudonyms (``[U12]``)
are never candidates. Candidates are not leaks: the exit status is the leaks'.
"""
import re
from typing import Iterable, Iterator, List, NamedTuple, Sequence

from ..text.document import Document
from .leaks import WRITTEN_PLACEHOLDER

NEAR_FLOOR = 0.01       # a capitalised candidate scores at least this
LOWER_FLOOR = 0.5       # a lower-case one at least this
BATCH = 500             # posts tagged together (the model's second stage pools them)

_LETTER = re.compile(r"[^\W\d_]")


class NearMiss(NamedTuple):
    post_id: str
    start: int
    end: int
    text: str
    prob: float


def format_near_miss(near: NearMiss) -> str:
    """One report line: ``post ar001-02 chars 0-4: "Hope" (near-miss, P 0.031)``."""
    return 'post %s chars %d-%d: "%s" (near-miss, P %.3f)' % (
        near.post_id, near.start, near.end, near.text.replace("\n", " "), near.prob)


def near_misses(tagger, posts: Iterable[dict], floor: float = NEAR_FLOOR,
                covered=lambda post_id: ()) -> Iterator[NearMiss]:
    """The candidates of ``posts`` (records' fields: ``id``, ``text``, optional thread,
    author, board) under ``tagger`` (a ``NameTagger``), in post and text order; none
    inside a span ``covered(post_id)`` gives (the leaks already reported)."""
    batch: List[dict] = []
    for fields in posts:
        batch.append(fields)
        if len(batch) == BATCH:
            yield from _batch(tagger, batch, floor, covered)
            batch = []
    if batch:
        yield from _batch(tagger, batch, floor, covered)


def _batch(tagger, posts: Sequence[dict], floor: float, covered) -> Iterator[NearMiss]:
    from ..lexicon.wordlists import load_wordlist
    stop_words = load_wordlist("stop_words")
    documents = [Document.from_post(fields) for fields in posts]
    for fields, document, marginals in zip(posts, documents,
                                           tagger.two_stage_marginals(documents)):
        post_id, text = str(fields["id"]), fields["text"]
        found = []
        for (start, end), pattern, (p_name, p_user) in zip(
                document.offsets, document.pattern_labels, marginals):
            prob = p_name + p_user
            if not pattern and prob >= floor and (
                    prob >= LOWER_FLOOR or document.text[start:end][:1].isupper()):
                found.append((start, end, prob))
        if not found:
            continue
        not_names = [m.span() for m in WRITTEN_PLACEHOLDER.finditer(text)] + list(covered(post_id))
        for start, end, prob in _in_original(document, found):
            piece = text[start:end]
            if not _LETTER.search(piece) or piece.lower() in stop_words or any(
                    a < end and start < b for a, b in not_names):
                continue
            yield NearMiss(post_id, start, end, piece, prob)


def _in_original(document: Document, found) -> List[tuple]:
    """``(start, end, prob)`` with offsets into the post's own text."""
    from ..spans import Span
    spans = document.to_original([Span("NAME", s, e, p, "crf") for s, e, p in found])
    return [(span.start, span.end, span.score) for span in spans]
