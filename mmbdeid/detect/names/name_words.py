"""What a word next to a name must be to belong to it (name completion, sign-offs).

A capitalised word that is no frequent English word (Zipf below ``WORD_ZIPF``, below
``SENTENCE_START_ZIPF`` where it opens its sentence, since any word is capitalised there;
a first name or one of the ``SURNAME_RANK`` commonest census surnames up to
``CENSUS_NAME_ZIPF``), no medical word or drug name, and no title, rank or office, kinship
word, greeting or closing word. Beside a seed in capitals a word in capitals (known names
only, ``KNOWN``, unless after a first name), but no medical or common abbreviation.
"""
import functools
import re
from typing import FrozenSet, Union

from ...lexicon.names import first_names, title_words
from ...lexicon.wordlists import load_gazetteer, load_last_name_ranks, load_wordlist, load_zipf

# A census name that is a more frequent English word than this is no part of a name here:
# ``Will`` (6.5), ``Hope`` (5.4), ``Ok`` (5.1), ``King`` (5.2); ``Hall`` (4.9) is.
CENSUS_NAME_ZIPF = 5.0
# The census surname list's tail holds ordinary words (``ouch``, rank 42,608; ``cola``):
# only the commoner surnames outweigh a word's frequency.
SURNAME_RANK = 5000
# Any other word this frequent is an English word, not a name: ``Constellation`` (3.4),
# ``Consultant`` (4.1); ``Arafat`` (2.9), ``Perlingiere`` (none) are names.
WORD_ZIPF = 3.3
# ... and at the start of a sentence, where any word is capitalised: ``Booing`` (3.1) is a
# word there, ``Delacroix`` (2.5) a name.
SENTENCE_START_ZIPF = 3.0
APOSTROPHES = frozenset({"'", "\u2019"})
# A particle elided before the name, in lower case: ``d'Amato``, ``dell'Orto``.
ELIDED_PARTICLE = re.compile(r"[a-z]{1,4}['\u2019][A-Z][a-z]")
# Ranks and offices before a name: like a title, they stay (``Queen Mary``, ``President
# Abbas``, ``cleric Muqtada al-Sadr``).
OFFICES = frozenset({"king", "queen", "prince", "princess", "duke", "duchess", "emperor",
                     "pope", "president", "senator", "governor", "mayor", "general",
                     "prophet", "sheikh", "shaikh", "cleric", "chief", "chairman", "minister",
                     "ambassador", "sultan", "emir", "ayatollah", "imam"})
# In capitals beside a seed in capitals: only first names and commoner surnames.
KNOWN = "known"
# Not in capitals (False), in capitals (True) or in capitals and known (KNOWN).
Caps = Union[bool, str]

@functools.lru_cache(maxsize=1)
def _place_and_organisation_phrases() -> FrozenSet[str]:
    """Gazetteer entries of two words or more (``san francisco``, ``burger king``)."""
    return frozenset(entry for name in ("places", "organisations")
                     for entry in load_gazetteer(name) if " " in entry)


class NameWords:
    """What a word next to a name must be to belong to it."""

    def __init__(self):
        self.stop_words = load_wordlist("stop_words")
        self.first = first_names()
        self.names = self.first | {name for name, rank in load_last_name_ranks().items()
                                   if rank <= SURNAME_RANK}
        self.medical = load_wordlist("medical_words") | load_wordlist("drugs")
        self.particles = load_wordlist("name_particles")
        self.suffixes = load_wordlist("name_suffixes")
        self.zipf = load_zipf()
        self.never = (title_words() | load_wordlist("kinship") | load_wordlist("greetings")
                      | load_wordlist("closings") | OFFICES)
        self.abbreviations = (load_wordlist("medical_abbreviations")
                              | load_wordlist("not_initials"))
        self.phrases = _place_and_organisation_phrases()

    def is_word(self, token: str, caps: Caps, opens_sentence: bool = False) -> bool:
        """A word of a name: capitalised, two letters or more, and neither a frequent
        English word nor a word of the lists that never complete a name. Beside a seed in
        capitals (``caps`` true) a word in capitals: a first name or commoner surname
        (``caps == KNOWN``), or any word that passes (``OYELARAN`` after ``MAREN``). A word
        that opens its sentence is capitalised anyway: there it must be rarer still
        (``SENTENCE_START_ZIPF``: not ``Booing`` of ``Booing Roger Goodell``)."""
        letters = "".join(c for c in token if c not in APOSTROPHES)
        if len(letters) < 2 or not letters.isalpha():
            return False
        if caps:
            if not token.isupper():
                return False
        elif not (token[0].isupper() and not token.isupper()
                  or ELIDED_PARTICLE.match(token)):
            return False
        word = token.lower()
        if word in self.stop_words or word in self.never:
            return False
        if caps and word in self.abbreviations:
            return False
        plain = letters.lower()
        zipf = self.zipf.get(plain, 0.0)
        if word in self.names or plain in self.names:
            return zipf < CENSUS_NAME_ZIPF
        return (caps != KNOWN and zipf < (SENTENCE_START_ZIPF if opens_sentence else WORD_ZIPF)
                and plain not in self.medical)

    def is_particle(self, token: str) -> bool:
        return token.lower() in self.particles and token.isalpha() and (
            token.islower() or token.istitle())

    @staticmethod
    def is_initial(token: str) -> bool:
        return len(token) == 1 and token.isalpha() and token.isupper()

    def is_suffix(self, token: str) -> bool:
        return token.lower() in self.suffixes and (token.isupper() or token.istitle())

    def is_first_name(self, token: str) -> bool:
        return token.lower() in self.first

    def one_place(self, first: str, second: str) -> bool:
        """Whether two words in text order make a place or organisation together."""
        return ("%s %s" % (first, second)).lower() in self.phrases


@functools.lru_cache(maxsize=1)
def name_words() -> NameWords:
    """The one shared :class:`NameWords` (read-only; its sets take a while to build)."""
    return NameWords()
