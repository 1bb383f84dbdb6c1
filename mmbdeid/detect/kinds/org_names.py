"""Employers, schools and hospitals to remove (REMOVE, label ``ORG``; opt-in, issue 21):
``St. Agnes Hospital``, ``Lakeview Elementary``, ``the University of Leeds``, ``I work at
Acme Freight``.

Three ways an organisation is found, on one line, in words written capitalised:

* an **institution's name**: the words before a head noun of a hospital, school or
  business (``ORG_HEADS``: ``Hospital``, ``Clinic``, ``Center``, ``Elementary``,
  ``School``, ``University``, ``Freight``, ``Bakery``, ...; chosen from
  ``lexicons/institution_heads.txt``, streets and places left out), found as
  :class:`~mmbdeid.detect.keep.institutions.InstitutionKeeper` finds them (not after a title,
  not a person's name before a surname head), with the head; or ``<head> of <Name>`` for
  a university, college, school, hospital, institute or academy (``University of
  Leeds``). A school, hospital, clinic or centre head may be in lower case after the
  name (``Lincoln high school``, ``the DaVita center``). The name must hold a word that
  says which one (``Cancer Center``, ``Children's Hospital``, ``Cheap Hotel`` are no
  one's: ``GENERIC``, medical words, frequent English words); a leading ``The`` stays;
  a name longer than the keeper takes (four words) goes whole (``Greater New Orleans
  Fair Housing Action Center``);
* a **hospital of the gazetteer** named alone (``MD Anderson``, ``Johns Hopkins``,
  ``Cedars-Sinai``: ``HOSPITALS``, entries of ``lexicons/organisations_extra.txt``);
* after an **employer, school or hospital cue** (``CUES``: ``I work at``, ``works for``,
  ``employed by``, ``my employer,``, ``attends``, ``student at``, ``was admitted to``,
  ``treated at``, ``the clinic at``, ...; a trade, ``a welder at``, ``an engineer for``;
  ``the`` may follow): the capitalised words after it (``Acme Freight``, ``Walmart``,
  ``Providence St. Vincent``; ``walmart`` in lower case too if it is an organisation of
  the gazetteers), not a first name alone (``works for Maren``; but a hospital's short
  name after a hospital cue: ``an appointment at Mayo``) nor a first name and a name, not
  a state, country or city (``moved to``-like cues are the place step's), not a word
  this frequent in English alone (``attended Mass``).

One-word companies and services with no cue stay (``Google``, ``Medicare``, ``Aetna``):
naming them says nothing about who posts. What the KEEP steps of what is no identifier
hold is never an organisation (:mod:`mmbdeid.detect.kinds.indirect`).
"""
import functools
from typing import FrozenSet, List, Sequence, Set, Tuple

from ...lexicon.names import HYPHENS, all_first_names
from ...lexicon.wordlists import load_gazetteer, load_wordlist, load_zipf
from ...text.document import Document
from ..keep.gazetteer_phrases import phrase_tokens, person_words, written_as_name
from ..keep.institutions import MAX_WORDS as MAX_INSTITUTION_WORDS, InstitutionKeeper
from ..keep.organisations import organisation_words
from ..keep.places import states_and_countries
from ..words import POSSESSIVE_ENDINGS, Phrase, name_word
from .indirect import (IndirectDetector, Range, cue_before, never_names,
                       on_one_line)
from .place_names import city_words

ORG_NAME = "org-name"
MAX_WORDS = 8
# Articles that open a sentence before a name, not the name: ``The Mercy Hospital``.
ARTICLES = frozenset({"the", "a", "an"})
# Head nouns of hospitals, schools and employers (see the module).
ORG_HEADS = frozenset({
    "hospital", "hospitals", "clinic", "clinics", "infirmary", "hospice", "sanatorium",
    "center", "centre", "centers", "university", "college", "school", "academy", "institute",
    "elementary", "kindergarten", "preschool", "seminary", "polytechnic", "company", "corp",
    "corporation", "inc", "llc", "ltd", "laboratories", "laboratory", "labs",
    "pharmaceuticals", "pharmacy", "bank", "bakery", "cafe", "café", "diner", "grill",
    "pizzeria", "restaurant", "hotel", "motel", "inn", "tavern", "pub", "press",
    "publishing", "motors", "library", "museum", "freight", "logistics", "trucking",
    "industries", "insurance", "associates"})
