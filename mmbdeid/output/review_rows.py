"""The review list's rows (``mmbdeid review``): each distinct string the model removes, its
count, mean probability, commonest label, first contexts and the posts holding it, as the
dump is read (:class:`ReviewedString`), and the table's columns; the review page's posts
and near-misses, gathered as the dump is read (:class:`PageGatherer`)."""
from collections import Counter
from typing import Dict, List, Optional, Sequence

from ..files.tables import LIST, REAL, WHOLE, Column
from ..spans import Span
from ..text.excerpts import context
from .review_page import EXAMPLES_SHOWN, Highlight, PageExample, PagePost, PageString

REVIEW_COLUMNS = (Column("string"), Column("count", WHOLE), Column("mean_prob", REAL),
                  Column("label"), Column("example"), Column("post_ids", LIST))
REVIEW_POST_IDS = 20        # post ids listed per string at most; a last item "+N more"


class ReviewedString:
    """One row of the review list while the dump is read: a string's occurrences (all
    forms of it, compared case-insensitively), the posts holding it and a few contexts."""

    def __init__(self):
        self.count = 0
        self.prob_sum = 0.0
        self.labels: Counter = Counter()
        self.forms: Counter = Counter()
        self.sources: Counter = Counter()
        self.posts = 0
        self.post_ids: List[str] = []
        self.examples: List[PageExample] = []     # the first few posts' first contexts
        self._last_post = -1

    def add(self, span: Span, string: str, post_number: int, post_id: str, text: str,
            shown: Optional[int]) -> None:
        self.count += 1
        self.prob_sum += span.score
        self.labels[span.label] += 1
        self.forms[string] += 1
        self.sources[span.source] += 1
        if post_number != self._last_post:        # posts come in order: a new one
            self._last_post = post_number
            self.posts += 1
            if len(self.post_ids) < REVIEW_POST_IDS:
                self.post_ids.append(post_id)
            if len(self.examples) < EXAMPLES_SHOWN:
                self.examples.append(PageExample(shown, post_id,
                                                 context(text, span.start, span.end)))

    @property
    def string(self) -> str:
        return self.forms.most_common(1)[0][0]

    def row(self) -> list:
        more = self.posts - len(self.post_ids)
        return [self.string, self.count, "%.4f" % (self.prob_sum / self.count),
                self.labels.most_common(1)[0][0], self.examples[0].context.marked(),
                self.post_ids + (["+%d more" % more] if more else [])]

    def page_string(self) -> PageString:
        return PageString(self.string, self.count, self.prob_sum / self.count,
                          self.labels.most_common(1)[0][0], self.examples)


class PageGatherer:
    """The review page's posts, at most ``max_posts`` with removals and as many with none
    but an unknown word (:mod:`mmbdeid.detect.leftovers`), and its near-miss strings
    (compared case-insensitively), as the dump is read."""

    def __init__(self, max_posts: int, keep_source: str):
        self.max_posts = max_posts
        self.keep_source = keep_source      # the model's source: a near-miss no step holds
        self.posts: List[PagePost] = []
        self.with_removals = self.unremoved = 0
        self._shown = [0, 0]                # posts shown with removals, without
        self.near: Dict[str, ReviewedString] = {}

    def add(self, number: int, fields: dict, removals: Sequence[Span],
            near: Sequence[Span], unknown: Sequence[Span]) -> Optional[int]:
        """A post read (its ``number`` in the dump); its index on the page, if shown."""
        text, post_id = fields["text"], str(fields["id"])
        kind = 0 if removals else 1 if unknown else None
        shown = None
        if kind is not None:
            if kind == 0:
                self.with_removals += 1
            else:
                self.unremoved += 1
            if self._shown[kind] < self.max_posts:
                self._shown[kind] += 1
                shown = len(self.posts)
                self.posts.append(PagePost(
                    post_id, text, _highlights(removals), *(
                        "" if fields.get(name) is None else str(fields[name])
                        for name in ("author", "thread", "board")),
                    _highlights(near), _highlights(unknown)))
        for span in near:
            string = text[span.start:span.end]
            entry = self.near.setdefault(string.casefold(), ReviewedString())
            entry.add(span, string, number, post_id, text, shown)
        return shown

    def near_strings(self) -> List[PageString]:
        """The near-miss rows: those no KEEP step holds first, the likeliest first."""
        rows = []
        for entry in self.near.values():
            # held only where no occurrence is free: one free occurrence may leak
            held = ("" if self.keep_source in entry.sources
                    else entry.sources.most_common(1)[0][0])
            rows.append(entry.page_string()._replace(held_by=held))
        return sorted(rows, key=lambda r: (r.held_by != "", -r.mean_prob, -r.count, r.string))


def _highlights(spans: Sequence[Span]) -> List[Highlight]:
    return [Highlight(s.start, s.end, s.label, s.score) for s in spans]
