"""Towns and cities to remove (REMOVE, label ``PLACE``; opt-in, issue 21): ``in Tulsa``,
``Fort Worth``, ``San Luis Obispo``, ``Lawrence, KS``.

The places are the cities of ``lexicons/places.txt`` (GeoNames, 15,000 inhabitants or
more); US states, countries, continents, regions and provinces are no identifier and stay
(``Texas``, ``France``, ``Ontario``), and so does a name shared by a state and a city
(``New York``, ``Washington``). A city is a ``PLACE``, written capitalised (but see
below) and not after a title or a capitalised first name (``Jack London``), where:

* it is written in **several words**, as a name (``Fort Worth``, ``San Luis Obispo``,
  ``St. Louis``; an entry that reads as a person's name, ``Diego Martin``, needs a cue),
  and no capitalised word follows (``The Peak District``); or it is a city named with
  ``the`` after ``the`` (``the Bronx``: the article stays);
* a **cue** stands before it: ``in``, ``near``, ``outside (of)``, ``city of``, ``town
  of``, ``moved to``, ``drove to`` (a verb of motion and ``to``), ``from``; not before a
  possessive (``in Jackson's room``) or a capitalised word (``in Austin Reed's class``);
  a word that is a first name (``Austin``, ``Florence``) takes ``from`` only after ``am``,
  ``is``, ``originally``, ``came``, ... (``I'm from Austin``; not ``a card from
  Florence``);
* a state or country follows after a comma: ``Lawrence, KS``, ``Hobbs, New Mexico`` (the
  state stays);
* it is **listed** with a place found: ``in Austin and Dallas``, ``Omaha, Tulsa``;
* in lower case, after a cue of where one lives (``i live in tulsa``, ``moved to
  houston``), or after any cue if it is a rarer word (``in milton``), if it is no frequent
  English word;
* or, with no cue, it can be no one's name and no common word: no first name, no surname
  of the census's ``MIN_SURNAME_RANK`` most frequent, below ``MAX_ZIPF`` in English,
  inside a sentence (not its first word), not written in title case (a capitalised
  word on either side: a heading, or a name), not listed with a country (``Iraq and
  Palestine``).

Never after a possessive or an article (``my Mustang``, ``a Phoenix``), nor a part of a
hyphenated word (``Dr. Vasquez-Thornbury``), nor a small town that is a frequent word
(``trust in God``: Gód, Hungary).

A cue with a place prefix (``moved to Fort Smith``, ``near Lake Placid``) takes the
capitalised words after the prefix even where the gazetteer lacks them. What the KEEP
steps of what is no identifier hold is never a place (:mod:`mmbdeid.detect.kinds.indirect`).
"""
import functools
from typing import Dict, FrozenSet, List, Sequence, Set, Tuple

from ...lexicon.names import HYPHENS, all_first_names, title_words
from ...lexicon.wordlists import load_gazetteer, load_last_name_ranks, load_zipf
from ...text.document import Document
from ..keep.gazetteer_phrases import phrase_tokens, after_name, reads_as_person, written_as_name
from ..keep.places import LOCATIVES, MOTION, PLACE_NOUNS, US_STATE_CODES, states_and_countries
from ..words import LIST_JOINERS, Phrase, POSSESSIVE_ENDINGS, capitalised, name_word, opens_sentence
from .indirect import IndirectDetector, Range, cue_before, never_names, on_one_line

PLACE_NAME = "place-name"
CITY = "city"
# A city with no cue may be a common surname no more often than this rank (london 1821
# passes, durham 696 does not) ...
MIN_SURNAME_RANK = 1000
# ... nor a word this frequent in English (reading 5.1, nice 5.4, deal 5.3).
MAX_ZIPF = 5.0
# A city that is as frequent a word needs this many people to be one even after a cue
# (reading 318,014, york 156,135 are; god 15,874, deal 30,917 are not).
MIN_WORD_TOWN_POPULATION = 100000
# ``<noun> of Tulsa``; ``University of`` is an organisation's (org_names), not a cue here.
OF_NOUNS = PLACE_NOUNS - {"university", "univ", "bank", "government", "governor", "mayor"}
CUES = frozenset(
    {(word,) for word in LOCATIVES | {"from"}}
    | {("outside", "of"), ("native", "of"), ("resident", "of"), ("residents", "of")}
    | {(noun, "of") for noun in OF_NOUNS} | {(verb, "to") for verb in MOTION})