# Saints' names start hospitals and schools: ``Saint Brendan Infirmary``.
SAINTS = frozenset({"saint", "st", "ste", "san", "santa"})
# ``<head> of <Name>`` names an organisation for these (``Bank of America``: a bank).
OF_HEADS = frozenset({"university", "college", "school", "hospital", "institute", "academy"})
# Heads that may be written in lower case after a capitalised name: ``Mercy hospital``.
LOWER_CASE_HEADS = frozenset({"hospital", "clinic", "school", "college", "university",
                              "elementary", "academy", "center", "centre"})
# Lower-case words between a name and a lower-case head: ``Lincoln high school``.
LOWER_CASE_KINDS = frozenset({"high", "middle", "elementary", "primary", "junior", "senior",
                              "medical", "community", "memorial", "general", "grade"})
# Words that say what kind of body it is, not which: a name of these alone is no one's.
GENERIC = frozenset({"medical", "cancer", "health", "healthcare", "children", "childrens",
                     "community", "regional", "general", "memorial", "state", "county",
                     "city", "national", "research", "care", "family", "women", "womens",
                     "heart", "rehab", "rehabilitation", "surgery", "surgical", "specialty",
                     "mental", "behavioral", "public", "high", "middle", "primary", "junior",
                     "senior", "elementary", "private", "local", "main", "new", "university",
                     "hospital", "clinic", "center", "centre", "eye", "dental", "kidney",
                     "breast", "diabetes", "pain", "sleep", "teaching", "veterans", "va",
                     "favorite", "favourite", "best", "cheap", "great", "good", "nice",
                     "old", "little", "big", "top",
                     "the", "of", "and", "&"})
# Holidays one attends: ``attended Thanksgiving dinner``.
ATTENDED_HOLIDAYS = frozenset({
    "thanksgiving", "christmas", "xmas", "easter", "halloween", "hanukkah", "chanukah",
    "passover", "ramadan", "eid", "diwali", "kwanzaa", "lent", "advent", "mardi", "memorial",
    "labor", "independence", "mothers", "fathers", "valentines", "valentine's"})
# Hospitals of ``organisations_extra.txt`` named alone.
HOSPITALS = ("md anderson", "johns hopkins", "dana farber", "dana-farber", "cedars sinai",
             "cedars-sinai", "memorial sloan kettering", "sloan kettering", "mount sinai",
             "st jude", "st. jude", "kaiser permanente", "mayo clinic", "cleveland clinic")
# Cues of a hospital stay or visit: a first name alone after one is a hospital's short
# name (``an appointment at Mayo``), not a person.
HOSPITAL_CUES = frozenset({("admitted", "to"), ("admitted", "at"), ("treated", "at"),
                           ("seen", "at"), ("patient", "at"), ("transferred", "to"),
                           ("appointment", "at"), ("appt", "at"), ("surgery", "at"),
                           ("inpatient", "at"), ("delivered", "at")})
