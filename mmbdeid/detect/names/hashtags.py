"""Names inside hashtags: ``#PrayForMaren``, ``#teammaren``, ``#AlanPardew``.

A hashtag is one token to the model, which rarely knows it; its parts are words. A rule
step (REMOVE, score 1.0): the word after a ``#`` is split into its parts, at capitals
(``PrayForMaren`` -> ``Pray``, ``For``, ``Maren``) and, for a run in one case, into the
likeliest sequence of known words (``teammaren`` -> ``team``, ``maren``: each word costs
``WORD_COST`` less its Zipf frequency, an unknown letter ``UNKNOWN_COST``). When a part
is a first name or nickname that is a rare word (``Maren``), or a less rare one that many
people bear (``Alan``, ``Karen``, ``Phil``; see ``NAME_SHARE``: not ``Hope``, ``Pink``,
``Easter``, ``Sunday``, ``May``), and no medical word or drug name, the
hashtag's word is removed whole: ``#[NAME]``. Whole, because a hashtag reads as one word
(and gold data tags it whole: ``#TeamPhil`` is a person in WNUT17), so what is left of it
would say little and the evaluation scores it as the one token it is. A hashtag the model
removes already keeps the model's span (probability and source).
"""
import functools
import re
from typing import Dict, List

from ...lexicon.names import first_names
from ...lexicon.wordlists import load_first_name_shares, load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ..crf import EVERY_TOKEN
from .gap_filler import GapFiller

HASHTAG = "hashtag"
# A first name as rare as a word as this (Zipf) is a name in a hashtag: ``Maren`` (2.4).
RARE_ZIPF = 3.5
# A more frequent one, up to NAME_ZIPF, only if a census share of the population bears it
# (``Karen`` 0.33%, ``Alan`` 0.10%) or it is a nickname below NICKNAME_ZIPF (``Phil``): not
# ``Pink``, ``Easter`` (0.003%), ``Hope`` (0.017%), ``Sunday``, ``Winter``.
NAME_ZIPF = 4.7
NAME_SHARE = 0.02
NICKNAME_ZIPF = 4.5
NAME_MIN = 3
WORD_COST = 8.0
UNKNOWN_COST = 12.0
MAX_SEGMENTED = 40          # longer runs are not segmented (cost grows with the square)
# Parts at capitals: ``PrayForMaren``, ``RIPJohnnyWinter`` (RIP, Johnny, Winter), ``teamMaren``.
_HASHTAG_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@functools.lru_cache(maxsize=1)
def _word_zipf() -> Dict[str, float]:
    """Known words and their Zipf frequency, first names included (not all are in the
    frequency list: ``maren``)."""
    zipf = dict(load_zipf())
    for name in first_names():
        zipf.setdefault(name, 1.0)
    return zipf


def segment_hashtag(run: str) -> List[str]:
    """``run`` (lower case) as the likeliest sequence of known words (Viterbi over split
    points); an unknown stretch stays one part."""
    zipf = _word_zipf()
    size = len(run)
    best = [0.0] + [float("inf")] * size
    back = [0] * (size + 1)
    for end in range(1, size + 1):
        for start in range(max(0, end - 20), end):
            word = run[start:end]
            known = zipf.get(word)
            cost = WORD_COST - known if known is not None and (len(word) > 1 or word in "ai") \
                else UNKNOWN_COST * len(word)
            if best[start] + cost < best[end]:
                best[end], back[end] = best[start] + cost, start
    parts, end = [], size
    while end > 0:
        parts.append(run[back[end]:end])
        end = back[end]
    return parts[::-1]


class HashtagNameDetector(GapFiller):
    """A NAME span on the word of each hashtag that holds a name (see the module)."""

    source = HASHTAG

    def __init__(self, threshold: float = EVERY_TOKEN):
        super().__init__(threshold)
        self.first = first_names()
        self.zipf = load_zipf()
        self.not_names = load_wordlist("medical_words") | load_wordlist("drugs")
        self.shares = load_first_name_shares()
        self.nicknames = load_wordlist("nicknames")

    def is_name(self, part: str) -> bool:
        word = part.lower()
        if len(word) < NAME_MIN or word not in self.first or word in self.not_names:
            return False
        zipf = self.zipf.get(word, 0.0)
        return zipf < RARE_ZIPF or zipf < NAME_ZIPF and (
            self.shares.get(word, 0.0) >= NAME_SHARE
            or word in self.nicknames and zipf < NICKNAME_ZIPF)

    def parts(self, word: str) -> List[str]:
        parts = []
        for part in _HASHTAG_PARTS.findall(word):
            if part.islower() and len(part) <= MAX_SEGMENTED:
                parts.extend(segment_hashtag(part))
            else:
                parts.append(part)
        return parts

    def find(self, document: Document) -> List[Span]:
        """The spans of the hashtags in ``document`` that hold a name."""
        if "#" not in document.text:
            return []
        tokens, offsets, patterns = document.tokens, document.offsets, document.pattern_labels
        spans = []
        for k in range(1, len(tokens)):
            if (tokens[k - 1] == "#" and offsets[k - 1][1] == offsets[k][0]
                    and not patterns[k] and tokens[k].isalnum()
                    and any(self.is_name(part) for part in self.parts(tokens[k]))):
                spans.append(Span("NAME", offsets[k][0], offsets[k][1], 1.0, HASHTAG))
        return spans
