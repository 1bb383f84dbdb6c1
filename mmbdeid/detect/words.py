"""Word tests and word sets the detector steps share, one definition each: what is written
as a name, where a sentence ends or opens, the possessive endings."""
import re
from typing import Tuple

from ..text.document import Document

# A phrase of a gazetteer or a word list as tokens (``("st", ".", "louis")``).
Phrase = Tuple[str, ...]
# A letter or digit: a token without one is punctuation.
WORD_CHARACTER = re.compile(r"[^\W_]")

# Tokens that end a sentence (the sign-off step reads its own set: ``SIGN_OFF_SENTENCE_ENDS``).
SENTENCE_ENDS = frozenset({".", "!", "?", "...", "\u2026"})
# Possessive endings as the tokenizer splits them off (``Tulsa's``, ``Graves'``).
POSSESSIVE_ENDINGS = frozenset({"'s", "\u2019s", "'", "\u2019"})
# The same in either case (``GRAVES'S``), where a step reads words written in capitals too.
POSSESSIVE_ENDINGS_ANY_CASE = POSSESSIVE_ENDINGS | frozenset({"'S", "\u2019S"})
# Tokens that join the items of a list of places or organisations (``Tulsa, Reno and Fresno``).
LIST_JOINERS = frozenset({",", "and", "or", "&", "/"})


def capitalised(token: str) -> bool:
    """A word written as a name: ``Houston``, ``HOUSTON``, ``McAllen`` (not ``houston``,
    ``2nd``)."""
    return token[:1].isupper()


def name_word(token: str) -> bool:
    """A capitalised word that starts with a letter (not a digit or a mark)."""
    return capitalised(token) and token[:1].isalpha()


def opens_sentence(document: Document, i: int) -> bool:
    """Whether token ``i`` starts its line or follows a sentence end (any word is
    capitalised there)."""
    return (i == 0 or document.paragraph_ids[i - 1] != document.paragraph_ids[i]
            or document.tokens[i - 1] in SENTENCE_ENDS)
