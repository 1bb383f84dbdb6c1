"""The person of each mention, given the person map and who posts where; a name several
people of one scope group use goes to the one who uses it most, with a
:class:`DuplicateName` warning.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Dict, List, NamedTuple, Optional, Set, Tuple

from .mentions import Mention
from .personmap import Person, PersonMap, name_key
from .scope import ScopeIndex, field_text
from .variants import VariantIndex

MISPLACED_REPLY_RATIO = 3   # a once-seen link loses to a name seen this often for another


class DuplicateName(NamedTuple):
    """A name used by several people of one scope group; ``chosen`` got the mention."""
    name: str
    people: Tuple[str, ...]
    group: str      # "thread t12", "board arthritis", "dump"
    chosen: str

    def message(self) -> str:
        """With the name: for the person map's comments, where names belong."""
        return ('"%s" could be %s (all in %s); used %s - edit the map to resolve'
                % (self.name, " or ".join(self.people), self.group, self.chosen))

    def public_message(self) -> str:
        """Without the name: for stderr and logs, which are not kept secret."""
        return ("a name could be %s (all in %s); used %s - see the warnings at the top of "
                "the map from 'mmbdeid link'" % (" or ".join(self.people), self.group,
                                                  self.chosen))


class Resolver:
    """The person of each mention, given the person map and who posts where.

    Unknown names become new people (``P`` ids), so every mention gets someone.
    """

    def __init__(self, people: PersonMap, scopes: ScopeIndex, scope: str = "board",
                 warn: Optional[Callable[[DuplicateName], None]] = None,
                 index: Optional[VariantIndex] = None):
        self.people = people
        self.scopes = scopes
        self.scope = scope
        self.warn = warn
        self.index = index or VariantIndex(people)
        self._warned: Set[Tuple[str, Tuple[str, str]]] = set()
        # name key -> (label, scope group, excluded person) -> person id
        self._cache: Dict[str, Dict[Tuple[str, Tuple[str, str], str], str]] = defaultdict(dict)

    def resolve(self, mention: Mention, fields: dict) -> str:
        """The person of a mention in a post, as :meth:`Linker.person_map` linked it: a
        username is its user; a sign-off (or a closing the author's name) the author; a
        name addressed the first of the post's addressees called so; any other name, or
        an addressed one nobody there is called, by name (an addressed one never the
        post's author)."""
        key = name_key(mention.text)
        named = self.people.by_username(mention.text)
        if named is not None:                # a username is its user, wherever it stands
            return named.id
        group = self.scopes.group(fields, self.scope)
        author_name = field_text(fields, "author")
        author = self.people.by_username(author_name) if author_name else None
        if mention.role in ("author", "closing") and author is not None \
                and key in author.names and not self._better_known_as(key, author):
            return author.id
        if mention.role == "titled":
            return self.resolve_in_group(key, mention.label, group,
                                         author.id if author is not None else "")
        if mention.role in ("addressee", "closing"):
            for username in self.scopes.addressees(fields):
                person = self.people.by_username(username)
                if (person is not None and key in person.names
                        and not self._better_known_as(key, person)):
                    return person.id
            return self.resolve_in_group(key, mention.label, group,
                                         author.id if author is not None else "")
        return self.resolve_in_group(key, mention.label, group)

    def _better_known_as(self, key: str, person: Person) -> bool:
        """A name found once for a post's addressee but often for someone else is most
        likely a reply nested at the wrong level (Farrow et al. 2023, section 4.3)."""
        if person.names[key] > 1:
            return False
        return any(self.people[other].names.get(key, 0) >= MISPLACED_REPLY_RATIO
                   for other in self.index.exact_people(key) if other != person.id)

    def author(self, username: str) -> str:
        """The person id of a post's author (a new person for an author the map lacks)."""
        person = self.people.by_username(username)
        if person is None:
            person = self.people.add(Person(self.people.next_id("U"), [username]))
            self.index.add_usernames(person)
            self._cache.clear()
        return person.id

    def resolve_in_group(self, key: str, label: str, group: Tuple[str, str],
                         excluded: str = "") -> str:
        """The person called ``key`` in a scope group, never ``excluded`` (the author of
        a post addressing someone so called): a new person when nobody else is."""
        cached = self._cache[key]
        person_id = cached.get((label, group, excluded))
        if person_id is None:
            person_id = self._resolve(key, group, excluded)
            # _resolve may have learned the key: its cache is then fresh
            self._cache[key][(label, group, excluded)] = person_id
        return person_id

    def learn(self, key: str, person_id: str) -> None:
        """``key`` is now a name of ``person_id`` (found while linking)."""
        self.index.add_name(key, person_id)
        self.people[person_id].names.setdefault(key, 0)
        self._cache.pop(key, None)

    def _resolve(self, key: str, group: Tuple[str, str], excluded: str = "") -> str:
        for candidates in (self.index.exact_people(key), self.index.variant_people(key)):
            candidates = [p for p in candidates if p != excluded]
            if candidates:
                return self._pick(key, candidates, group)
        person = self.people.add(Person(self.people.next_id("P"), []))
        self.learn(key, person.id)
        person.names[key] = 0
        return person.id

    def _pick(self, key: str, candidates: List[str], group: Tuple[str, str]) -> str:
        """The candidate who uses the name most among, in this order of preference, the
        board members posting in the scope group, the people who never post (a doctor is
        in every scope), and everyone; a warning if that choice was not unique."""
        members = [p for p in candidates if self.people[p].usernames]
        in_scope = [p for p in members if self._in_group(p, group)]
        outsiders = [p for p in candidates if not self.people[p].usernames]
        pool = in_scope or outsiders or candidates
        chosen = max(pool, key=lambda p: (self.people[p].names.get(key, 0),
                                          -self.people.order(p)))
        if len(pool) > 1 and self.warn and (key, group) not in self._warned:
            self._warned.add((key, group))
            self.warn(DuplicateName(key, tuple(pool), _group_label(group), chosen))
        return chosen

    def _in_group(self, person_id: str, group: Tuple[str, str]) -> bool:
        return any(self.scopes.in_group(u, group) for u in self.people[person_id].usernames)


def _group_label(group: Tuple[str, str]) -> str:
    return "the dump" if group[0] == "dump" else "%s %s" % group
