"""Statistics given with ``--stats`` (issue 18): they must come from this very dump, every
field they are built from included, and a damaged or tampered store is refused (one line
naming it, exit 2) without hanging the run or ignoring a stop signal."""
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from jsonl_files import write_jsonl
from mmbdeid.cli import main
from mmbdeid.model.dump_fingerprint import DumpFingerprint

from paths import REPO
from slow_cases import slow_except

# Fictional posts.
POSTS = [
    {"id": "s1", "board": "thyroid", "thread": "t1", "author": "fernhollow",
     "text": "Hi all, my levels came back fine.\nTamsin"},
    {"id": "s2", "board": "thyroid", "thread": "t1", "author": "orla_b", "time": "noon",
     "text": "So glad Tamsin! Ask fernhollow about the clinic."},
    {"id": "s3", "board": "diabetes", "thread": "t2", "author": "quillon7",
     "text": "A1C down again.\nBest, Q"},
]


def fingerprint(posts):
    prints = DumpFingerprint()
    for post in posts:
        prints.add(post)
    return prints.as_source()


def changed(field, value, index=1):
    posts = [dict(post) for post in POSTS]
    if value is None:
        del posts[index][field]
    else:
        posts[index][field] = value
    return posts


@pytest.mark.parametrize("field, value", [
    ("id", "s9"), ("text", "So glad!"), ("board", "diabetes"), ("thread", "t2"),
    ("author", "fernhollow"), ("author", None), ("thread", None),
])
def test_the_fingerprint_covers_every_field_the_statistics_use(field, value):
    assert fingerprint(changed(field, value)) != fingerprint(POSTS)


@pytest.mark.parametrize("field, value", [("time", "dusk"), ("time", None)])
def test_fields_the_statistics_do_not_use_leave_it_alone(field, value):
    assert fingerprint(changed(field, value)) == fingerprint(POSTS)


def test_the_fields_do_not_run_into_each_other():
    # "ab" + "c" and "a" + "bc" in two adjacent fields are two dumps
    one = [dict(POSTS[0], board="ab", thread="c")]
    other = [dict(POSTS[0], board="a", thread="bc")]
    assert fingerprint(one) != fingerprint(other)


def scrub(dump, tmp_path, stats, model, *extra):
    return main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", stats,
                 "--model", model, "-q", "-j", "1"] + list(extra))


def test_statistics_of_a_dump_with_other_authors_are_refused(tmp_path, capsys,
                                                             tiny_model_path):
    # the same ids and texts, other authors: the statistics' usernames are wrong
    first = write_jsonl(tmp_path / "a.jsonl", POSTS)
    other = write_jsonl(tmp_path / "b.jsonl",
                        [dict(post, author=post["author"] + "_x") for post in POSTS])
    stats = str(tmp_path / "a.stats")
    assert main(["stats", first, "-o", stats, "-q", "-j", "1"]) == 0
    assert scrub(first, tmp_path, stats, tiny_model_path) == 0
    capsys.readouterr()
    assert scrub(other, tmp_path, stats, tiny_model_path) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mmbdeid: error: %s: " % stats)
    assert "built from another dump" in err[0] and "authors" in err[0]
    assert scrub(other, tmp_path, stats, tiny_model_path, "--stats-rebuild") == 0
    assert scrub(other, tmp_path, stats, tiny_model_path) == 0        # now they are its own


def test_statistics_whose_fingerprint_left_out_authors_are_refused(tmp_path, capsys,
                                                                   tiny_model_path):
    dump = write_jsonl(tmp_path / "a.jsonl", POSTS)
    stats = str(tmp_path / "a.stats")
    assert main(["stats", dump, "-o", stats, "-q", "-j", "1"]) == 0
    with sqlite3.connect(stats) as connection:      # as an older mmbdeid wrote it
        connection.execute("DELETE FROM meta WHERE key = 'source_fields'")
    capsys.readouterr()
    assert scrub(dump, tmp_path, stats, tiny_model_path) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "older mmbdeid" in err[0] and "--stats-rebuild" in err[0]


