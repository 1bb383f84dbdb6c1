"""Frequency never makes a name safe (mmbdeid/model/name_ranks.py, issue 31): the rank
features of a term written like a name are capped, so a name repeated on 30 lines of one
board, inside a dump past the 20,000 tokens where the dump's own statistics take over, is
removed as it is when its post is scrubbed alone. The board posts are fictional, written for
this test; the rest of the dump is benchmarks/synthetic_dump.py's word salad."""
import json
import sys

import pytest

from mmbdeid.api import Scrubber
from mmbdeid.model.name_ranks import CappedRanks, rank_floor, written_like_a_name
from mmbdeid.model.stats_builder import THIN_DUMP_TOKENS
from mmbdeid.text.document import Document

from paths import BENCHMARKS
sys.path.insert(0, BENCHMARKS)
import synthetic_dump  # noqa: E402

BODY = ("I had my second infusion today and the nausea was milder than last time.",
        "The new dose seems to help with the night sweats, fingers crossed.",
        "Blood work came back fine, so the next cycle starts on Monday.",
        "Has anyone else had trouble sleeping on the steroids?",
        "Walked a mile today, first time since the surgery.")
# a member's signature on 30 lines of one post
SIGNED = {"board": "careboard", "thread": "care-signed", "author": "quietfern",
          "text": "\n".join("%s\nMarta Kessling" % BODY[i % 5] for i in range(30))}
# a nurse 30 members quote, one post each
THANKED = [{"board": "careboard", "thread": "care-t%d" % (i // 3), "author": "member%d" % i,
            "text": BODY[i % 5] + " Quenby said it is normal and we will check again next week."}
           for i in range(30)]


@pytest.mark.parametrize("capitalised, mid, name_like", [
    (0, 0, True),       # never seen mid-sentence: a sentence start, a signature line
    (3, 4, True), (5, 10, True),
    (1, 4, False), (0, 5, False),
])
def test_written_like_a_name(capitalised, mid, name_like):
    assert written_like_a_name(capitalised, mid) is name_like


@pytest.mark.parametrize("term, rank", [
    ("quenby", 50),     # a name-like term's top rank is capped at the top 5%
    ("chemo", 1),       # a word keeps its rank
    ("okonjo", 400),    # a rank below the cap is left as it is
    ("unranked", None),
])
def test_capped_ranks(term, rank):
    ranks = CappedRanks({"quenby": 0, "chemo": 1, "okonjo": 400}, 1000,
                        {"quenby", "okonjo", "unranked"}.__contains__)
    assert rank_floor(1000) == 50
    assert ranks.get(term) == rank and ranks.get(term, -1) == (-1 if rank is None else rank)
    assert (term in ranks) is (rank is not None)


@pytest.fixture(scope="module")
def scrubbed(tmp_path_factory):
    """(spans of each board post inside the dump, spans of each scrubbed alone)."""
    path = str(tmp_path_factory.mktemp("dump") / "dump.jsonl")
    synthetic_dump.generate(260, path, seed=31)
    with open(path, encoding="utf-8") as handle:
        background = [json.loads(line) for line in handle]
    posts = background + [SIGNED] + THANKED
    assert sum(len(Document.from_post(post).tokens) for post in posts) > THIN_DUMP_TOKENS
    scrubber = Scrubber()
    in_dump = scrubber.analyze_many(posts)[len(background):]
    alone = [scrubber.analyze_many([post])[0] for post in [SIGNED] + THANKED]
    return in_dump, alone


def _name_spans(post, spans, name):
    return [(span.start, span.end) for span in spans if span.label == "NAME"
            and name in post["text"][span.start:span.end]]


def test_a_signature_on_30_lines_is_removed_inside_a_large_dump(scrubbed):
    in_dump, alone = scrubbed
    removed = _name_spans(SIGNED, in_dump[0], "Kessling")
    assert len(removed) == 30
    assert all(SIGNED["text"][start:end] == "Marta Kessling" for start, end in removed)
    assert removed == _name_spans(SIGNED, alone[0], "Kessling")


def test_a_name_thanked_in_30_posts_gets_the_same_spans_alone_and_in_the_dump(scrubbed):
    in_dump, alone = scrubbed
    pairs = [(_name_spans(post, dump_spans, "Quenby"), _name_spans(post, own_spans, "Quenby"))
             for post, dump_spans, own_spans in zip(THANKED, in_dump[1:], alone[1:])]
    assert [dump for dump, _ in pairs] == [own for _, own in pairs]
    assert sum(map(len, (dump for dump, _ in pairs))) >= 20
