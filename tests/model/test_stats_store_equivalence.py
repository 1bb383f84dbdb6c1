"""The statistics store built with numpy (counting in batches, ranking in memory) answers
exactly like the per-token loop and the SQL ranking it replaced."""
import pickle
import random
import sqlite3
import threading
from collections import Counter

import pytest

from mmbdeid.model import counting, stats_builder
from mmbdeid.model.counting import BORDER_WIDTH, SENTENCE_OPENERS, PartialCounts, term_of
from mmbdeid.model.stats_builder import StatsBuilder
from mmbdeid.text.document import Document
from sql_ranking import sql_ranked_store


def loop_counts(documents):
    """The counts as the per-token loop of earlier versions made them (the reference)."""
    counts = {name: Counter() for name in ("board_terms", "user_terms", "terms", "border",
                                           "mid", "capitalised")}
    thread_authors = set()
    for document in documents:
        paragraphs = {}
        previous_token, previous_paragraph = None, None
        for token, pattern, paragraph in zip(document.tokens, document.pattern_labels,
                                             document.paragraph_ids):
            term = None if pattern else term_of(token)
            if term is not None:
                paragraphs.setdefault(paragraph, []).append(term)
                opens_sentence = (paragraph != previous_paragraph or previous_token is None
                                  or previous_token in SENTENCE_OPENERS)
                if not opens_sentence and not token.isupper():
                    counts["mid"][term] += 1
                    if token[0].isupper():
                        counts["capitalised"][term] += 1
            previous_token, previous_paragraph = token, paragraph
        terms = [t for paragraph in paragraphs.values() for t in paragraph]
        counts["terms"].update(terms)
        if document.board:
            counts["board_terms"].update((document.board, t) for t in terms)
        if document.author:
            counts["user_terms"].update((document.author, t) for t in terms)
            thread_authors.add((document.board, document.thread, document.author))
        for paragraph in paragraphs.values():
            counts["border"].update(paragraph if len(paragraph) <= 2 * BORDER_WIDTH
                                    else paragraph[:BORDER_WIDTH] + paragraph[-BORDER_WIDTH:])
    return counts, thread_authors


def document(tokens, labels=None, paragraphs=None, board="", thread="", author=""):
    return Document(tokens=list(tokens), offsets=[(0, 0)] * len(tokens),
                    pattern_labels=list(labels or [None] * len(tokens)),
                    paragraph_ids=list(paragraphs or [0] * len(tokens)),
                    board=board, thread=thread, author=author)


TRICKY = [
    Document.from_text("Hi Kay,\nwent to the chemo ward. Kevin said hi to KEVIN\n\nHugs, Barb",
                       board="bc", thread="t1", author="kaygirl"),
    Document.from_text("mail me at kay@example.com or call 555-123-4567 - Kay K. O'Neil",
                       board="bc", thread="t1", author="boo"),
    document(["Sue", "met", "Sue", "and", "Bob", "!", "Bob", "left", "Sue"], board="ra",
             paragraphs=[3, 3, 1, 1, 1, 2, 2, 3, 1], thread="t2", author="tiger"),
    document(["a", "b", "c", "d", "e", "f"], paragraphs=[0.0, 0, "x", "x", (1,), 0.0],
             board="ra", thread="t2"),
    document(["ONE", "Two", "three", "4", "--", "", "Émile", "ÉMILE", "émile"],
             labels=[None, "URL", None, None, None, None, None, None], author="tiger"),
    document(["x"], board="", author=""),
    document([]),
    document(["nul\x00term", "Nul\x00term", "other"], board="dm", author="nul"),
]


def assert_like_the_loop(counts, documents):
    expected, thread_authors = loop_counts(documents)
    for name, counter in expected.items():
        assert getattr(counts, name) == counter, name
    assert counts.thread_authors == thread_authors
    assert counts.n_posts == len(documents)
    assert len(counts) == sum(len(expected[name]) for name in ("board_terms", "user_terms",
                                                                "terms"))


def random_documents(n, seed=0):
    rng = random.Random(seed)
    words = ["w%d" % i for i in range(300)] + ["Kay", "kay", "KAY", "Sue", "sue", "Bob"]
    punctuation = list(".!?,;:-\"") + ["...", "(", ")", "42"]
    documents = []
    for i in range(n):
        tokens, paragraphs, paragraph = [], [], 0
        for _ in range(rng.randint(0, 60)):
            if rng.random() < 0.08:
                paragraph += rng.choice((1, 2))
            tokens.append(rng.choice(punctuation) if rng.random() < 0.2 else
                          rng.choice(words[:20]) if rng.random() < 0.5 else rng.choice(words))
            paragraphs.append(paragraph)
        labels = [("EMAIL" if rng.random() < 0.03 else None) for _ in tokens]
        documents.append(document(tokens, labels, paragraphs,
                                  board=rng.choice(["bc", "ra", "dm", "thin", ""]),
                                  thread="t%d" % rng.randint(0, 40),
                                  author=rng.choice(["u%d" % rng.randint(0, 150), ""])))
    return documents


