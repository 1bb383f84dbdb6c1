"""Results as ``(label, start, end, score, source)`` spans, the operations on them, and text
stitched back from them.

A span's offsets are character offsets into the original text, end exclusive, so any
output can be mapped back to the input (the presidio-analyzer / scrubadub convention).
``source`` names the detector that found it, so no step has to guess where a span came
from by its score.
"""
import re
from bisect import bisect_left
from itertools import accumulate
from operator import attrgetter
from typing import Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from .kinds import PERSON_LABELS

# Detector names (``Span.source``).
PATTERN = "pattern"      # e-mail, URL, phone, @handle: a regular expression
CRF = "crf"              # the model's marginals above the threshold
USERNAME = "username"    # the board's distinctive usernames
SPACED = "spaced"        # spaced-out names (``R o b e r t``)
DENY = "deny"            # the user's deny list
MEMBER = "member"        # a board member's name from the person map (person modes)
CONSISTENCY = "consistency"  # a word its thread or author removed with high probability
COMPLETION = "completion"    # the rest of a name found, scored as the part that seeded it
# Spans scored by the model's probabilities, which a span found with a higher score
# replaces (:func:`raise_spans`); any other source's span stands.
MODEL_SCORED = frozenset({CRF, COMPLETION})
GOLD = "gold"            # hand-tagged spans of an annotated corpus

# The probability from which a word the model removed is removed throughout its thread and
# its author's posts (detect/thread_names.py). Chosen on EWT dev with the default model at
# threshold 0.05 among 0.3-0.9 (docs/accuracy.md): 0.5 gained the most recall
# (82.9 -> 89.2%) and precision rose a little; 0.3 gained as much recall but lost precision.
CONSISTENCY_LEVEL = 0.5


class Span(NamedTuple):
    label: str      # NAME, USER, EMAIL, URL or PHONE (see mmbdeid.kinds)
    start: int
    end: int
    score: float    # model probability; 1.0 for identifiers found by rule or pattern
    source: str     # the detector that found it (PATTERN, CRF, ...)

    def overlaps(self, start: int, end: int) -> bool:
        """Whether the span shares a character with ``[start, end)``."""
        return self.start < end and start < self.end

    def contains(self, start: int, end: int) -> bool:
        """Whether ``[start, end)`` lies within the span."""
        return self.start <= start and end <= self.end

    def inside(self, start: int, end: int) -> bool:
        """Whether the span lies within ``[start, end)``."""
        return start <= self.start and self.end <= end


_START = attrgetter("start")
_START_END = attrgetter("start", "end")


