"""The audit never gives a clean bill where it did not look (issue 30): each name left in
a scrubbed post is found (a leak or the model's near-miss), or the report counts it among
what it did not search; the summary line says what was searched and holds no names."""
import json
import re

import pytest

from mmbdeid.audit import LOWER_CASE, SENTENCE_START, LeakAuditor
from mmbdeid.audit.near_misses import near_misses
from mmbdeid.audit.report import audit_dump, summary_line
from mmbdeid.errors import InputError
from mmbdeid.model.tagger import NameTagger

MAP = ("U1 | @dmarie_k | D (2) | Dee (1)\n"
       "U2 | @jen_ivf82 | Jen (3)\n"
       "P1 | Hope (2)\n"
       "P2 | Will (3)\n")


@pytest.fixture(scope="module")
def tagger():
    return NameTagger.default()


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def audited(tmp_path, tagger, text, author="dmarie_k", spans=None, original_text=None):
    from mmbdeid.audit import names_from_person_map, unposted_names
    from mmbdeid.people.personmap import PersonMap
    map_path = tmp_path / "people.map"
    map_path.write_text(MAP, encoding="utf-8")
    people = PersonMap.read(str(map_path))
    original = write_jsonl(tmp_path / "dump.jsonl", [
        {"id": "p1", "thread": "t1", "author": author, "text": original_text or text},
        {"id": "p2", "thread": "t1", "author": "jen_ivf82", "text": "Hi all."}])
    scrubbed = write_jsonl(tmp_path / "out.jsonl", [
        {"id": "p1", "thread": "t1", "author": "U1", "text": text},
        {"id": "p2", "thread": "t1", "author": "U2", "text": "Hi all."}])
    spans_path = None
    if spans is not None:
        spans_path = write_jsonl(tmp_path / "spans.jsonl", [
            {"id": "p1", "spans": spans}, {"id": "p2", "spans": []}])
    return audit_dump(scrubbed, original, names_from_person_map(people), (),
                      unposted_names(people), spans_path, tagger)


# name left in the post, and what the audit may honestly do about it: "leak" (found),
# "near" (the model's candidate), or the skip it counts (SENTENCE_START, LOWER_CASE, or
# "unmapped": a name the map does not hold, which the summary says it cannot see)
CASES = [
    ("Hope is flying in on Friday for the transfer.", "Hope",
     {"near", SENTENCE_START}),
    ("Thanks so much. Hope is flying in tomorrow.", "Hope", {"near", SENTENCE_START}),
    ("Thanks Hope!", "Hope", {"leak"}),
    ("Scan went fine and my husband will be there too.", "will", {"near", LOWER_CASE}),
    ("Scan went fine, thank you all.\n-- d", "d", {"leak"}),
    ("Scan went fine, thank you all.\nxx Dee", "Dee", {"leak"}),
    ("we told jamie about the trial and he was fine with it.", "jamie",
     {"near", "unmapped"}),
    ("Jamie came with me to the clinic today.", "Jamie", {"near", "unmapped"}),
]


@pytest.mark.parametrize("text, name, honest", CASES)
def test_a_name_left_is_found_or_said_unsearched(tmp_path, tagger, text, name, honest):
    report = audited(tmp_path, tagger, text)
    start = text.index(name)
    seen = set()
    if any(l.start <= start < l.end for l in report.leaks if l.post_id == "p1"):
        seen.add("leak")
    if any(n.start <= start < n.end for n in report.near if n.post_id == "p1"):
        seen.add("near")
    seen.update(kind for kind in (SENTENCE_START, LOWER_CASE) if report.auditor.skipped[kind])
    line = summary_line(report)
    if "lower-case names and names that are words the map does not hold" in line:
        seen.add("unmapped")
    assert seen & honest, (seen, line)
    assert not line.startswith("0 leaks found")
    assert re.search(r"\b%s\b" % name, line) is None      # stderr holds no names


def test_the_summary_says_what_was_searched_and_what_not(tmp_path, tagger):
    line = summary_line(audited(tmp_path, tagger, "Hope is flying in on Friday."))
    assert line.startswith("0 leaks among 2 usernames, ")
    assert "5 map names" in line                   # D, Dee, Jen of members; Hope, Will
    assert "1 near-miss of the model listed (P >= 0.01)" in line   # Hope
    assert "1 occurrence of names that are words (1 at a sentence start, 0 in lower case)" \
        in line
    assert "the run's removed spans (--spans)" in line     # not given: said
    for name in ("Hope", "Will", "Jen", "Dee", "dmarie", "jen_ivf82"):
        assert name not in line


def test_a_removed_span_left_elsewhere_in_its_post_is_a_leak(tmp_path, tagger):
    original = "Will is coming. Will said so."
    text = "[P2] is coming. Will said so."
    report = audited(tmp_path, tagger, text, spans=[{"start": 0, "end": 4, "label": "NAME"}],
                     original_text=original)
    assert [(l.text, l.start, l.kind) for l in report.leaks] == [("Will", 16, "removed")]
    assert report.spans_checked == 2
    assert "2 posts' removed spans searched" in summary_line(report)


def test_a_spans_file_of_another_dump_is_refused_with_its_line(tmp_path, tagger):
    with pytest.raises(InputError, match="'zz' is not in the original dump") as raised:
        from mmbdeid.audit.removed import removed_strings
        path = write_jsonl(tmp_path / "spans.jsonl", [{"id": "zz", "spans": []}])
        removed_strings(path, write_jsonl(tmp_path / "dump.jsonl",
                                          [{"id": "p1", "text": "hi"}]))
    assert str(raised.value).startswith(str(tmp_path / "spans.jsonl") + ":1: ")


@pytest.mark.parametrize("text, skipped", [
    ("Hope that helps", {SENTENCE_START: 1}),
    ("i hope so and will try", {LOWER_CASE: 2}),
    ("I'd say so", {}),                          # the d of I'd is no word
    ("ok\nwill\n", {}),                          # a lower-case sign-off is a leak
])
def test_what_the_search_passes_over_is_counted(text, skipped):
    auditor = LeakAuditor([], {}, {"P1": ["Hope", "Will", "D"]})
    auditor.scan("p", text)
    assert {k: v for k, v in auditor.skipped.items() if v} == skipped


def test_near_misses_skip_placeholders_and_stop_words(tagger):
    posts = [{"id": "a", "thread": "t", "text": "Thanks [U5], my husband and I met Jamie."}]
    found = [n.text for n in near_misses(tagger, posts)]
    assert "Jamie" in found
    assert not {"U5", "[U5]", "my", "I", "and"} & set(found)
