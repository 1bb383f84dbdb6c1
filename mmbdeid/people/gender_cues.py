"""A person's gender as the text says it, for ``--mode surrogate``: the name list
(:mod:`mmbdeid.people.gender`) reads ``Jamie`` or ``Adebayo`` as either or unknown, but the
board often says which: ``Mr. Adebayo``, ``my son jamie``, ``Dr. Vasquez-Hall ... he was
firm``. What the text says outranks the list.

Cues of one mention (:func:`mention_cues`):

- a title right before it: ``Mr``, ``Mister``, ``Sir`` male; ``Mrs``, ``Ms``, ``Miss``,
  ``Madam``, ``Lady`` female (``strong``);
- a kinship word right before it, after a possessive (``my sister Summer``, ``her
  husband Will``, ``my little brother Sam``, ``my DH Mark``), or right after it as an
  apposition (``Summer, my sister,``) (``strong``);
- the third-person pronouns after it, in the rest of its sentence and the next one
  (``jamie ... he forgives me``), read only up to the next name or kinship word (another
  person the pronoun may refer to) and only when all of them agree (``weak``).

:class:`GenderEvidence` collects the cues over every mention of a dump (pass 2) by name
key; :meth:`GenderEvidence.gender_of` gives a person's gender from all their names: the
strong cues when they agree, else the weak ones when they agree, else ``""`` (the name
list decides). A name that two people of the map share tells nothing (whose cue is it?).
It also notes the one-word names that mostly follow a title that goes with a surname
(:meth:`GenderEvidence.surnames`: ``Mr. Adebayo``), so that ``Adebayo`` alone gets the
surrogate's surname too.
"""
from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from typing import Dict, FrozenSet, Iterable, Optional, Sequence

from ..spans import Span
from .mentions import Mention, mentions_of
from .personmap import PersonMap, name_key

# Titles a surname follows (``Mr. Adebayo``, ``Dr. Vasquez-Hall``); after ``aunt``,
# ``nurse`` or ``sir`` a first name is usual.
SURNAME_TITLES = frozenset("mr mrs ms miss missus mister mx dr doc prof professor madam madame "
                           "rev reverend capt captain sgt sergeant det officer judge".split())
_SURNAME_TITLE_BEFORE = re.compile(r"\b(?:%s)\.?\s+$" % "|".join(sorted(SURNAME_TITLES)),
                                   re.IGNORECASE)
_TITLE_BEFORE = re.compile(
    r"\b(?:(?P<male>mr|mister|sir)|(?P<female>mrs|ms|miss|missus|madam|madame|lady))"
    r"\.?\s+$", re.IGNORECASE)
_FEMALE_KIN = ("sister|sis|mom|mommy|mum|mummy|mother|mama|wife|wifey|daughter|aunt|auntie|"
               "aunty|niece|grandma|granny|gran|grandmother|nana|girlfriend|gf|stepmom|"
               "stepmother|stepdaughter|fiancee|dw|dd|sil|mil|granddaughter|bride")
_MALE_KIN = ("brother|bro|dad|daddy|father|papa|husband|hubby|hubs|son|uncle|nephew|grandpa|"
             "grandfather|granddad|grandad|boyfriend|bf|stepdad|stepfather|stepson|fiance|"
             "dh|ds|bil|fil|grandson|groom")
_POSSESSIVE = r"(?:my|our|your|his|her|their)"
_KIN_BEFORE = re.compile(
    r"\b%s\s+(?:(?:little|big|older|younger|baby|twin|late|dear|eldest|oldest|youngest|"
    r"step|ex|new)[\s-]+)?(?:(?P<female>%s)|(?P<male>%s))\s*,?\s*$"
    % (_POSSESSIVE, _FEMALE_KIN, _MALE_KIN), re.IGNORECASE)
_KIN_AFTER = re.compile(
    r"\s*,\s*%s\s+(?:\w+\s+)?(?:(?P<female>%s)|(?P<male>%s))\b"
    % (_POSSESSIVE, _FEMALE_KIN, _MALE_KIN), re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:(?P<male>he|him|his|himself)|(?P<female>she|her|hers|herself))\b",
                      re.IGNORECASE)
