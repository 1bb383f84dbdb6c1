"""The leak report of a marked sample (mmbdeid.evaluation.leak_report, leak_report_text):
what counts as a leak, the marks by id and label (never their text), the marked file
matched with the draw, and the Markdown an ethics application cites."""
import json

import pytest

from mmbdeid.errors import InputError
from mmbdeid.evaluation.leak_report import (MarkedPost, check_against_draw, leak_report,
                                            read_draw_info, read_marked)
from mmbdeid.evaluation.leak_report_text import headline, markdown, target_line
from jsonl_files import write_jsonl


def _marked(tmp_path, marks):
    """A marked sample: post i has the spans of ``marks[i]`` (labels), over 'Ann Bo Cy'."""
    places = [(0, 3), (4, 6), (7, 9)]
    return write_jsonl(tmp_path / "marked.jsonl", [
        {"id": "p%d" % i, "text": "Ann Bo Cy", "board": "b",
         "spans": [{"start": s, "end": e, "label": label}
                   for (s, e), label in zip(places, labels)]}
        for i, labels in enumerate(marks)])


MARKS = [[], ["NAME"], [], ["USER", "NAME"], ["EMAIL"], []]


@pytest.mark.parametrize("labels, leaking, spans, posts", [
    (None, ["p1", "p3", "p4"], {"EMAIL": 1, "NAME": 2, "USER": 1},
     {"EMAIL": 1, "NAME": 2, "USER": 1}),
    (("NAME", "USER"), ["p1", "p3"], {"NAME": 2, "USER": 1}, {"NAME": 2, "USER": 1}),
    (("EMAIL",), ["p4"], {"EMAIL": 1}, {"EMAIL": 1}),
    (("PHONE",), [], {}, {}),
])
def test_a_post_leaks_when_it_has_a_span_of_a_counted_label(tmp_path, labels, leaking,
                                                             spans, posts):
    path = _marked(tmp_path, MARKS)
    report = leak_report(path, read_marked(path), None, labels)
    assert report["marks"] == {"leaking_posts": len(leaking), "leaking_ids": leaking,
                               "spans_by_label": spans, "posts_by_label": posts,
                               "spans_on_placeholders": 0}
    estimate = report["estimate"]
    assert (estimate["leaks"], estimate["posts"]) == (len(leaking), 6)
    assert estimate["share"] == len(leaking) / 6
    assert report["data"] is None and "not known" in report["population"]


@pytest.mark.parametrize("marked, leaks", [
    ("[NAME]", False), (" [USER] ", False), ("[U12]", False), ("[NAME:1a2b3c4d5e6f]", False),
    ("*****", False), ("Bo", True), ("[NAME] Bo", True), ("[Bo]", True),
])
def test_a_mark_over_a_placeholder_the_scrub_wrote_is_no_leak(tmp_path, marked, leaks):
    text = "Thanks " + marked + " x"
    path = write_jsonl(tmp_path / "marked.jsonl", [
        {"id": "a", "text": text, "spans": [{"start": 7, "end": 7 + len(marked),
                                             "label": "NAME"}]}])
    report = leak_report(path, read_marked(path), None)
    assert report["marks"]["leaking_posts"] == int(leaks)
    assert report["marks"]["spans_on_placeholders"] == int(not leaks)
    assert ("Not counted: 1 marked spans" in markdown(report)) == (not leaks)


def test_the_report_holds_no_marked_text(tmp_path):
    path = _marked(tmp_path, [["NAME", "NAME", "USER"]] * 3)
    report = leak_report(path, read_marked(path), None)
    text = json.dumps(report) + markdown(report)
    assert "Ann" not in text and "Cy" not in text


