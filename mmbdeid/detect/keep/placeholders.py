"""Placeholders and pseudonyms of an earlier scrub stay as they are (``[NAME]``, ``[U12]``,
``[NAME:1a2b3c4d5e6f]``), and so do masks (``*****``): scrubbing scrubbed text changes
nothing (see :mod:`mmbdeid.text.placeholders`)."""
import re
from typing import List

from ...spans import Span
from ...text.document import Document
from ..base import KEEP, Detector

PLACEHOLDER = "placeholder"
# A word of asterisks alone, as ``--mode mask`` writes a mention (one of two or more is a
# placeholder token already, text/placeholders.py; a lone ``*`` is only kept): no later step
# (a username list holding a masked author) may take it. Stars inside a word (``M*ren``)
# are a masked name, which the masked-names step finds.
_ASTERISKS = re.compile(r"(?<![\w*])\*+(?![\w*])")


class PlaceholderKeeper(Detector):
    """A KEEP span on each placeholder token and each mask; the last step of every chain."""

    source = PLACEHOLDER
    effect = KEEP

    def detect(self, document: Document) -> List[Span]:
        spans = [Span("KEEP", *document.offsets[i], 1.0, PLACEHOLDER)
                 for i in sorted(document.scrubbed)]
        if "*" in document.text:
            spans += [Span("KEEP", match.start(), match.end(), 1.0, PLACEHOLDER)
                      for match in _ASTERISKS.finditer(document.text)]
            spans.sort(key=lambda span: span.start)
        return spans