def test_counts_are_those_of_the_per_token_loop():
    assert_like_the_loop(PartialCounts().merge(PartialCounts()), [])
    counts = PartialCounts()
    for doc in TRICKY:
        counts.add(doc)
    assert_like_the_loop(counts, TRICKY)
    documents = random_documents(300)
    counts = PartialCounts()
    for doc in documents:
        counts.add(doc)
    assert_like_the_loop(counts, documents)


def test_batches_merges_and_pickles_change_nothing(monkeypatch):
    documents = random_documents(200, seed=1) + TRICKY
    monkeypatch.setattr(counting, "_BATCH_TOKENS", 50)      # many small batches
    monkeypatch.setattr(counting, "_CONSOLIDATE_MIN", 3)
    monkeypatch.setattr(counting._TokenTypes, "TYPES_KEPT", 40)  # the type table restarts
    parts = [PartialCounts() for _ in range(3)]
    for i, doc in enumerate(documents):
        parts[i % 3].add(doc)
    merged = pickle.loads(pickle.dumps(parts[0])).merge(pickle.loads(pickle.dumps(parts[1])))
    merged.merge(parts[2])
    assert_like_the_loop(pickle.loads(pickle.dumps(merged)), documents[0::3] + documents[1::3]
                         + documents[2::3])


def test_counting_in_threads_changes_nothing():
    chunks = [random_documents(40, seed=seed) for seed in range(12)]
    results = [None] * len(chunks)

    def count(i):
        counts = PartialCounts()
        for doc in chunks[i]:
            counts.add(doc)
        results[i] = pickle.dumps(counts)

    threads = [threading.Thread(target=count, args=(i,)) for i in range(len(chunks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for chunk, result in zip(chunks, results):
        assert_like_the_loop(pickle.loads(result), chunk)


def tables(connection):
    return {name: sorted(connection.execute("SELECT * FROM %s" % name), key=repr)
            for name, in connection.execute("SELECT name FROM sqlite_master "
                                            "WHERE type = 'table'")}


def build(documents, flush_entries, by_chunk=True):
    builder = StatsBuilder(flush_entries=flush_entries)
    if by_chunk:
        for start in range(0, len(documents), 50):
            counts = PartialCounts()
            for doc in documents[start:start + 50]:
                counts.add(doc)
            builder.add_counts(pickle.loads(pickle.dumps(counts)))
    else:
        for doc in documents:
            builder.add(doc)
    builder.source = {"source_records": str(len(documents))}
    return tables(builder.finish())


def sql_ranked(documents):
    counts, thread_authors = loop_counts(documents)
    return tables(sql_ranked_store(counts, thread_authors, len(documents),
                                   {"source_records": str(len(documents))}))


@pytest.mark.parametrize("n_documents, seed", [
    pytest.param(900, 2, marks=pytest.mark.slow), (150, 3), (8, 4)])
def test_ranking_in_memory_equals_the_sql_ranking(n_documents, seed, monkeypatch):
    """The store ranked with numpy, its counts kept in memory or set aside in runs after
    every post or every few, equals the store the SQL of earlier versions ranked from the
    per-token loop's counts: every table (ties, thin boards and users, NUL terms)."""
    documents = random_documents(n_documents, seed) + TRICKY
    documents += [document(["tie%d" % (i % 7), "same", "same"], board="tb", author="tied")
                  for i in range(14)]
    in_sql = sql_ranked(documents)
    assert in_sql["term_rank"] and in_sql["border_rank"]
    meta = dict(in_sql["meta"])
    # a thick dump (only terms seen mid-sentence kept), or thin ones (raw counts kept)
    assert meta["thin_all_terms"] == ("0" if n_documents > 600 else "1")
    assert {row[0] for row in in_sql["doc_term"]} == (
        {"board", "user"} if meta["thin_users_kept"] == "1" else {"board"})
    assert build(documents, flush_entries=10 ** 7) == in_sql
    assert build(documents, flush_entries=1, by_chunk=False) == in_sql   # a run a post
    assert build(documents, flush_entries=700) == in_sql          # some runs
    monkeypatch.setattr(stats_builder, "_RANK_SLICE", 5)           # documents in slices
    assert build(documents, flush_entries=10 ** 7, by_chunk=False) == in_sql
    assert build(documents, flush_entries=700) == in_sql


def test_json_insertion_equals_plain_inserts(monkeypatch):
    documents = random_documents(200, seed=5) + TRICKY
    with_json = build(documents, flush_entries=10 ** 7)
    monkeypatch.setattr(stats_builder, "_has_json_each", lambda connection: False)
    assert build(documents, flush_entries=10 ** 7) == with_json
    assert stats_builder._has_json_each(sqlite3.connect(":memory:")) in (True, False)


def test_the_counts_in_memory_stay_below_flush_entries():
    builder = StatsBuilder(flush_entries=500)
    for doc in random_documents(300, seed=6):
        builder.add(doc)
        assert builder._counts.n_pairs + len(builder._thread_authors) < 500
    assert builder._runs
    assert builder.finish().execute("SELECT COUNT(*) FROM term_rank").fetchone()[0] > 0
