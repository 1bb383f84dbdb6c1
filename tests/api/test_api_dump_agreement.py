"""One path for a post (issue 32): the Python API and ``mmbdeid scrub`` find the same spans
in the same posts, and the operator replaces the same parts (``Replaced.parts``, written
to the spans file as a mention's ``tokens``), where the API gave the operator its merged
mention spans and the dump its token spans. On the health-board sample and on the
thread-names sample (interleaved threads where the consistency pass adds spans), in each
per-post mode the API offers."""
import json

import pytest

import mmbdeid
from mmbdeid.cli.entry import main
from mmbdeid.jobs.passes import spans_line
from mmbdeid.output.operators import PlaceholderOperator

from paths import SAMPLE_CORPUS, SAMPLES

THREAD_NAMES = SAMPLES + "/thread_names.annotated.jsonl"
KEY = b"fictional hash key 0123456789"


def recording(operator):
    """``operator`` keeping what each post's rewrite replaced (in ``.replaced``)."""
    class Recording(type(operator)):
        def rewrite(self, fields, spans):
            record, replaced = super().rewrite(fields, spans)
            self.replaced.append(replaced)
            return record, replaced
    operator.__class__ = Recording
    operator.replaced = []
    return operator


def scrubbed_dump(folder, sample, *options):
    """``sample`` scrubbed by the command line: (output records, spans lines) by post id."""
    out, spans = folder / "out.jsonl", folder / "spans.jsonl"
    assert main(["scrub", sample, "-o", str(out), "--spans", str(spans), "--quiet",
                 "--jobs", "1", *options]) == 0
    written = {line["id"]: line for line in map(json.loads, out.open())}
    return written, {json.loads(line)["id"]: line for line in spans.open()}


def read_records(sample):
    with open(sample, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def dump_run(tmp_path_factory):
    """The sample scrubbed by the command line: (texts, spans lines) by post id."""
    written, spans = scrubbed_dump(tmp_path_factory.mktemp("dump"), SAMPLE_CORPUS)
    return {key: record["text"] for key, record in written.items()}, spans


@pytest.fixture(scope="module")
def records():
    return read_records(SAMPLE_CORPUS)


def test_the_api_replaces_the_parts_the_dump_replaces(dump_run, records):
    texts, spans_lines = dump_run
    operator = recording(PlaceholderOperator())
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


def test_the_thread_names_sample_has_spans_only_the_consistency_pass_adds(tmp_path):
    """The table below tests the pass: without it, it would test nothing of it."""
    _, spans_lines = scrubbed_dump(tmp_path, THREAD_NAMES)
    sources = {entry["source"] for line in spans_lines.values()
               for entry in json.loads(line)["spans"]}
    assert "consistency" in sources


@pytest.mark.parametrize("sample", [SAMPLE_CORPUS, THREAD_NAMES])
@pytest.mark.parametrize("mode, options", [
    ("placeholder", []),
    ("mask", ["--mode", "mask"]),
    ("hash", ["--mode", "hash", "--hash-key-file", "{key}"]),
])
def test_the_api_and_the_dump_agree_in_every_mode(tmp_path, sample, mode, options):
    key_file = tmp_path / "hash.key"
    key_file.write_bytes(KEY)
    written, spans_lines = scrubbed_dump(
        tmp_path, sample, *[option.format(key=key_file) for option in options])
    records = read_records(sample)
    scrubber = mmbdeid.Scrubber(mode=mode, hash_key=KEY if mode == "hash" else None)
    operator = recording(scrubber.operator)
    scrubbed = list(scrubber.scrub_records(records))
    for record, replaced, output in zip(records, operator.replaced, scrubbed):
        assert spans_line(record["id"], replaced) == spans_lines[record["id"]], record["id"]
        assert output == written[record["id"]], record["id"]
    # the one-post path: a post alone, through mmbdeid.scrub, as a dump of that post
    alone = records[0]
    assert mmbdeid.scrub(alone["text"], author=alone.get("author"),
                         thread=alone.get("thread"), board=alone.get("board"), mode=mode,
                         hash_key=KEY if mode == "hash" else None) == \
        scrubber.scrub_many([alone])[0]