_VERBS_AT_FOR = ("work", "works", "worked", "working")
CUES = frozenset(
    {(verb, prep) for verb in _VERBS_AT_FOR for prep in ("at", "for")}
    | {("employed", "by"), ("employed", "at"), ("employer",), ("employer", ","),
       ("employer", "is"), ("employer", "was"), ("employer", ":"), ("job", "at"),
       ("job", "with"), ("hired", "by"), ("hired", "at"), ("fired", "from"),
       ("retired", "from"), ("off", "from"), ("intern", "at"), ("internship", "at"),
       ("volunteer", "at"), ("volunteers", "at"), ("volunteered", "at"), ("teach", "at"),
       ("teaches", "at"), ("taught", "at"), ("nurse", "at"), ("teacher", "at"),
       ("student", "at"), ("professor", "at"), ("manager", "at"), ("cashier", "at"),
       ("attend",), ("attends",), ("attended",), ("enrolled", "at"), ("graduated", "from"),
       ("study", "at"), ("studies", "at"), ("studied", "at"), ("school", "at"),
       ("referred", "to"), ("clinic", "at"), ("center", "at"), ("unit", "at"),
       ("ward", "at")} | HOSPITAL_CUES)
# ``a welder at``, ``an engineer for``: a trade before ``at`` or ``for`` is a job there.
TRADES = frozenset({"nurse", "clerk", "cashier", "aide", "tech", "chef", "cook", "janitor",
                    "secretary", "receptionist", "attorney", "surgeon", "medic", "paralegal",
                    "pharmacist", "therapist", "dentist", "hygienist", "scientist",
                    "physician", "librarian", "technician", "custodian", "mechanic",
                    "machinist", "electrician", "plumber", "welder", "driver", "manager",
                    "teacher", "engineer", "programmer", "developer", "designer", "analyst",
                    "accountant", "assistant", "consultant", "supervisor", "director",
                    "counselor", "counsellor", "coordinator", "administrator", "lawyer",
                    "worker", "employee", "intern", "volunteer", "trainer", "instructor",
                    "professor", "lecturer", "researcher", "server", "bartender", "waitress",
                    "waiter", "barista", "dispatcher", "operator", "inspector", "officer",
                    "firefighter", "paramedic", "caregiver", "housekeeper", "writer",
                    "editor", "reporter", "banker", "teller", "student"})
# A word alone after a cue this frequent in English is no name (``attended Mass``), nor
# says which body an institution is (``Cheap Hotel``).
MAX_ZIPF = 4.5
# Words inside an organisation's name in lower case: ``Bank of America``, ``Procter & Gamble``.
INNER = frozenset({"of", "&", "and", "the", "de", "for"})



@functools.lru_cache(maxsize=1)
def hospital_phrases() -> FrozenSet[Phrase]:
    return frozenset(phrase_tokens(entry) for entry in HOSPITALS)


@functools.lru_cache(maxsize=1)
def generic_words() -> FrozenSet[str]:
    """Words that say what kind of body a name is, not which: ``GENERIC``, the heads, stop
    words, and the medical words that are no one's name (``Mary`` of a MeSH heading is)."""
    medical = load_wordlist("medical_words") - person_words()
    return GENERIC | ORG_HEADS | medical | load_wordlist("stop_words")


@functools.lru_cache(maxsize=1)
def places_not_orgs() -> FrozenSet[str]:
    """Lower-case states, countries and cities, one word or several: a cue's words that
    are one of these are the place step's."""
    return frozenset(load_gazetteer("places")) | states_and_countries() | city_words()



