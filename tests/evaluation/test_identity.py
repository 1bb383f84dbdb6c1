"""The identity measure of evaluate --people: pairwise link precision and recall of the
tool's person ids against gold persons, with wrong merges and splits listed."""
from fractions import Fraction

import pytest

from mmbdeid.evaluation.identity import format_identity, score


def _post(post_id, thread, author, text, people):
    """A gold post; ``people``: (mention text, gold person), found in order in ``text``."""
    spans, at = [], 0
    for mention, person in people:
        start = text.index(mention, at)
        at = start + len(mention)
        spans.append({"start": start, "end": at, "label": "NAME", "person": person})
    return {"id": post_id, "thread": thread, "author": author, "text": text, "spans": spans}


POSTS = [
    _post("p1", "t1", "jen82", "Hi Sam, my husband Will says hi. xx Jen",
          [("Sam", "sam_k"), ("Will", "~will"), ("Jen", "jen82")]),
    _post("p2", "t1", "sam_k", "Thanks Jen! Sam", [("Jen", "jen82"), ("Sam", "sam_k")]),
    _post("p3", "t2", "bill_c", "My brother Bill visited, Dr. Ames said no.",
          [("Bill", "~bill")]),                 # Dr. Ames: no person key, not measured
]
AUTHORS = {"p1": "U1", "p2": "U2", "p3": "U3"}
PERFECT = {"p1": [("Sam", "U2"), ("Will", "P1"), ("Jen", "U1")],
           "p2": [("Jen", "U1"), ("Sam", "U2")],
           "p3": [("Bill", "P2"), ("Ames", "P3")]}


def _tool(post_spans):
    """The spans file: (text removed, person id) per post, offsets found in the text."""
    texts = {post["id"]: post["text"] for post in POSTS}
    found = {}
    for post_id, removed in post_spans.items():
        entries, at = [], 0
        for text, person in removed:
            start = texts[post_id].index(text, at)
            at = start + len(text)
            entries.append({"start": start, "end": at, "label": "NAME", "person": person})
        found[post_id] = entries
    return found


def _with(post_id, removed):
    return dict(PERFECT, **{post_id: removed})


@pytest.mark.parametrize("case, spans, precision, recall, merges, splits, missed", [
    ("perfect", PERFECT, 1, 1, [], [], 0),
    # Will (IVF thread) and Bill (another thread) made one person
    ("merge across threads", _with("p3", [("Bill", "P1")]), Fraction(6, 7), 1,
     [("P1", True, ["~bill", "~will"])], [], 0),
    # Jen's second mention given an id of its own
    ("split", _with("p2", [("Jen", "P9"), ("Sam", "U2")]), 1, Fraction(4, 6), [],
     ["jen82"], 0),
    # Sam's sign-off left in the text
    ("missed", _with("p2", [("Jen", "U1")]), 1, Fraction(4, 6), [], ["sam_k"], 1),
    # one removed span 'Sam, my husband Will' covers two gold people of one thread
    ("one span, two mentions", _with("p1", [("Sam, my husband Will", "U2"), ("Jen", "U1")]),
     Fraction(6, 9), 1, [("U2", False, ["sam_k", "~will"])], [], 0),
])
def test_scores(case, spans, precision, recall, merges, splits, missed):
    result = score(POSTS, _tool(spans), AUTHORS)
    assert len(result.mentions) == 9          # 6 gold spans with a person, 3 authors
    assert result.precision == pytest.approx(float(precision))
    assert result.recall == pytest.approx(float(recall))
    assert [(m.tool, m.across_threads, list(m.people)) for m in result.merges()] == merges
    assert [s.person for s in result.splits()] == splits
    assert len(result.missed) == missed


def test_pair_counts_are_sums_over_cells():
    result = score(POSTS, _tool(_with("p3", [("Bill", "P1")])), AUTHORS)
    # gold: jen82 x3, sam_k x3, ~will, ~bill, bill_c: 3 + 3 pairs; tool: U1 x3, U2 x3,
    # P1 x2 (Will, Bill): 3 + 3 + 1 pairs, of which 6 share a person
    assert (result.true_pairs, result.linked_pairs, result.both) == (6, 7, 6)


def test_a_mention_two_ids_cover_counts_as_the_larger_and_is_listed():
    # 'Wil' removed as P1, the last 'l' as U2
    spans = _tool(PERFECT)
    will = next(e for e in spans["p1"] if e["person"] == "P1")
    spans["p1"].append(dict(will, start=will["end"] - 1, person="U2"))
    will["end"] -= 1
    result = score(POSTS, spans, AUTHORS)
    assert [(m.text, m.tool, m.ids) for m in result.mixed] == [("Will", "P1", ("P1", "U2"))]
    assert "mixed p1 'Will': P1/U2 (counted as P1)" in format_identity(result)


def test_report_lists_merges_with_their_people_and_posts():
    result = score(POSTS, _tool(_with("p3", [("Bill", "P1")])), AUTHORS)
    report = format_identity(result).splitlines()
    assert report[:6] == [
        "mentions        9 (3 by authors; not removed 0)",
        "people          5 (2 who never post)",
        "link precision  0.8571 (6 of 7 pairs given one id share a person)",
        "link recall     1.0000 (6 of 6 pairs of one person given one id)",
        "wrong merges    1 (1 across threads)",
        "splits          0"]
    assert report[6:] == ["merge P1 (across threads):", "  ~bill: 'Bill' in p3",
                          "  ~will: 'Will' in p1"]


def test_report_lists_splits_with_forms_and_posts():
    result = score(POSTS, _tool(_with("p2", [("Sam", "U2")])), AUTHORS)
    assert format_identity(result).splitlines()[6:] == [
        "split jen82:", "  U1: author 'jen82' in p1, 'Jen' in p1", "  not removed: 'Jen' in p2"]


def test_json_figures():
    figures = score(POSTS, _tool(_with("p2", [("Sam", "U2")])), AUTHORS).as_dict()
    assert (figures["mentions"], figures["people"], figures["never_post"],
            figures["authors"], figures["missed"]) == (9, 5, 2, 3, 1)
    assert figures["splits"][0]["tools"][1] == {"tool": None, "mentions": [
        {"post": "p2", "thread": "t1", "text": "Jen", "person": "jen82", "tool": None}]}
