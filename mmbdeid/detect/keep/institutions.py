"""Hospitals, clinics, streets, companies and places named after people (KEEP): ``St. Agnes``,
``Mayo Clinic``, ``MD Anderson Cancer Center``, ``University of Houston``, ``Fort Smith``,
``Hurricane Katrina``.

Many institutions carry a person's or a saint's name, which the model takes for a person;
the words around it say it is none. Two steps:

* :class:`InstitutionKeeper`: the capitalised words before a capitalised **head noun** of an
  institution or a place (``lexicons/institution_heads.txt``: ``Hospital``, ``Clinic``,
  ``Center``, ``University``, ``Street``, ``Press``, ``Corporation``, ...) on the same line,
  at most ``MAX_WORDS`` of them, initials' full stops included (``J.M. Huber Corporation``),
  and the head itself; and the capitalised words after ``<head> of`` (``University of
  Houston``, ``Bank of America``). Not when a title stands before them (``Dr. Okafor
  Clinic`` is left to the title rule), nor through a possessive (``Britt's Pizza``: the
  owner may be a person), nor a first name and a name after it (``Garth Brooks Croke
  Park`` keeps ``Croke`` only), nor a name before a head that is a surname too (``Ji Sung
  Park``, ``Hayes Street``), nor a head in capitals (a shouted ``ROAD``);
* :class:`PrefixedPlaceKeeper`: a **prefix** that makes a place, a saint or a storm of the
  capitalised word after it, with that word
  (``Lake`` is no name either): ``St.``/``Saint``/``Ste`` (``St. Agnes``), ``Mount``/``Mt.``,
  ``Fort``, ``Lake``, ``Port``, ``Cape``, and ``Hurricane``, ``Typhoon``,
  ``Cyclone``, ``Storm`` (``Hurricane Katrina``, also after a lower-case ``hurricane``).
  Not when a capitalised first name stands before the prefix: ``Jill St. John``, ``Ricki
  Lake``, ``Yves Saint Laurent`` are people's names.
"""
import functools
from typing import FrozenSet, List, Sequence, Set

from ...lexicon.names import HYPHENS, all_first_names, title_words
from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens
from ..words import capitalised, name_word
from .gazetteer_phrases import after_name, person_words

INSTITUTION = "institution"
MAX_WORDS = 4
# ``<head> of <Name>``: heads whose ``of`` names a place or a body, not a person.
OF_HEADS = frozenset({"university", "univ", "college", "bank", "hospital", "institute",
                      "school", "museum", "city", "town", "state", "republic", "kingdom",
                      "department", "dept", "ministry", "province", "county", "district",
                      "gulf", "isle", "bay", "port"})
# Prefixes: a place or a saint follows (see the module); storms also after lower case.
PLACE_PREFIXES = frozenset({"st", "saint", "ste", "mount", "mt", "fort", "lake", "port", "cape"})
STORMS = frozenset({"hurricane", "typhoon", "cyclone", "storm", "superstorm"})
PREFIXES = PLACE_PREFIXES | STORMS
# Abbreviated prefixes take a full stop: ``St. Agnes``, ``Mt. Sinai``.
# (Not ``Ft.``: in posts it is more often "featuring", ``Ft. J. Cole``.)
ABBREVIATED = frozenset({"st", "ste", "mt"})



@functools.lru_cache(maxsize=1)
def institution_heads() -> FrozenSet[str]:
    return load_wordlist("institution_heads")