# --- damaged and tampered stores -------------------------------------------------------

def with_sql(*statements):
    def tamper(path):
        connection = sqlite3.connect(path)
        try:
            connection.executescript(";\n".join(statements))
        finally:
            connection.close()
    return tamper


def cut_to_half(path):
    with open(path, "r+b") as handle:
        handle.truncate(os.path.getsize(path) // 2)


def overwrite(path):
    with open(path, "wb") as handle:
        handle.write(b"not a database at all\n" * 200)


# The case: a view that never ends where the store's meta table was.
ENDLESS_META = with_sql(
    "DROP TABLE meta",
    "CREATE VIEW meta AS WITH RECURSIVE r(key, value) AS (SELECT 'schema', '3' UNION ALL "
    "SELECT key, value FROM r) SELECT key, value FROM r")

TAMPERED = {
    "an endless view as meta": (ENDLESS_META, "not a statistics store as mmbdeid writes it"),
    "a view more": (with_sql("CREATE VIEW v AS SELECT * FROM term"), "not a statistics store"),
    "a trigger": (with_sql("CREATE TRIGGER t AFTER INSERT ON term BEGIN DELETE FROM term; END"),
                  "not a statistics store"),
    "an index": (with_sql("CREATE INDEX i ON term(n)"), "not a statistics store"),
    "a column more": (with_sql("ALTER TABLE term ADD COLUMN note TEXT"),
                      "not a statistics store"),
    "a generated column": (with_sql("ALTER TABLE doc_size ADD COLUMN g INTEGER AS (size * 2)"),
                           "not a statistics store"),
    "a table less": (with_sql("DROP TABLE border_rank"), "not a statistics store"),
    "a table more": (with_sql("CREATE TABLE extra (x)"), "not a statistics store"),
    "another schema version": (with_sql("UPDATE meta SET value = '2' WHERE key = 'schema'"),
                               "statistics schema '2'"),
    "not SQLite": (overwrite, "damaged statistics file (file is not a database)"),
    "cut short": (cut_to_half, ""),
}


@pytest.fixture(scope="module")
def good_stats(tmp_path_factory):
    directory = tmp_path_factory.mktemp("stats")
    dump = write_jsonl(directory / "dump.jsonl", POSTS)
    stats = str(directory / "dump.stats")
    assert main(["stats", dump, "-o", stats, "-q", "-j", "1"]) == 0
    return dump, stats


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_damaged_or_tampered_store_is_refused(tmp_path, capsys, monkeypatch, good_stats,
                                                tiny_model_path, case):
    from mmbdeid.model import stats_store
    monkeypatch.setattr(stats_store, "QUERY_SECONDS", 10.0)   # a regression fails, not hangs
    tamper, message = TAMPERED[case]
    dump, good = good_stats
    stats = tmp_path / "stores" / "tampered.stats"
    stats.parent.mkdir()
    stats.write_bytes(open(good, "rb").read())
    tamper(str(stats))
    before = stats.read_bytes()
    capsys.readouterr()
    status = main(["scrub", dump, "-o", str(tmp_path / "out.jsonl"), "--stats", str(stats),
                   "--model", tiny_model_path, "-q", "-j", "1"])
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith("mmbdeid: error: %s: " % stats) and message in err[0]
    assert not (tmp_path / "out.jsonl").exists()
    assert stats.read_bytes() == before                     # read-only: not even a journal
    assert os.listdir(stats.parent) == ["tampered.stats"]


def test_every_query_is_bounded_in_time(good_stats, monkeypatch):
    from mmbdeid.errors import InputError
    from mmbdeid.model import stats_store
    store = stats_store.open_store(good_stats[1])
    monkeypatch.setattr(stats_store, "QUERY_SECONDS", 0.2)
    with pytest.raises(InputError, match="took more than 0.2 s") as raised:
        store.rows("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
                   "SELECT COUNT(*) FROM r")
    assert raised.value.path == good_stats[1]
    assert store.rows("SELECT value FROM meta WHERE key = 'schema'") == [("3",)]   # usable


# A run stuck in an endless query: reading a tampered store (its schema check made to miss
# the view) or building one. MARK is made just before the query starts.
STUCK = {
    "reading": """
import os, sqlite3, sys
from mmbdeid.cli import main
from mmbdeid.model import stats_store
tampered = sys.argv[1]
stats_store.finished_schema = lambda: stats_store.schema_of(sqlite3.connect(
    tampered).execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall())
rows = stats_store.StoreQueries.rows
def marked(self, sql, parameters=()):
    if "FROM meta" in sql:
        open(os.environ["MARK"], "w").close()
    return rows(self, sql, parameters)
stats_store.StoreQueries.rows = marked
sys.exit(main(sys.argv[2:]))
""",
    "building": """
import os, sqlite3, sys
from mmbdeid.cli.entry import COMMANDS, main
from mmbdeid.model.stats_store import honour_signals
def endless(args):
    connection = sqlite3.connect(":memory:")
    honour_signals(connection)
    open(os.environ["MARK"], "w").close()
    connection.execute("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
                       "SELECT COUNT(*) FROM r").fetchall()
    return 0
COMMANDS["scrub"] = endless
sys.exit(main(sys.argv[2:]))
""",
}


@pytest.mark.parametrize("stage", slow_except(sorted(STUCK), ["building"]))
@pytest.mark.parametrize("signum, said", [
    (signal.SIGTERM, "mmbdeid: stopped by SIGTERM; no output written"),
    pytest.param(signal.SIGINT, "mmbdeid: interrupted; no output written",
                 marks=pytest.mark.slow),
], ids=["SIGTERM", "SIGINT"])
def test_stop_signals_stop_a_query_that_does_not_end(tmp_path, good_stats, tiny_model_path,
                                                     stage, signum, said):
    dump, good = good_stats
    stats = tmp_path / "endless.stats"
    stats.write_bytes(open(good, "rb").read())
    ENDLESS_META(str(stats))
    out = tmp_path / "out.jsonl"
    mark = tmp_path / "mark"
    argv = ["scrub", dump, "-o", str(out), "--stats", str(stats), "--model",
            tiny_model_path, "-q", "-j", "1"]
    process = subprocess.Popen(
        [sys.executable, "-c", STUCK[stage], str(stats)] + argv,
        stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=REPO, MARK=str(mark)))
    try:
        for _ in range(1200):               # the query starts: wait for it, at most 120 s
            if mark.exists() or process.poll() is not None:
                break
            time.sleep(0.1)
        assert mark.exists(), process.stderr.read() if process.poll() is not None else ""
        time.sleep(0.5)                     # well inside the query
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)    # before the fix: never
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signum
    assert err.splitlines() == [said]
    assert not out.exists()


