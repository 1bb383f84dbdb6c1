"""Reference statistics (mmbdeid/model/reference.py) stand in for an input's own where the
input is too small to have meaningful ones."""
import os
import sqlite3

import pytest

from mmbdeid.files.corpora import LabelledDocument
from mmbdeid.model import stats_builder
from mmbdeid.model.name_ranks import rank_floor
from mmbdeid.model.reference import (REFERENCE_PATH, CombinedStats, ReferenceStats,
                                     build_reference, reference_stats)
from mmbdeid.model.stats import CorpusStats
from mmbdeid.text.document import Document

POST = "Hi Marjorie,\nSo sorry about your mom. Thanks for the update Marjorie\nHugs,\nBarb"


@pytest.fixture(scope="module")
def reference():
    return reference_stats()


def test_shipped_reference_loads_once_and_records_its_sources(reference):
    assert reference is not None and reference is reference_stats()
    assert reference.n_boards >= 2 and reference.n_users > 1000
    assert "hi" in reference.terms and "thanks" in reference.terms
    assert "CC-BY 4.0" in reference.meta["sources"]
    assert os.path.getsize(REFERENCE_PATH) < 5_000_000


def test_shipped_reference_has_no_usernames_and_no_text(sample_labelled):
    connection = sqlite3.connect(REFERENCE_PATH)
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"meta", "term", "border_hist", "board_hist"}
    terms = {row[0] for row in connection.execute("SELECT term FROM term")}
    connection.close()
    authors = {item.document.author.lower() for item in sample_labelled}
    # only authors that are ordinary words (`hope`, `tiger`) may occur, as words
    assert not {"kaygirl", "rawarrior", "achyknees"} & terms
    assert len(authors & terms) < len(authors) / 4


def test_build_drops_user_mentions_author_names_and_rare_terms(tmp_path):
    def doc(text, author, users=()):
        document = Document.from_text(text, board="b", author=author)
        return LabelledDocument(document, ["USER" if t in users else "O"
                                           for t in document.tokens])
    corpus = [doc("thanks zorblat for the tip", "zorblat99", users=("zorblat",))] * 4 + [
        doc("thanks all from zorblat99 and quixwell", "q")] * 3 + [doc("once only", "r")]
    path = str(tmp_path / "ref.sqlite")
    build_reference([("tiny", corpus)], path)
    reference = ReferenceStats.load(path)
    assert "thanks" in reference.terms
    assert "zorblat" not in reference.terms        # a gold USER mention
    assert "zorblat99" not in reference.terms      # an author name
    assert "quixwell" in reference.terms and "once" not in reference.terms   # 3 vs 1 docs
    assert sum(reference.border_hist.values()) > len(reference.terms)     # rare: anonymous


def test_one_post_input_uses_the_reference(reference):
    own = CorpusStats.build([Document.from_text(POST, board="bc", thread="t", author="pinkgal")])
    combined = CombinedStats(own, reference)
    assert combined.thin_dump and combined.thin_users and combined.thin_boards
    # capitalisation and border ranks pooled with the reference's counts
    assert own.capitalisation("thanks") == (0, 0)
    capitalised, mid = combined.capitalisation("thanks")
    assert mid > 20 and capitalised < mid / 2
    assert combined.border_rank("marjorie")[1] > 1000
    assert combined.border_rank("thanks")[0] < combined.border_rank("marjorie")[0]
    # tf-idf: the name outranks the greeting words, which every reference board uses
    board, size = combined.ranks("board", "bc")
    # (a name ranks no better than the top 10%: frequency never makes a name safe)
    assert size > 1000 and board["marjorie"] == rank_floor(size)
    assert "thanks" not in board and "hi" not in board
    user, _ = combined.ranks("user", "pinkgal")
    assert user["marjorie"] < user["thanks"] and user["marjorie"] < user["hi"]
    assert combined.users_by_board() == {"bc": {"pinkgal"}}


def test_greetings_in_a_tiny_two_board_input_are_not_ranked_top(reference):
    own = CorpusStats.build([
        Document.from_text("Hi all\nThanks for the tips\nBarb", board="bc", author="a"),
        Document.from_text("my knees hurt today", board="ra", author="b")])
    assert own.ranks("board", "bc")[0]["thanks"] < 5         # own: the top of the board
    combined = CombinedStats(own, reference)
    ranks, size = combined.ranks("board", "bc")
    assert "thanks" not in ranks and "hi" not in ranks and ranks["barb"] == rank_floor(size)


def test_thick_board_and_dump_use_their_own_statistics(reference, monkeypatch):
    monkeypatch.setattr(stats_builder, "THIN_BOARD_TOKENS", 30)
    monkeypatch.setattr(stats_builder, "THIN_DUMP_TOKENS", 30)
    monkeypatch.setattr(stats_builder, "THIN_USER_POPULATION", 2)
    posts = [("big", "u%d" % i, "Hi all, my knees hurt again today\nBarb") for i in range(8)]
    posts.append(("small", "u0", "Thanks Marjorie"))
    own = CorpusStats.build(Document.from_text(text, board=b, author=a) for b, a, text in posts)
    combined = CombinedStats(own, reference)
    assert not combined.thin_dump and not combined.thin_users and combined.thin_boards
    assert combined.ranks("board", "big") == own.ranks("board", "big")
    assert combined.ranks("board", "small") != own.ranks("board", "small")
    assert combined.ranks("user", "u1") == own.ranks("user", "u1")
    for term in ("hi", "barb", "thanks", "marjorie"):
        assert combined.border_rank(term) == own.border_rank(term)
        assert combined.capitalisation(term) == own.capitalisation(term)


def test_without_a_reference_the_input_answers(tmp_path):
    own = CorpusStats.build([Document.from_text(POST, board="bc", author="pinkgal")])
    missing = str(tmp_path / "none.sqlite")
    with pytest.warns(UserWarning):
        combined = CombinedStats(own, path=missing)
    assert combined.reference is None and not combined.thin_dump
    assert combined.ranks("board", "bc") == own.ranks("board", "bc")
    assert combined.ranks("user", "pinkgal") == own.ranks("user", "pinkgal")
    assert combined.border_rank("hi") == own.border_rank("hi")


def test_changed_scores_rank_as_the_scores_of_the_sum():
    """The reference's border scores with an input's change (issue 21): ranks, ties and
    the total as if the sum had been sorted afresh, and afresh where a count would go
    below 0."""
    import random
    from collections import Counter

    from mmbdeid.model.reference import _ChangedScores, _Scores

    rng = random.Random(7)
    base = Counter({rng.choice(range(50)) / 7: rng.randint(1, 5) for _ in range(40)})
    for _ in range(50):
        change = Counter()
        for _ in range(rng.randint(0, 12)):
            change[rng.choice(range(60)) / 7] += rng.choice((-1, 1, 2))
        summed = Counter(base)
        summed.update(change)
        changed = _ChangedScores.of(_Scores(base), base, change)
        fresh = _Scores(summed)
        assert changed.total == fresh.total
        for score in [k / 7 for k in range(-1, 62)]:
            assert changed.rank(score) == fresh.rank(score)
