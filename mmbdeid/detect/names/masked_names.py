"""Names masked with asterisks: ``M*ren``, ``J**n``, where the post names ``Maren``.

Writers hide a name by habit with a star or two, and the tokenizer cuts ``M*ren`` into
``M``, ``*``, ``ren``, which the model cannot read. A :class:`~mmbdeid.detect.base.Completer`
step: a word with one or more ``*`` standing for one letter each is removed whole when it

* spells a name removed elsewhere in the post so far (``Maren``): a NAME span with that
  name's score (it goes exactly when the name goes); or
* spells a first name, nickname or commoner census surname of three letters or more
  (``K*thy``, ``Sm*th``) and no English word or stop word that is not a name too (so not
  ``f*ck``, ``h*ll``, ``D*ve``: ``hell`` and ``dove`` are words as well as ``Hall`` and
  ``Dave`` names): a NAME span, score 1.0.

Only the post is read: across a thread (``M*ren`` where an earlier post says ``Maren``)
the first-name list stands in.
"""
import functools
import re
from typing import Dict, Iterable, List, Pattern, Sequence

from ...lexicon.names import first_names
from ...lexicon.wordlists import load_last_name_ranks, load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import Completer
from .name_words import SURNAME_RANK

MASKED = "masked"
NAME_MIN = 3
# A word of letters and stars with at least one of each side by side: M*ren, *aren, Mare*.
_MASKED_WORD = re.compile(
    r"(?<![\w*])(?=[\w*]*[^\W\d_]\*|[\w*]*\*[^\W\d_])(?:[^\W\d_]|\*)+(?![\w*])")


@functools.lru_cache(maxsize=1)
def _names() -> frozenset:
    """First names, nicknames and the commoner census surnames (``smith``)."""
    return first_names() | {name for name, rank in load_last_name_ranks().items()
                            if rank <= SURNAME_RANK}


def _grouped(words: Iterable[str]) -> Dict[int, List[str]]:
    grouped: Dict[int, List[str]] = {}
    for word in words:
        grouped.setdefault(len(word), []).append(word)
    return grouped


@functools.lru_cache(maxsize=1)
def _names_by_length() -> Dict[int, List[str]]:
    return _grouped(_names())


@functools.lru_cache(maxsize=1)
def _words_by_length() -> Dict[int, List[str]]:
    """English words and stop words that are no names (the word list holds names too:
    ``kathy``), by length: what a mask may hide instead of a name."""
    return _grouped((load_wordlist("common_words") | load_wordlist("stop_words")) - _names())


def _mask(word: str) -> Pattern:
    return re.compile("".join("." if c == "*" else re.escape(c) for c in word.lower()))


def _any_match(mask: Pattern, words: Iterable[str]) -> bool:
    return any(mask.fullmatch(w) for w in words)


class MaskedNameDetector(Completer):
    """A NAME span on each masked word that spells a name (see the module)."""

    source = MASKED

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        text = document.text
        if "*" not in text:
            return []
        found = []
        for match in _MASKED_WORD.finditer(text):
            word = match.group()
            if len(word) < NAME_MIN:
                continue
            mask = _mask(word)
            score = self._seed_score(text, mask, spans)
            if score is None and _any_match(mask, _names_by_length().get(len(word), ())) \
                    and not _any_match(mask, _words_by_length().get(len(word), ())):
                score = 1.0
            if score is not None:
                found.append(Span("NAME", match.start(), match.end(), score, MASKED))
        return found

    @staticmethod
    def _seed_score(text: str, mask: Pattern, spans: Sequence[Span]):
        """The best score of a NAME span of the post that the mask spells, or None."""
        scores = [span.score for span in spans if span.label == "NAME"
                  and mask.fullmatch(text[span.start:span.end].lower())]
        return max(scores) if scores else None
