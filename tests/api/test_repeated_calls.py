"""Repeated calls are cheap and change nothing (issue 21): the module-level functions keep
one scrubber per options, a scrubber builds its chain once, and every call gives what a
fresh process gives, whatever calls came before it and in whatever thread. The texts are
fictional; the posts of the bundled demo dump are too."""
import json
import os
import subprocess
import sys
import threading

import pytest

import mmbdeid
from mmbdeid import NameTagger, Scrubber, api
from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.model.reference import with_reference
from mmbdeid.model.stats import CorpusStats
from mmbdeid.spans import merge_mentions
from mmbdeid.text.document import Document

from paths import DEMO_DUMP, REPO

TEXT = "best decision ever. bluebird go for it, Linda says. Hugs,\nKay"
FIELDS = {"author": "bluebird", "thread": "t1", "board": "breastcancer"}


def _fresh_process(calls):
    """``calls`` (function name, text, fields) each in a new Python process: spans as
    (label, start, end, score, source)."""
    results = []
    for name, text, fields in calls:
        code = ("import json, sys, mmbdeid; name, text, fields = json.load(sys.stdin); "
                "print(json.dumps([list(s) for s in getattr(mmbdeid, name)(text, **fields)]))")
        done = subprocess.run([sys.executable, "-c", code], input=json.dumps([name, text, fields]),
                              capture_output=True, text=True, check=True, cwd=REPO,
                              env=dict(os.environ, PYTHONPATH=REPO))
        results.append([tuple(span) for span in json.loads(done.stdout)])
    return results


def test_calls_in_either_order_give_what_fresh_processes_give():
    """A call with the author must leave nothing behind for a call without it (and the
    other way round)."""
    with_author, without = ("analyze", TEXT, FIELDS), ("analyze", TEXT, {})
    expected = _fresh_process([with_author, without])
    for order in ([0, 1, 0, 1], [1, 0, 1, 0]):
        calls = [(with_author, without)[k] for k in order]
        got = [[tuple(s) for s in mmbdeid.analyze(text, **fields)] for _, text, fields in calls]
        assert got == [expected[k] for k in order]
    assert expected[0] != expected[1]           # (the author's username is removed)


@pytest.fixture(scope="module")
def demo_posts():
    with open(DEMO_DUMP, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _built_afresh(tagger, posts):
    """The spans of a chain built the way the API built it before issue 21: a store of the
    posts' statistics, and every detector made for the call."""
    documents = [Document.from_post(api._fields(dict(
        {k: p[k] for k in api.CONTEXT_FIELDS if k in p}, text=p["text"]))) for p in posts]
    analyzer = Analyzer.build(tagger, with_reference(CorpusStats.build(documents)))
    analyzer.prefetch(documents)
    return [merge_mentions(d.original_text, spans)
            for d, spans in zip(documents, analyzer.analyze_all(documents))]


def test_every_call_gives_the_spans_of_a_chain_built_for_it(demo_posts):
    scrubber = Scrubber()
    posts = [{k: p[k] for k in ("text", *api.CONTEXT_FIELDS)} for p in demo_posts]
    for batch in ([posts[3]], posts[:12], posts, [posts[3]], [{"text": posts[3]["text"]}]):
        assert scrubber.analyze_many(batch) == _built_afresh(scrubber.tagger, batch)


def test_the_module_functions_keep_one_scrubber_per_options():
    assert api._scrubber({}) is api._scrubber({})
    assert api._scrubber({"allow": ["Linda"]}) is api._scrubber({"allow": ("Linda",)})
    assert api._scrubber({"allow": ["Linda"]}) is not api._scrubber({})
    for k in range(api.SCRUBBERS_KEPT + 2):     # bounded: the oldest are dropped
        api._scrubber({"threshold": 0.1 + k / 100})
    assert len(api._SCRUBBERS) == api.SCRUBBERS_KEPT


def test_a_scrubber_builds_its_chain_once():
    scrubber = Scrubber()
    scrubber.scrub("Hi Linda")
    chain = scrubber._chain()
    scrubber.scrub("Hugs, Kay")
    assert scrubber._chain() is chain


LOW = 1e-6       # a threshold that removes many more words than the model's own


def test_a_tagger_changed_after_use_gets_a_new_chain():
    tagger = NameTagger.default()
    scrubber = Scrubber(model=tagger)
    before = scrubber.analyze(TEXT)
    chain = scrubber._chain()
    tagger.set_params(threshold=LOW)
    after = scrubber.analyze(TEXT)
    assert scrubber._chain() is not chain
    assert after != before
    assert after == Scrubber(model=NameTagger.default().set_params(threshold=LOW)).analyze(TEXT)


def test_a_model_file_written_again_is_read_again(tmp_path):
    path = str(tmp_path / "model.mmbdeid")
    NameTagger.default().save(path)
    before = mmbdeid.analyze(TEXT, model=path)
    NameTagger.default().set_params(threshold=LOW).save(path)
    os.utime(path, ns=(0, 10 ** 18))    # (a new modification time, whatever the clock)
    after = mmbdeid.analyze(TEXT, model=path)
    assert after != before
    assert after == Scrubber(model=path).analyze(TEXT)


def test_a_used_scrubber_pickled_scrubs_the_same():
    import pickle

    scrubber = Scrubber(allow=["Kay"])
    scrubbed = scrubber.scrub(TEXT, **FIELDS)
    copy = pickle.loads(pickle.dumps(scrubber))
    assert copy.scrub(TEXT, **FIELDS) == scrubbed
    assert copy._chain() is not scrubber._chain()


def test_threads_sharing_a_scrubber_get_what_one_thread_gets(demo_posts):
    texts = [p["text"] for p in demo_posts[:16]]
    expected = [mmbdeid.scrub(text) for text in texts]
    got = [None] * len(texts)

    def work(first):
        for k in range(first, len(texts), 4):
            got[k] = mmbdeid.scrub(texts[k])

    threads = [threading.Thread(target=work, args=(first,)) for first in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == expected


def test_small_inputs_start_no_process_and_no_sqlite_store(monkeypatch, demo_posts):
    """Records and DataFrames of 1 and 100 posts are scrubbed in the calling process, from
    statistics held in memory (the reference, loaded once, is the only database read)."""
    import multiprocessing
    import sqlite3

    mmbdeid.scrub("warm up: the model and the reference statistics load here")

    def refused(*args, **kwargs):
        raise AssertionError("a process pool or SQLite store was started")

    monkeypatch.setattr(multiprocessing, "Pool", refused)
    monkeypatch.setattr(multiprocessing, "Process", refused)
    monkeypatch.setattr(sqlite3, "connect", refused)
    records = [dict(p, id=k) for k, p in enumerate(demo_posts * 2)][:100]
    for n in (1, 100):
        assert len(list(mmbdeid.scrub_records(records[:n]))) == n
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(records)
    assert len(mmbdeid.scrub_dataframe(frame.iloc[:1])) == 1
    assert len(mmbdeid.scrub_dataframe(frame)) == 100
