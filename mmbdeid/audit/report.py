"""The whole audit of a scrubbed dump, and the line that says what it searched.

An audit that finds nothing has proved nothing unless it says where it looked. So the
report counts what was searched (the board's usernames and their parts, the person map's
names, the model's near-misses, the scrub's own removed spans) and what was not: the
ordinary-word parts of usernames, the occurrences of word-like names it passed over (at a
sentence start, in lower case), and the lower-case names and names that are words no
string search can tell from the words (``docs/review-and-audit.md``).
"""
from typing import Dict, Iterable, List, Mapping, NamedTuple, Optional

from ..files.posts import read_posts
from .leaks import LOWER_CASE, SENTENCE_START, Leak, LeakAuditor, audit_file
from .near_misses import NEAR_FLOOR, NearMiss, near_misses
from .removed import left_in, not_overlapping, removed_strings


class AuditReport(NamedTuple):
    leaks: List[Leak]
    near: Optional[List[NearMiss]]   # None: the model was not run
    auditor: LeakAuditor
    spans_checked: Optional[int]     # posts whose removed spans were checked (None: no file)
    floor: float


def audit_dump(scrubbed: str, original: Optional[str] = None,
               names_by_user: Optional[Mapping[str, Iterable[str]]] = None,
               allow: Iterable[str] = (),
               names_everywhere: Optional[Mapping[str, Iterable[str]]] = None,
               spans: Optional[str] = None, tagger=None,
               floor: float = NEAR_FLOOR) -> AuditReport:
    """Leaks (``audit_file``, and with ``spans`` of the run and the ``original`` dump, any
    removed span's text still in its post), and with ``tagger`` the model's near-misses
    outside them."""
    leaks, auditor = audit_file(scrubbed, original, names_by_user, allow, names_everywhere)
    checked = None
    if spans is not None:
        removed: Dict[str, set] = removed_strings(spans, original)
        checked = len(removed)
        by_post: Dict[str, List[Leak]] = {}
        for leak in leaks:
            by_post.setdefault(leak.post_id, []).append(leak)
        merged: List[Leak] = []
        for record in read_posts(scrubbed):
            post_id = str(record.id)
            found = by_post.get(post_id, [])
            more = list(left_in(post_id, record.text, removed.get(post_id, set())))
            merged += not_overlapping(found, more) if more else found
        leaks = merged
    near: Optional[List[NearMiss]] = None
    if tagger is not None:
        spans_of: Dict[str, List[tuple]] = {}
        for leak in leaks:
            spans_of.setdefault(leak.post_id, []).append((leak.start, leak.end))
        near = list(near_misses(tagger, (record.fields for record in read_posts(scrubbed)),
                                floor, lambda post_id: spans_of.get(post_id, ())))
    return AuditReport(leaks, near, auditor, checked, floor)


def _count(number: int, one: str, many: str = "") -> str:
    return "{:,} {}".format(number, one if number == 1 else (many or one + "s"))


def summary_line(report: AuditReport) -> str:
    """What was found among what was searched, and what was not searched: never a bare
    ``0 leaks``. Holds counts only (stderr holds no names)."""
    searched = report.auditor.searched
    looked = [_count(searched["username"], "username"),
              _count(searched["variant"], "username part"),
              _count(searched["name"], "map name")]
    if report.spans_checked is not None:
        looked.append(_count(report.spans_checked, "post's removed spans",
                             "posts' removed spans"))
    skipped = report.auditor.skipped
    line = "%s among %s searched" % (_count(len(report.leaks), "leak"), ", ".join(looked))
    if report.near is not None:
        line += "; %s of the model listed (P >= %g)" % (
            _count(len(report.near), "near-miss", "near-misses"), report.floor)
    not_searched = [_count(len(report.auditor.unchecked), "ordinary-word part"),
                    "%s of names that are words" % _count(
                        skipped[SENTENCE_START] + skipped[LOWER_CASE], "occurrence")
                    + " (%d %s, %d %s)" % (skipped[SENTENCE_START], SENTENCE_START,
                                           skipped[LOWER_CASE], LOWER_CASE),
                    "lower-case names and names that are words the map does not hold"]
    if report.near is None:
        not_searched.append("the model's near-misses")
    if report.spans_checked is None:
        not_searched.append("the run's removed spans (--spans)")
    return "%s; not searched: %s (see docs/review-and-audit.md)" % (
        line, "; ".join(not_searched))
