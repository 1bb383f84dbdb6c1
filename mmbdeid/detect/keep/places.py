"""One-word places where the text says they are places (KEEP): ``in Houston``,
``Lawrence, KS``, ``Israel``.

Many place names are also first names or surnames (``Houston``, ``Madison``, ``Jordan``,
``Georgia``), so a place of ``lexicons/places.txt`` is kept only where the text reads as a
place, written capitalised (``Houston``, ``HOUSTON``) and not after a title or a capitalised first
name (``Mariel Concepcion, NY``, ``James Foley, UK``: a surname):

* a **large place**: a country, continent, US state, region or subdivision (``Israel``,
  ``Iraq``, ``Texas``, ``Ontario``) that is no frequent first name (at most
  ``MAX_FIRST_NAME_SHARE`` per cent of people bear it: not ``Georgia``, ``Virginia``,
  ``Jordan``, ``Chad``) and no frequent surname (census rank above ``MIN_SURNAME_RANK``:
  not ``Washington``, ``Holland``, ``Nelson``);
* after a **locative preposition** (``in``, ``near``, ``outside``, ...): ``in Houston``,
  ``near Keene``; not when a capitalised word follows (``in Houston Smith's class``);
* before a comma and a **state or country**: ``Lawrence, KS``, ``Miramar, Florida``,
  ``Hobbs, New Mexico`` (the state is kept too);
* **listed** with a place kept: ``Syria and Jordan``, ``Omaha, Houston``.

Places written out in several words (``San Diego``) are
:mod:`mmbdeid.detect.keep.gazetteer_phrases`'.
"""
import functools
from typing import FrozenSet, List, Sequence, Set

from ...lexicon.names import all_first_names, title_words
from ...lexicon.wordlists import load_first_name_shares, load_gazetteer, load_last_name_ranks
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens
from ..words import LIST_JOINERS, POSSESSIVE_ENDINGS_ANY_CASE, capitalised
from .gazetteer_phrases import after_name, written_forms

PLACE = "place"
PLACE_LABEL = "PLACE"      # the kind (mmbdeid.kinds) of a town an earlier scrub removed
LARGE_KINDS = frozenset({"continent", "country", "state", "region", "subdivision"})
# A large place is kept alone unless this share (per cent) of people or more bear it as a
# first name (georgia 0.045, jordan 0.034, chad 0.083; israel 0.014 is kept) ...
MAX_FIRST_NAME_SHARE = 0.02
# ... or it is a surname at least this frequent (washington 90, holland 256; england 960
# and israel 2962 are kept).
MIN_SURNAME_RANK = 500
LOCATIVES = frozenset({"in", "near", "outside", "around", "throughout", "across"})
# ``<noun> of Houston`` names a place: ``the city of``, ``town of``, ``University of``.
PLACE_NOUNS = frozenset({"city", "town", "village", "state", "province", "county", "district",
                         "suburb", "suburbs", "outskirts", "capital", "streets", "people",
                         "residents", "citizens", "government", "mayor", "governor",
                         "university", "univ", "bank", "port"})
# ``<verb> to Houston``: going somewhere (``going to Jordan's`` is left alone).
MOTION = frozenset({"go", "goes", "going", "went", "gone", "come", "comes", "coming", "came",
                    "move", "moves", "moving", "moved", "drive", "drove", "driving", "driven",
                    "fly", "flew", "flying", "flown", "travel", "travelled", "traveled",
                    "traveling", "travelling", "trip", "trips", "flight", "flights",
                    "return", "returned", "returning", "relocate", "relocated", "relocating",
                    "headed", "heading", "way", "road", "bus", "train"})
# Words that join the places of a list: ``Syria and Jordan``, ``Omaha, Houston``.
US_STATE_CODES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
    "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY".split())


@functools.lru_cache(maxsize=1)
def single_word_places() -> FrozenSet[str]:
    return frozenset(e for e in load_gazetteer("places") if " " not in e)


@functools.lru_cache(maxsize=1)
def large_places() -> FrozenSet[str]:
    """The large places (see the module) that are kept wherever they are written as names."""
    shares, ranks, first = load_first_name_shares(), load_last_name_ranks(), all_first_names()
    return frozenset(
        place for place, kind in load_gazetteer("places").items()
        if kind in LARGE_KINDS and " " not in place
        and shares.get(place, 0.0 if place not in first else 1.0) < MAX_FIRST_NAME_SHARE
        and ranks.get(place, MIN_SURNAME_RANK + 1) > MIN_SURNAME_RANK)


