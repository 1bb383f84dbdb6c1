"""The bundled default model on medical words next to names.

``corpora_samples/medical_vs_names.annotated.jsonl``: 34 fictional posts written for this
test (eponymous conditions, drug nicknames, medical abbreviations, kinship words and titles
side by side with names). Besides the usual gold ``spans`` (NAME), each record lists in
``keep`` the medical, drug, kinship and title words that must survive scrubbing.
"""
import json
from pathlib import Path

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.tagger import NameTagger, default_model_path
from mmbdeid.text.document import Document

SAMPLE = Path(__file__).resolve().parents[1] / "corpora_samples" / \
    "medical_vs_names.annotated.jsonl"
RECORDS = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()
           if line.strip()]

# Names the default model (as shipped when this test was written) does not tag and no rule
# catches: the CRF itself misses them. Kept as expected failures until the model is retrained.
# Gold names the bundled model's CRF misses (none with the current default model; list a
# post here, with the reason, if a retrained model loses one, rather than weakening the test).
CRF_MISSES: dict = {}


@pytest.fixture(scope="module")
def scrubbed():
    """Post id -> (document, spans) from the standard scrub chain with the default model
    and the sample's own corpus statistics."""
    documents = [Document.from_post(record) for record in RECORDS]
    analyzer = Analyzer.build(NameTagger.load(default_model_path()),
                              CorpusStats.build(documents))
    return {record["id"]: (document, analyzer.analyze(document))
            for record, document in zip(RECORDS, documents)}


def removed(spans, start, end):
    return any(span.start < end and start < span.end for span in spans)


def test_sample_shape():
    assert 25 <= len(RECORDS) <= 40
    for record in RECORDS:
        text = record["text"]
        assert {"id", "board", "thread", "author", "text", "spans", "keep"} <= set(record)
        assert all(s["label"] == "NAME" and 0 <= s["start"] < s["end"] <= len(text)
                   for s in record["spans"])
        assert all(text[k["start"]:k["end"]] == k["text"] for k in record["keep"])
    assert len({record["id"] for record in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("record", [
    pytest.param(r, id=r["id"], marks=pytest.mark.xfail(strict=False, reason=CRF_MISSES[r["id"]]))
    if r["id"] in CRF_MISSES else pytest.param(r, id=r["id"]) for r in RECORDS])
def test_every_gold_name_token_is_removed(scrubbed, record):
    document, spans = scrubbed[record["id"]]
    leaked = [document.text[start:end] for start, end in document.offsets
              if any(g["start"] <= start and end <= g["end"] for g in record["spans"])
              and document.text[start:end].isalnum() and not removed(spans, start, end)]
    assert leaked == []


@pytest.mark.parametrize("record", [pytest.param(r, id=r["id"]) for r in RECORDS])
def test_every_medical_kinship_and_title_word_is_kept(scrubbed, record):
    document, spans = scrubbed[record["id"]]
    lost = [k["text"] for k in record["keep"] if removed(spans, k["start"], k["end"])]
    assert lost == []
