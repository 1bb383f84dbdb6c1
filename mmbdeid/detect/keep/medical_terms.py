"""The medical-term filter: the words researchers study are kept whatever the model says.

Like the drug filter (``detect/keep/drugs.py``), a KEEP step: a span on

* a medical **eponym** (``lexicons/eponyms.txt``; one entry may be a compound,
  ``epstein-barr``, or several words, ``lou gehrig``) where the text says it is one:

  - followed, after an optional possessive (``'s``, ``'``; the tokenizer splits it off), by a
    medical head noun (``lexicons/medical_heads.txt``): ``Graves' disease``, ``Bell's palsy``,
    ``Lou Gehrig's disease``, ``Barrett's esophagus``, ``Downs syndrome``;
  - with a possessive, or with a plain ``s`` (``Hashimoto's``, ``Cushing's``, ``crohns``), unless
    a part of it is a first name or nickname (``Barrett's`` alone may be someone's);
  - after an article or a possessive determiner (``a Foley``, ``the Whipple``, ``my
    Holter``), not before a capitalised word or ``family`` (``the Graves family``), unless a
    part of it is a first name;
  - written as a hyphenated compound (``Epstein-Barr``, ``Guillain-Barre``);
  - alone, a rare surname (census rank past ``RARE_SURNAME_RANK``) that is no first name,
    stands after no title or first name and has a medical word near it (an abbreviation in
    capitals, a head noun, a lab word): ``Epley only works for BPPV`` (``Dr. Lewy``, ``Mary
    Epley`` and ``Merkel said`` are people);
  - alone only if no part is a first name and some part is not a census name, for a
    compound (``von Willebrand``), or if it is an English word and no census name, for a
    single word (``Lyme``, ``Alzheimer``). A bare ``Parkinson`` or ``Graves`` may be a
    person and stays for the model to decide;

* a medical **abbreviation** (``lexicons/medical_abbreviations.txt``) written as one: in capitals,
  with digits or with inner capitals (``TSH``, ``RA``, ``MS``, ``A1C``, ``t4``, ``eGFR``), but
  not a title before a name (``MS Jones`` is left to the title steps) nor a lower-case
  ``ms``/``ra`` that might be an ordinary word;

  and its plural with a lower-case ``s`` (``UTIs``, ``MRIs``); an abbreviation that is also a
  first name (``ANA``, ``ED``; ``NAME_ABBREVIATIONS``) only in capitals and beside a word of
  its medical use (``LAB_CUES``: ``ANA positive``, ``an ANA test``, ``ANA titre``), so that
  ``Ana said`` and ``my friend ANA`` stay names;

* a **kinship** word (``lexicons/kinship.txt``: ``Mom``, ``Dad``, ``Nana``, ``DH``) unless it
  stands before a name (``Aunt Mary``: the model decides on both).

The head noun after a kept eponym is kept with it (``Lewy body``: the model may take
``body`` for the rest of a name). Pattern tokens (e-mails, URLs, phones, handles) are never kept. Spans are one per token, in
token order.
"""
from typing import Dict, Iterable, List, Optional, Sequence

from ...lexicon.names import HYPHENS, PARTICLES, census_names, first_names, name_like, title_words
from ...lexicon.wordlists import load_last_name_ranks, load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens
from ..words import POSSESSIVE_ENDINGS_ANY_CASE, Phrase


# Words before an eponym that make a thing of it: ``a Foley``, ``the Whipple``, ``my Holter``
# (a person seldom takes one; a first name may: ``my Bell`` is left to the model).
EPONYM_DETERMINERS = frozenset({"a", "an", "the", "my", "his", "her", "their", "our", "your"})

# ... but ``the Graves family`` are people.
FAMILY_WORDS = frozenset({"family", "families", "household", "kids", "children", "clan"})

