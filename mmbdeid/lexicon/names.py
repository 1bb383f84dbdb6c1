"""What may be a person's name, read by the detectors: census first names, surnames and
nicknames, name-likeness, the hyphens and particles inside a name, and the titles before
one. One module below the medical-term filter and the title steps, which both read it."""
import functools
from typing import FrozenSet

from .wordlists import load_first_name_female_shares, load_wordlist

HYPHENS = frozenset({"-", "\u2010", "\u2011", "\u2013"})

# Particles of multi-word eponyms (von Willebrand, de Quervain): not first names there.
PARTICLES = frozenset({"von", "van", "de", "du", "di", "da", "la", "le", "del", "der", "den"})

# Honorifics that follow a name or name a place (``Jr``, ``St Louis``): not titles here.
NOT_TITLES = frozenset({"jr", "sr", "esq", "saint"})


@functools.lru_cache(maxsize=1)
def census_names() -> FrozenSet[str]:
    """Census first names and surnames and nicknames: words that may be a person's."""
    return load_wordlist("first_names") | load_wordlist("last_names") | load_wordlist("nicknames")


@functools.lru_cache(maxsize=1)
def first_names() -> FrozenSet[str]:
    """Census first names and nicknames."""
    return load_wordlist("first_names") | load_wordlist("nicknames")


@functools.lru_cache(maxsize=1)
def all_first_names() -> FrozenSet[str]:
    """Every first name we know: census first names, nicknames and the gendered first
    names (``arjun``, ``priya``) of ``first_names_gender`` (:func:`first_names` lacks
    the last)."""
    return first_names() | frozenset(load_first_name_female_shares())


def name_like(token: str, stop_words: FrozenSet[str]) -> bool:
    """A capitalised word that could be a name: ``Mary``, ``O'Brien``, ``J`` (an initial),
    not ``Who``, ``TSH`` or ``2nd``."""
    letters = token.replace("'", "").replace("\u2019", "")
    return (token[:1].isupper() and letters.isalpha() and token.lower() not in stop_words
            and (len(token) == 1 or not token.isupper()))


@functools.lru_cache(maxsize=1)
def title_words() -> FrozenSet[str]:
    """The titles of ``honorifics.txt``: less its kinship words and name suffixes."""
    return load_wordlist("honorifics") - load_wordlist("kinship") - NOT_TITLES
