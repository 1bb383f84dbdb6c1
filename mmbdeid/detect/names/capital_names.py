"""Names written in capitals inside running text: ``VANCE filed a dissenting opinion, in
which ABERNATHY joined``.

Court reports, minutes and mails write surnames in capitals inside ordinary sentences,
where the model reads a word in capitals as an acronym. A rule step (REMOVE, score 1.0)
puts a NAME span on a word in capitals of four letters or more (three-letter ones are
mostly acronyms: ``SEO``, ``DAW``) that

* stands on a line of running text: ``MIN_LOWER_WORDS`` words or more not in capitals, and
  at most ``MAX_CAPITALS_SHARE`` of its words in capitals (a shouted post or a headline
  says nothing);
* is a census first name or one of the commoner census surnames (those of
  :mod:`~mmbdeid.detect.names.name_words`: the tail of the surname list holds brands and words,
  ``ESPY``, ``VINE``) less frequent as an English word than ``CAPITALS_ZIPF`` (``VANCE``,
  ``DRISCOLL``, ``KENNEDY``; not the emphasis of ``NEVER``, ``GREEN``, ``RICH``);
* and is no medical or common abbreviation, drug or medical word, stop word, greeting,
  closing, title, office or kinship word (``TSH``, ``FYI``, ``DNR``, ``MOM``).

A word in capitals that these lists do not hold stays (``ALITO`` and ``HANO`` look alike: an
acronym inside a sentence is kept by ``detect/keep/acronyms.py``); the completion step after
this one takes the names joined to one found (``THOMAS and ALITO``). The chain's KEEP
steps keep what they keep from this step too.
"""
from bisect import bisect_right
from typing import List, Sequence

from ...lexicon.names import title_words
from ...lexicon.wordlists import load_wordlist, load_zipf
from ...spans import Span
from ...text.document import Document
from ..base import Detector, without_kept
from ..crf import EVERY_TOKEN
from .gap_filler import GapFiller
from .name_words import OFFICES, name_words

CAPITAL_NAMES = "capital-names"
MIN_LETTERS = 4
# A census name at least this frequent as a word is emphasis in capitals: ``RICH`` (4.9),
# ``THOMAS`` (4.8); ``KENNEDY`` (4.3), ``DRISCOLL`` (3.0) are names.
CAPITALS_ZIPF = 4.5
MIN_LOWER_WORDS = 3
MAX_CAPITALS_SHARE = 1 / 3


class CapitalNameDetector(GapFiller):
    """A NAME span on a name in capitals inside running text (see the module)."""

    source = CAPITAL_NAMES

    def __init__(self, kept: Sequence[Detector] = (), threshold: float = EVERY_TOKEN):
        super().__init__(threshold)
        self.kept = list(kept)
        self.names = name_words().names
        self.zipf = load_zipf()
        self.never = (load_wordlist("medical_abbreviations") | load_wordlist("not_initials")
                      | load_wordlist("medical_words") | load_wordlist("drugs")
                      | load_wordlist("stop_words") | load_wordlist("greetings")
                      | load_wordlist("closings") | load_wordlist("kinship")
                      | title_words() | OFFICES)

    def is_name(self, token: str) -> bool:
        word = token.lower()
        return (len(token) >= MIN_LETTERS and token.isalpha() and token.isupper()
                and word in self.names and word not in self.never
                and self.zipf.get(word, 0.0) < CAPITALS_ZIPF)

    def find(self, document: Document) -> List[Span]:
        tokens, lines, offsets = document.tokens, document.paragraph_ids, document.offsets
        candidates = [k for k, token in enumerate(tokens)
                      if not document.pattern_labels[k] and self.is_name(token)]
        spans = [Span("NAME", *offsets[k], 1.0, CAPITAL_NAMES) for k in candidates
                 if _running_text(tokens, lines, lines[k])]
        return without_kept(spans, document, self.kept) if spans else spans


def _running_text(tokens: Sequence[str], lines: Sequence[int], line: int) -> bool:
    """Whether line ``line`` is mostly words not in capitals."""
    words = [t for t in tokens[bisect_right(lines, line - 1):bisect_right(lines, line)]
             if len(t) > 1 and t.isalpha()]
    capitals = sum(t.isupper() for t in words)
    return (len(words) - capitals >= MIN_LOWER_WORDS
            and capitals <= MAX_CAPITALS_SHARE * len(words))