# Abbreviations that are also first names, kept only beside a word of their medical use
# (issue 31: ``ANA`` the antinuclear antibody test vs ``Ana`` the person).
NAME_ABBREVIATIONS = frozenset({"ana", "ed"})
LAB_CUES = frozenset({
    "test", "tests", "tested", "testing", "titre", "titres", "titer", "titers", "positive",
    "negative", "result", "results", "level", "levels", "panel", "lab", "labs", "blood",
    "screen", "pattern", "speckled", "homogeneous", "lupus", "sle", "rheumatologist", "rheum",
    "antibody", "antibodies", "autoimmune", "dsdna", "esr", "crp", "rf", "visit", "doc",
    "score", "scores",
})
LAB_CUE_WINDOW = 3          # words on either side, on the same line
# An eponym alone that is a census surname rarer than this is the eponym (Epley 8744,
# Lewy 43110); a frequent one may be a person (Graves 318, Parkinson 2076 stay for the model).
RARE_SURNAME_RANK = 5000
# ... and only with a medical word near it: ``Epley only works for BPPV`` (``Merkel said``,
# ``Yoshida came`` are people).
EPONYM_CUE_WINDOW = 5



def _parts(entry: str) -> Phrase:
    return tuple(entry.replace("-", " ").split())


class MedicalTermKeeper(Detector):
    """A KEEP span on eponyms, medical abbreviations and kinship words (see the module)."""

    source = "medical"
    effect = KEEP

    def __init__(self, eponyms: Optional[Iterable[str]] = None,
                 heads: Optional[Iterable[str]] = None,
                 abbreviations: Optional[Iterable[str]] = None,
                 kinship: Optional[Iterable[str]] = None,
                 names: Optional[Iterable[str]] = None,
                 first: Optional[Iterable[str]] = None,
                 words: Optional[Iterable[str]] = None,
                 titles: Optional[Iterable[str]] = None):
        def given(value, default):
            return frozenset(default() if value is None else (v.lower() for v in value))

        eponyms = given(eponyms, lambda: load_wordlist("eponyms"))
        self.heads = given(heads, lambda: load_wordlist("medical_heads"))
        self.abbreviations = given(abbreviations, lambda: load_wordlist("medical_abbreviations"))
        self.kinship = given(kinship, lambda: load_wordlist("kinship"))
        self.names = given(names, census_names)
        self.first = given(first, first_names)
        self.words = given(words, lambda: load_wordlist("common_words"))
        self.stop_words = load_wordlist("stop_words")
        self.surname_ranks = load_last_name_ranks() if names is None else {}
        if titles is None:
            titles = title_words()
        self.titles = frozenset(t.lower() for t in titles)
        # first word -> phrases starting with it, longest first
        self.phrases: Dict[str, List[Phrase]] = {}
        for phrase in {_parts(e) for e in eponyms if _parts(e)}:
            self.phrases.setdefault(phrase[0], []).append(phrase)
        for starting in self.phrases.values():
            starting.sort(key=len, reverse=True)
        # The words (lower case) at which an eponym can start: a first word, or a one-word
        # eponym with a plain s (``crohns``, see _plural_single); and at which any span can
        # (those, an abbreviation, a kinship word). ``detect`` looks at no other token: it
        # would find nothing there.
        self.eponym_starts = frozenset(self.phrases).union(
            phrase[0] + "s" for starting in self.phrases.values() for phrase in starting
            if len(phrase) == 1 and len(phrase[0]) + 1 > 3)
        # UTIs, MRIs: an abbreviation with a plural s (the stem must be written in capitals)
        self.plurals = frozenset(a + "s" for a in self.abbreviations | NAME_ABBREVIATIONS
                                 if len(a) > 1 and not a[-1].isdigit())
        self.starts = (self.eponym_starts | self.abbreviations | self.kinship | self.plurals
                       | NAME_ABBREVIATIONS)

    # --- eponyms ---------------------------------------------------------------------

    def _match(self, tokens: Sequence[str], i: int):
        """The longest eponym at token ``i``: (end index, phrase, hyphenated, plain s)."""
        for phrase in self.phrases.get(tokens[i].lower(), ()):
            j, hyphenated, plural = i + 1, False, False
            for position, part in enumerate(phrase[1:], start=1):
                if j < len(tokens) and tokens[j] in HYPHENS:
                    j += 1
                    hyphenated = True
                if j >= len(tokens):
                    break
                word = tokens[j].lower()
                if word == part:
                    j += 1
                elif position == len(phrase) - 1 and word == part + "s":
                    j += 1
                    plural = True
                else:
                    break
            else:
                return j, phrase, hyphenated, plural
        return None

    def _plural_single(self, token: str):
        """``crohns`` -> the eponym ``crohn`` written with a plain ``s``."""
        word = token.lower()
        if len(word) > 3 and word.endswith("s") and (word[:-1],) in self.phrases.get(word[:-1], ()):
            return (word[:-1],)
        return None

    def _keep_eponym(self, phrase: Phrase, written: str, hyphenated: bool, possessive: bool,
                     plural: bool, head: bool, determiner: bool = False,
                     as_term: bool = False) -> bool:
        if head:
            return True
        has_first = any(part in self.first for part in phrase
                        if len(phrase) == 1 or part not in PARTICLES)
        if determiner and not has_first:
            return True
        if possessive:
            return not has_first
        if plural:      # crohns, hashimotos: a possessive without its apostrophe
            return not has_first and written not in self.names and written not in self.words
        if hyphenated:
            return True
        if len(phrase) > 1:
            return not has_first and any(part not in self.names for part in phrase)
        word = phrase[0]
        if word in self.first:
            return False
        rare = as_term and self.surname_ranks.get(word, 0) > RARE_SURNAME_RANK
        return rare or (word not in self.names and word in self.words)

    def _eponym(self, tokens: Sequence[str], i: int):
        """The eponym written at ``i``, kept or not: (end index, phrase, hyphenated,
        plain s, possessive, index after the possessive, a head noun there), or None."""
        found = self._match(tokens, i)
        if found is None:
            phrase = self._plural_single(tokens[i])
            if phrase is None:
                return None
            found = i + 1, phrase, False, True
        end = found[0]
        possessive = end < len(tokens) and tokens[end] in POSSESSIVE_ENDINGS_ANY_CASE
        after = end + 1 if possessive else end
        head = after < len(tokens) and tokens[after].lower() in self.heads
        return found + (possessive, after, head)

    def _after_person_word(self, tokens: Sequence[str], i: int) -> bool:
        """Whether a title (``Dr. Lewy``) or a capitalised first name (``Mary Epley``)
        stands before token ``i``: then the eponym is someone's surname."""
        j = i - 1
        if j > 0 and tokens[j] == ".":
            j -= 1
        if j < 0:
            return False
        before = tokens[j]
        return before.lower() in self.titles or (before[:1].isupper()
                                                 and before.lower() in self.first)

    def _medical_cue_near(self, tokens: Sequence[str], paragraphs: Sequence[int],
                          i: int) -> bool:
        """Whether a medical abbreviation (``BPPV``), a head noun or a lab word stands
        within ``EPONYM_CUE_WINDOW`` words of token ``i`` on its line."""
        low, high = max(0, i - EPONYM_CUE_WINDOW), min(len(tokens), i + EPONYM_CUE_WINDOW + 1)
        for j in range(low, high):
            word = tokens[j].lower()
            if j == i or paragraphs[j] != paragraphs[i]:
                continue
            if word in self.heads or word in LAB_CUES or (
                    word in self.abbreviations and self._written_as_abbreviation(tokens[j])):
                return True
        return False

    def _eponym_at(self, tokens: Sequence[str], i: int,
                   paragraphs: Optional[Sequence[int]] = None) -> int:
        """The end of the eponym kept at ``i`` (with its possessive and its head noun), or
        ``i``."""
        found = self._eponym(tokens, i)
        if found is None:
            return i
        end, phrase, hyphenated, plural, possessive, after, head = found
        determiner = (i > 0 and tokens[i - 1].lower() in EPONYM_DETERMINERS and not possessive
                      and not (after < len(tokens) and (
                          name_like(tokens[after], self.stop_words)
                          or tokens[after].lower() in FAMILY_WORDS)))
        if self._keep_eponym(phrase, tokens[end - 1].lower(), hyphenated, possessive, plural,
                             head, determiner,
                             paragraphs is not None and not self._after_person_word(tokens, i)
                             and self._medical_cue_near(tokens, paragraphs, i)):
            return after + 1 if head else after
        return i

    def eponyms_before_heads(self, document: Document) -> List[Span]:
        """One span per eponym followed by a medical head noun, over the eponym's words
        (``Graves`` of ``Graves' disease``, ``Lou Gehrig`` of ``Lou Gehrig's disease``): a
        condition, whoever else has the name. The leak audit asks it, so that it does not
        report as a leak what this step keeps for that reason alone."""
        tokens, offsets = document.tokens, document.offsets
        spans: List[Span] = []
        after = 0           # the tokens before belong to an eponym found (``Gehrig``)
        for i in indices_in(self.eponym_starts, lowered_tokens(tokens)):
            found = self._eponym(tokens, i) if i >= after else None
            if found is not None and found[-1]:
                spans.append(Span("KEEP", offsets[i][0], offsets[found[0] - 1][1], 1.0,
                                  self.source))
                after = found[0]
        return spans

    # --- abbreviations and kinship ----------------------------------------------------

    def _before_name(self, tokens: Sequence[str], paragraphs: Sequence[int], i: int) -> bool:
        """Whether token ``i`` stands before a name (``Aunt Mary``, ``MS. Jones``)."""
        j = i + 1
        if j < len(tokens) and tokens[j] == "." and paragraphs[j] == paragraphs[i]:
            j += 1
        if j >= len(tokens) or paragraphs[j] != paragraphs[i]:
            return False
        following = tokens[j]
        return (name_like(following, self.stop_words)
                and (following.lower() in self.names or following.lower() not in self.words)
                and following.lower() not in self.kinship)

    @staticmethod
    def _written_as_abbreviation(token: str) -> bool:
        letters = [c for c in token if c.isalpha()]
        if not letters:
            return False
        if any(c.isdigit() for c in token):
            return True
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            return True
        # inner capitals after a lower-case letter: eGFR, HbA1c, BiPAP
        return any(a.islower() and b.isupper() for a, b in zip(token, token[1:]))

    @staticmethod
    def _lab_cue_near(lowered: Sequence[str], paragraphs: Sequence[int], i: int) -> bool:
        """Whether a word of a lab test's use stands near token ``i`` on its line."""
        low, high = max(0, i - LAB_CUE_WINDOW), min(len(lowered), i + LAB_CUE_WINDOW + 1)
        return any(lowered[j] in LAB_CUES and paragraphs[j] == paragraphs[i]
                   for j in range(low, high) if j != i)

    def _abbreviation(self, tokens, lowered, paragraphs, i: int) -> bool:
        token = tokens[i]
        word = lowered[i]
        if word in self.plurals and word not in self.abbreviations and token[-1] == "s":
            token, word = token[:-1], word[:-1]         # UTIs: the stem in capitals
            if not (len(token) >= 2 and token.isupper()):
                return False
        if not self._written_as_abbreviation(token):
            return False
        if word in NAME_ABBREVIATIONS:
            return token.isupper() and self._lab_cue_near(lowered, paragraphs, i)
        if word not in self.abbreviations:
            return False
        return not (word in self.titles and self._before_name(tokens, paragraphs, i))

    # --- the detector -----------------------------------------------------------------

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets = document.tokens, document.offsets
        patterns, paragraphs = document.pattern_labels, document.paragraph_ids
        lowered = lowered_tokens(tokens)
        kept: List[Span] = []
        after = 0           # the tokens before belong to a kept eponym
        for i in indices_in(self.starts, lowered):
            if i < after or patterns[i]:
                continue
            word = lowered[i]
            if word in self.eponym_starts:
                end = self._eponym_at(tokens, i, paragraphs)
                if end > i and not any(patterns[i:end]):
                    kept.extend(Span("KEEP", start, stop, 1.0, self.source)
                                for start, stop in offsets[i:end])
                    after = end
                    continue
            if self._abbreviation(tokens, lowered, paragraphs, i) or (
                    word in self.kinship and not self._before_name(tokens, paragraphs, i)):
                start, stop = offsets[i]
                kept.append(Span("KEEP", start, stop, 1.0, self.source))
        return kept