def test_no_leak_in_300_reads_below_one_percent(tmp_path):
    path = _marked(tmp_path, [[]] * 300)
    report = leak_report(path, read_marked(path), None, target=0.01)
    assert headline(report) == ("0 of 300 posts leak (0.00%): the leak share is below "
                                "0.99% at 95% confidence (one-sided Clopper-Pearson)")
    assert target_line(report) == "The bound is below the target of 1.00% already."
    assert report["estimate"]["clopper_pearson"][0] == 0.0
    assert report["estimate"]["upper_bound"] == pytest.approx(0.009936081944, rel=1e-9)


def test_the_posts_a_target_needs_are_said(tmp_path):
    path = _marked(tmp_path, [[]] * 99 + [["NAME"]])
    report = leak_report(path, read_marked(path), None, target=0.01)
    assert report["estimate"]["more_posts_for_target"] == 373
    assert target_line(report) == ("For a bound below 1.00%: 373 more posts with no leak "
                                   "(473 in all, with the 1 leak found).")


def _info(ids, by="board"):
    return {"kind": "mmbdeid estimate draw", "ids": ids, "seed": 4, "by": by,
            "size": {"rule": "upper-bound", "requested": len(ids), "upper_bound": 0.01},
            "allocation": "proportional", "strata": 1, "sample_file": "sample.jsonl",
            "by_stratum": [{"stratum": "b", "posts": 60, "drawn": len(ids)}],
            "created": "2026-11-29T00:00:00+00:00",
            "scrubbed": {"file": "scrubbed.jsonl", "records": 60, "sha256": "ab" * 32}}


def test_with_the_draw_the_report_names_the_dump_and_the_settings(tmp_path):
    path = _marked(tmp_path, MARKS)
    posts = read_marked(path)
    info = _info([post.id for post in posts])
    check_against_draw(posts, info, path, "sample.meta.json")
    report = leak_report(path, posts, info)
    page = markdown(report)
    for line in ("| scrubbed dump | `scrubbed.jsonl` |", "| records | 60 |",
                 "| SHA-256 | `%s` |" % ("ab" * 32), "| seed | 4 |",
                 "| sample size | 6 requested (for an upper bound below 1.00% with no "
                 "leak) |", "Leaking posts: 3: `p1`, `p3`, `p4`",
                 "| NAME | 2 | 2 |", "## Method"):
        assert line in page.splitlines(), line
    assert "proportional allocation" in report["population"]


@pytest.mark.parametrize("marked_ids, drawn, message", [
    (["p0", "p9"], ["p0", "p1"], "marked.jsonl:2: post 'p9' is not in the draw of "
     "sample.meta.json: mark the sample that draw wrote"),
    (["p0"], ["p0", "p1", "p2"], "marked.jsonl: 2 of the 3 drawn posts are not in it "
     "('p1', 'p2'): a share of part of the sample is not the random sample's; mark them "
     "all"),
])
def test_the_marked_posts_must_be_the_drawn_ones(marked_ids, drawn, message):
    posts = [MarkedPost(i, line, []) for line, i in enumerate(marked_ids, 1)]
    with pytest.raises(InputError) as raised:
        check_against_draw(posts, _info(drawn), "marked.jsonl", "sample.meta.json")
    assert str(raised.value) == message


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('{"kind": "something else", "ids": []}', "not the settings file of 'mmbdeid "
     "estimate draw'"),
    ('{"kind": "mmbdeid estimate draw", "ids": [1, 2]}', "'ids' must be the list"),
    ('[1, 2]', "not the settings file"),
])
def test_a_bad_settings_file_is_refused_in_one_line(tmp_path, content, message):
    path = tmp_path / "sample.meta.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as raised:
        read_draw_info(str(path))
    assert message in str(raised.value) and str(raised.value).startswith(str(path))
    assert "\n" not in str(raised.value)


def test_a_post_marked_twice_is_refused(tmp_path):
    path = write_jsonl(tmp_path / "marked.jsonl", [{"id": 1, "text": "a", "spans": []},
                                                   {"id": "1", "text": "b", "spans": []}])
    with pytest.raises(InputError, match=r"marked.jsonl:2: post '1' is marked twice "
                                         r"\(also on line 1\)"):
        read_marked(path)
