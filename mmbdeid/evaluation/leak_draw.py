"""The random sample of a scrubbed dump whose marked posts estimate its leak share
(``mmbdeid estimate draw``): seeded, stratified by board or thread with proportional
allocation, in two passes over the dump (count each stratum, then draw), in memory that
grows with the sample and the number of strata, never with the dump.

Each stratum's quota n N_h / N is rounded up or down by one random start shared by all
strata (systematic rounding: a stratum is rounded up with a chance equal to its quota's
fraction, and the quotas add up to n exactly), so every post has the same chance n / N of
being drawn, small boards and threads too: the sample's share estimates the dump's without
weights. The drawn posts are written in the dump's order with all their fields; the
draw's settings, the dump's fingerprint and the drawn ids go to a JSON file beside it."""
import datetime
import hashlib
import json
import random
from typing import Dict, Iterator, List, NamedTuple, Optional, Set

from ..errors import InputError
from ..files.atomic import atomic_output
from ..files.corpora import file_sha256
from ..files.post_writer import post_output
from ..files.posts import Record, read_posts

STRATA = ("board", "thread", "none")
# Strata listed one by one in the settings file up to this many (else only those drawn
# from): a dump of a million threads would make it as long as the dump.
LISTED_STRATA = 1000
DRAW_KIND = "mmbdeid estimate draw"


class SampleSize(NamedTuple):
    """The sample size and the rule it came from (``n``, ``margin`` or ``upper-bound``,
    with the value given and, for a margin, the expected share)."""
    posts: int
    rule: str
    value: Optional[float] = None
    expected: Optional[float] = None

    def as_json(self) -> dict:
        settings = {"rule": self.rule, "requested": self.posts}
        if self.value is not None:
            settings[self.rule.replace("-", "_")] = self.value
        if self.rule == "margin":
            settings["expected_share"] = self.expected
        return settings


class DrawSummary(NamedTuple):
    records: int
    drawn: int
    strata: int


def stratum_of(record: Record, by: str) -> str:
    """A post's stratum: its board or thread (posts without one form a stratum of their
    own, the empty key), or one stratum for all (``none``)."""
    return "" if by == "none" else record.get(by)


def count_strata(source, by: str) -> Dict[str, int]:
    """Pass 1: the posts of each stratum, in the order the strata first appear."""
    sizes: Dict[str, int] = {}
    for record in read_posts(source):
        key = stratum_of(record, by)
        sizes[key] = sizes.get(key, 0) + 1
    return sizes


def allocate(sizes: Dict[str, int], n: int, rng: random.Random) -> Dict[str, int]:
    """Each stratum's share of ``n`` posts: its quota ``n * size / total`` rounded by one
    random start (in whole numbers, so no float error), the quotas summing to ``n``."""
    total = sum(sizes.values())
    start = rng.randrange(total)
    allocation, cumulative, before = {}, 0, 0
    for key, size in sizes.items():
        cumulative += size
        after = (n * cumulative + start) // total
        allocation[key] = after - before
        before = after
    return allocation


def chosen_positions(sizes: Dict[str, int], allocation: Dict[str, int],
                     rng: random.Random) -> Dict[str, Set[int]]:
    """Which posts of each stratum are drawn, by their position in it (0-based)."""
    return {key: set(rng.sample(range(sizes[key]), allocation[key]))
            for key in sizes if allocation[key]}


def drawn_records(source, by: str, chosen: Dict[str, Set[int]],
                  sizes: Dict[str, int]) -> Iterator[Record]:
    """Pass 2: the drawn posts, in the dump's order. A dump that changed since pass 1 is
    an error (the draw would not be the one its settings describe)."""
    seen: Dict[str, int] = {}
    for record in read_posts(source):
        key = stratum_of(record, by)
        position = seen.get(key, 0)
        seen[key] = position + 1
        if position in chosen.get(key, ()):
            yield record
    if seen != sizes:
        raise InputError("changed while it was read (its posts per stratum differ between "
                         "the two passes); no sample written", str(source))


def draw_sample(source, sample_path: str, sample_format: str, meta_path: str,
                size: SampleSize, by: str, seed: int) -> DrawSummary:
    """Draw ``size.posts`` posts of ``source`` (at most all of them) into ``sample_path``
    and write the draw's settings to ``meta_path``; both private (the sample is the
    scrubbed posts, any name left in them included), both written whole or not at all."""
    sizes = count_strata(source, by)
    total = sum(sizes.values())
    n = min(size.posts, total)
    rng = random.Random(seed)
    allocation = allocate(sizes, n, rng)
    chosen = chosen_positions(sizes, allocation, rng)
    ids: List[str] = []
    digests: List[str] = []
    lines: Dict[str, int] = {}
    with post_output(sample_path, sample_format, like=source, private=True) as writer:
        for record in drawn_records(source, by, chosen, sizes):
            if record.id in lines:
                raise InputError("id %r is also the id of the post on line %d: the drawn "
                                 "posts need distinct ids, for their marks to be matched; "
                                 "no sample written" % (record.id, lines[record.id]),
                                 str(source), record.line)
            lines[record.id] = record.line
            ids.append(record.id)
            digests.append(text_digest(record.text))
            writer.write(record)
        settings = draw_settings(source, sample_path, size, by, seed, sizes, allocation, ids)
        settings["text_sha256"] = digests
        with atomic_output(meta_path, private=True) as handle:
            handle.write(json.dumps(settings, indent=1, ensure_ascii=False) + "\n")
    return DrawSummary(total, len(ids), len(sizes))


def text_digest(text: str) -> str:
    """A drawn post's text, fingerprinted: the report checks that the marked text is the
    drawn one (not the dump before scrubbing, nor a later scrub's)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def draw_settings(source, sample_path: str, size: SampleSize, by: str, seed: int,
                  sizes: Dict[str, int], allocation: Dict[str, int], ids: List[str]) -> dict:
    """What the settings file holds: what was drawn from (name, records, SHA-256), how
    (seed, strata, size and its rule, allocation) and the drawn ids, in the sample's order
(the texts' fingerprints are added beside them)."""
    from .. import __version__
    listed = [{"stratum": key, "posts": count, "drawn": allocation[key]}
              for key, count in sizes.items()
              if len(sizes) <= LISTED_STRATA or allocation[key]]
    return {
        "kind": DRAW_KIND,
        "mmbdeid_version": __version__,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "scrubbed": {"file": str(source), "records": sum(sizes.values()),
                     "sha256": file_sha256(source)},
        "sample_file": str(sample_path),
        "seed": seed,
        "by": by,
        "size": size.as_json(),
        "allocation": "proportional: each stratum's quota n*N_h/N rounded up or down at "
                      "random (systematic rounding), so every post had the same chance "
                      "n/N of being drawn",
        "strata": len(sizes),
        "strata_listed": "all" if len(sizes) <= LISTED_STRATA else "drawn from",
        "by_stratum": listed,
        "drawn": len(ids),
        "ids": ids,
    }


def meta_path_for(sample_path: str) -> str:
    """The settings file beside a sample: ``sample.jsonl`` -> ``sample.meta.json``."""
    lower = sample_path.lower()
    for ending in (".gz", ".jsonl", ".ndjson", ".json"):
        if lower.endswith(ending):
            sample_path, lower = sample_path[:-len(ending)], lower[:-len(ending)]
    return sample_path + ".meta.json"
