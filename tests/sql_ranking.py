"""The statistics store as earlier versions ranked it, in SQL window functions over tables
of raw counts: the reference the numpy ranking of
:class:`~mmbdeid.model.stats_builder.StatsBuilder` is compared with (a test helper)."""
import math
import sqlite3

from mmbdeid.model.stats_builder import (THIN_BOARD_TOKENS, THIN_DUMP_TOKENS,
                                         THIN_USER_POPULATION, TOP_KEEP_MIN, TOP_KEEP_SHARE)
from mmbdeid.model.stats_store import DOC_TERM_TABLE, SCHEMA_VERSION, create_count_tables

RAW_TABLES = """
    CREATE TABLE board_term (doc TEXT, term TEXT, n INTEGER, PRIMARY KEY (doc, term))
        WITHOUT ROWID;
    CREATE TABLE user_term (doc TEXT, term TEXT, n INTEGER, PRIMARY KEY (doc, term))
        WITHOUT ROWID;
"""


def sql_ranked_store(counts: dict, thread_authors: set, n_posts: int, source: dict):
    """The finished store of ``counts`` (Counters ``board_terms``, ``user_terms``,
    ``terms``, ``border``, ``mid``, ``capitalised``), ranked in SQL."""
    connection = sqlite3.connect(":memory:")
    create_count_tables(connection)
    connection.executescript(RAW_TABLES)
    connection.create_function("ln", 1, math.log)
    with connection:
        for table, name in (("board_term", "board_terms"), ("user_term", "user_terms")):
            connection.executemany("INSERT INTO %s VALUES (?, ?, ?)" % table,
                                   [(doc, term, n) for (doc, term), n in counts[name].items()])
        connection.executemany("INSERT INTO term VALUES (?, ?, ?, ?, ?)", [
            (term, n, counts["border"][term], counts["mid"][term],
             counts["capitalised"][term]) for term, n in counts["terms"].items()])
        connection.executemany("INSERT INTO thread_author VALUES (?, ?, ?)", thread_authors)
        for kind in ("board", "user"):
            _rank_documents(connection, kind)
        connection.execute("""
            INSERT INTO border_rank
            SELECT term, ROW_NUMBER() OVER (ORDER BY score DESC, term) - 1 FROM (
                SELECT term, (border * 1.0 / n) * ln(1 + n) AS score FROM term
                WHERE border > 0)""")
        n_border = connection.execute("SELECT COUNT(*) FROM border_rank").fetchone()[0]
        keep = max(TOP_KEEP_MIN, int(n_border * TOP_KEEP_SHARE))
        connection.execute("DELETE FROM border_rank WHERE rank >= ?", (keep,))
        thin = _keep_thin_counts(connection)
        if not thin["all_terms"]:
            connection.execute("DELETE FROM term WHERE mid = 0")
        connection.execute("DROP TABLE board_term")
        connection.execute("DROP TABLE user_term")
        connection.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("schema", SCHEMA_VERSION), ("posts", str(n_posts)),
            ("border_terms", str(n_border))]
            + [("thin_" + key, str(int(value))) for key, value in sorted(thin.items())]
            + sorted(source.items()))
    return connection


def _rank_documents(connection, kind: str) -> None:
    """term_rank and doc_size of one kind: weight tf * ln(N / n_i), rank within document."""
    table = kind + "_term"
    connection.execute("CREATE TEMP TABLE doc AS SELECT doc, SUM(n) AS total, COUNT(*) AS size "
                       "FROM %s GROUP BY doc" % table)
    n_documents = connection.execute("SELECT COUNT(*) FROM doc").fetchone()[0]
    connection.execute("CREATE TEMP TABLE df AS SELECT term, COUNT(*) AS df, "
                       "ln(? * 1.0 / COUNT(*)) AS idf FROM %s GROUP BY term" % table,
                       (n_documents,))
    connection.execute("INSERT INTO doc_size SELECT ?, doc, size FROM doc", (kind,))
    connection.execute("""
        INSERT INTO term_rank
        SELECT ?, doc, term, rank FROM (
            SELECT t.doc, t.term, d.size,
                   ROW_NUMBER() OVER (PARTITION BY t.doc
                                      ORDER BY (t.n / sqrt(d.total)) * f.idf DESC,
                                               t.term) - 1 AS rank
            FROM %s AS t JOIN df AS f ON f.term = t.term JOIN doc AS d ON d.doc = t.doc
            WHERE f.df < ?)
        WHERE rank < MAX(?, CAST(size * ? AS INTEGER))""" % table,
                       (kind, n_documents, TOP_KEEP_MIN, TOP_KEEP_SHARE))
    connection.execute("DROP TABLE temp.df")
    connection.execute("DROP TABLE temp.doc")


def _keep_thin_counts(connection) -> dict:
    """The raw counts of every board with fewer than THIN_BOARD_TOKENS tokens, and of
    every user when there are fewer than THIN_USER_POPULATION users."""
    connection.execute(DOC_TERM_TABLE)
    connection.execute("""
        INSERT INTO doc_term SELECT 'board', doc, term, n FROM board_term WHERE doc IN (
            SELECT doc FROM board_term GROUP BY doc HAVING SUM(n) < ?)""",
                       (THIN_BOARD_TOKENS,))
    n_users = connection.execute("SELECT COUNT(DISTINCT doc) FROM user_term").fetchone()[0]
    users_kept = n_users < THIN_USER_POPULATION
    if users_kept:
        connection.execute("INSERT INTO doc_term SELECT 'user', doc, term, n FROM user_term")
    tokens = connection.execute("SELECT COALESCE(SUM(n), 0) FROM term").fetchone()[0]
    return {"board_tokens_below": THIN_BOARD_TOKENS, "users_kept": users_kept,
            "all_terms": tokens < THIN_DUMP_TOKENS, "tokens": tokens, "users": n_users}