class InstitutionKeeper(Detector):
    """A KEEP span on the words of an institution's name before its head (see the module)."""

    source = INSTITUTION
    effect = KEEP

    def __init__(self):
        self.heads = institution_heads()
        # a head in capitals may be a shouted word (ME & LEXA WILL ROAD TRIP): not looked at
        self.written_heads = frozenset(w.capitalize() for w in self.heads | OF_HEADS)
        self.titles = title_words()
        self.first_names = all_first_names()
        self.names = person_words()

    def words_before(self, document: Document, lowered: Sequence[str], head: int) -> List[int]:
        """The name's words (and initials' full stops) before the head at ``head``."""
        tokens, paragraphs, patterns = (document.tokens, document.paragraph_ids,
                                        document.pattern_labels)
        found: List[int] = []
        j, words = head - 1, 0
        while (j >= 0 and words < MAX_WORDS and paragraphs[j] == paragraphs[head]
               and not patterns[j]):
            if tokens[j] == "." and j > 0 and (
                    len(tokens[j - 1]) == 1 and tokens[j - 1].isupper()
                    or lowered[j - 1] in ABBREVIATED):
                found.append(j)                 # J.M. Huber Corporation, St. Agnes Hospital
            elif tokens[j] in HYPHENS or tokens[j] == "&":
                found.append(j)
            elif name_word(tokens[j]) and lowered[j] not in self.titles:
                found.append(j)
                words += 1
            else:
                break
            j -= 1
        # a title before the name (Dr. Okafor Clinic): the title rule decides
        if j >= 0 and (lowered[j] in self.titles or (
                tokens[j] == "." and j > 0 and lowered[j - 1] in self.titles)):
            return []
        found.reverse()                          # in text order from here
        words = [k for k in found if tokens[k][:1].isalpha()]
        # ``Garth Brooks Croke Park``: a first name and a name after it are a person
        for first, second in zip(words, words[1:]):
            if lowered[first] in self.first_names and lowered[second] in self.names:
                found = [k for k in found if k > second]
        while found and not tokens[found[0]][:1].isalnum():
            found.pop(0)
        # a head that is a surname (Park, Hall) after a name is a person's: Ji Sung Park
        if found and lowered[head] in self.names and lowered[head - 1] in self.names:
            return []
        return found

    def words_after_of(self, document: Document, head: int) -> List[int]:
        tokens, paragraphs = document.tokens, document.paragraph_ids
        j = head + 1
        if j >= len(tokens) or tokens[j] != "of":
            return []
        j += 1
        if j < len(tokens) and tokens[j].lower() == "the":
            j += 1
        found = []
        while (j < len(tokens) and len(found) < MAX_WORDS and paragraphs[j] == paragraphs[head]
               and not document.pattern_labels[j] and name_word(tokens[j])):
            found.append(j)
            j += 1
        return found

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets = document.tokens, document.offsets
        lowered = lowered_tokens(tokens)
        kept: Set[int] = set()
        for head in indices_in(self.written_heads, tokens):
            if document.pattern_labels[head]:
                continue
            if lowered[head] in self.heads:
                before = self.words_before(document, lowered, head)
                if before:
                    kept.update(before)
                    kept.add(head)
            if lowered[head] in OF_HEADS:
                kept.update(self.words_after_of(document, head))
        return [Span("KEEP", *offsets[i], 1.0, self.source) for i in sorted(kept)]


class PrefixedPlaceKeeper(Detector):
    """A KEEP span from a place, saint or storm prefix to the word after it (see the
    module)."""

    source = INSTITUTION
    effect = KEEP

    def __init__(self):
        self.titles = title_words()
        self.first_names = all_first_names()

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets, paragraphs = document.tokens, document.offsets, document.paragraph_ids
        lowered = lowered_tokens(tokens)
        spans: List[Span] = []
        for i in indices_in(PREFIXES, lowered):
            word = lowered[i]
            if word not in STORMS and not capitalised(tokens[i]):
                continue
            j = i + 1
            if j < len(tokens) and tokens[j] == "." and word in ABBREVIATED:
                j += 1
            if not (j < len(tokens) and paragraphs[j] == paragraphs[i]
                    and not document.pattern_labels[j] and name_word(tokens[j])):
                continue
            if word not in STORMS and after_name(document, lowered, i, self.titles,
                                                 self.first_names):
                continue
            spans.append(Span("KEEP", offsets[i][0], offsets[j][1], 1.0, self.source))
            # a hyphenated name goes whole: St. Mary-Corwin
            while (j + 2 < len(tokens) and tokens[j + 1] in HYPHENS and name_word(tokens[j + 2])
                   and offsets[j + 1][0] == offsets[j][1]):
                j += 2
                spans.append(Span("KEEP", *offsets[j], 1.0, self.source))
        return spans
