"""The first half of rewriting a post in the person modes: its spans completed with the
names of the person map the model missed there, and its mentions of people found. It
needs the map's names but not who is who, and is the same for every post whatever came
before, so the workers do it (in any order); the second half, linking each mention to its
person and writing the values, is :meth:`~mmbdeid.output.operators.PersonOperator.write`.
"""
from __future__ import annotations

import functools
import re
from typing import Collection, Dict, List, Mapping, Optional, Sequence, Tuple

from ..people.mentions import Mention, mention_role, mentions_of
from ..people.own_signoff import own_signoff
from ..people.spread import (ANYWHERE, CONFIDENT, MID_SENTENCE, sentence_initial,
                             where_part_searched, where_searched)
from ..spans import MEMBER, Span, add_spans, drop_inside
from ..text.terms import TermMatcher


class MentionFinder:
    """``finder(text, spans) -> (spans, mentions)``: ``spans`` completed with the board's
    names found as whole words (``member_forms``, case-sensitively: every line of the
    map), less those a keep step of the analyzer chain keeps and the ``allow`` terms; and
    the post's mentions of people (:func:`~mmbdeid.people.mentions.mentions_of`).

    Given the post's ``fields``, also its author's own name where they sign it
    (``own_names``: username, case-folded -> the name keys of their line;
    :mod:`mmbdeid.people.own_signoff`), and the parts of a full name removed in the post,
    or named in its thread (``thread_parts``: thread -> the parts of full names of people
    named there), where they are a name (``Dolores`` after ``Dolores Nakamura-Reyes``)."""

    def __init__(self, member_forms: Sequence[str], allow: Sequence[str] = (),
                 steps: Optional[Sequence[str]] = None, hand_added: Sequence[str] = (),
                 own_names: Optional[Mapping[str, Collection[str]]] = None,
                 thread_parts: Optional[Mapping[str, Sequence[str]]] = None):
        self.own_names = own_names or {}
        self.thread_parts = thread_parts or {}
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

    def __call__(self, text: str, spans: Sequence[Span], fields: Optional[dict] = None,
                 addressees: Sequence[str] = ()) -> Tuple[List[Span], List[Mention]]:
        from ..text.normalize import found_in_visible
        signed = self._own_signoff(text, fields or {})
        found = self._member_spans(text, spans, fields or {}, signed, addressees)
        spans = add_spans(spans, found)
        if self.allow is not None:
            spans = drop_inside(spans, found_in_visible(self.allow.finditer, text))
        return spans, _with_signoff(text, spans, mentions_of(text, spans), signed)

    def _member_spans(self, text: str, spans: Sequence[Span], fields: dict,
                      signed: Optional[Tuple[int, int]] = None,
                      addressees: Sequence[str] = ()) -> List[Span]:
        """Board members' names the model missed in this post, less those a keep step of
        the analyzer chain keeps (``Graves' disease``, ``Dr.``, a placeholder)."""
        from ..text.document import Document
        from ..text.normalize import found_in_visible
        # names are looked for as the analyzer looks, in the visible text (``Li\u200bnda``)
        places = [(start, end) for start, end
                  in found_in_visible(self.member_names.finditer, text)
                  if not (text[start:end] in self.mid_sentence
                          and sentence_initial(text, start, end))]
        # (the parts of a full name the map found here too: the map's names are confident)
        places += self._name_parts(text, add_spans(spans, _outermost(places)), fields)
        places += self._greeted(text, addressees)
        if signed is not None:
            places.append(signed)
        found = drop_inside(_outermost(places), [(span.start, span.end) for span in spans])
        if not found:
            return found
        document = Document.from_text(text)
        kept = document.to_original([span for step in self.keep_steps
                                     for span in step.detect(document)])
        return drop_inside(found, [(span.start, span.end) for span in kept])

    def _own_signoff(self, text: str, fields: dict) -> Optional[Tuple[int, int]]:
        """Where the author signs the post with a name of their line, if they do."""
        author = fields.get("author")
        names = self.own_names.get(str(author).casefold()) if author else None
        return own_signoff(text, names) if names else None

    def _greeted(self, text: str, addressees: Sequence[str]) -> List[Tuple[int, int]]:
        """A name of a member the post may speak to (``addressees``: the thread's posters)
        where it greets them, set off by a comma or ``!`` (``Mo, Art runs the group``,
        ``Welcome back, Pen!``; not ``Hope you are well``)."""
        names = set()
        for username in addressees:
            names.update(self.own_names.get(username.casefold(), ()))
        folded = text.casefold()
        names = {name for name in names if len(name) >= 2 and " " not in name
                 and name.casefold() in folded}
        if not names:
            return []
        pattern = _alternation(tuple(sorted(names, key=lambda name: (-len(name), name))),
                               re.IGNORECASE)
        return [(found.start(), found.end()) for found in pattern.finditer(text)
                if found.group()[:1].isupper() and _set_off(text, found.start(), found.end())
                and mention_role(text, found.start(), found.end()) == "addressee"]

    def _name_parts(self, text: str, spans: Sequence[Span], fields: dict
                    ) -> List[Tuple[int, int]]:
        """The parts of full names (removed in the post, or named in its thread) where
        they are a name there."""
        places: List[Tuple[int, int]] = []
        parts = set(self.thread_parts.get(str(fields.get("thread") or ""), ()))
        parts.update(full_name_parts(text, spans))
        where = {part: where_part_searched(part) for part in parts if part in text}
        if any(where.values()):
            pattern = _alternation(tuple(sorted((part for part in where if where[part]),
                                                key=lambda part: (-len(part), part))))
            places += [(found.start(), found.end()) for found in pattern.finditer(text)
                       if where[found.group()] == ANYWHERE
                       or not sentence_initial(text, found.start(), found.end())]
        return places


