"""The name after a rank or office: ``cleric Muqtada al-Sadr``, ``Minister of Defense Hazem
Shaalan``, ``President Abbas``.

A rule step (REMOVE, score 1.0) like the name after a title (:mod:`.titles`), and a keep
step for the office itself (``OfficeKeeper``, among the keep steps like ``TitleKeeper``),
for the ranks and offices that stay before a name (``name_words.OFFICES``: ``king``,
``president``, ``cleric``, ``minister``, ...; in lower case or capitalised, never in
capitals). An office may name its domain first (``Minister of Defense``, ``President of
the Senate``: ``of``, an optional ``the`` and up to two capitalised words that are no name
words). Then the words of the name, up to ``MAX_WORDS``: each must be a word of a name as
name completion judges one (``NameWords.is_word``: capitalised, and a rare word or a
census name that is no frequent word), so ``General Motors``, ``President's Day`` and
``the King of Hearts`` stay. An office word right after a word of a name that is no
nationality or religion is part of that name (``Muhammed Sheikh Khalil``; not ``Shiite
cleric``). Particles, hyphen parts and initials are left to name completion, which runs
after this step and completes what it found. A name
the model removes already keeps the model's span.
"""
from typing import List, Sequence, Tuple

from ...lexicon.wordlists import load_wordlist
from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector, indices_in, lowered_tokens, without_kept
from ..crf import EVERY_TOKEN
from .gap_filler import GapFiller
from .name_words import OFFICES, name_words

OFFICE = "office"
MAX_WORDS = 3
MAX_DOMAIN_WORDS = 2
# Adjectives in lower case (``in general``, ``the chief complaint``): offices only when
# capitalised.
ADJECTIVES = frozenset({"general", "chief"})


class OfficeNames:
    """Where a document names someone by rank or office: ``(office, name)`` index ranges,
    the office with its domain (``Minister of Defense``) and the words of the name."""

    def __init__(self):
        self.words = name_words()
        self.peoples = load_wordlist("demonyms")

    def find(self, document: Document) -> List[Tuple[range, range]]:
        tokens, lines, patterns = (document.tokens, document.paragraph_ids,
                                   document.pattern_labels)
        size = len(tokens)
        found = []
        for i in indices_in(OFFICES, lowered_tokens(tokens)):
            token, line = tokens[i], lines[i]
            if token.isupper() or patterns[i] or token.lower() in ADJECTIVES and token.islower():
                continue
            if (i > 0 and lines[i - 1] == line and not patterns[i - 1]
                    and tokens[i - 1].lower() not in self.peoples
                    and self.words.is_word(tokens[i - 1], caps=False)):
                continue            # inside a name: Muhammed Sheikh Khalil

            def usable(k: int) -> bool:
                return k < size and lines[k] == line and not patterns[k]

            j = i + 1
            if usable(j) and tokens[j] == "of":                 # Minister of Defense
                j += 1
                if usable(j) and tokens[j] == "the":
                    j += 1
                domain = 0          # capitalised words that are no name: Defense
                while (domain < MAX_DOMAIN_WORDS and usable(j) and tokens[j][:1].isupper()
                       and tokens[j].isalpha()
                       and not self.words.is_word(tokens[j], caps=False)):
                    j += 1
                    domain += 1
                if not domain:
                    continue
            first = j
            while (j - first < MAX_WORDS and usable(j)
                   and self.words.is_word(tokens[j], caps=False)):
                j += 1
            if j > first:
                found.append((range(i, first), range(first, j)))
        return found


class OfficeKeeper(Detector):
    """A KEEP span on a rank or office (with its domain) before a name: it stays, as a
    title does (``President [NAME]``, ``Minister of Defense [NAME]``)."""

    source = OFFICE
    effect = KEEP

    def __init__(self):
        self.offices = OfficeNames()

    def detect(self, document: Document) -> List[Span]:
        offsets = document.offsets
        return [Span("KEEP", offsets[office[0]][0], offsets[office[-1]][1], 1.0, OFFICE)
                for office, _ in self.offices.find(document)]


class OfficeNameDetector(GapFiller):
    """A NAME span, score 1.0, on each word of the name after a rank or office."""

    source = OFFICE

    def __init__(self, keep_steps: Sequence[Detector] = (), threshold: float = EVERY_TOKEN):
        """``keep_steps``: the chain's KEEP steps, which keep what they keep from this step
        too. ``threshold``: the model's (see ``GapFiller``)."""
        super().__init__(threshold)
        self.keep_steps = list(keep_steps)
        self.offices = OfficeNames()

    def find(self, document: Document) -> List[Span]:
        offsets = document.offsets
        spans = [Span("NAME", offsets[k][0], offsets[k][1], 1.0, OFFICE)
                 for _, name in self.offices.find(document) for k in name]
        return without_kept(spans, document, self.keep_steps) if spans else spans
