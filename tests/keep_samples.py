"""Fictional annotated samples that list, besides the gold names (``spans``), the words that
must survive (``keep``): read, scrubbed with the default model and the standard chain, and
asked what leaked and what was lost. Shared by ``test_medical_sample.py`` and
``test_not_persons_sample.py``."""
import json
from pathlib import Path

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats
from mmbdeid.text.document import Document

from paths import SAMPLES as SAMPLES_DIR
SAMPLES = Path(SAMPLES_DIR)


def read_sample(name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def scrub_sample(records, tagger):
    """Post id -> (document, spans) from the standard scrub chain with ``tagger`` (the
    default model: conftest's ``default_tagger``) and the sample's own corpus statistics,
    pooled with the reference statistics as ``scrub`` pools a small input's."""
    documents = [Document.from_post(record) for record in records]
    analyzer = Analyzer.build(tagger,
                              with_reference(CorpusStats.build(documents)))
    return {record["id"]: (document, analyzer.analyze(document))
            for record, document in zip(records, documents)}


def removed(spans, start, end):
    return any(span.start < end and start < span.end for span in spans)


def leaked(record, document, spans):
    """The word tokens of the gold names left in place."""
    return [document.text[start:end] for start, end in document.offsets
            if any(g["start"] <= start and end <= g["end"] for g in record["spans"])
            and document.text[start:end].isalnum() and not removed(spans, start, end)]


def lost(record, spans):
    """The words to keep that were removed."""
    return [k["text"] for k in record["keep"] if removed(spans, k["start"], k["end"])]


def by_post(records, misses=None, strict=False):
    """One parameter per record, an expected failure (with its reason) where ``misses``
    lists the post."""
    misses = misses or {}
    return [pytest.param(r, id=r["id"], marks=pytest.mark.xfail(strict=strict,
                                                               reason=misses[r["id"]]))
            if r["id"] in misses else pytest.param(r, id=r["id"]) for r in records]
