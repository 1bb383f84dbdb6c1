"""Names of places and organisations written out whole: ``San Francisco``, ``New Orleans``,
``Palo Alto``, ``Georgia Tech``-like compounds of the gazetteers are kept (KEEP).

The gazetteers (``lexicons/places.txt``, ``lexicons/organisations.txt``; here also the
multi-word entries of the hand-made ``lexicons/organisations_extra.txt``) are CRF features,
but a feature alone leaves ``San [Diego]``, ``Santa [Fe]``, ``Exxon [Mobil]`` removed: the
second word is a first name or surname to the model. A multi-word entry matched as a whole
is a place or a company, so :class:`GazetteerPhraseKeeper` keeps all its words, when:

* it is written as a name: its first and last words capitalised (inner particles such as
  ``de``, ``la``, ``of`` may be in lower case), or all of it in capitals;
* it does not read as a person's name: an entry of census names starting with a first name
  (``Diego Martin``, ``Benito Juarez``, both places) is left to the model, unless it starts
  with a place prefix (``Santa Fe``, ``San Jose``) or one of its words is a frequent English
  word and no first name (``Alice Springs``, ``Carson City``, ``Bowling Green``);
* no title stands before it (``Dr. Carson City`` is no place), nor a capitalised first
  name (``Bianca Del Rio``, ``Jill St. John``: the rest of a person's name).

Full stops of abbreviations inside an entry are matched as typed (``St. Louis``; the
gazetteer holds ``st. louis`` and ``st louis``). Nothing crosses a line break. The words
shared with the other keep steps live here too (:func:`person_words`; the word tests
of every step are in :mod:`mmbdeid.detect.words`).
"""
import functools
import re
from typing import Dict, FrozenSet, Iterable, List, Sequence, Set, Tuple

from ...lexicon.names import all_first_names, title_words
from ...lexicon.wordlists import load_gazetteer, load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ...text.tokenize import tokenize
from ..base import KEEP, Detector, indices_in, lowered_tokens
from ..names.titles import LOWER_CASE_TITLES
from ..words import Phrase, capitalised

GAZETTEER = "gazetteer"
# A word this frequent in English (Zipf) that is no first name makes an entry a place
# even if it is also a surname: ``Springs``, ``City``, ``Park``, ``Green`` (all >= 4.0).
PLACE_WORD_ZIPF = 4.0
# Words of an entry that may be written in lower case inside it (``Rio de Janeiro``).
INNER_PARTICLES = frozenset({"de", "da", "do", "dos", "das", "del", "della", "di", "du",
                             "la", "le", "les", "los", "las", "el", "en", "of", "the", "and",
                             "on", "upon", "am", "an", "der", "sur", "y", "e", "&", "-", "."})

# First words that make a place of what follows: ``Santa Fe``, ``San Jose``, ``Fort Worth``.
PLACE_PREFIX_WORDS = frozenset({"san", "santa", "santo", "sao", "são", "st", "saint", "ste",
                                "fort", "port", "lake", "mount", "mt", "new", "north", "south",
                                "east", "west", "cape", "glen", "el", "los", "las"})

_PLAIN = re.compile(r"[^\W_]+(?: [^\W_]+)*")


@functools.lru_cache(maxsize=1)
def person_words() -> FrozenSet[str]:
    """Words that may be a person's name: every first name
    (:func:`~mmbdeid.lexicon.names.all_first_names`) and census surnames."""
    return all_first_names() | load_wordlist("last_names")


def written_forms(words: Iterable[str]) -> FrozenSet[str]:
    """``words`` (lower case) as they are written capitalised: ``Houston``, ``HOUSTON``,
    ``Saint-Denis``. The steps look tokens up in these forms, as typed, so that a word in
    lower case costs them nothing (``McAllen``, with an inner capital, is not found)."""
    return frozenset(form for word in words
                     for form in (word.capitalize(), word.title(), word.upper()))


def reads_as_person(parts: Sequence[str]) -> bool:
    """Whether the words of an entry could be a person's name (see the module): all census
    names, the first a first name and no place prefix, none a frequent English word that
    is no first name."""
    names, first, zipf = person_words(), all_first_names(), load_zipf()
    words = [part for part in parts if part.isalpha() and part not in INNER_PARTICLES]
    if (not words or words[0] not in first or words[0] in PLACE_PREFIX_WORDS
            or any(word not in names for word in words)):
        return False
    return not any(word not in first and zipf.get(word, 0.0) >= PLACE_WORD_ZIPF
                   for word in words)