@functools.lru_cache(maxsize=1)
def states_and_countries() -> FrozenSet[str]:
    """Lower-case names that may follow ``Town,``: US states and their postal codes,
    countries, subdivisions (``ontario``, ``england``)."""
    gazetteer = load_gazetteer("places")
    return frozenset(place for place, kind in gazetteer.items()
                     if kind in ("country", "state", "subdivision")) | frozenset(
                         code.lower() for code in US_STATE_CODES)


class PlaceKeeper(Detector):
    """A KEEP span on each one-word place the text says is a place (see the module)."""

    source = PLACE
    effect = KEEP

    def __init__(self):
        self.places = written_forms(single_word_places())
        self.large = large_places()
        self.regions = states_and_countries()
        self.titles = title_words()
        self.first_names = all_first_names()

    def followed_by_region(self, document: Document, lowered: Sequence[str], i: int) -> int:
        """For a place at ``i`` followed by ``, <state or country>`` on its line: the index
        of the state (the first word of a two-word one); else 0."""
        tokens, paragraphs = document.tokens, document.paragraph_ids
        j = i + 2
        if j >= len(tokens) or tokens[i + 1] != "," or paragraphs[j] != paragraphs[i]:
            return 0
        if tokens[j] in US_STATE_CODES or (capitalised(tokens[j]) and (
                lowered[j] in self.regions
                or (j + 1 < len(tokens) and lowered[j] + " " + lowered[j + 1] in self.regions))):
            return j
        return 0

    def after_locative(self, document: Document, lowered: Sequence[str], i: int) -> bool:
        """``in Houston``, ``city of Houston``, ``moved to Houston``: not before a capitalised
        word (``in Houston Smith's class``) or a possessive (``went to Jordan's``)."""
        tokens, paragraphs = document.tokens, document.paragraph_ids
        before = lowered[i - 1] if i > 0 else ""
        if not (before in LOCATIVES and tokens[i - 1] == before
                or before == "of" and i > 1 and lowered[i - 2] in PLACE_NOUNS
                or before == "to" and i > 1 and lowered[i - 2] in MOTION):
            return False
        j = i + 1
        if j < len(tokens) and tokens[j] in POSSESSIVE_ENDINGS_ANY_CASE:
            return False
        return not (j < len(tokens) and paragraphs[j] == paragraphs[i]
                    and capitalised(tokens[j]) and tokens[j][:1].isalpha())

    def listed_with(self, document: Document, i: int, kept: Set[int]) -> bool:
        """Whether the place at ``i`` is listed with a kept place: ``Syria and Jordan``,
        ``Omaha, Houston``."""
        tokens, paragraphs = document.tokens, document.paragraph_ids
        for step in (-1, 1):
            j = i + step
            while (0 <= j < len(tokens) and abs(j - i) <= 2 and tokens[j].lower() in LIST_JOINERS
                   and paragraphs[j] == paragraphs[i]):
                j += step
            if j != i + step and j in kept and paragraphs[j] == paragraphs[i]:
                return True
        return False

    def region_words(self, document: Document, lowered: Sequence[str], i: int) -> range:
        """The indices of the state or country after the place at ``i`` (empty: none)."""
        region = self.followed_by_region(document, lowered, i)
        if not region:
            return range(0)
        end = region + 1
        if lowered[region] not in self.regions and not document.tokens[region].isupper():
            end += 1                            # a two-word state: New Mexico
        return range(region, end)

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        lowered = lowered_tokens(tokens)
        kept: Set[int] = set()
        others: List[int] = []
        # an earlier scrub's [PLACE]: its state stays as it did (``[PLACE], KS``)
        if PLACE_LABEL in patterns:
            for i, pattern in enumerate(patterns):
                if pattern == PLACE_LABEL:
                    kept.update(self.region_words(document, lowered, i))
        for i in indices_in(self.places, tokens):
            if (patterns[i] or after_name(document, lowered, i, self.titles, self.first_names)):
                continue
            region = self.region_words(document, lowered, i)
            if region or lowered[i] in self.large or self.after_locative(document, lowered, i):
                kept.add(i)
            else:
                others.append(i)
            kept.update(region)
        while others:                           # lists: a place kept keeps its neighbours
            listed = [i for i in others if self.listed_with(document, i, kept)]
            if not listed:
                break
            kept.update(listed)
            others = [i for i in others if i not in kept]
        return [Span("KEEP", *offsets[i], 1.0, self.source) for i in sorted(kept)]
