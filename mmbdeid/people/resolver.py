"""The person of each mention, given the person map and who posts where; a name several
people of one scope group use goes to the one who uses it most, with a
:class:`DuplicateName` warning.

Resolving is split so that the workers can do most of it once the map is fixed: a
mention's :meth:`Resolver.route` (its person outright, or the name to look for in a scope
group) and a group's :meth:`Resolver.answer` depend on the map only; the main process
then settles each answer in input order (:meth:`Resolver.settle`), resolving again only
what the people it has added since could change.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

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


class InGroup(NamedTuple):
    """A mention to resolve by name in a scope group, never as ``excluded``."""
    key: str
    label: str
    group: Tuple[str, str]
    excluded: str = ""


# A mention's route: its person's id, or the name to resolve in a group.
Route = Union[str, InGroup]
# A worker's answer for a mention: its person's id, or (the name to resolve in a group, and
# its :meth:`Resolver.answer`).
Answer = Union[str, Tuple[InGroup, Optional[str], Optional[DuplicateName], bool]]


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
        self._answers: Dict[InGroup, Tuple[Optional[str], Optional[DuplicateName], bool]] = {}
        # after fix(): the people added since, their names indexed, and whether one of
        # them is a board member (an author the given map lacked)
        self._added: Optional[VariantIndex] = None
        self._added_a_member = False

    def fix(self) -> None:
        """The map is fixed here, as the workers got it: from now on the people this
        resolver adds are tracked, for :meth:`settle`."""
        self._added = VariantIndex(PersonMap())
        self._added_a_member = False

    def resolve(self, mention: Mention, fields: dict) -> str:
        """The person of a mention in a post, as :meth:`Linker.person_map` linked it: a
        username is its user; a sign-off (or a closing the author's name) the author; a
        name addressed the first of the post's addressees called so; any other name, or
        an addressed one nobody there is called, by name (an addressed one never the
        post's author)."""
        route = self.route(mention, fields)
        return route if isinstance(route, str) else self.resolve_in_group(*route)

    def route(self, mention: Mention, fields: dict,
              addressees: Optional[Sequence[str]] = None) -> Route:
        """:meth:`resolve` up to the name to look for in a scope group, which depends on
        the map only (``addressees``: the post's, when this resolver has no posts)."""
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
            return InGroup(key, mention.label, group, author.id if author is not None else "")
        if mention.role in ("addressee", "closing"):
            if addressees is None:
                addressees = self.scopes.addressees(fields)
            for username in addressees:
                person = self.people.by_username(username)
                if (person is not None and key in person.names
                        and not self._better_known_as(key, person)):
                    return person.id
            return InGroup(key, mention.label, group, author.id if author is not None else "")
        return InGroup(key, mention.label, group)

    def answer(self, query: InGroup) -> Tuple[Optional[str], Optional[DuplicateName], bool]:
        """Who the map gives a name in a group to, learning nothing: the person (None: a
        new person), the duplicate-name warning resolving it gives (None: none), and
        whether no person added later can change that (the name is a name of members of
        the group: a new person is never one)."""
        found = self._answers.get(query)
        if found is None:
            found = self._answers[query] = self._choose_in(query.key, query.group,
                                                           query.excluded)
        return found

    def settle(self, answer: Answer, mention: Mention, fields: dict) -> str:
        """The person of a mention from a worker's answer (:meth:`route`, then
        :meth:`answer`, on the map as it was fixed), as :meth:`resolve` would give it
        here and now: a name already resolved in the group keeps its person; a name that
        needs a new person, or that a person added since may be called, is resolved
        afresh; otherwise the answer stands, and its warning is given as resolving would
        give it."""
        if self._added is None:
            raise ValueError("settle() needs the map fixed first (fix())")
        if self._added_a_member:            # routes by username and author may differ
            return self.resolve(mention, fields)
        if isinstance(answer, str):
            return answer
        query, person_id, duplicate, lasting = answer
        cached = self._cache[query.key].get(query[1:])
        if cached is not None:
            return cached
        if person_id is None or not (lasting or self._unchanged_for(query.key)):
            return self.resolve_in_group(*query)
        self._cache[query.key][query[1:]] = person_id
        if duplicate is not None:
            self._warn(query.key, query.group, duplicate)
        return person_id

    def _better_known_as(self, key: str, person: Person) -> bool:
        """A name found once for a post's addressee but often for someone else is most
        likely a reply nested at the wrong level (Farrow et al. 2023, section 4.3)."""
        if person.names[key] > 1:
            return False
        return any(self.people[other].names.get(key, 0) >= MISPLACED_REPLY_RATIO
                   for other in self.index.exact_people(key) if other != person.id)

    def _unchanged_for(self, key: str) -> bool:
        """Whether no person added since :meth:`fix` is called ``key`` or a variant."""
        return not self._added.exact or not (self._added.exact.get(key)
                                             or self._added.variant_people(key))

    def author(self, username: str) -> str:
        """The person id of a post's author (a new person for an author the map lacks)."""
        person = self.people.by_username(username)
        if person is None:
            person = self.people.add(Person(self.people.next_id("U"), [username]))
            self.index.add_usernames(person)
            self._cache.clear()
            self._added_a_member = True
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
        person_id, duplicate, _ = self._choose_in(key, group, excluded)
        if person_id is not None:
            if duplicate is not None:
                self._warn(key, group, duplicate)
            return person_id
        person = self.people.add(Person(self.people.next_id("P"), []))
        self.learn(key, person.id)
        if self._added is not None:
            self._added.add_name(key, person.id)
        person.names[key] = 0
        return person.id

    def _choose_in(self, key: str, group: Tuple[str, str], excluded: str
                   ) -> Tuple[Optional[str], Optional[DuplicateName], bool]:
        """The person called ``key`` in a group, not ``excluded`` (None: nobody), the
        warning if that choice was not unique, and whether it was made among members of
        the group called exactly so (which no new person, never a member, can join)."""
        for exact, candidates in ((True, self.index.exact_people(key)),
                                  (False, self.index.variant_people(key))):
            candidates = [p for p in candidates if p != excluded]
            if candidates:
                chosen, duplicate, among_members = self._pick(key, candidates, group)
                return chosen, duplicate, exact and among_members
        return None, None, False

    def _pick(self, key: str, candidates: List[str], group: Tuple[str, str]
              ) -> Tuple[str, Optional[DuplicateName], bool]:
        """The candidate who uses the name most among, in this order of preference, the
        board members posting in the scope group, the people who never post (a doctor is
        in every scope), and everyone; with a warning if that choice was not unique, and
        whether it was among the members posting in the group."""
        members = [p for p in candidates if self.people[p].usernames]
        in_scope = [p for p in members if self._in_group(p, group)]
        outsiders = [p for p in candidates if not self.people[p].usernames]
        pool = in_scope or outsiders or candidates
        chosen = max(pool, key=lambda p: (self.people[p].names.get(key, 0),
                                          -self.people.order(p)))
        duplicate = (DuplicateName(key, tuple(pool), _group_label(group), chosen)
                     if len(pool) > 1 else None)
        return chosen, duplicate, bool(in_scope)

    def _warn(self, key: str, group: Tuple[str, str], duplicate: DuplicateName) -> None:
        """A duplicate-name warning, once per name and group."""
        if self.warn and (key, group) not in self._warned:
            self._warned.add((key, group))
            self.warn(duplicate)

    def _in_group(self, person_id: str, group: Tuple[str, str]) -> bool:
        return any(self.scopes.in_group(u, group) for u in self.people[person_id].usernames)


def _group_label(group: Tuple[str, str]) -> str:
    return "the dump" if group[0] == "dump" else "%s %s" % group
