"""What every detector is: one small unit with one signature, ``detect(document) -> spans``.

A detector's ``effect`` says what its spans do in the analyzer chain
(:class:`~mmbdeid.detect.analyzer.Analyzer`):

* ``REMOVE``: the spans are identifiers to remove; each replaces any span found earlier
  in the chain that it overlaps (it covers the whole identifier);
* ``KEEP``: the spans are text to keep (a drug name, an allowed phrase); every span found
  earlier in the chain that lies inside one is dropped.

The order of the chain is therefore part of its meaning: a later detector wins.
"""
from typing import List

from ..spans import Span
from ..text.document import Document

REMOVE = "remove"
KEEP = "keep"


class Detector:
    """Base of the detectors: ``source`` names it in the spans it finds."""

    source = ""
    effect = REMOVE

    def detect(self, document: Document) -> List[Span]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return "%s()" % type(self).__name__
