"""The opt-in identifier kinds found by pattern in the visible text (issue 21): street
addresses, postcodes, ID numbers, IP addresses and dates, one detector per kind.

Unlike the default pattern kinds (:mod:`mmbdeid.detect.patterns`), these are not found
before tokenising, so choosing them never changes the tokens the model reads, and the
default kinds' output stays byte for byte what it was. Their steps run late in the chain
(after the rule steps and the deny list) and win over what they overlap: a name the model
found inside an address (``42 Birchwood Lane``) becomes part of one ADDRESS span, and a
span reaching out of one (a name completed over its edge) is taken in whole rather than
cut, so nothing of either is left. One found inside an identifier found before it (a
postcode inside an address, a date inside a URL) adds nothing; one found exactly where
another kind's pattern was (an NHS number read as a phone number) takes its own label.
"""
from typing import Callable, List, Sequence, Tuple

from ...kinds import NON_PERSON_LABELS
from ...spans import Span, overlapping_any
from ...text.addresses import find_addresses, find_postcodes
from ...text.dates import find_dates
from ...text.document import Document
from ...text.numbers import find_ids, find_ips
from ..base import Completer


class KindDetector(Completer):
    """The spans of ``label`` that ``find`` gives for a document's visible text."""

    label = ""
    find: Callable[[str], List[Tuple[int, int]]]

    def complete(self, document: Document, spans: Sequence[Span]) -> List[Span]:
        found = [Span(self.label, start, end, 1.0, self.source)
                 for start, end in type(self).find(document.text)]
        if not found or not spans:
            return found
        return [_taking_in(span, spans) for span in found
                if not any(_identifier(other) and other.contains(span.start, span.end)
                           and (other.start, other.end) != (span.start, span.end)
                           for other in spans)]


def _identifier(span: Span) -> bool:
    """Whether ``span`` is an identifier of a kind that is no person (a found address
    holds a name; a postcode inside a found address is that address)."""
    return span.label in NON_PERSON_LABELS


def _taking_in(span: Span, spans: Sequence[Span]) -> Span:
    """``span`` widened over every span of ``spans`` that overlaps it."""
    hit = [other for other, overlaps in zip(spans, overlapping_any(spans, [span])) if overlaps]
    if not hit:
        return span
    return span._replace(start=min([span.start] + [s.start for s in hit]),
                         end=max([span.end] + [s.end for s in hit]))


class AddressDetector(KindDetector):
    source, label, find = "address", "ADDRESS", staticmethod(find_addresses)


class PostcodeDetector(KindDetector):
    source, label, find = "postcode", "POSTCODE", staticmethod(find_postcodes)


class IdNumberDetector(KindDetector):
    source, label, find = "id-number", "ID", staticmethod(find_ids)


class IpAddressDetector(KindDetector):
    source, label, find = "ip-address", "IP", staticmethod(find_ips)


class DateDetector(KindDetector):
    source, label, find = "date", "DATE", staticmethod(find_dates)
