"""The bundled default model and the standard scrub chain on the name patterns of issue 19.

``corpora_samples/name_parts.annotated.jsonl``: 17 fictional posts in five threads,
written for this test (``tools/build_name_parts_sample.py``): signature blocks with middle
initials, particles, hyphen and apostrophe names, names in capitals, surname-first
headers, sign-off initials, names in hashtags, spelled with separators or masked. Every
gold name token must go; every word listed in ``keep`` (titles, the full stop after a
name, greetings and closing words, abbreviations, medical words, hashtags without a name)
must stay. This shows the code works on these patterns; it is no measure of accuracy.
"""
import importlib.util
import json
from pathlib import Path

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats
from mmbdeid.text.document import Document

from paths import SAMPLES, TOOLS
SAMPLE = Path(SAMPLES) / "name_parts.annotated.jsonl"
RECORDS = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()
           if line.strip()]


@pytest.fixture(scope="module")
def scrubbed(default_tagger):
    """Post id -> (document, spans) from the standard scrub chain with the default model
    and the sample's own corpus statistics (as ``mmbdeid scrub`` would build them)."""
    documents = [Document.from_post(record) for record in RECORDS]
    analyzer = Analyzer.build(default_tagger,
                              with_reference(CorpusStats.build(documents)))
    analyzer.prefetch(documents)
    return {record["id"]: (document, analyzer.analyze(document))
            for record, document in zip(RECORDS, documents)}


def removed(spans, start, end):
    return any(span.start < end and start < span.end for span in spans)


def test_the_shipped_file_is_what_the_script_builds():
    spec = importlib.util.spec_from_file_location(
        "build_name_parts_sample", Path(TOOLS) / "build_name_parts_sample.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    assert builder.jsonl() == SAMPLE.read_text(encoding="utf-8")


def test_sample_shape():
    assert len(RECORDS) == 17 and len({r["id"] for r in RECORDS}) == 17
    for record in RECORDS:
        text = record["text"]
        assert all(s["label"] == "NAME" and 0 <= s["start"] < s["end"] <= len(text)
                   for s in record["spans"])
        assert all(text[k["start"]:k["end"]] == k["text"] for k in record["keep"])


@pytest.mark.parametrize("record", [pytest.param(r, id=r["id"]) for r in RECORDS])
def test_every_gold_name_token_is_removed(scrubbed, record):
    document, spans = scrubbed[record["id"]]
    leaked = [document.text[start:end] for start, end in document.offsets
              if any(g["start"] <= start and end <= g["end"] for g in record["spans"])
              and any(c.isalnum() for c in document.text[start:end])
              and not removed(spans, start, end)]
    assert leaked == []


@pytest.mark.parametrize("record", [pytest.param(r, id=r["id"]) for r in RECORDS])
def test_every_other_listed_word_and_full_stop_is_kept(scrubbed, record):
    document, spans = scrubbed[record["id"]]
    lost = [k["text"] for k in record["keep"] if removed(spans, k["start"], k["end"])]
    assert lost == []
