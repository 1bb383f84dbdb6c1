"""The user's allow and deny lists (``scrub --allow FILE --deny FILE``).

Allow terms, matched as whole words in any case, are kept: an entry ``Arthur C. Clarke``
drops the spans found on ``Arthur``, ``C`` and ``Clarke`` there, but not a lone ``Arthur``
elsewhere, and a span reaching outside the occurrence stays (it covers something not
allowed). Deny terms are always removed. The deny list comes after the allow list in the
chain, so **deny wins** (recall first). Reading the files: :mod:`mmbdeid.files.termlists`.

An entry may say more (:func:`~mmbdeid.text.terms.parse_entry`): ``=Grace`` matches that spelling only (not
``GRACE`` nor ``grace``); ``Hope | name`` only where a cue beside it says a person's name
(``my sister Hope``, ``Hope said``, ``Thanks, Hope!``: the cues of
:mod:`mmbdeid.detect.names.cued_names`), ``Grace | word`` only where none does. Both combine:
``=Grace | word``.
"""
from typing import Dict, FrozenSet, Iterator, List, Sequence, Tuple

from ..spans import DENY, Span
from ..text.document import Document
from ..text.terms import NAME_CONTEXT, TermMatcher, parse_entry
from .base import KEEP, Detector
from .names.cued_names import cued_names

class _Entries:
    """Whole-word matches of a list's entries, each in its case and context."""

    def __init__(self, entries: Sequence[str]):
        parsed = [parse_entry(entry) for entry in entries]
        self.contexts: Dict[Tuple[bool, str], str] = {}
        groups: Dict[bool, List[str]] = {False: [], True: []}
        for entry in parsed:
            key = entry.term if entry.exact else entry.term.lower()
            self.contexts.setdefault((entry.exact, key), entry.context)
            groups[entry.exact].append(entry.term)
        self.matchers = [(exact, TermMatcher(terms, case_sensitive=exact))
                         for exact, terms in groups.items() if terms]
        # the one-word terms with a context: the cues apply to them as to the word-names
        self.cued: FrozenSet[str] = frozenset(
            e.term.lower() for e in parsed if e.context and " " not in e.term)

    def finditer(self, document: Document) -> Iterator[Tuple[int, int]]:
        names = None
        for exact, matcher in self.matchers:
            for start, end, term in matcher.finditer(document.text):
                context = self.contexts.get((exact, term if exact else term.lower()), "")
                if context:
                    if names is None:
                        names = {document.offsets[i][0]
                                 for i in cued_names(document, self.cued)}
                    if (start in names) != (context == NAME_CONTEXT):
                        continue
                yield start, end


class AllowedTermKeeper(Detector):
    source = "allow"
    effect = KEEP

    def __init__(self, terms: Sequence[str]):
        self.entries = _Entries(terms)

    def detect(self, document: Document) -> List[Span]:
        return [Span("KEEP", start, end, 1.0, self.source)
                for start, end in self.entries.finditer(document)]


class DeniedTermDetector(Detector):
    """A NAME span, score 1.0, on every occurrence of a deny term."""

    source = DENY

    def __init__(self, terms: Sequence[str], label: str = "NAME"):
        self.entries = _Entries(terms)
        self.label = label

    def detect(self, document: Document) -> List[Span]:
        return [Span(self.label, start, end, 1.0, DENY)
                for start, end in self.entries.finditer(document)]
