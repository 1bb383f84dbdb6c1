"""One name, one decision per thread (issue 19, item 2): a word removed with high
probability in one post is removed wherever it stands in the thread and in the author's
posts, as a name may be written, unless a keep step holds it.

All texts here are fictional, written for these tests.
"""
import json
import os

import pytest

from mmbdeid.detect.analyzer import Analyzer
from mmbdeid.detect.thread_names import (NameEvidence, Seen, can_be_the_name, matching_spans,
                                        removed_types, scope_keys)
from mmbdeid.spans import COMPLETION, CONSISTENCY, CRF, USERNAME, Span, raise_spans
from mmbdeid.text.document import Document

from paths import SAMPLES
THREADS = os.path.join(SAMPLES, "thread_names.annotated.jsonl")

MAREN = {"maren": Seen(0.9, "NAME", ("Maren",))}
FAITH = {"faith": Seen(0.8, "NAME", ("Faith", "faith"))}


@pytest.mark.parametrize("token, seen, expected", [
    ("Maren", MAREN["maren"], True),            # the form seen
    ("MAREN", MAREN["maren"], True),            # capitals: a header
    ("maren", MAREN["maren"], False),           # another form, not capitalised
    ("maren", Seen(0.9, "NAME", ("maren",)), True),     # the exact lower-case form seen
    ("Faith", FAITH["faith"], True),
    ("faith", FAITH["faith"], False),           # a common word in lower case, even if seen
    ("grant", Seen(0.9, "NAME", ("Grant",)), False),
])
def test_which_forms_can_be_the_name(token, seen, expected):
    assert can_be_the_name(token, seen) is expected


@pytest.mark.parametrize("spans, level, expected", [
    ([Span("NAME", 0, 5, 0.9, CRF)], 0.5, {"maren": ("Maren",)}),
    ([Span("NAME", 0, 5, 0.4, CRF)], 0.5, {}),                 # not sure enough
    ([Span("NAME", 0, 5, 1.0, "title")], 0.5, {}),             # a rule's span: no evidence
    ([Span("EMAIL", 0, 5, 1.0, CRF)], 0.5, {}),                # not a person
    ([Span("NAME", 6, 7, 0.99, CRF)], 0.5, {}),                # an initial: no evidence
    ([Span("USER", 9, 16, 0.7, CRF)], 0.5, {"kaygirl": ("kaygirl",)}),
    ([Span("NAME", 17, 20, 0.9, CRF)], 0.5, {}),               # a stop word: no evidence
])
def test_removed_types_are_the_models_confident_names(spans, level, expected):
    found = removed_types("Maren T. kaygirl The", spans, level)
    assert {word: seen.forms for word, seen in found.items()} == expected


def test_scopes_are_the_thread_or_the_post_and_the_author_on_the_board():
    assert scope_keys("b", "t1", "kay", 7) == [("thread", "b", "t1"), ("author", "b", "kay")]
    assert scope_keys("b", "", "", 7) == [("post", 7)]       # a tweet: itself alone
    assert scope_keys("b", "t1", "kay", 7, authors=False) == [("thread", "b", "t1")]
    evidence = NameEvidence()
    evidence.add(scope_keys("b", "t1", "kay", 0), MAREN)
    assert evidence.types(scope_keys("b", "t1", "ann", 1)) == MAREN        # same thread
    assert evidence.types(scope_keys("b", "t9", "kay", 2)) == MAREN        # same author
    assert evidence.types(scope_keys("other", "t9", "kay", 3)) == {}       # another board
    assert evidence.types(scope_keys("b", "", "", 4)) == {}


# (text, types, the words the second round removes)
CASES = [
    ("Maren wrote back today.", MAREN, ["Maren"]),
    ("MAREN OYELARAN 09/20/2000 09:32 AM", MAREN, ["MAREN"]),
    ("Thanks Maren.", MAREN, ["Maren"]),                     # the full stop stays
    ("ask maren about it", MAREN, []),
    ("Faith loved the card. Keep the faith.", FAITH, ["Faith"]),
    ("I have Graves' disease.", {"graves": Seen(0.9, "NAME", ("Graves",))}, []),
    ("Arimidex again today", {"arimidex": Seen(0.9, "NAME", ("Arimidex",))}, []),
    ("Ask Dr. Osei", {"dr": Seen(0.9, "NAME", ("Dr",)), "osei": Seen(0.9, "NAME", ("Osei",))},
     ["Osei"]),
    ("As [NAME] said, Maren knows", {"name": Seen(0.9, "NAME", ("NAME",)), **MAREN},
     ["Maren"]),
    ("write to maren@example.org", MAREN, []),
]


@pytest.mark.parametrize("text, types, removed", CASES)
def test_the_second_round_removes_the_words_as_names_and_the_keep_steps_hold(
        text, types, removed):
    spans = Analyzer.for_extension().extend(Document.from_text(text), [], types)
    assert [text[s.start:s.end] for s in spans] == removed
    assert all(s.source == CONSISTENCY and s.score == types[text[s.start:s.end].lower()].prob
               for s in spans)


@pytest.mark.parametrize("earlier, kept", [
    (Span("NAME", 0, 5, 0.2, CRF), False),          # a lower model score is raised
    (Span("NAME", 0, 5, 0.95, CRF), True),          # a higher one stays
    (Span("USER", 0, 5, 1.0, USERNAME), True),      # a rule's span is never cut
    (Span("NAME", 0, 11, 0.3, "title"), True),
    # completion scores a token as the name part that seeded it: a model score too, so
    # in evaluation (a span on every token) a seed below the threshold does not hide the
    # word from the second round, as it does not in a scrub
    (Span("NAME", 0, 5, 0.01, COMPLETION), False),
    (Span("NAME", 0, 5, 0.95, COMPLETION), True),
])
def test_a_consistency_span_only_raises_a_lower_model_score(earlier, kept):
    found = Span("NAME", 0, 5, 0.9, CONSISTENCY)
    assert raise_spans([earlier], [found]) == ([earlier] if kept else [found])


