"""What an earlier scrub wrote in place of an identifier: placeholders (``[NAME]``,
``[EMAIL]``) and pseudonyms (``[U12]``, ``[P3]``).

Scrubbing scrubbed text must change nothing. A placeholder is never a name nor part of
one, and the words around it are judged as if the identifier were still there: the model
reads a *stand-in* for it (a pattern identifier of its kind, or a plain first name for a
name or a pseudonym), so ``Dr. [NAME]`` keeps its title as ``Dr. Osei`` did and
``[NAME] chews`` reads like ``Grant chews``.
"""
import re
from typing import List, NamedTuple, Optional, Tuple

from ..kinds import KINDS, LABELS, PATTERN_LABELS, PERSON_LABELS

# The name read in place of a person placeholder or pseudonym: a common first name that is
# no common word, so its neighbours see the context of a name.
NAME_STAND_IN = "Mary"
# Pseudonym ids as the person modes write them (``U`` board members, ``P`` people only
# mentioned); ids renamed by hand in the person map are not recognised.
_PSEUDONYM = r"[UP]\d{1,9}"
# An author field that an earlier pseudonym scrub wrote (``U12``): the person keeps that id.
AUTHOR_PSEUDONYM = re.compile(r"U[1-9]\d{0,8}")
# A pseudonym an earlier scrub wrote into a text (``[P12]``): a later scrub numbers its new
# people after it, so no one new shares an id with someone there.
PSEUDONYM_IN_TEXT = re.compile(r"\[([UP][1-9]\d{0,8})\]")
PLACEHOLDER = re.compile(
    r"\[(?:%s|%s)\]" % ("|".join(re.escape(kind.label) for kind in KINDS), _PSEUDONYM))


class StandIn(NamedTuple):
    token: str                  # what the model reads
    pattern: Optional[str]      # its pattern label (a pattern identifier's kind), or None


def stand_in(placeholder: str) -> StandIn:
    """What the model reads for ``placeholder`` (as :data:`PLACEHOLDER` matched it)."""
    label = placeholder[1:-1]
    # a pattern kind, or another kind that is no person (``[ADDRESS]``, ``[DATE]``): the
    # placeholder itself, marked as an identifier of its kind
    if label in PATTERN_LABELS or (label in LABELS and label not in PERSON_LABELS):
        return StandIn(placeholder, label)
    return StandIn(NAME_STAND_IN, None)


def find_placeholders(text: str) -> List[Tuple[int, int]]:
    """``(start, end)`` of each placeholder or pseudonym in ``text``."""
    if "[" not in text:
        return []
    return [match.span() for match in PLACEHOLDER.finditer(text)]
