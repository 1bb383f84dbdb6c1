"""bench_scrub.py --profile: the stage profiler runs both passes and accounts for every
stage of either tagger (its figures are the benchmark's business, not a test's)."""
import json
import sys

import pytest

from paths import BENCHMARKS
sys.path.insert(0, BENCHMARKS)
import stages  # noqa: E402
import synthetic_dump  # noqa: E402

STAGES = ["1 read + parse", "1 tokenise", "1 count", "1 statistics store",
          "2 model + statistics load", "2 read + parse", "2 tokenise",
          "2 type look-ups (prefetch)", "CRF emission scores", "CRF marginals",
          "2 chain (merging spans)", "2 other detectors", "2 output stitching", "2 write"]


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("profile") / "dump.jsonl")
    synthetic_dump.generate(60, path, seed=1)
    return path


@pytest.mark.parametrize("tagger", ["compiled", pytest.param("crfsuite", marks=pytest.mark.slow)])
def test_every_stage_is_timed(dump, tagger, capsys):
    clock, ws_tokens, posts = stages.profile_stages(dump, tagger)
    with open(dump, encoding="utf-8") as handle:
        texts = [json.loads(line)["text"] for line in handle]
    assert posts == len(texts) == 60
    assert ws_tokens == sum(len(text.split()) for text in texts)
    assert sorted(clock.seconds) == sorted(STAGES)
    assert all(seconds >= 0 for seconds in clock.seconds.values())
    assert clock.seconds["CRF emission scores"] > 0 and clock.seconds["CRF marginals"] > 0
    stages.print_profile(clock, ws_tokens, posts, tagger)
    printed = capsys.readouterr().out
    assert all(name in printed for name in STAGES)


def test_time_in_a_nested_stage_counts_for_it_alone(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(stages.time, "perf_counter", lambda: now[0])
    clock = stages.StageClock()
    with clock.stage("outer"):
        now[0] += 2.0
        with clock.stage("inner"):
            now[0] += 5.0
        now[0] += 1.0
    with clock.stage("inner"):
        now[0] += 0.5
    assert clock.seconds == {"outer": 3.0, "inner": 5.5}
