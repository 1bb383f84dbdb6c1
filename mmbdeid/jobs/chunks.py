"""The work on one chunk of posts, the same in both engines (local processes, Dask
workers): pass 1's counts (:func:`count_chunk`), pass 2's detection (:class:`ChunkWorker`,
whose results are :class:`Detected`), and the cutting of a stream of posts into chunks."""
from typing import Iterable, Iterator, List, NamedTuple, Optional, Sequence

from ..model.counting import PartialCounts
from ..spans import Span
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


def count_chunk(posts: Sequence[dict]) -> PartialCounts:
    """Pass 1: the statistics counts of some posts."""
    counts = PartialCounts()
    for fields in posts:
        counts.add(Document.from_post(fields))
    return counts


class Detected(NamedTuple):
    """Pass 2's result for one post."""
    spans: List[Span]           # the analyzer's spans, one per detected token or phrase
    tokens: int
    text: Optional[str]         # the placeholder text, when the workers render it
    # what each placeholder of ``text`` replaced: a mention (adjacent name tokens joined)
    # with its parts (:class:`mmbdeid.output.operators.Replaced`), when ``text`` is given
    replaced: Optional[list] = None


class ChunkWorker:
    """Pass 2 for one process: the model and statistics are opened once, then each chunk's
    posts are analysed (:class:`~mmbdeid.detect.analyzer.Analyzer`) and, in placeholder
    mode, rewritten; adjacent name tokens become one placeholder there, after the
    analyzer, whose spans stay one per token."""

    def __init__(self, detection: DetectionConfig, stats_path: str):
        from ..detect.analyzer import Analyzer
        from ..model.reference import with_reference
        from ..model.stats import CorpusStats
        from ..model.tagger import NameTagger
        from ..output.operators import PlaceholderOperator
        self.analyzer = Analyzer.build(NameTagger.load(detection.model_path),
                                       with_reference(CorpusStats.load(stats_path)),
                                       threshold=detection.threshold,
                                       allow=detection.allow, deny=detection.deny,
                                       tagging=detection.tagging, steps=detection.steps,
                                       consistency=detection.consistency,
                                       authors=detection.authors, kinds=detection.kinds)
        self.operator = PlaceholderOperator() if detection.render_placeholders else None

    def __call__(self, posts: Sequence[dict]) -> List[Detected]:
        documents = [Document.from_post(fields) for fields in posts]
        self.analyzer.prefetch(documents)
        results = []
        for fields, document in zip(posts, documents):
            spans = self.analyzer.analyze(document)
            text = replaced = None
            if self.operator is not None:
                record, replaced = self.operator.rewrite(fields, spans)
                text = record["text"]
            results.append(Detected(spans, len(document), text, replaced))
        return results
