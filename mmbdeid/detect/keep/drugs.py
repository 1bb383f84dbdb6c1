"""The drug filter: drug names (``Arimidex``, ``doxy``) are kept whatever the model says."""
from ...lexicon.wordlists import load_wordlist
from .terms import TermKeeper


class DrugKeeper(TermKeeper):
    """A KEEP span on every token that is a drug name (pattern tokens excepted)."""

    source = "drug"

    def __init__(self, drugs=None):
        super().__init__(load_wordlist("drugs") if drugs is None else drugs)
