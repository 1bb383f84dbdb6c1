"""The bundled default model on medical words next to names.

``corpora_samples/medical_vs_names.annotated.jsonl``: 34 fictional posts written for this
test (eponymous conditions, drug nicknames, medical abbreviations, kinship words and titles
side by side with names). Besides the usual gold ``spans`` (NAME), each record lists in
``keep`` the medical, drug, kinship and title words that must survive scrubbing.
"""
import pytest

from keep_samples import by_post, leaked, lost, read_sample, scrub_sample

RECORDS = read_sample("medical_vs_names.annotated.jsonl")

# Names the default model (as shipped when this test was written) does not tag and no rule
# catches: the CRF itself misses them. Kept as expected failures until the model is retrained.
# Gold names the bundled model's CRF misses (none with the current default model; list a
# post here, with the reason, if a retrained model loses one, rather than weakening the test).
CRF_MISSES: dict = {}


@pytest.fixture(scope="module")
def scrubbed(default_tagger):
    return scrub_sample(RECORDS, default_tagger)


def test_sample_shape():
    assert 25 <= len(RECORDS) <= 40
    for record in RECORDS:
        text = record["text"]
        assert {"id", "board", "thread", "author", "text", "spans", "keep"} <= set(record)
        assert all(s["label"] == "NAME" and 0 <= s["start"] < s["end"] <= len(text)
                   for s in record["spans"])
        assert all(text[k["start"]:k["end"]] == k["text"] for k in record["keep"])
    assert len({record["id"] for record in RECORDS}) == len(RECORDS)


@pytest.mark.parametrize("record", by_post(RECORDS, CRF_MISSES))
def test_every_gold_name_token_is_removed(scrubbed, record):
    document, spans = scrubbed[record["id"]]
    assert leaked(record, document, spans) == []


@pytest.mark.parametrize("record", by_post(RECORDS))
def test_every_medical_kinship_and_title_word_is_kept(scrubbed, record):
    assert lost(record, scrubbed[record["id"]][1]) == []
