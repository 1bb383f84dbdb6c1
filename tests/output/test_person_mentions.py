"""The person modes' first half (mmbdeid/output/person_mentions.py): the map's names the
model missed are added to a post's spans, in time linear in the post's names."""
from mmbdeid.output.person_mentions import MentionFinder
from mmbdeid.spans import Span


class CountedOffset(int):
    """A span offset that counts how often it is compared."""
    comparisons = 0

    def _counted(name):
        def compare(self, other):
            CountedOffset.comparisons += 1
            return getattr(int, name)(self, other)
        return compare
    __lt__, __le__, __gt__, __ge__ = map(_counted, ("__lt__", "__le__", "__gt__", "__ge__"))


def text_and_spans(names):
    """``Linda, Linda, ...``: every other name found by the model (a span), the rest left
    for the map."""
    text = ", ".join(["Linda"] * names)
    spans = [Span("NAME", CountedOffset(7 * i), CountedOffset(7 * i + 5), 0.9, "crf")
             for i in range(0, names, 2)]
    return text, spans


def test_the_maps_names_are_added_where_the_model_missed_them():
    text, spans = text_and_spans(5)
    spans, mentions = MentionFinder(["Linda"])(text, spans)
    assert [(s.start, s.end, s.source) for s in spans] == [
        (0, 5, "crf"), (7, 12, "member"), (14, 19, "crf"), (21, 26, "member"),
        (28, 33, "crf")]
    assert len(mentions) == 5


def comparisons_to_complete(finder, names):
    text, spans = text_and_spans(names)
    CountedOffset.comparisons = 0
    completed, _ = finder(text, spans)
    assert len(completed) == names
    return CountedOffset.comparisons


def test_many_names_in_a_post_are_completed_in_linear_time():
    # each name the map finds was checked against every span of the post: 10,000 names
    # separated by commas took 15 s, 20,000 four times that
    finder = MentionFinder(["Linda"])
    assert comparisons_to_complete(finder, 800) <= 2.5 * comparisons_to_complete(finder, 400)
