"""One-word organisations that cannot be a person's name (KEEP): ``Google``, ``Medicare``,
``Accenture``, ``Hamas``.

The words are the one-word companies of ``lexicons/organisations.txt`` (stock indices) and
the hand-made ``lexicons/organisations_extra.txt`` (web services, retailers, insurers,
health agencies, news agencies, ...), less every word that may be a person's name (census
first names and surnames, nicknames, gendered first names: ``Dell``, ``Ford``, ``Kaiser``,
``Chase`` stay for the model to decide). Such a word is kept where it is written with a
capital (``Google``, ``NASA``, ``WebMD``, ``eBay``; ``google it`` needs no help) and not
after a title or a capitalised first name (``Maren Costco`` would be a surname).
"""
import functools
from typing import FrozenSet, List

from ...lexicon.names import all_first_names, title_words
from ...lexicon.wordlists import load_gazetteer, load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens
from .gazetteer_phrases import after_name, person_words

ORGANISATION = "organisation"


@functools.lru_cache(maxsize=1)
def organisation_words() -> FrozenSet[str]:
    """One-word organisations that are no person's name (see the module)."""
    companies = {entry for entry in load_gazetteer("organisations") if " " not in entry}
    return frozenset(companies | load_wordlist("organisations_extra")) - person_words()


class OrganisationKeeper(Detector):
    """A KEEP span on each capitalised one-word organisation (see the module)."""

    source = ORGANISATION
    effect = KEEP

    def __init__(self):
        self.organisations = organisation_words()
        self.titles = title_words()
        self.first_names = all_first_names()

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        lowered = lowered_tokens(tokens)
        return [Span("KEEP", *offsets[i], 1.0, self.source)
                for i in indices_in(self.organisations, lowered)
                if not patterns[i] and not tokens[i].islower()
                and not after_name(document, lowered, i, self.titles, self.first_names)]