@functools.lru_cache(maxsize=4096)
def _alternation(words: Tuple[str, ...], flags: int = 0) -> "re.Pattern[str]":
    """One pattern for any of ``words`` (longest first) as a whole word, hyphens joining;
    compiled once per set of words: a thread's posts ask for the same set, and the
    pattern of many names costs more to compile than to run (re's own cache is small)."""
    return re.compile(r"(?<![\w-])(?:%s)(?![\w-])" % "|".join(map(re.escape, words)), flags)


def full_name_parts(text: str, spans: Sequence[Span]) -> List[str]:
    """The words of two or more letters, capitalised, of the confident full names of a
    post (``Dolores``, ``Nakamura-Reyes`` of ``Dolores Nakamura-Reyes``)."""
    parts = []
    for mention in mentions_of(text, [span for span in spans if span.label == "NAME"]):
        words = mention.text.split()
        if len(words) > 1 and all(part.score >= CONFIDENT for part in mention.parts):
            parts += name_words(words)
    return parts


def name_words(words: Sequence[str]) -> List[str]:
    """Of a full name's words, those that could be searched alone: capitalised, two
    letters or more, without the edge punctuation (``Kowalski`` of ``Kowalski,``)."""
    stripped = (re.sub(r"^[^\w]+|[^\w]+$", "", word) for word in words)
    return [word for word in stripped if len(word) >= 2 and word[:1].isupper()
            and not word.isupper()]


def _outermost(places: Sequence[Tuple[int, int]]) -> List[Span]:
    """Member-name spans over ``places``, less those inside another (``Will`` of ``Will
    Osei-Bonsu``), in text order."""
    found: List[Span] = []
    for start, end in sorted(set(places), key=lambda place: (place[0], -place[1])):
        if not found or start >= found[-1].end:
            found.append(Span("NAME", start, end, 1.0, MEMBER))
    return found


def _with_signoff(text: str, spans: Sequence[Span], mentions: List[Mention],
                  signed: Optional[Tuple[int, int]]) -> List[Mention]:
    """``mentions`` and the author's own sign-off, which :func:`~mmbdeid.people.mentions.
    mentions_of` leaves out where it is a letter (``-- d``: ``d`` is a stop word)."""
    if signed is None or any(m.start < signed[1] and signed[0] < m.end for m in mentions):
        return mentions
    parts = tuple(span for span in spans if (span.start, span.end) == signed)
    if not parts:           # (allowed, or kept by a keep step)
        return mentions
    signoff = Mention(signed[0], signed[1], text[signed[0]:signed[1]], "NAME", "author",
                      parts)
    return sorted(mentions + [signoff], key=lambda mention: mention.start)


_VOCATIVE_AFTER = re.compile(r"[ \t]*[,!]")
_VOCATIVE_BEFORE = re.compile(r",[ \t]*$")


def _set_off(text: str, start: int, end: int) -> bool:
    """Whether a name is set off as one spoken to: a comma or ``!`` after it, or a comma
    before it (``Mo, ...``, ``Welcome back, Pen``)."""
    return bool(_VOCATIVE_AFTER.match(text, end)
                or _VOCATIVE_BEFORE.search(text, max(start - 3, 0), start))
