"""Titles stay, the name after a title goes: ``Dr. Lindqvist`` -> ``Dr. [NAME]``.

Two small steps of the analyzer chain:

* :class:`TitleKeeper` (KEEP, with the drug filter): a title (``Dr``, ``Mr``, ``Mrs``, ``Ms``,
  ``Miss``, ``Prof``, ``Nurse``, ...: the titles of ``lexicons/honorifics.txt``, not its kinship
  words) with its full stop, where a capitalised word follows: the model's span on ``Dr`` or
  on the ``.`` goes;
* :class:`TitledNameDetector` (REMOVE, a rule step): the capitalised words right after a
  title (after an optional ``.``), at most ``MAX_NAME_WORDS`` of them, middle initials
  (``J.``) and hyphenated parts (``Smith-Jones``) included: ``Dr. Okonkwo``, ``Nurse
  Ottilie``, ``Dr. Mary J. Smith``. A word that is a frequent English word (Zipf at least
  ``NOT_NAME_ZIPF``), a medical word or a drug name, and no census name, ends the name
  (``Dr. Google``, ``Nurse Practitioner``); so does a stop word (``Dr. Who``), a kinship word
  or a title.

A title must be capitalised (``Miss Kay``, not ``I miss Kay``), except the unambiguous
ones (``dr``, ``mr``, ``mrs``, ``ms``, ``prof``, ``doctor``, ``nurse``, ...). Only an
abbreviated title takes a full stop (``Dr.``, ``Mrs.``; after ``doctor.`` the sentence ends).
Nothing crosses a line break, and pattern tokens are never part of a name.
"""
import functools
from typing import FrozenSet, Iterable, List, Optional

from ...lexicon.names import HYPHENS, PARTICLES, census_names, name_like, title_words
from ...lexicon.wordlists import load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens

TITLE = "title"
MAX_NAME_WORDS = 3
# An English word at least this frequent (Zipf) is no name after a title unless a census
# name: ``Dr. Google`` (4.9), ``Dr. Tomorrow`` (5.0); ``Dr. Oz`` (4.0), ``Ms. Delacroix`` (2.5)
# are names.
NOT_NAME_ZIPF = 4.5
# Titles that are titles even in lower case (``dr okonkwo`` is still unusual, but
# ``nurse Ottilie`` is common); the others are ordinary words too (``miss``, ``lady``, ``gen``).
LOWER_CASE_TITLES = frozenset({"dr", "mr", "mrs", "ms", "prof", "doctor", "doc", "nurse",
                               "professor", "pastor", "rabbi", "imam", "reverend", "rev"})
# Abbreviated titles take a full stop (``Dr. Okonkwo``); after a whole word (``doctor.``) a
# full stop ends the sentence and what follows is no name of the title's.
ABBREVIATED_TITLES = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "rev", "fr", "capt",
                                "col", "gen", "gov", "hon", "lt", "pres", "rep", "sen", "sgt",
                                "det", "np", "rn"})


@functools.lru_cache(maxsize=1)
def not_name_words() -> FrozenSet[str]:
    """Words that end a name after a title unless they are census names: medical words,
    drug names and frequent English words (``Google``, ``Tomorrow``; ``common_words`` also
    holds rarer proper names such as ``delacroix``, so only the frequent ones count)."""
    zipf = load_zipf()
    frequent = {w for w in load_wordlist("common_words") if zipf.get(w, 0.0) >= NOT_NAME_ZIPF}
    return frozenset(frequent) | load_wordlist("medical_words") | load_wordlist("drugs")


