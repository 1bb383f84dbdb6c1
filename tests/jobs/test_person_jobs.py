"""The person modes' work split between the main process and the workers (issue 22): the
map, the scrubbed dump and the spans file are byte-identical whatever --jobs is, and the
rewriting of the posts (all but linking each mention to its person) runs in the workers."""
import os
import sys

import pytest

from mmbdeid.cli import main
from mmbdeid.jobs import chunks, passes, person_pass

from paths import BENCHMARKS
sys.path.insert(0, BENCHMARKS)
import synthetic_dump  # noqa: E402


def small_chunks(items, size=None):
    return chunks.chunked(items, 7)


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    """Board-shaped fictional posts, half of them by authors who post once."""
    directory = tmp_path_factory.mktemp("people")
    path = str(directory / "dump.jsonl")
    synthetic_dump.generate(60, path, seed=22, authors=8)
    with open(path, encoding="utf-8") as handle:
        lines = handle.readlines()
    distinct = str(directory / "distinct.jsonl")
    synthetic_dump.generate(60, distinct, seed=23, distinct_authors=True)
    with open(distinct, encoding="utf-8") as handle:
        lines += handle.readlines()
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    return path


def run(dump, *args):
    stats = os.path.join(os.path.dirname(dump), "dump.stats")
    assert main([args[0], dump, "--stats", stats, "--quiet"] + [str(a) for a in args[1:]]) == 0


@pytest.mark.parametrize("mode", ["pseudonym", "surrogate"])
def test_person_modes_are_the_same_whatever_the_jobs(tmp_path, dump, mode, monkeypatch):
    # chunks of 7 posts: many chunks, done by both workers, some out of order
    monkeypatch.setattr(passes, "chunked", small_chunks)
    monkeypatch.setattr(person_pass, "chunked", small_chunks)
    outputs = {}
    for jobs in (1, 2):
        out, spans = tmp_path / ("%d.jsonl" % jobs), tmp_path / ("%d.spans.jsonl" % jobs)
        people = tmp_path / ("%d.map" % jobs)
        run(dump, "scrub", "-o", out, "--spans", spans,
            "--mode", mode, "--jobs", jobs)
        run(dump, "link", "-o", people, "--jobs", jobs)
        outputs[jobs] = (out.read_bytes(), spans.read_bytes(), people.read_bytes())
    assert outputs[1] == outputs[2]
    scrubbed, spans, people = outputs[1]
    assert b'"person": "U' in spans and b'"person": "P' in spans     # members and others
    assert people.count(b"\nU") >= 60


def test_the_workers_find_the_mentions(tmp_path, dump, monkeypatch):
    """With two jobs the main process never looks for mentions itself: it only links the
    mentions the workers found and writes the values."""
    from mmbdeid.output import person_mentions
    calls = []
    original = person_mentions.MentionFinder.__call__

    def counted(self, text, spans, *context):
        calls.append(os.getpid())
        return original(self, text, spans, *context)

    monkeypatch.setattr(person_mentions.MentionFinder, "__call__", counted)
    out = tmp_path / "out.jsonl"
    run(dump, "scrub", "-o", out, "--mode", "pseudonym", "--jobs", 2)
    assert calls == []                       # (the workers' calls are in their processes)
    run(dump, "scrub", "-o", tmp_path / "one.jsonl", "--mode", "pseudonym",
        "--jobs", 1)
    assert len(calls) == 120 and set(calls) == {os.getpid()}
    assert (tmp_path / "one.jsonl").read_bytes() == out.read_bytes()


@pytest.mark.parametrize("command", [["scrub", "--mode", "pseudonym"], ["link"]])
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_linker_reads_the_mentions_the_workers_found(tmp_path, dump, monkeypatch,
                                                         command, jobs):
    """Pass 2's workers find each post's mentions for the linker, so the main process
    reads them instead of finding them again (the map and output are the same)."""
    from mmbdeid.people import linker
    calls = []
    original = linker.mentions_of

    def counted(text, spans):
        calls.append(text)
        return original(text, spans)

    out = tmp_path / "out"
    run(dump, command[0], "-o", out, "--jobs", jobs, *command[1:])
    monkeypatch.setattr(linker, "mentions_of", counted)
    again = tmp_path / "again"
    run(dump, command[0], "-o", again, "--jobs", jobs, *command[1:])
    assert calls == []
    assert again.read_bytes() == out.read_bytes()
