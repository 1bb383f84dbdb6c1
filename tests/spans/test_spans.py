import pytest

from mmbdeid.spans import (Span, add_spans, drop_inside, join, mention_groups, merge_mentions,
                           overlapping_any, resolve_overlaps)

from documents import replace_spans

TEXT = "Hi Kay, mail kay@example.com"


@pytest.mark.parametrize("spans, expected", [
    ([], TEXT),
    ([Span("NAME", 3, 6, 0.9, "crf")], "Hi [NAME], mail kay@example.com"),
    ([Span("EMAIL", 13, 28, 1.0, "pattern"), Span("NAME", 3, 6, 0.2, "crf")],
     "Hi [NAME], mail [EMAIL]"),
    ([Span("EMAIL", 13, 28, 1.0, "pattern"), Span("USER", 13, 16, 0.4, "crf")],
     "Hi Kay, mail [EMAIL]"),
])
def test_replace_spans(spans, expected):
    assert replace_spans(TEXT, spans) == expected


def test_resolve_overlaps_keeps_earlier_then_longer():
    spans = [Span("A", 5, 8, 1, ""), Span("B", 0, 6, 1, ""), Span("C", 0, 2, 1, "")]
    assert resolve_overlaps(spans) == [Span("B", 0, 6, 1, "")]


@pytest.mark.parametrize("span, start, end, overlaps, contains, inside", [
    ((2, 5), 0, 2, False, False, False),     # touching is not overlapping
    ((2, 5), 4, 9, True, False, False),
    ((2, 5), 3, 4, True, True, False),
    ((2, 5), 2, 5, True, True, True),
    ((2, 5), 0, 9, True, False, True),
])
def test_span_relations(span, start, end, overlaps, contains, inside):
    s = Span("NAME", span[0], span[1], 1.0, "crf")
    assert (s.overlaps(start, end), s.contains(start, end), s.inside(start, end)) == \
        (overlaps, contains, inside)


@pytest.mark.parametrize("spans, others, expected", [
    ([(0, 2), (3, 5), (8, 9)], [(4, 8)], [False, True, False]),
    ([(0, 2), (3, 5)], [], [False, False]),
    ([(5, 6)], [(0, 10), (1, 2)], [True]),    # a long earlier span still covers it
    ([(5, 6)], [(0, 5), (6, 7)], [False]),
])
def test_overlapping_any(spans, others, expected):
    make = lambda pairs: [Span("NAME", s, e, 1.0, "") for s, e in pairs]   # noqa: E731
    assert overlapping_any(make(spans), make(others)) == expected


def test_add_spans_replaces_what_the_added_overlap_and_sorts():
    model = [Span("NAME", 20, 24, 0.9, "crf"), Span("NAME", 0, 1, 0.2, "crf"),
             Span("NAME", 4, 5, 0.3, "crf")]
    added = [Span("NAME", 0, 11, 1.0, "deny")]
    assert add_spans(model, added) == [added[0], model[0]]
    assert add_spans(model, []) == model


@pytest.mark.parametrize("regions, kept", [
    ([(0, 6)], [(5, 9), (10, 12)]),
    ([(0, 9)], [(10, 12)]),
    ([], [(0, 3), (5, 9), (10, 12)]),
    ([(1, 3), (10, 12)], [(0, 3), (5, 9)]),
    ([(10, 12), (0, 3)], [(5, 9)]),                 # in any order
    ([(0, 10), (4, 6)], [(10, 12)]),                # one inside another: the outer holds
    ([(0, 7), (6, 12)], [(5, 9)]),                  # overlapping: (5, 9) is in neither
    ([(4, 9), (4, 6)], [(0, 3), (10, 12)]),         # same start
])
def test_drop_inside(regions, kept):
    spans = [Span("NAME", s, e, 0.5, "crf") for s, e in ((0, 3), (5, 9), (10, 12))]
    assert [(s.start, s.end) for s in drop_inside(spans, regions)] == kept


class CountedScore(float):
    """A probability that counts how often it is compared (the work of joining spans)."""
    comparisons = 0

    def _counted(name):
        def compare(self, other):
            CountedScore.comparisons += 1
            return getattr(float, name)(self, other)
        return compare
    __lt__, __le__, __gt__, __ge__ = map(_counted, ("__lt__", "__le__", "__gt__", "__ge__"))


def comparisons_to_join(names):
    """The probabilities compared to join ``names`` adjacent ``Linda`` spans into one
    mention, checked to be one."""
    text = " ".join(["Linda"] * names)
    spans = [Span("NAME", 6 * i, 6 * i + 5, CountedScore(0.5), "crf") for i in range(names)]
    CountedScore.comparisons = 0
    (group,) = mention_groups(text, spans)
    assert len(group) == names
    return CountedScore.comparisons


def test_joining_adjacent_names_is_linear():
    # each name joined to the mention so far, not the mention joined anew at each name
    # (100,000 "Linda"s took over 500 s)
    assert comparisons_to_join(800) <= 2.2 * comparisons_to_join(400)
    assert comparisons_to_join(400) <= 2 * 400


@pytest.mark.parametrize("scores, best", [
    ((0.2, 0.9, 0.4), 1),
    ((0.9, 0.2, 0.9), 0),              # the first of equals
    ((0.1, 0.1, 0.3), 2),
])
def test_a_joined_mention_has_its_best_part(scores, best):
    text = "Mary Jane Poe"
    spans = [Span("NAME", s, e, score, source) for (s, e), score, source
             in zip([(0, 4), (5, 9), (10, 13)], scores, "abc")]
    (mention,) = merge_mentions(text, spans)
    assert mention == join(spans) == Span("NAME", 0, 13, scores[best], "abc"[best])
