"""Placeholders and pseudonyms of an earlier scrub stay as they are (``[NAME]``, ``[U12]``):
scrubbing scrubbed text changes nothing (see :mod:`mmbdeid.text.placeholders`)."""
from typing import List

from ..spans import Span
from ..text.document import Document
from .base import KEEP, Detector

PLACEHOLDER = "placeholder"


class PlaceholderKeeper(Detector):
    """A KEEP span on each placeholder token; the last step of every chain."""

    source = PLACEHOLDER
    effect = KEEP

    def detect(self, document: Document) -> List[Span]:
        return [Span("KEEP", *document.offsets[i], 1.0, PLACEHOLDER)
                for i in sorted(document.scrubbed)]
