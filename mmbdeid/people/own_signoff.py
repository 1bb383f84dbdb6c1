"""A member's own name where they sign their own post (issue 30): ``xx Pen``, ``\\n\\nMo``,
``-- d``. ``Pen`` and ``Mo`` are words, so the map's names are not searched for them
across posts (:mod:`mmbdeid.people.spread`); but at the last line of a post by the member
the map gives that name, it is evidence, not a guess: that member signing.

- the name stands alone on the post's last line, or after a closing word (``xx``,
  ``Love,``, ``Thanks,``) or a dash or tilde (``--``, ``~``), in any case;
- a single letter (an initial: ``-- d``) only after such a lead, never a kiss (``x``);
- only one of the author's own names (their line of the map), only in their own posts.
"""
from __future__ import annotations

import functools
import re
from typing import Collection, Optional, Tuple

from ..lexicon.wordlists import load_wordlist
from .mentions import last_line_match
from .personmap import name_key

_SIGNED = re.compile(r"[ \t]*(?:(?P<lead>[^\W\d_]+)[ \t]*,?[ \t]+|[-~\u2013\u2014]{1,2}[ \t]*)?"
                     r"(?P<name>[^\W\d_]+)[ \t]*[.!]*[ \t]*")
_KISSES = frozenset("xo")
_THANKS = frozenset({"thanks", "thx", "cheers", "regards"})


@functools.lru_cache(maxsize=1)
def _leads() -> frozenset:
    return load_wordlist("closings") | _THANKS


def signed_with(text: str, letters_too: bool = True) -> Optional[Tuple[int, int, bool]]:
    """``(start, end, after_lead)`` of the one word signing the post's last line (see the
    module doc), whoever's name it is; None where the last line is no such sign-off or the
    post has one line. ``letters_too``: a single letter after a lead counts."""
    found = last_line_match(_SIGNED, text)
    if found is None:
        return None
    lead, word = found.group("lead"), found.group("name")
    after_lead = bool(text[found.start():found.start("name")].strip())
    if lead is not None and lead.lower() not in _leads():
        return None
    if len(word) == 1 and (not letters_too or not after_lead or word.lower() in _KISSES):
        return None
    return found.start("name"), found.end("name"), after_lead


def own_signoff(text: str, own_names: Collection[str]) -> Optional[Tuple[int, int]]:
    """Where a post signs with one of ``own_names`` (name keys: its author's names on the
    map), if it does."""
    signed = signed_with(text)
    if signed is None or name_key(text[signed[0]:signed[1]]) not in own_names:
        return None
    return signed[0], signed[1]


def signed_initial(text: str) -> Optional[Tuple[int, int]]:
    """A single letter signing the post after a lead (``-- d``, ``~J``): the author's
    initial, where it is their habit (the linker counts it as it counts ``xx Pen``)."""
    signed = signed_with(text)
    if signed is None or signed[1] - signed[0] != 1:
        return None
    return signed[0], signed[1]
