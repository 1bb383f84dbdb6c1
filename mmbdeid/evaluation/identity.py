"""Are the tool's persons the real people? Pairwise link precision and recall against gold
person identities, with the wrong merges and the splits listed (``evaluate --people``).

Gold: annotated posts whose ``NAME``/``USER`` spans carry ``"person"``: a board member's
username, or an id starting with ``~`` for someone who never posts (one id for every
mention of that person); spans without it are left out. Each post's ``author`` is a
mention of that member too. Tool: the person-mode spans file (post id -> entries with
``start``, ``end``, ``person``) and each post's author id.

A gold mention's tool id is the ``person`` of the removed spans covering it, the one
covering most of its characters when several do (such mentions are listed as ``mixed``); a
mention no person span covers has none (``missed``): it is linked to nobody. Over every pair
of mentions, precision is the share of the pairs given one tool id that share a gold person,
recall the share of the pairs sharing a gold person given one tool id; both are counted from
the contingency table (a sum of C(n, 2) over its cells), never by listing pairs.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .pseudonym_consistency import NEVER_POSTS


@dataclass(frozen=True)
class Mention:
    """One gold mention of a person and the tool's id for it (None: not removed)."""
    post: str
    thread: str
    text: str               # the mention's text; for an author, their username
    person: str             # gold
    tool: Optional[str]
    author: bool = False    # the post's author field, not a span of its text
    ids: Tuple[str, ...] = ()       # every tool id covering it, most characters first


@dataclass
class Identity:
    mentions: List[Mention] = field(default_factory=list)
    linked_pairs: int = 0           # pairs given one tool id
    true_pairs: int = 0             # pairs sharing a gold person
    both: int = 0                   # pairs sharing both

    @property
    def precision(self) -> float:
        return self.both / self.linked_pairs if self.linked_pairs else 1.0

    @property
    def recall(self) -> float:
        return self.both / self.true_pairs if self.true_pairs else 1.0

    @property
    def people(self) -> List[str]:
        return sorted({m.person for m in self.mentions})

    @property
    def missed(self) -> List[Mention]:
        return [m for m in self.mentions if m.tool is None]

    @property
    def mixed(self) -> List[Mention]:
        """Mentions that spans of several tool persons cover."""
        return [m for m in self.mentions if len(m.ids) > 1]

    def merges(self) -> List["Merge"]:
        """Each tool id given to mentions of two or more gold people."""
        by_tool: Dict[str, List[Mention]] = defaultdict(list)
        for mention in self.mentions:
            if mention.tool is not None:
                by_tool[mention.tool].append(mention)
        return [Merge(tool, held) for tool, held in sorted(by_tool.items(), key=_id_order)
                if len({m.person for m in held}) > 1]

    def splits(self) -> List["Split"]:
        """Each gold person spread over two or more tool ids, or partly not removed."""
        by_person: Dict[str, List[Mention]] = defaultdict(list)
        for mention in self.mentions:
            by_person[mention.person].append(mention)
        return [Split(person, held) for person, held in sorted(by_person.items())
                if len({m.tool for m in held}) > 1]

    def as_dict(self) -> dict:
        merges, splits = self.merges(), self.splits()
        return {"mentions": len(self.mentions), "people": len(self.people),
                "never_post": sum(p.startswith(NEVER_POSTS) for p in self.people),
                "authors": sum(m.author for m in self.mentions),
                "missed": len(self.missed),
                "pairs": {"linked": self.linked_pairs, "true": self.true_pairs,
                          "both": self.both},
                "precision": self.precision, "recall": self.recall,
                "merges": [m.as_dict() for m in merges],
                "merges_across_threads": sum(m.across_threads for m in merges),
                "splits": [s.as_dict() for s in splits],
                "mixed": [_mention_dict(m) for m in self.mixed]}


@dataclass
class Merge:
    """A tool person holding several gold people."""
    tool: str
    mentions: List[Mention]

    @property
    def people(self) -> Dict[str, List[Mention]]:
        held: Dict[str, List[Mention]] = defaultdict(list)
        for mention in self.mentions:
            held[mention.person].append(mention)
        return dict(sorted(held.items()))

    @property
    def across_threads(self) -> bool:
        """Two of its people never met under this id in one thread: a link no thread
        gives evidence for."""
        threads = [{m.thread for m in held} for held in self.people.values()]
        return any(not (a & b) for i, a in enumerate(threads) for b in threads[i + 1:])

    def as_dict(self) -> dict:
        return {"tool": self.tool, "across_threads": self.across_threads,
                "people": {person: [_mention_dict(m) for m in held]
                           for person, held in self.people.items()}}


@dataclass
class Split:
    """A gold person given several tool ids (None among them: mentions not removed)."""
    person: str
    mentions: List[Mention]

    @property
    def by_tool(self) -> List[Tuple[Optional[str], List[Mention]]]:
        held: Dict[Optional[str], List[Mention]] = defaultdict(list)
        for mention in self.mentions:
            held[mention.tool].append(mention)
        return sorted(held.items(), key=lambda item: (item[0] is None, -len(item[1]),
                                                      _id_key(item[0] or "")))

    def as_dict(self) -> dict:
        return {"person": self.person,
                "tools": [{"tool": tool, "mentions": [_mention_dict(m) for m in held]}
                          for tool, held in self.by_tool]}


