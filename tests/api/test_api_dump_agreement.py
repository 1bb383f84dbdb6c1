"""One path for a post (issue 32): the Python API and ``mmbdeid scrub`` find the same spans
in the same posts, and the operator replaces the same parts (``Replaced.parts``, written
to the spans file as a mention's ``tokens``), where the API gave the operator its merged
mention spans and the dump its token spans."""
import json

import pytest

import mmbdeid
from mmbdeid.cli.entry import main
from mmbdeid.jobs.passes import spans_line
from mmbdeid.output.operators import PlaceholderOperator

from paths import SAMPLE_CORPUS


class RecordingOperator(PlaceholderOperator):
    """Placeholders, keeping what each post's rewrite replaced."""

    def __init__(self):
        self.replaced = []

    def rewrite(self, fields, spans):
        record, replaced = super().rewrite(fields, spans)
        self.replaced.append(replaced)
        return record, replaced


@pytest.fixture(scope="module")
def dump_run(tmp_path_factory):
    """The sample scrubbed by the command line: (texts, spans lines) by post id."""
    folder = tmp_path_factory.mktemp("dump")
    out, spans = folder / "out.jsonl", folder / "spans.jsonl"
    assert main(["scrub", SAMPLE_CORPUS, "-o", str(out), "--spans", str(spans), "--quiet",
                 "--jobs", "1"]) == 0
    texts = {line["id"]: line["text"] for line in map(json.loads, out.open())}
    return texts, {json.loads(line)["id"]: line for line in spans.open()}


@pytest.fixture(scope="module")
def records():
    with open(SAMPLE_CORPUS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_the_api_replaces_the_parts_the_dump_replaces(dump_run, records):
    texts, spans_lines = dump_run
    operator = RecordingOperator()
    scrubbed = list(mmbdeid.Scrubber(mode=operator).scrub_records(records))
    assert len(operator.replaced) == len(records)
    for record, replaced, output in zip(records, operator.replaced, scrubbed):
        assert spans_line(record["id"], replaced) == spans_lines[record["id"]], record["id"]
        assert output["text"] == texts[record["id"]], record["id"]


def test_the_api_spans_are_the_dump_mentions(dump_run, records):
    _, spans_lines = dump_run
    found = mmbdeid.Scrubber().analyze_many(records)
    for record, spans in zip(records, found):
        written = json.loads(spans_lines[record["id"]])["spans"]
        assert [(s.start, s.end, s.label) for s in spans] == \
            [(e["start"], e["end"], e["label"]) for e in written], record["id"]