def test_no_words_no_change():
    spans = [Span("NAME", 0, 5, 0.2, CRF)]
    assert Analyzer.for_extension().extend(Document.from_text("Maren"), spans, {}) is spans
    assert matching_spans(Document.from_text("Maren"), {}) == []


@pytest.fixture(scope="module")
def threads():
    with open(THREADS, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


@pytest.fixture(scope="module")
def scrubbed(threads):
    import mmbdeid
    return {r["id"]: r["text"] for r in mmbdeid.scrub_records(
        [{k: v for k, v in r.items() if k != "spans"} for r in threads])}


@pytest.mark.parametrize("post, name", [
    ("tc01-03", "Faith"),       # a sentence start, named earlier in the thread
    ("tc03-03", "Grant"),       # the same: a post later in the file, threads interleaved
    ("tc02-03", "OYELARAN"),    # capitals in a header
    ("tc05-02", "Abernathy"),   # weaker context than in the thread's other posts
    ("tc01-01", "Rosalind"),    # the author's sign-off elsewhere on the board
])
def test_a_name_the_thread_removed_is_removed_in_every_post(threads, scrubbed, post, name):
    original = next(r["text"] for r in threads if r["id"] == post)
    assert name in original and name not in scrubbed[post]


@pytest.mark.slow
def test_common_words_in_lower_case_are_never_added(threads):
    import mmbdeid
    for record in threads:
        spans = mmbdeid.Scrubber().analyze_many([record])[0]
        assert not any(s.source == CONSISTENCY and record["text"][s.start:s.end].islower()
                       for s in spans)


def test_the_dump_pass_agrees_with_the_whole_chain(threads):
    """The jobs' later pass (``extend``: no model run) gives the spans of the whole chain
    with the consistency step told the words (as ``evaluate`` runs it)."""
    import mmbdeid
    from mmbdeid.model.reference import with_reference
    from mmbdeid.model.stats import CorpusStats
    documents = [Document.from_post(r) for r in threads]
    analyzer = Analyzer.build(mmbdeid.Scrubber().tagger,
                              with_reference(CorpusStats.build(documents)))
    analyzer.prefetch(documents)
    two_rounds = analyzer.analyze_all(documents)
    analyzer.gather(documents)
    whole_chain = [analyzer.analyze(d) for d in documents]
    assert two_rounds == whole_chain
    assert any(s.source == CONSISTENCY for spans in whole_chain for s in spans)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_scrub_of_a_dump_equals_the_api(tmp_path, threads, scrubbed, jobs):
    from mmbdeid.cli import main
    dump = tmp_path / "threads.jsonl"
    dump.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "spans"}) + "\n"
                            for r in threads), encoding="utf-8")
    out, spans = tmp_path / "out.jsonl", tmp_path / "spans.jsonl"
    assert main(["scrub", str(dump), "-o", str(out), "--spans", str(spans), "--jobs", jobs,
                 "--quiet"]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {r["id"]: r["text"] for r in written} == scrubbed
    assert CONSISTENCY in spans.read_text(encoding="utf-8")


@pytest.mark.parametrize("text, spans, sent", [
    ("Maren says hi", [], ["maren"]),
    ("nothing here", [], None),                                  # not in the text
    ("Maren says hi", [Span("NAME", 0, 5, 0.9, CRF)], None),     # already as sure
    ("Maren says hi", [Span("NAME", 0, 5, 0.3, CRF)], ["maren"]),    # to be raised
    ("Maren, Maren!", [Span("NAME", 0, 5, 0.9, CRF)], ["maren"]),    # one left
    ("Ma\u200bren says hi", [], ["maren"]),          # the detector reads another text
])
def test_the_main_process_sends_only_posts_the_words_may_change(text, spans, sent):
    assert _words_sent("Maren", text, spans) == sent


@pytest.mark.parametrize("text, sent", [
    ("keep the faith", None),                   # a common word in lower case: no name
    ("Faith called", ["faith"]),
    ("FAITH called", ["faith"]),
])
def test_a_post_is_sent_only_where_the_word_may_be_a_name(text, sent):
    assert _words_sent("Faith", text) == sent


def _words_sent(name: str, text: str, spans=()):
    """The words the main process sends a worker with ``text`` (and its ``spans``) after
    a post of the thread removed ``name`` with probability 0.9 (None: the post is not
    sent with any)."""
    from mmbdeid.detect.thread_names import DumpEvidence
    evidence = DumpEvidence()
    evidence.observe({"text": name, "thread": "t"}, [Span("NAME", 0, len(name), 0.9, CRF)])
    words = evidence.words_for({"text": text, "thread": "t"}, 1, spans)
    return sorted(words) if words else None


@pytest.mark.parametrize("text, sent", [
    ("Annual checkup", None),                   # inside another word: not the word
    ("Ann's checkup", ["ann"]),                 # a clitic split off
    ("Annn't", ["ann"]),                        # the tokenizer reads "Ann" "n't"
])
def test_the_main_process_counts_words_as_the_tokenizer_splits_them(text, sent):
    assert _words_sent("Ann", text) == sent
