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
key (the first ``MAX_READ`` mentions of each); :meth:`GenderEvidence.gender_of` gives a
person's gender from all their names: the strong cues when they agree, else the weak ones
when they agree, else ``""`` (the name list decides). A name that two people of the map
share tells nothing (whose cue is it?).
It also notes the one-word names that mostly follow a title that goes with a surname
(:meth:`GenderEvidence.surnames`: ``Mr. Adebayo``), so that ``Adebayo`` alone gets the
surrogate's surname too.
"""
from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence

from ..spans import Span
from .mentions import Mention, mentions_of
from .personmap import PersonMap, name_key

# Titles a surname follows (``Mr. Adebayo``, ``Dr. Vasquez-Hall``); after ``aunt``,
# ``nurse`` or ``sir`` a first name is usual.
SURNAME_TITLES = frozenset("mr mrs ms miss missus mister mx dr doc prof professor madam madame "
                           "rev reverend capt captain sgt sergeant det officer judge".split())
_TITLES = {"mr": "male", "mister": "male", "sir": "male", "mrs": "female", "ms": "female",
           "miss": "female", "missus": "female", "madam": "female", "madame": "female",
           "lady": "female"}
_KIN = dict.fromkeys(
    "sister sis mom mommy mum mummy mother mama wife wifey daughter aunt auntie aunty niece "
    "grandma granny gran grandmother nana girlfriend gf stepmom stepmother stepdaughter "
    "fiancee dw dd sil mil granddaughter bride".split(), "female")
_KIN.update(dict.fromkeys(
    "brother bro dad daddy father papa husband hubby hubs son uncle nephew grandpa "
    "grandfather granddad grandad boyfriend bf stepdad stepfather stepson fiance dh ds bil "
    "fil grandson groom".split(), "male"))
_POSSESSIVES = frozenset("my our your his her their".split())
_KIN_ADJECTIVES = frozenset("little big older younger baby twin late dear eldest oldest "
                            "youngest step ex new".split())
_PRONOUNS = dict.fromkeys("he him his himself".split(), "male")
_PRONOUNS.update(dict.fromkeys("she her hers herself".split(), "female"))
# What stops the pronoun window: another person the pronoun may stand for.
_OTHER_PERSON = frozenset(_KIN) | frozenset("man woman guy girl boy lady doctor doc nurse".split())
_KIN_AFTER = re.compile(r"\s*,\s*(\w+)\s+(?:(\w+)\s+)?(\w+)\b")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|\n")
_WORD = re.compile(r"[^\W\d_]+")
BEFORE_CHARS = 40           # a title or kinship phrase is this close before a name
AFTER_CHARS = 300           # the pronoun window reads at most this far
MAX_READ = 200              # mentions of one name read for cues (the main process's time)


def words_before(text: str, start: int) -> List[str]:
    """The (at most three) words right before ``start``, lower case, without the dot of a
    title or a comma (``my sister, Summer``); none unless white space ends them."""
    before = text[max(0, start - BEFORE_CHARS):start]
    if not before[-1:].isspace():
        return []
    return [word.lower().rstrip(".,") for word in before.split()[-3:]]


def _kinship(words: Sequence[str]) -> str:
    """``my sister``, ``her little brother``: the gender of the kinship word ending
    ``words``, after a possessive, or ``""``."""
    if not words or words[-1] not in _KIN:
        return ""
    if len(words) >= 2 and words[-2] in _POSSESSIVES:
        return _KIN[words[-1]]
    if len(words) >= 3 and words[-2] in _KIN_ADJECTIVES and words[-3] in _POSSESSIVES:
        return _KIN[words[-1]]
    return ""


def _apposition(text: str, end: int) -> str:
    """``Casey, my son,``: the gender of a kinship word in an apposition after a name."""
    match = _KIN_AFTER.match(text, end, min(len(text), end + BEFORE_CHARS))
    if match is None:
        return ""
    words = [w.lower() for w in match.groups() if w]
    return _kinship(words)


def _pronouns(text: str, end: int, stop: int) -> str:
    """The gender all the pronouns after a mention agree on (the rest of its sentence and
    the next one, up to another person or ``stop``), or ``""``."""
    window = text[end:min(stop, end + AFTER_CHARS)]
    ends = list(itertools.islice(_SENTENCE_END.finditer(window), 2))
    if len(ends) == 2:
        window = window[:ends[1].start()]
    said = set()
    for word in _WORD.findall(window.lower()):
        if word in _OTHER_PERSON:
            break
        if word in _PRONOUNS:
            said.add(_PRONOUNS[word])
    return said.pop() if len(said) == 1 else ""


def title_gender(text: str, start: int) -> str:
    """The gender a title right before a name gives (``Mrs. Kowalski``), or ``""``."""
    before = words_before(text, start)
    return _TITLES.get(before[-1], "") if before else ""


def mention_cues(text: str, start: int, end: int, stop: Optional[int] = None) -> Dict[str, str]:
    """``{"strong": gender, "weak": gender}`` of the mention at ``start:end`` (a key left
    out where the text says nothing); ``stop``: where the next mention of the post begins."""
    cues: Dict[str, str] = {}
    before = words_before(text, start)
    strong = title_gender(text, start) or _kinship(before) \
        or _apposition(text, end)
    if strong:
        cues["strong"] = strong
    weak = _pronouns(text, end, len(text) if stop is None else stop)
    if weak:
        cues["weak"] = weak
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
            key = name_key(mention.text)
            self._mentions[key] += 1
            before = words_before(text, mention.start)
            if before and before[-1] in SURNAME_TITLES:
                self._titled[key] += 1
            if self._mentions[key] > MAX_READ:
                continue        # a frequent name: its first mentions said what they say
            cues = mention_cues(text, mention.start, mention.end, stop)
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
