"""The review list's rows (``mmbdeid review``): each distinct string the model removes, its
count, mean probability, commonest label, first contexts and the posts holding it, as the
dump is read (:class:`ReviewedString`), and the table's columns."""
from collections import Counter
from typing import List, Optional

from ..files.tables import LIST, REAL, WHOLE, Column
from ..spans import Span
from ..text.excerpts import context
from .review_page import EXAMPLES_SHOWN, PageExample, PageString

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
