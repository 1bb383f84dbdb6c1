"""The scrub's own spans, checked against its output: no removed text is still in its post.

``scrub --spans`` writes what each post lost (offsets into the original text). Given that
file and the original dump, every removed span's text is searched in the scrubbed post,
at the same or another place, as a whole word in its own case: ``Will`` removed once and
left a line further down is a leak whatever the model or the map say. (In surrogate mode a
fake name may happen to be a removed one: check such a hit by eye.)
"""
import json
import re
from typing import Dict, Iterator, List, Set

from ..errors import InputError
from ..files.corpora import parse_spans
from ..files.lines import numbered_lines
from ..files.posts import json_type, read_posts
from .leaks import WRITTEN_PLACEHOLDER, Leak

REMOVED = "removed"      # the kind of a leak found this way
_WORD = re.compile(r"\w")


def removed_strings(spans_path: str, original) -> Dict[str, Set[str]]:
    """Post id -> the texts its spans removed, from the spans file ``spans_path`` and
    the ``original`` dump (read side by side: the spans file holds the dump's posts in its
    order, those the scrub rejected left out)."""
    removed: Dict[str, Set[str]] = {}
    records = read_posts(original)
    for number, line in numbered_lines(spans_path):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError as error:
            raise InputError("not a JSON line of a spans file: %s" % error.msg,
                             spans_path, number) from None
        if not isinstance(entry, dict) or "id" not in entry or "spans" not in entry:
            raise InputError("a spans file line is an object with 'id' and 'spans', not %s"
                             % json_type(entry), spans_path, number)
        post_id = str(entry["id"])
        for record in records:
            if str(record.id) == post_id:
                break
        else:
            raise InputError("post id %r is not in the original dump %s, or not in its "
                             "order" % (post_id, original), spans_path, number)
        strings = {record.text[s.start:s.end]
                   for s in parse_spans(entry["spans"], record.text, spans_path, number)}
        removed[post_id] = {s for s in strings if _WORD.search(s)}
    return removed


def left_in(post_id: str, text: str, strings: Set[str]) -> Iterator[Leak]:
    """Each whole-word occurrence in ``text`` of a removed string, outside placeholders."""
    placeholders = [m.span() for m in WRITTEN_PLACEHOLDER.finditer(text)]
    for string in sorted(strings, key=lambda s: (-len(s), s)):
        pattern = r"(?<!\w)%s(?!\w)" % re.escape(string)
        for match in re.finditer(pattern, text):
            if not any(a <= match.start() and match.end() <= b for a, b in placeholders):
                yield Leak(post_id, match.start(), match.end(), match.group(), REMOVED, "")


def not_overlapping(leaks: List[Leak], more: List[Leak]) -> List[Leak]:
    """``leaks`` and those of ``more`` that overlap none of them, in text order."""
    kept = list(leaks)
    for leak in more:
        if not any(k.start < leak.end and leak.start < k.end for k in kept):
            kept.append(leak)
    return sorted(kept, key=lambda leak: (leak.start, leak.end))
