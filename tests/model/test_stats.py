import math
import sqlite3

import pytest

from mmbdeid.text.document import Document
from mmbdeid.errors import InputError
from mmbdeid.model.counting import PartialCounts
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.stats_builder import StatsBuilder

POSTS = [  # (board, thread, author, text)
    ("bc", "t1", "kaygirl", "Hi all\nwent to the chemo ward on a sunny day\nKay"),
    ("bc", "t1", "boo", "Hi Kay\nchemo too\nBarb"),
    ("ra", "t2", "tiger", "Hi all\nmtx today\nSue"),
    ("dm", "t3", "tiger", "Hi all\nmetformin today\nSue"),
]


def rank(stats, kind, document, term):
    """(rank of term in that board's or user's document or None, distinct terms there)."""
    ranks, size = stats.ranks(kind, document)
    return ranks.get(term), size


@pytest.fixture()
def stats():
    return CorpusStats.build(Document.from_text(text, board=b, thread=t, author=a)
                             for b, t, a, text in POSTS)


def test_board_tfidf_ranks_terms_unique_to_a_board_first(stats):
    # `kay` and `chemo` occur only on bc; `hi` occurs on every board, so its weight is 0.
    rank_kay, size = rank(stats, "board", "bc", "kay")
    assert rank_kay is not None and rank_kay < 3 and size == 14
    assert rank(stats, "board", "bc", "hi")[0] is None


def test_tfidf_uses_the_product_with_log_idf(stats):
    # on board ra, `mtx` (1 of 3 boards) outranks `sue` (2 of 3 boards): tf * log(N/n)
    assert math.log(3 / 1) > math.log(3 / 2)
    assert rank(stats, "board", "ra", "mtx")[0] < rank(stats, "board", "ra", "sue")[0]


def test_user_ranks_and_usernames(stats):
    assert rank(stats, "user", "tiger", "sue")[0] is not None
    assert stats.users_by_board() == {"bc": {"kaygirl", "boo"}, "ra": {"tiger"},
                                      "dm": {"tiger"}}
    assert stats.thread_users("ra", "t2") == {"tiger"}


def test_paragraph_border_likelihood_ranks_sign_offs_above_mid_line_words(stats):
    # `sue` always signs off a post (2 of 2 at a border, count 2);
    # `chemo` sits at a border once in 2 occurrences, `ward` never does.
    rank_sue, _ = stats.border_rank("sue")
    rank_chemo, _ = stats.border_rank("chemo")
    assert rank_sue is not None and rank_chemo is not None and rank_sue < rank_chemo
    assert stats.border_rank("ward")[0] is None


def lookups(stats):
    """Every lookup the features make, over the fixture's terms."""
    terms = ["hi", "all", "kay", "chemo", "ward", "sue", "mtx", "metformin", "barb", "zzz"]
    return ([stats.ranks("board", b) for b in ("bc", "ra", "dm", "xx")]
            + [stats.ranks("user", u) for u in ("kaygirl", "boo", "tiger")]
            + [stats.border_rank(t) for t in terms] + [stats.capitalisation(t) for t in terms]
            + [stats.users_by_board()] + [stats.thread_users("bc", "t1")])


def documents():
    return [Document.from_text(text, board=b, thread=t, author=a) for b, t, a, text in POSTS]


def test_built_on_disk_equals_built_in_memory(stats, tmp_path):
    path = str(tmp_path / "disk.sqlite")
    assert lookups(CorpusStats.build(documents(), path)) == lookups(stats)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["disk.sqlite"]


def test_flushing_in_small_steps_and_merging_partials_change_nothing(stats):
    tiny = StatsBuilder(flush_entries=1)          # sets its counts aside after every post
    for document in documents():
        tiny.add(document)
    assert lookups(CorpusStats(tiny.finish())) == lookups(stats)
    merged = StatsBuilder()
    first, second = PartialCounts(), PartialCounts()
    for i, document in enumerate(documents()):
        (first if i % 2 else second).add(document)
    merged.add_counts(first.merge(second))
    assert lookups(CorpusStats(merged.finish())) == lookups(stats)


def test_load_rejects_a_file_that_is_not_statistics(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_text("not a database")
    with pytest.raises(InputError):
        CorpusStats.load(str(path))
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(str(empty)).close()
    with pytest.raises(InputError):
        CorpusStats.load(str(empty))


def test_capitalisation_counts_only_mid_sentence_non_caps_uses():
    stats = CorpusStats.build(Document.from_text(text) for text in [
        "Kevin said hi to Kevin. Kevin left",   # 1st and 3rd open a sentence
        "we saw kevin and KEVIN today",          # all-caps is not counted
    ])
    assert stats.capitalisation("kevin") == (1, 2)
    assert stats.capitalisation("said") == (0, 1)


def test_prefetched_terms_answer_like_single_lookups(stats):
    terms = ["kay", "chemo", "hi", "sue", "absent", "kay"]
    single = [(stats.border_rank(t), stats.capitalisation(t)) for t in terms]
    fresh = CorpusStats(stats.connection)
    fresh.prefetch_terms(terms)
    assert [(fresh.border_rank(t), fresh.capitalisation(t)) for t in terms] == single
    assert fresh.ranks("user", "tiger") == (dict(fresh._ranks("user", "tiger")),
                                            rank(fresh, "user", "tiger", "sue")[1])