# Before ``from``, words that make a place of a first name after it: ``I'm from Austin``;
# those of ``BEING`` also of a city in lower case (``im from tampa``, not ``comes from
# cocoa``).
BEING = frozenset({"am", "'m", "\u2019m", "im", "are", "'re", "\u2019re", "is", "'s", "\u2019s",
                   "was", "were", "originally"})
FROM_SUBJECTS = BEING | frozenset({"come", "comes", "came", "hail", "hails", "moved", "drove",
                                   "flew", "born", "family", "folks", "here", "all", "way"})
# Cues of where one lives, after which a city counts in lower case too (``i live in
# tulsa``), if less frequent in English than this (houston 4.4; nice 5.4, reading 5.1 not).
HOME_CUES = frozenset({("live", "in"), ("lives", "in"), ("living", "in"), ("lived", "in"),
                       ("up", "in"), ("born", "in"), ("raised", "in"), ("moved", "to"),
                       ("move", "to"), ("moving", "to"), ("'m", "from"), ("\u2019m", "from"),
                       ("am", "from"), ("originally", "from")})
MAX_LOWER_CASE_ZIPF = 4.5
# After any other cue, a city in lower case below this frequency (milton 3.8, cali 3.3;
# amsterdam 4.0, buffalo 4.1, bath 4.4 not).
MAX_LOWER_CASE_ZIPF_ANY_CUE = 4.0
# ``the <city>`` alone names the city below this frequency (bronx 3.6; colony 4.1 not).
MAX_THE_ZIPF = 3.7
# First words that make a place of the capitalised word after them, after a cue.
# Not ``New``, ``North``, ``Grand``, ...: ``in West Texas`` is a region, ``in Grand Theft
# Auto`` a game.
PREFIXES = frozenset({"fort", "ft", "port", "lake", "mount", "mt", "cape", "san", "santa",
                      "el", "los", "las", "saint", "st"})
MAX_WORDS = 4
# Words before a name that make it a thing one has: ``my Mustang``, ``a Phoenix``.
OWNERS = frozenset({"my", "your", "his", "her", "our", "their", "its", "a", "an"})



@functools.lru_cache(maxsize=1)
def city_words() -> FrozenSet[str]:
    """One-word cities (lower case)."""
    return frozenset(entry for entry, kind in load_gazetteer("places").items()
                     if kind == CITY and " " not in entry)


@functools.lru_cache(maxsize=1)
def place_phrases() -> Dict[Tuple[str, str], List[Tuple[Phrase, bool, bool]]]:
    """First two tokens -> the multi-token places starting with them, longest first, each
    with whether it is a city and whether it reads as a person's name."""
    phrases: Dict[Tuple[str, str], List[Tuple[Phrase, bool, bool]]] = {}
    entries = sorted(((phrase_tokens(entry), kind == CITY)
                      for entry, kind in load_gazetteer("places").items() if " " in entry),
                     key=lambda item: len(item[0]), reverse=True)
    for parts, city in entries:
        if len(parts) > 1:
            phrases.setdefault(parts[:2], []).append((parts, city, reads_as_person(parts)))
    return phrases


@functools.lru_cache(maxsize=1)
def word_towns() -> FrozenSet[str]:
    """Cities that are a frequent English word (``MAX_ZIPF``) and small
    (``MIN_WORD_TOWN_POPULATION``): ``trust in God`` (Gód, Hungary) is no place."""
    zipf, population = load_zipf(), load_gazetteer("places", 2)
    return frozenset(city for city in city_words() if zipf.get(city, 0.0) >= MAX_ZIPF
                     and int(population.get(city) or 0) < MIN_WORD_TOWN_POPULATION)


@functools.lru_cache(maxsize=1)
def distinctive_cities() -> FrozenSet[str]:
    """Cities that need no cue (see the module): no first name, no frequent surname, no
    frequent English word."""
    ranks, zipf, first = load_last_name_ranks(), load_zipf(), all_first_names()
    return frozenset(city for city in city_words()
                     if city not in first and ranks.get(city, MIN_SURNAME_RANK + 1)
                     > MIN_SURNAME_RANK and zipf.get(city, 0.0) < MAX_ZIPF)


