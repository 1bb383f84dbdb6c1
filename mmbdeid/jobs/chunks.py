"""The work on one chunk of posts, the same in both engines (local processes, Dask
workers): pass 1's counts (:func:`count_chunk`), pass 2's detection (:class:`ChunkWorker`,
whose results are :class:`Detected`), and the cutting of a stream of posts into chunks."""
from collections import Counter
from typing import Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..model.counting import PartialCounts
from ..spans import Span, mention_groups
from ..text.document import Document
from .config import DetectionConfig

CHUNK_POSTS = 200


def chunked(items: Iterable, size: int = CHUNK_POSTS) -> Iterator[list]:
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def mention_counts(text: str, spans: List[Span]) -> Counter:
    """What every summary counts, by label: one per mention, adjacent name spans joined as
    the placeholders join them (``Mary Jane`` is one, as it is one ``[NAME]``), and one
    per other span (an e-mail, a URL, a phone number). The one count of ``scrub``,
    ``link`` and ``review``, so that they agree on the same dump; the workers count."""
    return Counter(group[0].label for group in mention_groups(text, spans))


def count_chunk(posts: Sequence[dict]) -> PartialCounts:
    """Pass 1: the statistics counts of some posts."""
    counts = PartialCounts()
    for fields in posts:
        counts.add(Document.from_post(fields))
    return counts


class Detected(NamedTuple):
    """What detection finds in one post, the one result type from the workers (pass 2, the
    consistency pass) to the writers: the main process adds the post's ``fields`` (the
    workers do not send them back)."""
    spans: List[Span]           # the analyzer's spans, one per detected token or phrase
    tokens: int
    text: Optional[str]         # the placeholder text, when the workers render it
    # what each placeholder of ``text`` replaced: a mention (adjacent name tokens joined)
    # with its parts (:class:`mmbdeid.output.operators.Replaced`), when ``text`` is given
    replaced: Optional[list] = None
    # with ``DetectionConfig.leftovers`` (review --html): the near-misses, and the unknown
    # capitalised words of a post with no span (:mod:`mmbdeid.detect.leftovers`)
    near: Optional[list] = None
    unknown: Optional[list] = None
    # the other fields the operator rewrote, when ``text`` is given (the author, in the mask
    # and hash modes); only those travel back from the worker
    rewritten: Optional[dict] = None
    found: Optional[Counter] = None     # :func:`mention_counts` of ``spans``
    # with ``DetectionConfig.mentions`` (the person modes, link): the post's person
    # mentions as the linker reads them (:func:`mmbdeid.people.mentions.mentions_of`)
    mentions: Optional[list] = None
    fields: Optional[dict] = None       # the post's, added in the main process


def rewrite(operator, fields: dict, spans: List[Span]) -> Tuple[str, list, Optional[dict]]:
    """A post rewritten by ``operator``: its text, what was replaced, and the other fields
    that changed (None: none)."""
    record, replaced = operator.rewrite(fields, spans)
    changed = {name: value for name, value in record.items()
               if name != "text" and (name not in fields or fields[name] != value)}
    return record["text"], replaced, changed or None


class ChunkWorker:
    """Pass 2 for one process: the model and statistics are opened once, then each chunk's
    posts are analysed (:class:`~mmbdeid.detect.analyzer.Analyzer`) and, in a per-post
    mode (placeholder, mask, hash), rewritten; adjacent name tokens become one placeholder
    there, after the analyzer, whose spans stay one per token."""

    def __init__(self, detection: DetectionConfig, stats_path: str):
        from ..detect.analyzer import Analyzer
        from ..model.reference import with_reference
        from ..model.stats import CorpusStats
        from ..model.loaded import loaded_model
        from ..output.operators import post_operator
        # the run's own file (a private copy of --stats, or the store it built)
        stats = CorpusStats.load(stats_path, immutable=True)
        self.analyzer = Analyzer.build(loaded_model(detection.model_path),
                                       with_reference(stats), detection.chain)
        self.operator = (post_operator(detection.mode, detection.hash_key)
                         if detection.render_placeholders else None)
        self.mentions_of = None
        if detection.mentions:
            from ..people.mentions import mentions_of
            self.mentions_of = mentions_of
        self.leftovers = None
        if detection.leftovers:
            from ..detect.leftovers import near_misses, unknown_words
            self.leftovers = (near_misses, unknown_words)

    def __call__(self, posts: Sequence[dict]) -> List[Detected]:
        documents = [Document.from_post(fields) for fields in posts]
        self.analyzer.prefetch(documents)
        results = []
        for fields, document in zip(posts, documents):
            spans = self.analyzer.analyze(document)
            text = replaced = rewritten = None
            if self.operator is not None:
                text, replaced, rewritten = rewrite(self.operator, fields, spans)
            near = unknown = None
            if self.leftovers is not None:
                near_misses, unknown_words = self.leftovers
                near = near_misses(self.analyzer.detectors, document, spans)
                unknown = [] if spans else unknown_words(document)
            mentions = (self.mentions_of(fields["text"], spans)
                        if self.mentions_of is not None else None)
            results.append(Detected(spans, len(document), text, replaced, near, unknown,
                                    rewritten, mention_counts(fields["text"], spans),
                                    mentions))
        return results