class _TitleSteps(Detector):
    def __init__(self, titles: Optional[Iterable[str]] = None):
        self.titles = title_words() if titles is None else frozenset(t.lower() for t in titles)
        self.stop_words = load_wordlist("stop_words")

    def is_title(self, token: str) -> bool:
        word = token.lower()
        return word in self.titles and (token[:1].isupper() or word in LOWER_CASE_TITLES)

    def title_indices(self, document: Document) -> Iterable[int]:
        """The indices of the tokens that are a title in lower case: the only ones
        ``after_title`` can accept (found at C speed; most posts have none)."""
        return indices_in(self.titles, lowered_tokens(document.tokens))

    def after_title(self, document: Document, i: int) -> Optional[int]:
        """For a title at ``i``: the index of the word after it (and after its ``.``), when
        that word is capitalised, or name particles before a capitalised word (``Dr. van
        der Meulen``), on the same line; else None."""
        tokens, paragraphs, patterns = (document.tokens, document.paragraph_ids,
                                        document.pattern_labels)
        if patterns[i] or not self.is_title(tokens[i]):
            return None
        j = i + 1
        if j < len(tokens) and tokens[j] == ".":
            if (tokens[i].lower() not in ABBREVIATED_TITLES
                    or document.offsets[j][0] != document.offsets[i][1]):
                return None
            j += 1
        first = j
        while (j < len(tokens) and tokens[j] in PARTICLES and paragraphs[j] == paragraphs[i]
               and not patterns[j]):
            j += 1
        if (j < len(tokens) and paragraphs[j] == paragraphs[i] and not patterns[j]
                and name_like(tokens[j], self.stop_words)):
            return first
        return None


class TitleKeeper(_TitleSteps):
    """A KEEP span on a title and its full stop (``Dr.``) before a capitalised word."""

    source = TITLE
    effect = KEEP

    def detect(self, document: Document) -> List[Span]:
        spans = []
        for i in self.title_indices(document):
            following = self.after_title(document, i)
            if following is not None:
                spans.append(Span("KEEP", document.offsets[i][0],
                                  document.offsets[following - 1][1], 1.0, self.source))
        return spans


class TitledNameDetector(_TitleSteps):
    """A NAME span, score 1.0, on each word of the name after a title."""

    source = TITLE

    def __init__(self, titles: Optional[Iterable[str]] = None,
                 names: Optional[Iterable[str]] = None,
                 not_names: Optional[Iterable[str]] = None):
        super().__init__(titles)
        self.names = census_names() if names is None else frozenset(n.lower() for n in names)
        if not_names is None:
            not_names = not_name_words()
        self.not_names = frozenset(w.lower() for w in not_names)
        self.kinship = load_wordlist("kinship")

    def is_name_word(self, token: str) -> bool:
        word = token.lower()
        if not name_like(token, self.stop_words) or word in self.kinship or word in self.titles:
            return False
        # census names are written without apostrophes (O'Brien: obrien)
        return (len(token) == 1 or word in self.names
                or word.replace("'", "").replace("\u2019", "") in self.names
                or word not in self.not_names)

    def name_words(self, document: Document, j: int) -> List[int]:
        """Indices of the name's words from ``j``: initials' full stops and hyphens skipped;
        the parts of a hyphenated name (``Smith-Jones``) count as one word, and name
        particles before a word of the name (``van der Meulen``) go with it."""
        tokens, paragraphs, patterns = (document.tokens, document.paragraph_ids,
                                        document.pattern_labels)
        line = paragraphs[j]
        found: List[int] = []
        words, hyphenated = 0, False
        while True:
            word = j                                    # after any particles
            while (word < len(tokens) and tokens[word] in PARTICLES
                   and paragraphs[word] == line and not patterns[word]):
                word += 1
            if not (word < len(tokens) and (hyphenated or words < MAX_NAME_WORDS)
                    and paragraphs[word] == line and not patterns[word]
                    and self.is_name_word(tokens[word])):
                break
            found.extend(range(j, word + 1))
            j = word
            words += 0 if hyphenated else 1
            j += 1
            hyphenated = False
            if j < len(tokens) and paragraphs[j] == line:
                if tokens[j] == "." and len(tokens[j - 1]) == 1:          # J. Smith
                    j += 1
                elif tokens[j] in HYPHENS:                                 # Smith-Jones
                    j += 1
                    hyphenated = True
        return found

    def detect(self, document: Document) -> List[Span]:
        spans: List[Span] = []
        last = -1
        for i in self.title_indices(document):
            if i <= last:
                continue
            following = self.after_title(document, i)
            if following is None:
                continue
            words = self.name_words(document, following)
            for k in words:
                start, end = document.offsets[k]
                spans.append(Span("NAME", start, end, 1.0, self.source))
            if words:
                last = words[-1]
        return spans
