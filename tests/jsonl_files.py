"""JSON Lines helpers shared by the command-line tests."""
import json


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def read_jsonl(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def listed_token_probabilities(spans_path):
    """(post id, token start) -> prob from a spans file, one entry per token: a mention of
    several tokens lists each in its ``tokens``."""
    return {(record["id"], part["start"]): part["prob"]
            for record in read_jsonl(spans_path) for span in record["spans"]
            for part in span.get("tokens", [span])}


def expected_token_probabilities(posts, model_path, threshold):
    """(post id, token start) -> probability for every token that ``scrub --threshold
    THRESHOLD --spans`` must list: pattern tokens with 1.0, the others scoring above the
    threshold with their score in the whole chain of scrub (``evaluate --chain scrub``:
    the rule steps and the words a thread removed too, over all the posts at once; scrub
    pools a small input's statistics with the reference statistics, so the expectation
    does too)."""
    from mmbdeid.detect.analyzer import Analyzer
    from mmbdeid.detect.registry import STAGES
    from mmbdeid.model.reference import with_reference
    from mmbdeid.model.stats import CorpusStats
    from mmbdeid.model.tagger import NameTagger
    from mmbdeid.text.document import Document
    documents = [Document.from_post(post) for post in posts]
    analyzer = Analyzer.for_evaluation(NameTagger.load(model_path),
                                       with_reference(CorpusStats.build(documents)),
                                       stages=STAGES)
    analyzer.prepare(documents)
    expected = {}
    for post, document in zip(posts, documents):
        for score, (start, _), pattern in zip(analyzer.token_scores(document),
                                              document.original_offsets,
                                              document.pattern_labels):
            if pattern:                       # e-mail, URL, phone, handle: listed with 1.0
                expected[(post["id"], start)] = 1.0
            elif score > threshold:
                expected[(post["id"], start)] = score
    return expected


def unexpected_probabilities(listed, expected, threshold):
    """(post id, token start) -> (listed, expected) where the spans file disagrees with
    the evaluation chain: a token a rule step removes too scores 1.0 there (removed at any
    threshold) and lists its own probability where that is above the threshold."""
    import pytest
    return {key: (listed[key], expected[key]) for key in expected
            if listed[key] != pytest.approx(expected[key], abs=1e-6)
            and not (expected[key] == 1.0 and listed[key] > threshold)}
