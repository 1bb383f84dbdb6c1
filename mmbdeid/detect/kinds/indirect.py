"""What the place and organisation steps share: indirect identifiers (issue 21).

A town, an employer, a school or a hospital is no identifier alone, but with the rest of a
post it may point to one person; ``--kinds`` lets a user remove them (opt-in). The two
steps (:mod:`mmbdeid.detect.kinds.place_names`, :mod:`mmbdeid.detect.kinds.org_names`) find token
ranges; this module turns them into spans the same way for both:

* never words a KEEP step of what is no identifier holds (:func:`vetoes`): drug names
  (``Humira``), eponyms (``Graves' disease``, ``Hashimoto's``), medical terms and
  abbreviations, devices, nationalities, titles (a name of several words goes if one of
  them is not held: ``MD Anderson``); nor months, weekdays, stop words (:func:`never_names`);
* never a placeholder of an earlier scrub (``[PLACE]``);
* never a range a span found earlier in the chain (a name a rule found, ``Maren Tulsa
  Smith``) reaches beyond: that span removes the words already, and cutting it would
  leave the rest of a name in the text. A span found earlier that lies inside the range
  (the model's ``NAME`` on ``Austin`` of ``in Austin``) is replaced: the words around say
  what it is.

The steps are :class:`~mmbdeid.detect.base.Completer` steps placed after the rule steps, so
name completion never takes a place for the start of a name, and the first round of the
thread-consistency step (which pools the model's names only) never sees them.
"""
import functools
from typing import FrozenSet, Iterable, List, Sequence, Tuple

from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import Completer, Detector, lowered_tokens
from ..keep.calendar import MONTHS, WEEKDAYS
from ..keep.demonyms import DemonymKeeper
from ..keep.devices import DeviceKeeper
from ..keep.drugs import DrugKeeper
from ..keep.medical_terms import MedicalTermKeeper
from ..names.titles import TitleKeeper

# A range of tokens, end exclusive.
Range = Tuple[int, int]


def vetoes() -> List[Detector]:
    """The KEEP steps whose words are never a place or an organisation (see the module)."""
    return [DrugKeeper(), MedicalTermKeeper(), DeviceKeeper(), DemonymKeeper(), TitleKeeper()]


@functools.lru_cache(maxsize=1)
def never_names() -> FrozenSet[str]:
    """Lower-case words that never start or make a place or organisation alone: months,
    weekdays, stop words, greetings, honorifics, medical abbreviations, eponyms."""
    return (frozenset(MONTHS + WEEKDAYS) | load_wordlist("stop_words")
            | load_wordlist("greetings") | load_wordlist("honorifics")
            | load_wordlist("medical_abbreviations") | load_wordlist("eponyms"))


def cue_before(lowered: Sequence[str], i: int, cues: FrozenSet[Tuple[str, ...]],
               longest: int = 3) -> Tuple[str, ...]:
    """The longest of ``cues`` (token tuples, lower case) that ends right before token
    ``i``, or ``()``."""
    for n in range(min(longest, i), 0, -1):
        words = tuple(lowered[i - n:i])
        if words in cues:
            return words
    return ()


def on_one_line(document: Document, start: int, end: int) -> bool:
    paragraphs = document.paragraph_ids
    return end <= len(paragraphs) and paragraphs[start] == paragraphs[end - 1]


class IndirectDetector(Completer):
    """Base of the place and organisation steps: :meth:`ranges` finds token ranges, the
    base makes spans of those no veto, placeholder or earlier span forbids."""

    label = ""

    def __init__(self, vetoing: Iterable[Detector] = ()):
        self.vetoing = list(vetoing) or vetoes()

    def ranges(self, document: Document, lowered: Sequence[str]) -> List[Range]:
        raise NotImplementedError

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        if not document.tokens:
            return []
        lowered = lowered_tokens(document.tokens)
        ranges = [(start, end) for start, end in self.ranges(document, lowered)
                  if not any(k in document.scrubbed for k in range(start, end))]
        if not ranges:
            return []
        offsets, tokens = document.offsets, document.tokens
        kept = [(s.start, s.end) for step in self.vetoing for s in step.detect(document)]

        def vetoed(k: int) -> bool:
            return any(start < offsets[k][1] and offsets[k][0] < end for start, end in kept)

        found = [Span(self.label, offsets[start][0], offsets[end - 1][1], 1.0, self.source)
                 for start, end in ranges
                 if not all(vetoed(k) for k in range(start, end) if tokens[k][:1].isalnum())]
        return [span for span in found
                if not any(s.overlaps(span.start, span.end) and not s.inside(span.start, span.end)
                           for s in spans)]
