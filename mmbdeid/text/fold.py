"""Text with its accents folded away, and the way back to the original offsets.

``Inés``, ``Ine\\u0301s`` (the same name decomposed) and ``Ines`` are one name to a
reader, so a search for the name must find all three: each character is decomposed
(NFKD: ``é`` -> ``e`` + combining acute, ``ﬁ`` -> ``fi``) and its combining marks are
dropped; with ``casefold`` it is case-folded first (``ß`` -> ``ss``). A character may so
become none or several, so :class:`Folded` keeps, for each folded character, the offset
of the original character it came from, and a match in the folded text maps back to the
original characters it covers (the marks after its last letter with it).
"""
import unicodedata
from typing import List, NamedTuple, Optional, Tuple


class Folded(NamedTuple):
    text: str
    # origin[i]: the offset in the original text of the character folded[i] came from;
    # one more entry, the original's length, for a match that ends at the end. None: the
    # offsets are the same (an ASCII text).
    origin: Optional[List[int]]

    def original_span(self, start: int, end: int) -> Tuple[int, int]:
        """The original extent of ``text[start:end]`` (a match not cutting a character's
        expansion in two)."""
        if self.origin is None:
            return start, end
        return self.origin[start], self.origin[end]


def fold_character(char: str, casefold: bool = False) -> str:
    """``char`` without its accents (and case-folded with ``casefold``)."""
    if char.isascii():
        return char.lower() if casefold else char
    decomposed = unicodedata.normalize("NFKD", char.casefold() if casefold else char)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_term(term: str, casefold: bool = False) -> str:
    """A term folded as :func:`fold` folds texts (no offsets kept)."""
    return "".join(fold_character(char, casefold) for char in term)


def fold(text: str, casefold: bool = False) -> Folded:
    """``text`` without accents (see the module doc), with the map back."""
    if text.isascii():      # most posts: nothing to fold, offsets one to one
        return Folded(text.lower() if casefold else text, None)
    pieces: List[str] = []
    origin: List[int] = []
    for at, char in enumerate(text):
        folded = fold_character(char, casefold)
        pieces.append(folded)
        origin.extend([at] * len(folded))
    origin.append(len(text))
    return Folded("".join(pieces), origin)