class OrgNameDetector(IndirectDetector):
    """An ``ORG`` span on each employer, school or hospital the text names (see the
    module)."""

    source = ORG_NAME
    label = "ORG"

    def __init__(self, vetoing=()):
        super().__init__(vetoing)
        self.institutions = InstitutionKeeper()
        self.hospitals = hospital_phrases()
        self.longest_hospital = max(map(len, self.hospitals))
        self.generic = generic_words()
        self.organisations = organisation_words()
        self.places = places_not_orgs()
        self.first_names = all_first_names()
        self.persons = person_words()
        self.zipf = load_zipf()
        self.never = never_names()

    def says_which(self, lowered: Sequence[str], words: Sequence[int]) -> bool:
        """Whether a name's words hold one that is not :func:`generic_words`, a medical
        abbreviation or another of :func:`never_names` (``the ALS clinic``), nor an English
        word as frequent as ``MAX_ZIPF`` (``Cheap Hotel``) but a person's name."""
        return any(lowered[k].strip("'\u2019") not in self.generic and lowered[k][:1].isalpha()
                   and lowered[k] not in self.never                  # the ALS clinic
                   and (lowered[k] in self.persons or self.zipf.get(lowered[k], 0.0) < MAX_ZIPF)
                   for k in words)

    def institution_at(self, document: Document, lowered: Sequence[str], head: int
                       ) -> Range:
        """The institution whose head is at ``head`` (``(head, head)``: none)."""
        tokens = document.tokens
        if tokens[head].isupper() and len(tokens[head]) > 1 or not (
                name_word(tokens[head]) or lowered[head] in LOWER_CASE_HEADS):
            return head, head
        if name_word(tokens[head]):
            before = self.institutions.words_before(document, lowered, head)
            if not before:              # Saint Brendan Infirmary: Saint is a first name too
                before = self.words_before_lower_case(document, lowered, head)
                before = before if before and lowered[before[0]] in SAINTS else []
        else:
            before = self.words_before_lower_case(document, lowered, head)
        if len([k for k in before if tokens[k][:1].isalpha()]) == MAX_INSTITUTION_WORDS:
            before = self.longer_name(document, lowered, before)
        while before and lowered[before[0]] in ARTICLES:
            before = before[1:]         # The US National Hurricane Center
        start, end = (before[0] if before else head), head + 1
        if lowered[head] in OF_HEADS and name_word(tokens[head]):
            after = self.institutions.words_after_of(document, head)
            if after:
                end = after[-1] + 1
        words = [k for k in range(start, end) if k != head and tokens[k][:1].isalpha()]
        if end == head + 1 and not before or not self.says_which(lowered, words):
            return head, head
        return start, end

    def longer_name(self, document: Document, lowered: Sequence[str], before: List[int]
                    ) -> List[int]:
        """``before`` (the institution keeper's words, as many as it takes) with the
        capitalised words before them, up to ``MAX_WORDS`` words in all: ``The Greater New
        Orleans Fair Housing Action Center`` goes whole."""
        tokens, start = document.tokens, before[0]
        while (start > 0 and len(before) + before[0] - start < MAX_WORDS
               and name_word(tokens[start - 1]) and on_one_line(document, start - 1, before[-1])
               and lowered[start - 1] not in self.institutions.titles
               and not document.pattern_labels[start - 1]):
            start -= 1
        return list(range(start, before[0])) + before

    def words_before_lower_case(self, document: Document, lowered: Sequence[str],
                                head: int) -> List[int]:
        """The capitalised words before a head in lower case (``Lincoln high school``),
        across the lower-case words of ``LOWER_CASE_KINDS``, or before a saint's name
        (``St. Brendan Infirmary``); none after a title."""
        tokens, last = document.tokens, head
        while last > 0 and lowered[last - 1] in LOWER_CASE_KINDS and tokens[last - 1].islower():
            last -= 1
        j = last - 1
        while (j >= 0 and last - j <= MAX_WORDS and on_one_line(document, j, head + 1)
               and not document.pattern_labels[j] and lowered[j] not in self.institutions.titles
               and (name_word(tokens[j])
                    or tokens[j] == "." and j > 0 and lowered[j - 1] in SAINTS)):
            j -= 1
        titled = j >= 0 and (lowered[j] in self.institutions.titles or tokens[j] == "."
                             and j > 0 and lowered[j - 1] in self.institutions.titles)
        if titled or j == last - 1:
            return []
        return list(range(j + 1, head))

    def hospital_at(self, document: Document, lowered: Sequence[str], i: int) -> int:
        tokens = document.tokens
        for n in range(self.longest_hospital, 1, -1):
            if (tuple(lowered[i:i + n]) in self.hospitals and on_one_line(document, i, i + n)
                    and written_as_name(tokens[i:i + n])):
                return i + n
        return i

    def run_after_cue(self, document: Document, lowered: Sequence[str], i: int,
                      cue: Tuple[str, ...]) -> Range:
        """The capitalised words (or a lower-case organisation of the gazetteers) from
        ``i``, which a cue precedes; ``(i, i)``: none."""
        tokens = document.tokens
        if i < len(tokens) and lowered[i] == "the" and i + 1 < len(tokens):
            i += 1
        if i >= len(tokens) or document.pattern_labels[i]:
            return i, i
        if not name_word(tokens[i]):
            return (i, i + 1) if lowered[i] in self.organisations else (i, i)
        end, words = i, 0
        while end < len(tokens) and words < MAX_WORDS and on_one_line(document, i, end + 1) \
                and not document.pattern_labels[end] and tokens[end] != "I":
            if name_word(tokens[end]) or tokens[end][:1].isdigit() and words:
                words += 1
            elif (tokens[end] == "." and lowered[end - 1] in SAINTS and end + 1 < len(tokens)
                  and name_word(tokens[end + 1])):
                pass                        # Providence St. Vincent
            elif not (lowered[end] in INNER or tokens[end] in HYPHENS) \
                    or end + 1 >= len(tokens) or not name_word(tokens[end + 1]) \
                    or tokens[end + 1] == "I":      # Acme Freight and I
                break
            end += 1
        names = [lowered[k] for k in range(i, end) if tokens[k][:1].isalpha()]
        if (len(names) == 1 and cue in HOSPITAL_CUES and names[0] not in self.never
                and names[0] not in self.generic
                and (end >= len(tokens) or tokens[end] not in POSSESSIVE_ENDINGS)):
            return i, end                   # an appointment at Mayo
        return (i, end) if names and self.may_be_organisation(names) else (i, i)

    def may_be_organisation(self, names: Sequence[str]) -> bool:
        """Whether the words after a cue (lower case) may name an organisation: not a
        state, country or city, not a first name alone or before a name (but a saint's,
        or an organisation of the gazetteers), not one frequent English word, department
        (a medical word: ``Neurology``, ``Rehab``) or holiday."""
        first, known = names[0], names[0] in self.organisations or names[0] in SAINTS
        if first in self.never and first not in SAINTS or " ".join(names) in self.places:
            return False
        if len(names) == 1 and (first in self.generic or first in ATTENDED_HOLIDAYS):
            return False                    # referred to Neurology, attended Thanksgiving
        if first in self.first_names and (len(names) == 1 or names[1] in self.persons):
            return known
        return len(names) > 1 or known or self.zipf.get(first, 0.0) < MAX_ZIPF

    @staticmethod
    def trade_before(lowered: Sequence[str], i: int) -> Tuple[str, ...]:
        """``a welder at`` before token ``i`` (the words), or ``()``."""
        if (i >= 3 and lowered[i - 1] in ("at", "for") and lowered[i - 2] in TRADES
                and lowered[i - 3] in ARTICLES):
            return tuple(lowered[i - 3:i])
        return ()

    def ranges(self, document: Document, lowered: Sequence[str]) -> List[Range]:
        tokens = document.tokens
        found: List[Range] = []
        covered: Set[int] = set()
        for i in range(len(tokens)):
            if i in covered or document.pattern_labels[i]:
                continue
            found_here: List[Range] = []
            if lowered[i] in ORG_HEADS:
                found_here.append(self.institution_at(document, lowered, i))
            end = self.hospital_at(document, lowered, i)
            if end > i:
                found_here.append((i, end))
            cue = cue_before(lowered, i, CUES, longest=2) or self.trade_before(lowered, i)
            if cue:
                found_here.append(self.run_after_cue(document, lowered, i, cue))
            found_here = [r for r in found_here if r[1] > r[0]]
            if found_here:
                start = min(r[0] for r in found_here)
                end = max(r[1] for r in found_here)
                found = [r for r in found if r[1] <= start]     # an earlier part, a head
                found.append((start, end))
                covered.update(range(start, end))
        return found
