"""Does every person keep one identifier? Measured against gold person annotations.

The hand-tagged sample marks, on each name or username span that refers to a board member,
``"person": <their username>``. A pseudonymised run (``scrub --mode pseudonym --spans``)
gives each removed span a ``person`` identifier and each post's author one too. A gold
mention is *consistent* when spans covering it were removed and all carry the identifier
its person gets as an author; a person is consistent when all their mentions are (the
"coverage" of Farrow, Moore and Gašević 2023, "Names, Nicknames, and Spelling Errors:
Protecting Participant Identity in Learning Analytics of Online Discussions"). A mention
that was not removed at all counts against its person. A gold person whose id starts with
``~`` never posts (a relative, a doctor): with no author identifier to compare with, their
mentions are consistent when they all carry one identifier, the one most of them got
(whose it is, :mod:`mmbdeid.evaluation.identity` measures).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Sequence, Tuple


@dataclass
class Consistency:
    people: int = 0
    consistent_people: int = 0
    mentions: int = 0
    consistent_mentions: int = 0
    missed_mentions: int = 0                 # not removed at all
    inconsistent: List[Tuple[str, str, str]] = field(default_factory=list)  # post, text, why

    @property
    def people_share(self) -> float:
        return self.consistent_people / self.people if self.people else 1.0

    @property
    def mention_share(self) -> float:
        return self.consistent_mentions / self.mentions if self.mentions else 1.0


NEVER_POSTS = "~"           # the first character of a gold person who never posts
GoldMention = Tuple[str, int, int, str, str]      # post id, start, end, text, person


def gold_mentions(posts: Iterable[dict]) -> List[GoldMention]:
    """Spans with a ``person`` key from annotated post records."""
    found = []
    for post in posts:
        for span in post.get("spans") or ():
            if span.get("person"):
                text = post["text"][span["start"]:span["end"]]
                found.append((str(post["id"]), span["start"], span["end"], text,
                              span["person"]))
    return found


def measure(gold: Sequence[GoldMention], predicted: Mapping[str, Sequence[dict]],
            author_ids: Mapping[str, str]) -> Consistency:
    """``predicted``: post id -> spans output entries (with ``person``);
    ``author_ids``: username -> the identifier their posts' author field got."""
    result = Consistency()
    failures: Dict[str, int] = defaultdict(int)
    people = set()
    expected_ids = dict(author_ids, **_never_posting_ids(gold, predicted))
    for post_id, start, end, text, person in gold:
        people.add(person)
        result.mentions += 1
        covering = _covering(predicted, post_id, start, end)
        expected = expected_ids.get(person)
        if not covering:
            result.missed_mentions += 1
            why = "not removed"
        elif expected is not None and all(s.get("person") == expected for s in covering):
            result.consistent_mentions += 1
            continue
        else:
            why = "got %s, %s is %s" % ("/".join(sorted({str(s.get("person")) for s in covering})),
                                         person, expected)
        failures[person] += 1
        result.inconsistent.append((post_id, text, why))
    result.people = len(people)
    result.consistent_people = sum(1 for p in people if not failures[p])
    return result


def _covering(predicted: Mapping[str, Sequence[dict]], post_id: str, start: int,
              end: int) -> List[dict]:
    return [s for s in predicted.get(post_id, ()) if s["start"] < end and start < s["end"]]


def _never_posting_ids(gold: Sequence[GoldMention],
                       predicted: Mapping[str, Sequence[dict]]) -> Dict[str, str]:
    """Each ``~`` person's identifier: the one most of their mentions carry alone."""
    votes: Dict[str, Counter] = defaultdict(Counter)
    for post_id, start, end, _, person in gold:
        if person.startswith(NEVER_POSTS):
            ids = {s.get("person") for s in _covering(predicted, post_id, start, end)}
            if len(ids) == 1 and None not in ids:
                votes[person][ids.pop()] += 1
    return {person: min(counts, key=lambda i: (-counts[i], i))
            for person, counts in votes.items()}