def resolve_overlaps(spans: Iterable[Span]) -> List[Span]:
    """Sorted spans with overlaps removed: the earlier, then the longer, span wins."""
    kept: List[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if kept and span.start < kept[-1].end:
            continue
        kept.append(span)
    return kept


def overlapping_any(spans: Sequence[Span], others: Sequence[Span]) -> List[bool]:
    """For each of ``spans``, whether it overlaps any of ``others`` (in O((n + m) log m))."""
    if not others:
        return [False] * len(spans)
    ordered = sorted(others, key=_START)
    starts = list(map(_START, ordered))
    # the furthest end among the others starting before a point
    furthest = list(accumulate((s.end for s in ordered), max))
    result = []
    for span in spans:
        before = bisect_left(starts, span.end)       # others starting before span.end
        result.append(before > 0 and furthest[before - 1] > span.start)
    return result


def add_spans(spans: Iterable[Span], added: Sequence[Span]) -> List[Span]:
    """``spans`` plus ``added``, dropping spans that overlap an added one (the added span
    covers the whole identifier: a deny-list phrase, a spaced-out name), sorted."""
    if not added:
        return list(spans)
    spans = list(spans)
    if not spans:
        return sorted(added, key=_START_END)
    kept = [s for s, hit in zip(spans, overlapping_any(spans, added)) if not hit]
    kept.extend(added)
    return sorted(kept, key=_START_END)


def raise_spans(spans: Iterable[Span], found: Sequence[Span]) -> List[Span]:
    """``spans`` plus those of ``found`` that overlap only model-scored spans
    (:data:`MODEL_SCORED`) of a lower score, which they replace; a found span overlapping any
    other span (a pattern, a rule's phrase) or a model-scored span scoring as high is
    dropped. Sorted."""
    spans = list(spans)
    if not found or not spans:
        return add_spans(spans, found)
    ordered = sorted(spans, key=_START)
    starts = list(map(_START, ordered))
    furthest = list(accumulate((s.end for s in ordered), max))
    raised = []
    for span in found:
        j = bisect_left(starts, span.end) - 1     # the last span starting before its end
        blocked = False
        while j >= 0 and furthest[j] > span.start:     # some span up to j reaches into it
            other = ordered[j]
            if other.end > span.start and (other.source not in MODEL_SCORED
                                            or other.score >= span.score):
                blocked = True
                break
            j -= 1
        if not blocked:
            raised.append(span)
    return add_spans(spans, raised)


def drop_inside(spans: Iterable[Span], regions: Iterable[Tuple[int, int]]) -> List[Span]:
    """``spans`` less those lying entirely inside one of ``regions`` (``(start, end)``
    pairs, in any order, overlapping or not: an allowed phrase, a drug name, what a keep
    step keeps)."""
    spans = list(spans)
    if not spans:
        return spans
    regions = sorted(regions)
    if not regions:
        return spans
    starts = [start for start, _ in regions]
    # the farthest end of the regions starting at or before each one
    reach = list(accumulate((end for _, end in regions), max))
    kept = []
    for span in spans:
        index = bisect_left(starts, span.start + 1) - 1
        if not (index >= 0 and reach[index] >= span.end):
            kept.append(span)
    return kept


# -- mentions: adjacent person spans as one ----------------------------------------------
# Horizontal whitespace (spaces, tabs, no-break and other Unicode spaces) and the invisible
# format characters the tokenizer also splits on; a line break ends a mention ("Thanks
# Kay\nMary wrote" is two people).
_HSPACE = r"(?:[^\S\n\r\v\f\x1c-\x1e\x85\u2028\u2029]|[\u00ad\u200b-\u200d\u2060\ufeff])"
_SPACE_GAP = re.compile(_HSPACE + r"{1,3}")                 # "Mary Jane"
_INITIAL_GAP = re.compile(r"\." + _HSPACE + r"{0,3}")        # "David A. Foti", "J.R. Smith"
JOINER_GAP = re.compile(r"[-\u2010\u2011'\u2019]")           # "Mary-Jane", "D'Angelo" in pieces
_USER_JOINER_GAP = re.compile(r"[-\u2010\u2011'\u2019.]")    # "mj.poe" tagged in pieces
_LAST_WORD = re.compile(r"(\w+)\W*$")
# Titles written with a dot before a name ("Dr. Osei", "Mrs. Smith"); not two-letter words
# in general: "Thanks Jo. Mary wrote" ends a sentence.
TITLE_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx prof rev fr st sgt capt lt col".split())

KeepApart = Callable[[str, Span, Span], bool]


def adjacent(text: str, previous: Span, span: Span) -> bool:
    """Whether two person spans in text order are parts of one mention, by what lies
    between them:

    - the same label (NAME and USER never join), NAME or USER (kinds.PERSON_LABELS);
    - nothing (touching: ``Kay`` ``'s``, the dot of ``A.`` tagged on its own);
    - a hyphen or apostrophe (``Mary-Jane``);
    - NAME only: one to three spaces or tabs, no line break (``Mary Jane``; but ``Kay,
      Mary`` and ``Kay\\nMary`` are two), or a dot and up to three spaces after a one-letter
      initial or a title (``David A. Foti``, ``J. R. Smith``, ``Dr. Osei``; not after
      other words, since ``Thanks Jo. Mary wrote`` ends a sentence);
    - USER only: a dot (a username tagged in pieces); two usernames a space apart are two
      people (``@kay @mary``).
    """
    if span.label != previous.label or span.label not in PERSON_LABELS:
        return False
    if previous.end > span.start:
        return False
    gap = text[previous.end:span.start]
    if not gap:
        return True
    if span.label != "NAME":
        return _USER_JOINER_GAP.fullmatch(gap) is not None
    if _SPACE_GAP.fullmatch(gap) or JOINER_GAP.fullmatch(gap):
        return True
    if _INITIAL_GAP.fullmatch(gap):
        match = _LAST_WORD.search(text, previous.start, previous.end)
        word = match.group(1) if match else ""
        return (len(word) == 1 and word.isalpha()) or word.lower() in TITLE_ABBREVIATIONS
    return False


def mention_groups(text: str, spans: Iterable[Span],
                   keep_apart: Optional[KeepApart] = None) -> List[Tuple[Span, ...]]:
    """The spans (overlaps resolved, in text order) grouped into mentions: consecutive
    person spans that are :func:`adjacent` form one group; every other span is a group of
    its own. ``keep_apart(text, mention so far, span)`` may refuse a join the gap allows
    (the person modes keep ``Ouch`` out of ``Ouch Hank``)."""
    groups: List[List[Span]] = []
    previous: Optional[Span] = None            # the current group joined
    for span in resolve_overlaps(spans):
        if (previous is not None and adjacent(text, groups[-1][-1], span)
                and not (keep_apart is not None and keep_apart(text, previous, span))):
            groups[-1].append(span)
            previous = extend(previous, span)
        else:
            groups.append([span])
            previous = span
    return [tuple(group) for group in groups]


def join(parts: Sequence[Span]) -> Span:
    """One span over ``parts`` (in text order, one label): the highest probability, and the
    ``source`` of the part that has it (the first on a tie). The parts themselves go to the
    spans file as the mention's ``tokens``."""
    if len(parts) == 1:
        return parts[0]
    best = max(parts, key=lambda part: part.score)      # max() keeps the first of equals
    return Span(parts[0].label, parts[0].start, parts[-1].end, best.score, best.source)


def extend(mention: Span, part: Span) -> Span:
    """:func:`join` of a mention's parts and the next ``part``, from the mention joined so
    far: O(1), where joining all the parts again at each part made a post of n adjacent
    names take time quadratic in n."""
    best = part if part.score > mention.score else mention     # the first of equals
    return Span(mention.label, mention.start, part.end, best.score, best.source)


def merge_mentions(text: str, spans: Iterable[Span]) -> List[Span]:
    """``spans`` with each mention of a person joined into one span (:func:`mention_groups`,
    :func:`join`): ``Mary`` ``Jane`` -> ``Mary Jane``, ``David`` ``A`` ``Foti`` -> ``David A.
    Foti`` (over the dot). Done on output only: the analyzer's spans, which evaluation
    scores, stay one per token."""
    return [join(group) for group in mention_groups(text, spans)]


def stitch(text: str, replacements: Iterable[Tuple[Span, str]]) -> str:
    """``text`` with each (span, replacement) applied; spans sorted and not overlapping."""
    out, position = [], 0
    for span, replacement in replacements:
        out.append(text[position:span.start])
        out.append(replacement)
        position = span.end
    out.append(text[position:])
    return "".join(out)
