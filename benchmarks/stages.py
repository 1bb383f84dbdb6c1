"""Where ``mmbdeid scrub`` spends its time, stage by stage (``bench_scrub.py --profile``).

The two passes of a placeholder-mode scrub run here in this process, on one core, with the
same library calls as the CLI's workers (``jobs/local.py``: ``count_chunk`` and
``ChunkWorker``), each stage timed on its own:

pass 1: reading and parsing records, tokenising, counting, building the statistics store;
pass 2: reading and parsing again, tokenising, type look-ups (word lists and usernames by
edit distance, term statistics), the CRF (emission scores, then marginals), every other
detector of the analyzer chain (patterns, filters, rules), stitching the placeholder text,
and writing the output line.

A stage's time is wall time around its calls (``time.perf_counter``), so the figures add up
to the run's; nothing is sampled. The per-token figures are per whitespace token.
"""
import contextlib
import json
import os
import tempfile
import time
from collections import OrderedDict


class StageClock:
    """Seconds per named stage, in first-use order. Stages nest: time in an inner stage
    (the CRF's, inside the chain or the batch) counts for it alone."""

    def __init__(self):
        self.seconds = OrderedDict()
        self._inner = []            # per open stage: seconds spent in stages inside it

    @contextlib.contextmanager
    def stage(self, name):
        self.seconds.setdefault(name, 0.0)
        self._inner.append(0.0)
        started = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - started
            inner = self._inner.pop()
            self.seconds[name] += elapsed - inner
            if self._inner:
                self._inner[-1] += elapsed

    def timed(self, name, function):
        """``function`` wrapped so that its calls count towards ``name``."""
        def wrapper(*args, **kwargs):
            with self.stage(name):
                return function(*args, **kwargs)
        return wrapper


def _timed_crf(clock, detector):
    """Split the CRF detector's time into emission scores and marginals, whichever backend
    it runs (the batched tagger's two steps, or the crfsuite path's featurizer and
    marginals)."""
    backend = detector.backend
    if hasattr(backend, "emissions"):
        backend.emissions = clock.timed("CRF emission scores", backend.emissions)
        backend.marginals = clock.timed("CRF marginals", backend.marginals)
        return
    featurizer, chain = backend.featurizer, getattr(backend, "chain", None)
    iter_items = featurizer.iter_items

    def items_timed(document):
        with clock.stage("CRF emission scores"):
            return list(iter_items(document))
    featurizer.iter_items = items_timed
    if chain is not None:
        chain.marginals = clock.timed("CRF marginals", chain.marginals)


def profile_stages(dump, tagger=None):
    """(clock, whitespace tokens, posts) for a placeholder-mode scrub of ``dump``."""
    from mmbdeid.detect.analyzer import Analyzer
    from mmbdeid.files.posts import read_posts
    from mmbdeid.model.reference import with_reference
    from mmbdeid.model.counting import PartialCounts
    from mmbdeid.model.stats import CorpusStats
    from mmbdeid.model.stats_builder import StatsBuilder
    from mmbdeid.model.tagger import NameTagger
    from mmbdeid.output.operators import PlaceholderOperator
    from mmbdeid.text.document import Document

    chunk_posts = 200
    clock = StageClock()
    ws_tokens = posts = 0

    def chunks(stage):
        records = read_posts(dump)
        while True:
            with clock.stage(stage):
                chunk = []
                for record in records:
                    chunk.append(record.fields)
                    if len(chunk) == chunk_posts:
                        break
            if not chunk:
                return
            yield chunk

    with tempfile.TemporaryDirectory(prefix="mmbdeid-profile-") as scratch:
        stats_path = os.path.join(scratch, "stats.sqlite")
        builder = StatsBuilder(stats_path)
        for chunk in chunks("1 read + parse"):
            with clock.stage("1 tokenise"):
                documents = [Document.from_post(fields) for fields in chunk]
            with clock.stage("1 count"):
                counts = PartialCounts()
                for document in documents:
                    counts.add(document)
            with clock.stage("1 statistics store"):
                builder.add_counts(counts)
        with clock.stage("1 statistics store"):
            builder.finish().close()

        with clock.stage("2 model + statistics load"):
            options = {} if tagger is None else {"tagging": tagger}
            analyzer = Analyzer.build(NameTagger.load(), with_reference(
                CorpusStats.load(stats_path)), **options)
        operator = PlaceholderOperator()
        crf = next(d for d in analyzer.detectors if type(d).__name__ == "CrfDetector")
        _timed_crf(clock, crf)
        for detector in analyzer.detectors:
            if detector is not crf:
                detector.detect = clock.timed("2 other detectors", detector.detect)
        output = os.path.join(scratch, "out.jsonl")
        with open(output, "w", encoding="utf-8") as out:
            for chunk in chunks("2 read + parse"):
                with clock.stage("2 tokenise"):
                    documents = [Document.from_post(fields) for fields in chunk]
                with clock.stage("2 type look-ups (prefetch)"):
                    analyzer.prefetch(documents)
                for fields, document in zip(chunk, documents):
                    with clock.stage("2 chain (merging spans)"):
                        spans = analyzer.analyze(document)
                    with clock.stage("2 output stitching"):
                        record, _ = operator.rewrite(fields, spans)
                    with clock.stage("2 write"):
                        out.write(json.dumps(record, ensure_ascii=False) + "\n")
                    ws_tokens += len(fields["text"].split())
                    posts += 1
    return clock, ws_tokens, posts


def print_profile(clock, ws_tokens, posts, title):
    total = sum(clock.seconds.values())
    print("%s: %d posts, %d whitespace tokens, %.1f s on one core (%.0f tokens/s)" % (
        title, posts, ws_tokens, total, ws_tokens / total if total else 0.0))
    print("  %-28s %8s %7s %12s" % ("stage", "seconds", "share", "us/token"))
    for name, seconds in clock.seconds.items():
        print("  %-28s %8.2f %6.1f%% %12.2f" % (name, seconds, 100 * seconds / total,
                                               1e6 * seconds / ws_tokens if ws_tokens else 0))