def to_wal(path):
    """The store switched to WAL mode, as another program may leave it."""
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    finally:
        connection.close()


# (how the store is changed, what evaluate says: None for success)
NOT_AS_WRITTEN = {
    "in WAL mode": (to_wal, None),
    "a FIFO": (lambda path: (os.remove(path), os.mkfifo(path)),
               "is a FIFO, not a regular file: a statistics store is an SQLite file; "
               "refused"),
}


@pytest.mark.parametrize("case", sorted(NOT_AS_WRITTEN))
def test_evaluate_reads_a_store_without_making_files_beside_it(tmp_path, capsys, good_stats,
                                                               tiny_model_path, case):
    from paths import TINY
    change, message = NOT_AS_WRITTEN[case]
    stats = tmp_path / "stores" / "given.stats"
    stats.parent.mkdir()
    stats.write_bytes(open(good_stats[1], "rb").read())
    change(str(stats))
    capsys.readouterr()
    status = main(["evaluate", TINY, "--stats", str(stats), "--model", tiny_model_path])
    err = capsys.readouterr().err.splitlines()
    if message is None:
        assert status == 0
    else:
        assert status == 2 and err == ["mmbdeid: error: %s: %s" % (stats, message)]
    assert os.listdir(stats.parent) == ["given.stats"]      # no -wal, -shm or lock file
