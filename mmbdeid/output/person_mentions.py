"""The first half of rewriting a post in the person modes: its spans completed with the
names of the person map the model missed there, and its mentions of people found. It
needs the map's names but not who is who, and is the same for every post whatever came
before, so the workers do it (in any order); the second half, linking each mention to its
person and writing the values, is :meth:`~mmbdeid.output.operators.PersonOperator.write`.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from ..people.mentions import Mention, mentions_of
from ..people.spread import MID_SENTENCE, sentence_initial, where_searched
from ..spans import MEMBER, Span, add_spans, drop_inside
from ..text.terms import TermMatcher


class MentionFinder:
    """``finder(text, spans) -> (spans, mentions)``: ``spans`` completed with the board's
    names found as whole words (``member_forms``, case-sensitively: every line of the
    map), less those a keep step of the analyzer chain keeps and the ``allow`` terms; and
    the post's mentions of people (:func:`~mmbdeid.people.mentions.mentions_of`)."""

    def __init__(self, member_forms: Sequence[str], allow: Sequence[str] = (),
                 steps: Optional[Sequence[str]] = None, hand_added: Sequence[str] = ()):
        self.allow = TermMatcher(allow) if allow else None
        self.member_names = TermMatcher(member_forms, case_sensitive=True)
        # names that are also words (``Summer``): not where a sentence starts, unless
        # added to the map by hand
        self.mid_sentence = frozenset(form for form in member_forms
                                      if where_searched(form) == MID_SENTENCE) - set(hand_added)
        # (imported here: the command line imports the operators for their --mode choices
        # and need not load the tokenizer's tables)
        from ..detect.registry import STEP_NAMES, keep_steps
        self.keep_steps = keep_steps(STEP_NAMES if steps is None else steps)

    def __call__(self, text: str, spans: Sequence[Span]) -> Tuple[List[Span], List[Mention]]:
        from ..text.normalize import found_in_visible
        spans = add_spans(spans, self._member_spans(text, spans))
        if self.allow is not None:
            spans = drop_inside(spans, found_in_visible(self.allow.finditer, text))
        return spans, mentions_of(text, spans)

    def _member_spans(self, text: str, spans: Sequence[Span]) -> List[Span]:
        """Board members' names the model missed in this post, less those a keep step of
        the analyzer chain keeps (``Graves' disease``, ``Dr.``, a placeholder)."""
        from ..text.document import Document
        from ..text.normalize import found_in_visible
        # names are looked for as the analyzer looks, in the visible text (``Li\u200bnda``)
        found = drop_inside([Span("NAME", start, end, 1.0, MEMBER) for start, end
                             in found_in_visible(self.member_names.finditer, text)
                             if not (text[start:end] in self.mid_sentence
                                     and sentence_initial(text, start, end))],
                            [(span.start, span.end) for span in spans])
        if not found:
            return found
        document = Document.from_text(text)
        kept = document.to_original([span for step in self.keep_steps
                                     for span in step.detect(document)])
        return drop_inside(found, [(span.start, span.end) for span in kept])
