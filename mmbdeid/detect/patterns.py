"""Pattern identifiers (e-mail, URL, phone, ``@handle``) as spans, one detector per kind.

The regular expressions themselves run before tokenising (:mod:`mmbdeid.text.patterns`),
so that every identifier is one token; these detectors turn the tokens they marked into
spans of score 1.0.
"""
from itertools import compress
from typing import List

from ..spans import PATTERN, Span
from ..text.document import Document
from .base import Detector


class PatternDetector(Detector):
    """The tokens a pattern of kind ``label`` matched."""

    source = PATTERN

    def __init__(self, label: str):
        self.label = label

    def detect(self, document: Document) -> List[Span]:
        label, patterns = self.label, document.pattern_labels
        tokens = zip(patterns, document.offsets)
        if label:       # only pattern tokens can match: most posts have none
            if not any(patterns):
                return []
            tokens = compress(tokens, patterns)
        return [Span(label, start, end, 1.0, PATTERN)
                for pattern, (start, end) in tokens if pattern == label]

    def __repr__(self) -> str:
        return "PatternDetector(%r)" % self.label
