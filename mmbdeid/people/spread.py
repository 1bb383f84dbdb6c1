"""Which names of the person map the person modes search in every post, and where: only
what is a name there (issue 30). The model removes a word at its low threshold once
(``guy`` at 0.05, ``Iron``, ``Menopur``); searched in every post, that one removal became
dozens.

- a drug (``Lupron``) is never searched, nor a dictionary or medical word that is not
  also a name (``bone``, ``Iron``, ``Onc``, ``state``), nor a lower-case dictionary word;
- a name the linking met only once, below ``CONFIDENT``, is not searched: one guess is
  not spread to the dump (a map read from a file has no probabilities: its names are);
- a name that is also a word (``Summer``, ``Hope``, ``Will``, ``Art``) is searched as
  written in the map (capitalised); not
  where it opens a sentence that goes on (``Hope that helps``, ``Will you``), but where it
  stands alone there (a sign-off ``\n\nSummer``, ``Mo, day 3 counts``);
- a name that is no word (``Lindqvist``, ``Aggie``) and a name of several words with a
  part that is no word (``Stan Kowalski``) are searched everywhere, as written;
- a part of a confident full name (``Dolores`` of ``Dolores Nakamura-Reyes``), searched in
  its post and thread only, capitalised as there: everywhere if a name (``Dolores``: a
  frequent word only as a name), mid-sentence if a name that is also a word (``Will``),
  not if a word that is no name (:func:`where_part_searched`).
"""
from __future__ import annotations

import functools
import re

from ..lexicon.wordlists import load_wordlist, load_zipf
from .mentions import known_name
from .personmap import name_key

CONFIDENT = 0.5         # a name met only below this probability is not spread
WORD_ZIPF = 3.0         # a lower-case form this frequent is a dictionary word

ANYWHERE, MID_SENTENCE = "anywhere", "mid-sentence"

_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n])[\W_]*$")
_GOES_ON = re.compile(r"[ \t]+[a-z]")


@functools.lru_cache(maxsize=1)
def _board_words() -> frozenset:
    return load_wordlist("medical_words") | load_wordlist("drugs")


@functools.lru_cache(maxsize=1)
def _drugs() -> frozenset:
    return load_wordlist("drugs")


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset:
    return load_wordlist("stop_words")


def is_word(key: str) -> bool:
    """Whether a lower-case single word is a common one: a stop word, or that frequent
    (the common-words list also holds rare words and names: ``aggie``, ``luis``)."""
    return key in _stop_words() or load_zipf().get(key, 0.0) >= WORD_ZIPF


@functools.lru_cache(maxsize=65536)
def where_searched(form: str) -> str:
    """``ANYWHERE``, ``MID_SENTENCE`` or ``""`` (not searched) for a name of the map
    written ``form`` (see module doc)."""
    key = name_key(form)
    parts = key.split()
    if not parts:
        return ""
    if len(parts) > 1:
        return ANYWHERE if any(not is_word(p) for p in parts if len(p) > 1) else ""
    if key in _drugs():
        return ""
    if not is_word(key) and key not in _board_words():
        return ANYWHERE
    if known_name(key) and form[:1].isupper():
        return MID_SENTENCE
    return ""


def sentence_initial(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` opens a sentence (a line, the text) that goes on
    with a lower-case word: ``Hope that helps``, not ``Mo, day 3`` nor a sign-off."""
    return (bool(_SENTENCE_START.search(text, max(start - 40, 0), start))
            and bool(_GOES_ON.match(text, end)))


def where_part_searched(part: str) -> str:
    """``ANYWHERE``, ``MID_SENTENCE`` or ``""`` for a part of a full name, written
    ``part``, in the full name's post or thread (see module doc)."""
    key = name_key(part)
    if " " in key or not part[:1].isupper():
        return ""
    if key in _stop_words() or key in load_wordlist("word_names"):
        return MID_SENTENCE
    if known_name(key) or not is_word(key):
        return ANYWHERE
    return where_searched(part)
