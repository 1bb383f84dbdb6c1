"""Who posts where: the scope groups a name is resolved in (thread, board or the whole
dump), each post's author and place, and whom a post may speak to.
"""
from __future__ import annotations

import bisect
from collections import defaultdict
from typing import Dict, List, Optional, Set, Tuple

from ..errors import MmbdeidValueError

SCOPES = ("thread", "board", "dump")
ADDRESSEE_WINDOW = 50       # earlier posters of a thread a name addressed may be
ADDRESSEE_SCAN = 500        # posts looked back through for them (long two-person threads)


class GroupMembers:
    """Who posts in each scope group: what resolving a name in a group needs
    (:class:`~mmbdeid.people.resolver.Resolver`). Alone (one scope's groups,
    :meth:`ScopeIndex.members_of`) it is small enough to send to the workers, which are
    given each post's addressees with it; :class:`ScopeIndex` adds the posts."""

    def __init__(self, members: Dict[Tuple[str, str], Set[str]]):
        self.members = members

    def group(self, fields: dict, scope: str) -> Tuple[str, str]:
        return scope_group(fields, scope)

    def in_group(self, username: str, group: Tuple[str, str]) -> bool:
        return group[0] == "dump" or username in self.members.get(group, ())

    def in_thread(self, username: str, thread: str) -> bool:
        """Whether ``username`` posts in the thread: evidence that a name there is theirs."""
        return username in self.members.get(("thread", thread), ())

    def posts_here(self, username: str) -> bool:
        """Whether ``username`` posts anywhere in this dump (a map from another run may
        hold members who do not)."""
        posters = getattr(self, "_posters", None)
        if posters is None:
            posters = self._posters = set()
            for (kind, _), members in self.members.items():
                if kind == "thread":
                    posters |= members
        return username in posters

    def addressees(self, fields: dict) -> List[str]:
        raise MmbdeidValueError("the addressees of a post come with it: GroupMembers has no posts")


class ScopeIndex(GroupMembers):
    """Who posts where: the people of each thread and board, each post's author and place
    in the dump, and who posted in each thread before a post."""

    def __init__(self):
        super().__init__(defaultdict(set))
        self.author_of: Dict[str, str] = {}
        self.position: Dict[str, int] = {}                  # post id -> order in the dump
        self.thread_posts: Dict[str, List[Tuple[int, str]]] = defaultdict(list)
        self._posts = 0

    def add_post(self, fields: dict) -> None:
        author, thread = field_text(fields, "author"), field_text(fields, "thread")
        self.position[field_text(fields, "id")] = self._posts
        self.thread_posts[thread].append((self._posts, author))   # (position, author)
        self._posts += 1
        self.author_of[field_text(fields, "id")] = author
        self._posters = None                    # (posts_here, built again when asked)
        self.members[("thread", thread)].add(author)
        self.members[("board", field_text(fields, "board"))].add(author)

    def members_of(self, scope: str) -> "GroupMembers":
        """Who posts in each group of one scope, and in each thread (where a name may
        link to a member whatever the scope), without the posts."""
        return GroupMembers({group: members for group, members in self.members.items()
                             if group[0] in (scope, "thread")})

    def parent_author(self, fields: dict) -> Optional[str]:
        parent = fields.get("parent")
        return None if parent in (None, "") else self.author_of.get(str(parent))

    def earlier_posters(self, fields: dict) -> List[str]:
        """Who posted in the post's thread before it, the latest first (at most
        ``ADDRESSEE_WINDOW`` of them, within ``ADDRESSEE_SCAN`` posts), and the thread's
        first poster, so often thanked, however far back."""
        posts = self.thread_posts.get(field_text(fields, "thread"), [])
        position = self.position.get(field_text(fields, "id"), self._posts)
        end = bisect.bisect_left(posts, (position,))
        found: List[str] = []
        for _, author in reversed(posts[max(end - ADDRESSEE_SCAN, 0):end]):
            if author not in found:
                found.append(author)
                if len(found) == ADDRESSEE_WINDOW:
                    break
        if end and posts[0][1] not in found:
            found.append(posts[0][1])
        return found

    def addressees(self, fields: dict) -> List[str]:
        """Whom a post may speak to, in order of preference: the parent post's author,
        then the thread's earlier posters (:meth:`earlier_posters`); never the post's own
        author."""
        author = field_text(fields, "author")
        found: List[str] = []
        for username in [self.parent_author(fields) or ""] + self.earlier_posters(fields):
            if username and username != author and username not in found:
                found.append(username)
        return found

    def opens_thread(self, fields: dict) -> bool:
        """A post replying to nothing and no one: no parent, nobody else posted before."""
        return (fields.get("parent") in (None, "")
                and not self.addressees(fields))


def scope_group(fields: dict, scope: str) -> Tuple[str, str]:
    """The group of a post in a scope: ("thread", its thread), ("board", its board), or
    ("dump", "")."""
    return ("dump", "") if scope == "dump" else (scope, field_text(fields, scope))


def field_text(fields: dict, name: str) -> str:
    """A post's field as text (``""`` when it is missing or None)."""
    value = fields.get(name)
    return "" if value is None else str(value)
