"""The person-consistency measure: every mention of a person must carry their one id."""
import pytest

from mmbdeid.evaluation.pseudonym_consistency import gold_mentions, measure

POSTS = [
    {"id": "1", "text": "Hi Jess, welcome. Ron", "spans": [
        {"start": 3, "end": 7, "label": "NAME", "person": "jess_k"},
        {"start": 18, "end": 21, "label": "NAME", "person": "ron77"}]},
    {"id": "2", "text": "Thanks Ron and Dr. Weiss", "spans": [
        {"start": 7, "end": 10, "label": "NAME", "person": "ron77"},
        {"start": 19, "end": 24, "label": "NAME"}]},          # not a board member
]
AUTHORS = {"jess_k": "U1", "ron77": "U2"}


def predicted(*people):
    """Spans output with the given person per gold span (None: not removed)."""
    spans = {"1": [], "2": []}
    for (post_id, start, end, _, _), person in zip(gold_mentions(POSTS), people):
        if person is not None:
            spans[post_id].append({"start": start, "end": end, "person": person})
    return spans


def test_gold_mentions_are_the_spans_with_a_person():
    assert [(m[0], m[3], m[4]) for m in gold_mentions(POSTS)] == [
        ("1", "Jess", "jess_k"), ("1", "Ron", "ron77"), ("2", "Ron", "ron77")]


@pytest.mark.parametrize("people, consistent_people, consistent_mentions, missed", [
    (("U1", "U2", "U2"), 2, 3, 0),
    (("U1", "U2", "P7"), 1, 2, 0),        # Ron split across two identifiers
    (("U1", None, "U2"), 1, 2, 1),        # one Ron not removed at all
    (("U2", "U1", "U1"), 0, 0, 0),        # consistent but with the wrong person's id
])
def test_measure(people, consistent_people, consistent_mentions, missed):
    result = measure(gold_mentions(POSTS), predicted(*people), AUTHORS)
    assert (result.people, result.consistent_people) == (2, consistent_people)
    assert (result.mentions, result.consistent_mentions) == (3, consistent_mentions)
    assert result.missed_mentions == missed
    assert result.people_share == consistent_people / 2


THIRD_PARTY = [
    {"id": "3", "text": "My husband Will and Will's mother", "spans": [
        {"start": 11, "end": 15, "label": "NAME", "person": "~will"},
        {"start": 20, "end": 24, "label": "NAME", "person": "~will"}]},
]


@pytest.mark.parametrize("ids, consistent_mentions, consistent_people", [
    (("P4", "P4"), 2, 1),          # someone who never posts: one id, any id, is consistent
    (("P4", "P5"), 1, 0),          # split: the id most mentions got (the first on a tie)
    (("P4", None), 1, 0),          # one mention left
])
def test_people_who_never_post_are_measured_by_their_one_id(ids, consistent_mentions,
                                                            consistent_people):
    gold = gold_mentions(THIRD_PARTY)
    spans = {"3": [{"start": m[1], "end": m[2], "person": i}
                   for m, i in zip(gold, ids) if i is not None]}
    result = measure(gold, spans, AUTHORS)
    assert (result.mentions, result.consistent_mentions) == (2, consistent_mentions)
    assert (result.people, result.consistent_people) == (1, consistent_people)
