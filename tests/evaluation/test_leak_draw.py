"""The sample of a scrubbed dump to mark (mmbdeid.evaluation.leak_draw): quotas proportional
to each stratum and unbiased, the same sample for the same seed, every drawn record whole,
the settings file, and a dump that changes between the passes or repeats a drawn id
refused."""
import hashlib
import json
import random

import pytest

from mmbdeid.errors import InputError
from mmbdeid.evaluation import leak_draw
from mmbdeid.evaluation.leak_draw import (SampleSize, allocate, draw_sample,
                                          meta_path_for)
from jsonl_files import read_jsonl, write_jsonl


class _Start:
    """A stand-in random source whose ``randrange`` gives one chosen start."""

    def __init__(self, start):
        self.start = start

    def randrange(self, total):
        assert 0 <= self.start < total
        return self.start


SIZES = [  # stratum sizes, n
    {"a": 592, "b": 217, "c": 191}, 299,
    {"a": 5, "b": 5, "c": 5, "d": 5}, 2,
    {"one": 10}, 10,
    {"x": 1, "y": 1000, "z": 3}, 17,
]


@pytest.mark.parametrize("sizes, n", list(zip(SIZES[::2], SIZES[1::2])))
def test_quotas_sum_to_n_round_each_share_and_are_unbiased(sizes, n):
    total = sum(sizes.values())
    mean = dict.fromkeys(sizes, 0)
    for start in range(total):          # every start: the expectation, exactly
        allocation = allocate(sizes, n, _Start(start))
        assert sum(allocation.values()) == n
        for key, size in sizes.items():
            assert allocation[key] in (n * size // total, -(-n * size // total))
            mean[key] += allocation[key]
    # summed over every start, each quota is n * size: its mean is n * size / total
    assert mean == {key: n * size for key, size in sizes.items()}


def _posts(count=200, boards=("a", "a", "a", "b", "c")):
    rows = []
    for i in range(count):
        board = boards[i % len(boards)]
        row = {"id": "p%d" % i, "text": "post %d [NAME]" % i, "board": board,
               "thread": "%s-%d" % (board, i // 9), "score": i * 0.5,
               "tags": ["x", i], "note": None}
        if i % 11 == 0:
            del row["thread"]            # posts without a thread: a stratum of their own
        rows.append(row)
    return rows


def _draw(tmp_path, posts, n=40, by="board", seed=3, name="sample.jsonl"):
    dump = write_jsonl(tmp_path / "scrubbed.jsonl", posts)
    sample = str(tmp_path / name)
    summary = draw_sample(dump, sample, "jsonl", meta_path_for(sample), SampleSize(n, "n"),
                          by, seed)
    return summary, read_jsonl(sample), json.loads(open(meta_path_for(sample)).read())


def test_the_same_seed_draws_the_same_sample_and_another_seed_another(tmp_path):
    posts = _posts()
    first = _draw(tmp_path, posts, seed=5)[1]
    again = _draw(tmp_path, posts, seed=5, name="again.jsonl")[1]
    other = _draw(tmp_path, posts, seed=6, name="other.jsonl")[1]
    assert first == again
    assert first != other


@pytest.mark.parametrize("by", ["board", "thread", "none"])
def test_every_drawn_record_is_whole_in_the_dumps_order_and_strata_proportional(tmp_path,
                                                                                 by):
    posts = _posts()
    summary, sample, meta = _draw(tmp_path, posts, n=50, by=by)
    by_id = {post["id"]: post for post in posts}
    assert summary.drawn == len(sample) == 50
    assert all(record == by_id[record["id"]] for record in sample)   # fields, types, order
    positions = [int(record["id"][1:]) for record in sample]
    assert positions == sorted(positions)
    assert meta["ids"] == [record["id"] for record in sample]
    if by != "none":
        sizes = {}
        for post in posts:
            sizes[post.get(by, "")] = sizes.get(post.get(by, ""), 0) + 1
        drawn = {}
        for record in sample:
            drawn[record.get(by, "")] = drawn.get(record.get(by, ""), 0) + 1
        for key, size in sizes.items():
            assert drawn.get(key, 0) in (50 * size // 200, -(-50 * size // 200))
        assert summary.strata == len(sizes)


def test_the_settings_file_names_the_dump_and_the_draw(tmp_path):
    summary, sample, meta = _draw(tmp_path, _posts(), n=30, seed=9)
    dump = tmp_path / "scrubbed.jsonl"
    assert meta["kind"] == "mmbdeid estimate draw"
    assert meta["scrubbed"] == {"file": str(dump), "records": 200,
                                "sha256": hashlib.sha256(dump.read_bytes()).hexdigest()}
    assert (meta["seed"], meta["by"], meta["drawn"], meta["strata"]) == (9, "board", 30, 3)
    assert meta["size"] == {"rule": "n", "requested": 30}
    assert [row["stratum"] for row in meta["by_stratum"]] == ["a", "b", "c"]
    assert sum(row["drawn"] for row in meta["by_stratum"]) == 30
    assert meta["text_sha256"] == [hashlib.sha256(r["text"].encode()).hexdigest()[:16]
                                   for r in sample]


def test_more_posts_asked_than_the_dump_has_draws_them_all(tmp_path):
    posts = _posts(12)
    summary, sample, _ = _draw(tmp_path, posts, n=500)
    assert (summary.records, summary.drawn) == (12, 12)
    assert sample == posts


def test_memory_holds_the_sample_not_the_dump(tmp_path, monkeypatch):
    """What the draw keeps between the passes is the drawn posts' positions, n of them,
    and a count per stratum: not the dump's records (it is streamed twice)."""
    posts = _posts(300)
    kept = []
    real = leak_draw.chosen_positions
    monkeypatch.setattr(leak_draw, "chosen_positions",
                        lambda *a: kept.append(real(*a)) or kept[-1])
    _draw(tmp_path, posts, n=20, by="thread")
    assert sum(len(positions) for positions in kept[0].values()) == 20


def test_a_dump_that_changes_between_the_passes_is_refused(tmp_path, monkeypatch):
    posts = _posts(60)
    real = leak_draw.count_strata

    def count_then_append(source, by):
        sizes = real(source, by)
        with open(source, "a", encoding="utf-8") as handle:       # between the passes
            handle.write(json.dumps({"id": "late", "text": "x", "board": "a"}) + "\n")
        return sizes
    monkeypatch.setattr(leak_draw, "count_strata", count_then_append)
    with pytest.raises(InputError, match="changed while it was read"):
        _draw(tmp_path, posts, n=60)
    assert not (tmp_path / "sample.jsonl").exists()
    assert not (tmp_path / "sample.meta.json").exists()


def test_a_drawn_id_repeated_is_refused_with_its_lines(tmp_path):
    posts = [{"id": "same" if i in (2, 7) else "p%d" % i, "text": "t"} for i in range(10)]
    with pytest.raises(InputError) as raised:
        _draw(tmp_path, posts, n=10, by="none")
    assert str(raised.value).endswith(":8: id 'same' is also the id of the post on line 3: "
                                      "the drawn posts need distinct ids, for their marks "
                                      "to be matched; no sample written")
    assert not (tmp_path / "sample.jsonl").exists()


@pytest.mark.parametrize("sample, meta", [
    ("sample.jsonl", "sample.meta.json"), ("out/s.jsonl.gz", "out/s.meta.json"),
    ("s.ndjson", "s.meta.json"), ("s", "s.meta.json"), ("s.meta.json", "s.meta.meta.json"),
])
def test_the_settings_file_is_beside_the_sample(sample, meta):
    assert meta_path_for(sample) == meta


def test_the_draw_uses_only_the_seeded_generator(tmp_path, monkeypatch):
    """The global random state plays no part: scrambling it changes nothing."""
    posts = _posts()
    first = _draw(tmp_path, posts, seed=2)[1]
    random.seed(12345)
    assert _draw(tmp_path, posts, seed=2, name="again.jsonl")[1] == first