@functools.lru_cache(maxsize=1)
def cities_after_the() -> FrozenSet[str]:
    """The rest of the cities named with ``the``, one word (``the Bronx``, ``the Hague``),
    if no frequent English word (not ``the Valley``, ``the Gap``: ``MAX_THE_ZIPF``)."""
    zipf = load_zipf()
    return frozenset(entry[4:] for entry, kind in load_gazetteer("places").items()
                     if kind == CITY and entry.startswith("the ") and " " not in entry[4:]
                     and zipf.get(entry[4:], 0.0) < MAX_THE_ZIPF)


@functools.lru_cache(maxsize=1)
def countries() -> FrozenSet[str]:
    return frozenset(entry for entry, kind in load_gazetteer("places").items()
                     if kind in ("country", "continent"))



class PlaceNameDetector(IndirectDetector):
    """A ``PLACE`` span on each town or city the text names (see the module)."""

    source = PLACE_NAME
    label = "PLACE"

    def __init__(self, vetoing=()):
        super().__init__(vetoing)
        self.cities = city_words() - word_towns()
        self.distinctive = distinctive_cities()
        self.phrases = place_phrases()
        self.regions = states_and_countries()
        self.countries = countries()
        self.after_the = cities_after_the()
        self.titles = title_words()
        self.first_names = all_first_names()
        self.never = never_names()
        self.zipf = load_zipf()

    def phrase_at(self, document: Document, lowered: Sequence[str], i: int
                  ) -> Tuple[int, bool, bool]:
        """The end of the longest multi-token place written at ``i`` (or ``i``), whether it
        is a city and whether it reads as a person's name."""
        tokens = document.tokens
        for phrase, city, person in self.phrases.get(tuple(lowered[i:i + 2]), ()):
            end = i + len(phrase)
            if (tuple(lowered[i:end]) == phrase and on_one_line(document, i, end)
                    and not any(document.pattern_labels[i:end])
                    and written_as_name(tokens[i:end])):
                return end, city, person
        return i, False, False

    def cued(self, document: Document, lowered: Sequence[str], i: int) -> bool:
        """Whether a cue stands before token ``i`` (see the module)."""
        cue = cue_before(lowered, i, CUES, longest=2)
        if cue == ("from",) and lowered[i] in self.first_names:
            return i > 1 and lowered[i - 2] in FROM_SUBJECTS
        return bool(cue)

    def region_after(self, document: Document, lowered: Sequence[str], end: int) -> bool:
        """``, KS``, ``, Kansas``, ``, New Mexico`` after the place ending at ``end``."""
        tokens = document.tokens
        j = end + 1
        if j >= len(tokens) or tokens[end] != "," or not on_one_line(document, end - 1, j + 1):
            return False
        return tokens[j] in US_STATE_CODES or capitalised(tokens[j]) and (
            lowered[j] in self.regions
            or j + 1 < len(tokens) and lowered[j] + " " + lowered[j + 1] in self.regions)

    def free_after(self, document: Document, lowered: Sequence[str], end: int) -> bool:
        """Nothing after a one-word place that makes it part of a name: no possessive, no
        capitalised word on its line unless a state or country."""
        tokens = document.tokens
        if end >= len(tokens) or not on_one_line(document, end - 1, end + 1):
            return True
        if tokens[end] in POSSESSIVE_ENDINGS:
            return False
        return not name_word(tokens[end]) or lowered[end] in self.regions

    def prefixed_run(self, document: Document, lowered: Sequence[str], i: int) -> int:
        """After a cue, a place prefix and the capitalised words after it (``Fort Smith``);
        the end, or ``i``."""
        tokens = document.tokens
        j = i + 1
        if j < len(tokens) and tokens[j] == "." and lowered[i] in {"st", "mt", "ft"}:
            j += 1
        end = j
        while (end < len(tokens) and end - j < MAX_WORDS - 1 and name_word(tokens[end])
               and on_one_line(document, i, end + 1) and not document.pattern_labels[end]):
            end += 1
        return end if end > j else i

    def ranges(self, document: Document, lowered: Sequence[str]) -> List[Range]:
        tokens = document.tokens
        found: List[Range] = []
        pending: List[Range] = []
        covered: Set[int] = set()
        for i, token in enumerate(tokens):
            if i in covered or document.pattern_labels[i]:
                continue
            if not name_word(token):
                if self.lower_case_place(document, lowered, i):
                    found.append((i, i + 1))
                continue
            if after_name(document, lowered, i, self.titles, self.first_names):
                continue
            if i > 0 and lowered[i - 1] in OWNERS:
                continue                    # my Mustang, a Phoenix
            end, city, person = self.phrase_at(document, lowered, i)
            if end > i:                     # a place in several words
                covered.update(range(i, end))
                if (city and (not person or self.cued(document, lowered, i))
                        and self.free_after(document, lowered, end)):
                    found.append((i, end))
                continue
            word = lowered[i]
            if word in PREFIXES and self.cued(document, lowered, i):
                end = self.prefixed_run(document, lowered, i)
                if end > i:
                    covered.update(range(i, end))
                    found.append((i, end))
                    continue
            span = (i, i + 1)
            if word in self.after_the and i > 0 and lowered[i - 1] == "the":
                found.append(span)          # the Bronx (the article stays)
                continue
            if word not in self.cities or word in self.never or self.compound(document, i):
                continue
            if self.region_after(document, lowered, i + 1) or (
                    self.cued(document, lowered, i) and self.free_after(document, lowered, i + 1)):
                found.append(span)
            elif (word in self.distinctive and not opens_sentence(document, i)
                  and not self.listed_with_large(document, lowered, i)
                  and not name_word(tokens[i - 1]) and self.free_after(document, lowered, i + 1)
                  and (i + 1 >= len(tokens) or not name_word(tokens[i + 1]))):
                found.append(span)
            else:
                pending.append(span)
        return sorted(found + self.listed(document, lowered, found, pending))

    @staticmethod
    def compound(document: Document, i: int) -> bool:
        """Whether token ``i`` is a part of a hyphenated word (``Vasquez-Thornbury``: a
        surname)."""
        tokens, offsets = document.tokens, document.offsets
        return (i > 0 and tokens[i - 1] in HYPHENS and offsets[i - 1][1] == offsets[i][0]
                or i + 1 < len(tokens) and tokens[i + 1] in HYPHENS
                and offsets[i][1] == offsets[i + 1][0])

    def listed_with_large(self, document: Document, lowered: Sequence[str], i: int) -> bool:
        """``Iraq and Palestine``: listed with a country, a name is one too (a town is
        listed with its state: ``Boise, Idaho``)."""
        large = {j for j in range(max(0, i - 3), min(len(lowered), i + 4))
                 if lowered[j] in self.countries and name_word(document.tokens[j])}
        return bool(large) and self._next_to(document, lowered, i, large)

    def lower_case_place(self, document: Document, lowered: Sequence[str], i: int) -> bool:
        """``i live in tulsa``, ``shopping in englewood``: a city in lower case after a
        cue of where one lives, or after any cue, if it is no frequent English word
        (``MAX_LOWER_CASE_ZIPF``, ``MAX_LOWER_CASE_ZIPF_ANY_CUE``)."""
        word = lowered[i]
        if not (word == document.tokens[i] and word in self.cities and word not in self.never
                and self.free_after(document, lowered, i + 1)):
            return False
        zipf = self.zipf.get(word, 0.0)
        if zipf < MAX_LOWER_CASE_ZIPF and cue_before(lowered, i, HOME_CUES, longest=2):
            return True
        cue = cue_before(lowered, i, CUES, longest=2)
        if cue == ("from",):                # comes from cocoa: only im from, is from
            return i > 1 and lowered[i - 2] in BEING and zipf < MAX_LOWER_CASE_ZIPF
        return bool(cue) and zipf < MAX_LOWER_CASE_ZIPF_ANY_CUE

    def listed(self, document: Document, lowered: Sequence[str], found: List[Range],
               pending: List[Range]) -> List[Range]:
        """Those of ``pending`` listed with a place found (``in Austin and Dallas``)."""
        ends = {end - 1 for _, end in found} | {start for start, _ in found}
        added: List[Range] = []
        while pending:
            listed = [r for r in pending if self._next_to(document, lowered, r[0], ends)]
            if not listed:
                break
            added.extend(listed)
            ends.update(start for start, _ in listed)
            pending = [r for r in pending if r not in listed]
        return added

    def _next_to(self, document: Document, lowered: Sequence[str], i: int,
                 places: Set[int]) -> bool:
        for step in (-1, 1):
            j = i + step
            while (0 <= j < len(lowered) and abs(j - i) <= 2 and lowered[j] in LIST_JOINERS
                   and on_one_line(document, min(i, j), max(i, j) + 1)):
                j += step
            if j != i + step and j in places and on_one_line(document, min(i, j), max(i, j) + 1):
                return True
        return False
