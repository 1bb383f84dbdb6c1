"""A thin input's statistics counted in memory (mmbdeid/model/thin_stats.py) answer as its
SQLite store does, once combined with the reference: every feature the model reads is the
same. The posts are the bundled demo dump and texts written for these tests (fictional)."""
import pytest

from mmbdeid.model.reference import CombinedStats
from mmbdeid.model.stats import CorpusStats
from mmbdeid.model.thin_stats import ThinStats, input_stats
from mmbdeid.text.document import Document


def _answers(stats, documents):
    """Everything the featurizer and the username step ask of combined statistics."""
    combined = CombinedStats(stats)
    terms = sorted({token.lower() for document in documents for token in document.tokens}
                   | {"hi", "thanks", "linda", "zzyzx"})
    boards = sorted({d.board for d in documents} | {"", "elsewhere"})
    authors = sorted({d.author for d in documents} | {"", "nobody"})
    threads = sorted({(d.board, d.thread) for d in documents} | {("x", "y")})
    return {"n_posts": combined.n_posts, "source": combined.source,
            "border": [combined.border_rank(term) for term in terms],
            "capitalisation": [combined.capitalisation(term) for term in terms],
            "board ranks": [combined.ranks("board", board) for board in boards if board],
            "user ranks": [combined.ranks("user", author) for author in authors if author],
            "users": combined.users_by_board(),
            "thread users": [combined.thread_users(*key) for key in threads]}


def _posts(*posts):
    return [Document.from_post(post) for post in posts]


CASES = {
    "one text": _posts({"text": "Hi Linda,\n\nmy TSH is fine. Thanks Kay!\nHugs,\nBarb"}),
    "one post with its fields": _posts({
        "text": "bluebird go for it. Dr. Okonkwo said so\n\nKay", "author": "bluebird",
        "thread": "t1", "board": "breastcancer"}),
    "patterns and numbers only": _posts({"text": "kay@example.org 555-0123 42"}),
    "an empty text": _posts({"text": "", "author": "kay", "thread": "t", "board": "b"}),
    "two boards, an author twice": _posts(
        {"text": "Hi Kay, how are you?", "author": "rose66", "thread": "t1", "board": "a"},
        {"text": "Kay is fine. ROSE said so", "author": "rose66", "thread": "t2",
         "board": "b"},
        {"text": "thanks all", "author": "Mary_J", "thread": "t2", "board": "b"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_thin_input_answers_as_its_store(case):
    documents = CASES[case]
    thin = ThinStats.of(documents)
    assert thin is not None
    assert _answers(thin, documents) == _answers(CorpusStats.build(documents), documents)


def test_the_demo_dump_answers_as_its_store(demo_documents):
    thin = ThinStats.of(demo_documents)
    assert thin is not None
    assert _answers(thin, demo_documents) == _answers(CorpusStats.build(demo_documents),
                                                      demo_documents)


def test_a_large_input_or_many_users_get_a_store(demo_documents):
    many_users = _posts(*({"text": "hello there friend", "author": "user%d" % k}
                          for k in range(100)))
    assert ThinStats.of(many_users) is None
    assert isinstance(input_stats(many_users), CorpusStats)
    long_post = _posts({"text": "word " * 20_000})
    assert ThinStats.of(long_post) is None
    assert isinstance(input_stats(long_post), CorpusStats)
    assert isinstance(input_stats(demo_documents[:3]), ThinStats)


def test_ranks_of_a_board_with_counts_are_refused():
    thin = ThinStats.of(CASES["one post with its fields"])
    with pytest.raises(ValueError):
        thin.ranks("board", "breastcancer")
    assert thin.ranks("board", "elsewhere") == ({}, 0)
