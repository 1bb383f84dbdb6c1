"""What an earlier scrub wrote in place of an identifier: placeholders (``[NAME]``,
``[EMAIL]``), hashed placeholders (``[NAME:1a2b3c4d5e6f]``), pseudonyms (``[U12]``,
``[P3]``), masks (``*****``) and marked surrogates (``⟦Michael⟧``).

Scrubbing scrubbed text must change nothing. A placeholder is never a name nor part of
one, and the words around it are judged as if the identifier were still there: the model
reads a *stand-in* for it (a pattern identifier of its kind, or a plain first name for a
name or a pseudonym), so ``Dr. [NAME]`` keeps its title as ``Dr. Osei`` did and
``[NAME] chews`` reads like ``Grant chews``.
"""
import re
from typing import List, NamedTuple, Optional, Tuple

from ..kinds import KINDS, LABELS, PATTERN_LABELS, PERSON_LABELS
from ..kinds import placeholder as placeholder_of

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
# Hex digits of a hashed placeholder's digest (``--mode hash``, mmbdeid.output.hash_key):
# 48 bits, so two identifiers of a dump share a digest with odds of about n^2 / 2^49.
HASH_DIGITS = 12
PLACEHOLDER = re.compile(
    r"\[(?:(?:%s)(?::[0-9a-f]{%d})?|%s)\]"
    % ("|".join(re.escape(kind.label) for kind in KINDS), HASH_DIGITS, _PSEUDONYM))
# A mask (``--mode mask``): a word of two or more asterisks, read as a name so that ``Dr.
# *****`` keeps its title as ``Dr. [NAME]`` does. A post's own such words (``*****`` for a
# rating, ``***`` for a rule) are read so too, which can only make the model warier of the
# words beside them; a lone ``*`` (a bullet) is not a mask.
MASK = re.compile(r"(?<![\w*])\*{2,}(?![\w*])")
# A surrogate marked by ``--mark-surrogates`` (``⟦Michael⟧``, ``⟦lmoss42⟧``): a fake value
# already, kept like a placeholder and read as a name.
SURROGATE_MARKS = ("\u27e6", "\u27e7")
MARKED_SURROGATE = re.compile("\u27e6[^\u27e6\u27e7\n]{1,200}\u27e7")


def mark_surrogate(value: str) -> str:
    """``value`` between the surrogate marks: ``⟦Michael⟧``."""
    return SURROGATE_MARKS[0] + value + SURROGATE_MARKS[1]


class StandIn(NamedTuple):
    token: str                  # what the model reads
    pattern: Optional[str]      # its pattern label (a pattern identifier's kind), or None


def stand_in(placeholder: str) -> StandIn:
    """What the model reads for ``placeholder`` (as :data:`PLACEHOLDER` or :data:`MASK`
    matched it)."""
    if placeholder.startswith(SURROGATE_MARKS[0]):
        return StandIn(NAME_STAND_IN, None)
    label = placeholder[1:-1].split(":")[0]        # [NAME:1a2b3c4d5e6f]: NAME
    # a pattern kind, or another kind that is no person (``[ADDRESS]``, ``[DATE]``): its
    # placeholder, marked as an identifier of its kind (as [EMAIL] reads)
    if label in PATTERN_LABELS or (label in LABELS and label not in PERSON_LABELS):
        return StandIn(placeholder_of(label), label)
    return StandIn(NAME_STAND_IN, None)


def find_placeholders(text: str) -> List[Tuple[int, int]]:
    """``(start, end)`` of each placeholder, pseudonym or mask in ``text``, in order."""
    found = [match.span() for match in PLACEHOLDER.finditer(text)] if "[" in text else []
    if "**" in text:
        found = sorted(found + [match.span() for match in MASK.finditer(text)])
    if SURROGATE_MARKS[0] in text:
        found = sorted(found + [match.span() for match in MARKED_SURROGATE.finditer(text)])
    return found
