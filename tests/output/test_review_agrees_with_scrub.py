"""The review shows what scrub does (issue 30): on the bundled samples, in each mode, every
span scrub replaces is a removal on the review page, and no token the page lists as left
(a near-miss, or an unknown word of a post with no removal) is one scrub removes. The
page's input is caught where the review hands it over (PageGatherer.add)."""
import json

import pytest

from mmbdeid.cli import main
from mmbdeid.files.corpora import read_annotated
from mmbdeid.output import review_rows

from paths import DEMO_DUMP, SAMPLE_CORPUS


@pytest.fixture(scope="module")
def health_posts(tmp_path_factory):
    """The annotated sample's posts as a dump (its spans dropped)."""
    path = tmp_path_factory.mktemp("sample") / "health_boards.jsonl"
    path.write_text("".join(json.dumps(post.record.fields) + "\n"
                            for post in read_annotated(SAMPLE_CORPUS)), encoding="utf-8")
    return str(path)


def reviewed(dump, tmp_path, mode, monkeypatch):
    """Post id -> (removals, near-misses, unknown words) as the review page gets them."""
    page = {}
    add = review_rows.PageGatherer.add

    def catching(self, number, fields, removals, near, unknown):
        page[str(fields["id"])] = ([(s.start, s.end) for s in removals],
                                   [(s.start, s.end) for s in near],
                                   [(s.start, s.end) for s in unknown])
        return add(self, number, fields, removals, near, unknown)

    monkeypatch.setattr(review_rows.PageGatherer, "add", catching)
    assert main(["review", dump, "-o", str(tmp_path / "review.csv"), "--html",
                 str(tmp_path / "review.html"), "--mode", mode, "-q", "-j", "1"]) == 0
    return page


def scrubbed(dump, tmp_path, mode):
    """Post id -> the spans scrub replaced (each joined mention's tokens)."""
    spans = tmp_path / "scrub.spans.jsonl"
    assert main(["scrub", dump, "-o", str(tmp_path / "scrub.jsonl"), "--spans", str(spans),
                 "--mode", mode, "-q", "-j", "1"]) == 0
    removed = {}
    for line in spans.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        removed[str(record["id"])] = [
            (part["start"], part["end"]) for span in record["spans"]
            for part in span.get("tokens", [span])]
    return removed


def overlaps(span, spans):
    return any(span[0] < end and start < span[1] for start, end in spans)


@pytest.mark.parametrize("sample, mode", [
    ("demo", "placeholder"), ("demo", "pseudonym"), ("demo", "surrogate"),
    ("health", "placeholder"), ("health", "pseudonym"),
])
def test_review_and_scrub_agree_on_every_post(sample, mode, tmp_path, monkeypatch,
                                              health_posts):
    dump = DEMO_DUMP if sample == "demo" else health_posts
    page = reviewed(dump, tmp_path, mode, monkeypatch)
    removed = scrubbed(dump, tmp_path, mode)
    assert set(page) == set(removed)
    disagreements = []
    for post_id, scrub_spans in removed.items():
        removals, near, unknown = page[post_id]
        disagreements += [(post_id, "removed by scrub, not on the page", span)
                          for span in scrub_spans if not overlaps(span, removals)]
        disagreements += [(post_id, "left on the page, removed by scrub", span)
                          for span in near + unknown if overlaps(span, scrub_spans)]
        disagreements += [(post_id, "removed on the page, not by scrub", span)
                          for span in removals if not overlaps(span, scrub_spans)]
    assert disagreements == []


def test_review_map_needs_a_person_mode(tmp_path, capsys):
    people = tmp_path / "people.map"
    people.write_text("P1 | Linda (1)\n", encoding="utf-8")
    assert main(["review", DEMO_DUMP, "-o", str(tmp_path / "r.csv"), "--map",
                 str(people), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--map needs --mode pseudonym or --mode surrogate" in err
    assert not (tmp_path / "r.csv").exists()
