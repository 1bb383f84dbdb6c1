"""Tokens that are never a name, nor part of one: a removed span covers name characters only.

At a recall-first threshold the model gives some probability to the tokens next to a name:
the full stop after it (``Thanks Bernard.``), a possessive ``'s``, the greeting before it
(``Hi Priscilla``). Removing them damages the text and, worse, joins two mentions across a
sentence end (``Rita. Tomm``). :class:`NotNameKeeper` (KEEP) keeps:

* tokens without a letter or digit (punctuation, symbols, emoji);
* clitics split off a word (``'s``, ``'ll``, ``n't``);
* greeting and closing words (``lexicons/greetings.txt``: ``Hi``, ``Thanks``, ``Dear``,
  ``Cheers``), but a capitalised one that is also a first name (``Ty``) only in lower case;
* ``I`` (not an initial: not followed by a full stop);
* lower-case stop words of two letters or more (``and`` in ``Tom and Rita``).

Name particles (``van``, ``de la``) are not stop words here: they belong to the name.
"""
import re
from typing import Dict, FrozenSet, List

from ...lexicon.names import first_names
from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector
from ..words import WORD_CHARACTER

NOT_NAME = "not_name"
VERDICT_CACHE = 100_000         # token types remembered per step
_CLITIC = re.compile(r"(?:n['\u2019]t|['\u2019](?:s|m|d|ll|re|ve)?)", re.IGNORECASE)


def never_a_name(token: str, next_token: str, stop_words: FrozenSet[str]) -> bool:
    """Whether ``token`` (followed by ``next_token``, or ``""``) is never part of a name."""
    if not WORD_CHARACTER.search(token) or _CLITIC.fullmatch(token):
        return True
    lower = token.lower()
    if lower in load_wordlist("greetings"):
        return token.islower() or lower not in first_names()
    if token == "I":
        return next_token != "."
    return len(token) > 1 and token.islower() and lower in stop_words


class NotNameKeeper(Detector):
    """A KEEP span on each token that is never part of a name (see the module)."""

    source = NOT_NAME
    effect = KEEP

    def __init__(self):
        self.stop_words = load_wordlist("stop_words")
        # The answer for a token but ``I`` is the token's alone: asked once per type.
        self._verdicts: Dict[str, bool] = {}

    def detect(self, document: Document) -> List[Span]:
        tokens, offsets = document.tokens, document.offsets
        verdicts, stop_words = self._verdicts, self.stop_words
        spans = []
        last = len(tokens) - 1
        for i, token in enumerate(tokens):
            if token == "I":
                never = i == last or tokens[i + 1] != "."
            else:
                never = verdicts.get(token)
                if never is None:
                    never = never_a_name(token, "", stop_words)
                    if len(verdicts) >= VERDICT_CACHE:
                        verdicts.clear()
                    verdicts[token] = never
            if never:
                start, end = offsets[i]
                spans.append(Span("KEEP", start, end, 1.0, NOT_NAME))
        return spans
