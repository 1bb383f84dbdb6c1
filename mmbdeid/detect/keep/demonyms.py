"""Nationalities, peoples and religions are kept (KEEP): ``Arabs``, ``Iraqis``, ``Hispanic``,
``Caucasian``, ``Ashkenazi``, ``Catholic``.

English capitalises them, so the model may take them for names. The words of
``lexicons/demonyms.txt`` are kept in any case, less those that are first names or
nicknames (``Christian``, ``Sunni``) or frequent surnames (census rank ``MAX_SURNAME_RANK``
or better: ``English``, ``French``, ``Welsh``), which are left to the model.
"""
import functools
from typing import FrozenSet

from ...lexicon.names import all_first_names
from ...lexicon.wordlists import load_last_name_ranks, load_wordlist
from .terms import TermKeeper

MAX_SURNAME_RANK = 5000


@functools.lru_cache(maxsize=1)
def demonyms() -> FrozenSet[str]:
    ranks, first = load_last_name_ranks(), all_first_names()
    return frozenset(w for w in load_wordlist("demonyms")
                     if w not in first and ranks.get(w, MAX_SURNAME_RANK + 1) > MAX_SURNAME_RANK)


class DemonymKeeper(TermKeeper):
    """A KEEP span on every token that is a nationality, people or religion (see the module)."""

    source = "demonym"

    def __init__(self, words=None):
        super().__init__(demonyms() if words is None else words)