def phrase_tokens(entry: str) -> Phrase:
    """An entry's tokens as the tokenizer cuts them (``st. louis``: ``st``, ``.``,
    ``louis``); words and spaces alone (95% of the entries) are split at C speed, to the
    same tokens."""
    return tuple(entry.split() if _PLAIN.fullmatch(entry) else tokenize(entry))


@functools.lru_cache(maxsize=1)
def gazetteer_phrases() -> Dict[Tuple[str, str], List[Phrase]]:
    """First two tokens (lower case) -> the multi-token entries of both gazetteers that
    start with them, longest first, entries that read as a person's name left out; and
    those of the hand-made ``organisations_extra`` (``Burger King``, ``MD Anderson``)."""
    found: Set[Phrase] = set()
    for name in ("places", "organisations"):
        for entry in load_gazetteer(name):
            parts = phrase_tokens(entry)
            if len(parts) > 1 and not reads_as_person(parts):
                found.add(parts)
    for entry in load_wordlist("organisations_extra"):     # chosen by hand: no name check
        parts = phrase_tokens(entry)
        if len(parts) > 1:
            found.add(parts)
    phrases: Dict[Tuple[str, str], List[Phrase]] = {}
    for parts in sorted(found, key=len, reverse=True):
        phrases.setdefault(parts[:2], []).append(parts)
    return phrases


def after_name(document: Document, lowered: Sequence[str], i: int, titles: FrozenSet[str],
               first: FrozenSet[str]) -> bool:
    """Whether a title (``Dr.``) or a capitalised first name stands before token ``i`` on
    its line: what follows is then the rest of a person's name."""
    before = i - 1
    if before > 0 and document.tokens[before] == "." and lowered[before - 1] in titles:
        before -= 1
    if before < 0 or document.paragraph_ids[before] != document.paragraph_ids[i]:
        return False
    word, token = lowered[before], document.tokens[before]
    return word in first and capitalised(token) or word in titles and (
        capitalised(token) or word in LOWER_CASE_TITLES)


def written_as_name(tokens: Sequence[str]) -> bool:
    """First and last word capitalised, inner words capitalised or particles; or all in
    capitals."""
    words = [t for t in tokens if t[:1].isalnum()]
    if not words or not capitalised(words[0]) or not capitalised(words[-1]):
        return False
    return all(capitalised(w) or w in INNER_PARTICLES or not w.isalpha() for w in words)


class GazetteerPhraseKeeper(Detector):
    """A KEEP span on each word of a multi-word place or company name (see the module)."""

    source = GAZETTEER
    effect = KEEP

    def __init__(self):
        self.phrases = gazetteer_phrases()
        self.starts = written_forms(first for first, _ in self.phrases)
        self.titles = title_words()
        self.first_names = all_first_names()

    def match(self, document: Document, lowered: Sequence[str], i: int) -> int:
        """The end (exclusive) of the longest entry written at token ``i``, or ``i``."""
        tokens, paragraphs, patterns = (document.tokens, document.paragraph_ids,
                                        document.pattern_labels)
        for phrase in self.phrases.get(tuple(lowered[i:i + 2]), ()):
            end = i + len(phrase)
            if (end <= len(tokens) and tuple(lowered[i:end]) == phrase
                    and paragraphs[end - 1] == paragraphs[i] and not any(patterns[i:end])
                    and written_as_name(tokens[i:end])):
                return end
        return i

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets = document.tokens, document.offsets
        lowered = lowered_tokens(tokens)
        spans: List[Span] = []
        after = 0
        for i in indices_in(self.starts, tokens):
            if (i < after
                    or after_name(document, lowered, i, self.titles, self.first_names)):
                continue
            end = self.match(document, lowered, i)
            spans.extend(Span("KEEP", *offsets[k], 1.0, self.source)
                         for k in range(i, end) if tokens[k][:1].isalnum())
            after = max(after, end)
        return spans