def gold_people_mentions(posts: Iterable[dict]) -> List[Tuple[dict, List[dict]]]:
    """Each post with its spans that carry a ``person``."""
    return [(post, [s for s in post.get("spans") or () if s.get("person")])
            for post in posts]


def score(posts: Sequence[dict], tool_spans: Mapping[str, Sequence[dict]],
          tool_authors: Mapping[str, str]) -> Identity:
    """The identity figures of a person-mode run. ``posts``: the gold posts (``id``,
    ``text``, ``thread``, ``author``, ``spans``); ``tool_spans``: post id -> the spans
    file's entries; ``tool_authors``: post id -> the id its author field got."""
    result = Identity()
    for post, spans in gold_people_mentions(posts):
        post_id, thread = str(post["id"]), str(post.get("thread") or "")
        author = post.get("author")
        if author not in (None, ""):
            result.mentions.append(Mention(post_id, thread, str(author), str(author),
                                           tool_authors.get(post_id), author=True,
                                           ids=_ids(tool_authors.get(post_id))))
        removed = [s for s in tool_spans.get(post_id, ()) if s.get("person")]
        for span in spans:
            start, end = span["start"], span["end"]
            covering: Counter = Counter()
            for entry in removed:
                overlap = min(end, entry["end"]) - max(start, entry["start"])
                if overlap > 0:
                    covering[entry["person"]] += overlap
            ids = tuple(sorted(covering, key=lambda i: (-covering[i], _id_key(i))))
            result.mentions.append(Mention(post_id, thread, post["text"][start:end],
                                           str(span["person"]), ids[0] if ids else None,
                                           ids=ids))
    _count_pairs(result)
    return result


def _count_pairs(result: Identity) -> None:
    tools = Counter(m.tool for m in result.mentions if m.tool is not None)
    cells = Counter((m.person, m.tool) for m in result.mentions if m.tool is not None)
    people = Counter(m.person for m in result.mentions)
    result.linked_pairs = sum(_pairs(n) for n in tools.values())
    result.both = sum(_pairs(n) for n in cells.values())
    result.true_pairs = sum(_pairs(n) for n in people.values())


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def _ids(tool: Optional[str]) -> Tuple[str, ...]:
    return (tool,) if tool is not None else ()


def _id_key(person_id: str) -> Tuple[str, int, str]:
    """``U2`` before ``U10``."""
    head = person_id.rstrip("0123456789")
    tail = person_id[len(head):]
    return head, int(tail) if tail else -1, person_id


def _id_order(item) -> Tuple[str, int, str]:
    return _id_key(item[0])


def _mention_dict(mention: Mention) -> dict:
    entry = {"post": mention.post, "thread": mention.thread, "text": mention.text,
             "person": mention.person, "tool": mention.tool}
    if mention.author:
        entry["author"] = True
    if len(mention.ids) > 1:
        entry["ids"] = list(mention.ids)
    return entry


def format_identity(result: Identity) -> str:
    """The text report: the figures, then each wrong merge, split and mixed mention."""
    merges, splits = result.merges(), result.splits()
    people = result.people
    lines = [
        "%-15s %d (%d by authors; not removed %d)" % (
            "mentions", len(result.mentions), sum(m.author for m in result.mentions),
            len(result.missed)),
        "%-15s %d (%d who never post)" % (
            "people", len(people), sum(p.startswith(NEVER_POSTS) for p in people)),
        "%-15s %.4f (%d of %d pairs given one id share a person)" % (
            "link precision", result.precision, result.both, result.linked_pairs),
        "%-15s %.4f (%d of %d pairs of one person given one id)" % (
            "link recall", result.recall, result.both, result.true_pairs),
        "%-15s %d (%d across threads)" % (
            "wrong merges", len(merges), sum(m.across_threads for m in merges)),
        "%-15s %d" % ("splits", len(splits)),
    ]
    for merge in merges:
        lines.append("merge %s%s:" % (merge.tool, " (across threads)"
                                      if merge.across_threads else ""))
        for person, held in merge.people.items():
            lines.append("  %s: %s" % (person, _listed(held)))
    for split in splits:
        lines.append("split %s:" % split.person)
        for tool, held in split.by_tool:
            lines.append("  %s: %s" % (tool or "not removed", _listed(held)))
    for mention in result.mixed:
        lines.append("mixed %s %r: %s (counted as %s)" % (
            mention.post, mention.text, "/".join(mention.ids), mention.tool))
    return "\n".join(lines)


def _listed(mentions: Sequence[Mention]) -> str:
    return ", ".join("%s%r in %s" % ("author " if m.author else "", m.text, m.post)
                     for m in mentions)