# What stops the pronoun window: another person the pronoun may stand for.
_OTHER_PERSON = re.compile(r"\b(?:%s|%s|man|woman|guy|girl|boy|lady|doctor|doc|nurse)\b"
                           % (_FEMALE_KIN, _MALE_KIN), re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?]+(?:\s|$)|\n")
BEFORE_CHARS = 40           # a title or kinship phrase is this close before a name
AFTER_CHARS = 300           # the pronoun window reads at most this far


def _gender(match) -> str:
    return "" if match is None else ("male" if match.group("male") else "female")


def _pronoun_window(text: str, end: int, stop: int) -> str:
    """The text after a mention, to the end of the next sentence, before ``stop``."""
    window = text[end:min(stop, end + AFTER_CHARS)]
    ends = list(itertools.islice(_SENTENCE_END.finditer(window), 2))
    if len(ends) == 2:
        window = window[:ends[1].start()]
    other = _OTHER_PERSON.search(window)
    return window[:other.start()] if other else window


def mention_cues(text: str, start: int, end: int, stop: Optional[int] = None) -> Dict[str, str]:
    """``{"strong": gender, "weak": gender}`` of the mention at ``start:end`` (a key left
    out where the text says nothing); ``stop``: where the next mention of the post begins."""
    cues: Dict[str, str] = {}
    before = text[max(0, start - BEFORE_CHARS):start]
    strong = _gender(_TITLE_BEFORE.search(before)) or _gender(_KIN_BEFORE.search(before)) \
        or _gender(_KIN_AFTER.match(text, end, min(len(text), end + BEFORE_CHARS)))
    if strong:
        cues["strong"] = strong
    window = _pronoun_window(text, end, len(text) if stop is None else stop)
    said = {_gender(match) for match in _PRONOUN.finditer(window)}
    if len(said) == 1:
        cues["weak"] = said.pop()
    return cues


class GenderEvidence:
    """The gender cues of a dump's name mentions, by name key (see the module)."""

    def __init__(self):
        self._cues: Dict[str, Dict[str, Counter]] = defaultdict(
            lambda: {"strong": Counter(), "weak": Counter()})
        self._mentions: Counter = Counter()      # name key -> its mentions
        self._titled: Counter = Counter()        # name key -> its mentions after a title

    def observe(self, text: str, spans: Sequence[Span],
                mentions: Optional[Sequence[Mention]] = None) -> None:
        """One post's mentions (:func:`~mmbdeid.people.mentions.mentions_of` its spans, if
        not given); a username says nothing of its owner's gender here."""
        if mentions is None:
            mentions = mentions_of(text, spans)
        names = [m for m in mentions if m.label == "NAME"]
        for number, mention in enumerate(names):
            stop = names[number + 1].start if number + 1 < len(names) else len(text)
            cues = mention_cues(text, mention.start, mention.end, stop)
            key = name_key(mention.text)
            self._mentions[key] += 1
            if _SURNAME_TITLE_BEFORE.search(text, max(0, mention.start - BEFORE_CHARS),
                                            mention.start):
                self._titled[key] += 1
            if cues:
                for strength, gender in cues.items():
                    self._cues[key][strength][gender] += 1

    def genders(self, people: PersonMap) -> Dict[str, str]:
        """Person id -> the gender the text gives them, for those it gives one."""
        owners = Counter(key for person in people for key in person.names)
        found = {}
        for person in people:
            gender = self.gender_of(k for k in person.names if owners[k] == 1)
            if gender:
                found[person.id] = gender
        return found

    def surnames(self) -> FrozenSet[str]:
        """The one-word name keys seen after a title (``Mr.``, ``Dr.``) in at least half
        of their mentions: surnames (``Adebayo`` alone is ``Mr. Adebayo``)."""
        return frozenset(key for key, titled in self._titled.items()
                         if " " not in key and 2 * titled >= self._mentions[key])

    def gender_of(self, keys: Iterable[str]) -> str:
        """The gender the cues on ``keys`` (the names of one person) agree on, or ``""``."""
        totals = {"strong": Counter(), "weak": Counter()}
        for key in keys:
            if key in self._cues:
                for strength, counts in self._cues[key].items():
                    totals[strength].update(counts)
        for strength in ("strong", "weak"):
            if len(totals[strength]) == 1:
                return next(iter(totals[strength]))
            if totals[strength]:
                return ""       # the text disagrees with itself: the name list decides
        return ""
