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

from collections import Counter, defaultdict
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from ..errors import MmbdeidValueError
from ..lexicon.names import first_names
from .gender import name_gender
from .gender_cues import title_gender
from .mentions import Mention
from .personmap import Person, PersonMap, name_key
from .scope import ScopeIndex, field_text
from .variants import VariantIndex, called

MISPLACED_REPLY_RATIO = 3   # a once-seen link loses to a name seen this often for another
# What links a name to a person (Resolver._evidence), strongest first.
IN_THREAD, OWN_NAME, NAMED = 3, 2, 1


class DuplicateName(NamedTuple):
    """A name used by several people of one scope group; ``chosen`` got the mention."""
    name: str
    people: Tuple[str, ...]
    group: str      # "thread t12", "board arthritis", "dump"
    chosen: str
    # where each of ``people`` takes part ("posts there", "posts in board b", "named
    # there"), and the thread the name was first met in with this choice
    places: Tuple[str, ...] = ()
    thread: str = ""

    def _candidates(self) -> str:
        return " or ".join("%s (%s)" % (person, place) if place else person
                           for person, place in zip(self.people, self.places
                                                    or ("",) * len(self.people)))

    def _where(self) -> str:
        return "in thread %s (scope: %s)" % (self.thread, self.group)

    def message(self) -> str:
        """With the name: for the person map's comments, where names belong."""
        return ('"%s" %s could be %s; used %s - edit the map to resolve'
                % (self.name, self._where(), self._candidates(), self.chosen))

    def public_message(self) -> str:
        """Without the name: for stderr and logs, which are not kept secret."""
        return ("a name %s could be %s; used %s - see the warnings at the top of "
                "the map from 'mmbdeid link'" % (self._where(), self._candidates(),
                                                  self.chosen))


class InGroup(NamedTuple):
    """A mention to resolve by name in a scope group, never as ``excluded``, in a thread
    by an author (what links it to a person: :meth:`Resolver._evidence`)."""
    key: str
    label: str
    group: Tuple[str, str]
    excluded: str = ""
    thread: str = ""
    author: str = ""
    title: str = ""     # the gender a title before it gives (Mrs. Kowalski: "female")


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
        # name key -> (label, scope group, excluded person, thread, author) -> person id
        self._cache: Dict[str, Dict[tuple, str]] = defaultdict(dict)
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
        # a sign-off or self-introduction is its author's, also one the model missed in
        # pass 2 and the map's names found (``\n\nAggie`` ending her posts)
        if mention.role in ("author", "closing") and author is not None \
                and (key in author.names or mention.role == "author") \
                and not self._better_known_as(key, author):
            return author.id
        place = (field_text(fields, "thread"), author_name)
        if mention.role == "titled":
            return InGroup(key, mention.label, group,
                           author.id if author is not None else "", *place,
                           title_gender(field_text(fields, "text"), mention.start))
        if mention.role in ("addressee", "closing"):
            if addressees is None:
                addressees = self.scopes.addressees(fields)
            for username in addressees:
                person = self.people.by_username(username)
                if (person is not None and key in person.names
                        and not self._better_known_as(key, person)):
                    return person.id
            return InGroup(key, mention.label, group,
                           author.id if author is not None else "", *place)
        return InGroup(key, mention.label, group, "", *place)

    def answer(self, query: InGroup) -> Tuple[Optional[str], Optional[DuplicateName], bool]:
        """Who the map gives a name in a group to, learning nothing: the person (None: a
        new person), the duplicate-name warning resolving it gives (None: none), and
        whether no person added later can change that (the name is a name of members of
        the group: a new person is never one)."""
        found = self._answers.get(query)
        if found is None:
            found = self._answers[query] = self._choose_in(*query[:1], *query[2:])
        return found

    def settle(self, answer: Answer, mention: Mention, fields: dict) -> str:
        """The person of a mention from a worker's answer (:meth:`route`, then
        :meth:`answer`, on the map as it was fixed), as :meth:`resolve` would give it
        here and now: a name already resolved in the group keeps its person; a name that
        needs a new person, or that a person added since may be called, is resolved
        afresh; otherwise the answer stands, and its warning is given as resolving would
        give it."""
        if self._added is None:
            raise MmbdeidValueError("settle() needs the map fixed first (fix())")
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
                         excluded: str = "", thread: str = "", author: str = "",
                         title: str = "") -> str:
        """The person called ``key`` in a scope group, never ``excluded`` (the author of
        a post addressing someone so called), for a mention in ``thread`` by ``author``:
        a new person when nobody else is."""
        cached = self._cache[key]
        person_id = cached.get((label, group, excluded, thread, author, title))
        if person_id is None:
            person_id = self._resolve(key, group, excluded, thread, author, title)
            # _resolve may have learned the key: its cache is then fresh
            self._cache[key][(label, group, excluded, thread, author, title)] = person_id
        return person_id

    def place(self, person_id: str, thread: str, author: str, title: str = "") -> None:
        """Someone who never posts is named in ``thread`` by ``author`` (while linking),
        after a title of gender ``title``: a name there, or by that author, may be them;
        after a title of the other gender it is not."""
        person = self.people[person_id]
        if person.usernames or person.threads is None:
            return
        if title and title not in person.titles:
            person.titles.add(title)
            for key in person.names:
                self._cache.pop(key, None)
        if thread not in person.threads or author not in person.speakers:
            person.threads.add(thread)
            person.speakers.add(author)
            for key in person.names:
                self._cache.pop(key, None)

    def learn(self, key: str, person_id: str) -> None:
        """``key`` is now a name of ``person_id`` (found while linking)."""
        self.index.add_name(key, person_id)
        self.people[person_id].names.setdefault(key, 0)
        self._cache.pop(key, None)

    def _resolve(self, key: str, group: Tuple[str, str], excluded: str = "",
                 thread: str = "", author: str = "", title: str = "") -> str:
        person_id, duplicate, _ = self._choose_in(key, group, excluded, thread, author,
                                                  title)
        if person_id is not None:
            if duplicate is not None:
                self._warn(key, group, duplicate)
            return person_id
        person = self.people.add(Person(self.people.next_id("P"), [], threads={thread},
                                        speakers={author}))
        self.learn(key, person.id)
        if self._added is not None:
            self._added.add_name(key, person.id)
        person.names[key] = 0
        return person.id

    def _choose_in(self, key: str, group: Tuple[str, str], excluded: str,
                   thread: str = "", author: str = "", title: str = ""
                   ) -> Tuple[Optional[str], Optional[DuplicateName], bool]:
        """The person called ``key`` in a group, not ``excluded`` (None: nobody), the
        warning if that choice was not unique, and whether it was made among members
        called exactly so (which no new person, never a member, can join). Only people
        with evidence that the name there is theirs count (:meth:`_evidence`), and none
        whose first names read as the other gender than a title before the mention says
        (``Mrs. Kowalski`` is not Stan Kowalski)."""
        for exact, candidates in ((True, self.index.exact_people(key)),
                                  (False, self.index.variant_people(key))):
            ranked = [(rank, p) for rank, p in
                      ((self._evidence(p, key, exact, group, thread, author, title), p)
                       for p in candidates if p != excluded
                       and not self._other_gender(p, title)) if rank]
            if ranked:
                chosen, duplicate, among_members = self._pick(key, ranked, group, thread)
                return chosen, duplicate, exact and among_members
        return None, None, False

    def _other_gender(self, person_id: str, title: str) -> bool:
        """Whether a title before them, or a first name of theirs, reads as the other
        gender than ``title``."""
        if not title:
            return False
        return bool(self.people[person_id].titles - {title}) or any(name_gender(key.split()[0]) not in (title, "", "either")
                   for key in self.people[person_id].names if key)

    def _evidence(self, person_id: str, key: str, exact: bool, group: Tuple[str, str],
                  thread: str, author: str, title: str = "") -> int:
        """What links a name in ``thread`` (by ``author``) to a person called so (issue
        30): ``IN_THREAD``, a member posting in the thread; ``OWN_NAME``, a member of the
        scope group whose own posts give them the name (a sign-off, a greeting to them;
        not a word inside their username); ``NAMED``, someone who never posts named in the
        thread, or elsewhere under the same full name, by the same author or after a title
        that gives the gender (a surname: ``Mr. Adebayo``); 0, none."""
        person = self.people[person_id]
        if person.usernames:
            if any(self.scopes.in_thread(u, thread) for u in person.usernames):
                return IN_THREAD
            if not any(self.scopes.posts_here(u) for u in person.usernames):
                # a member of a map from another run, who posts nowhere here: as the
                # map says
                return OWN_NAME if key in person.names or not exact else 0
            if group[0] == "thread" or not self._in_group(person_id, group):
                return 0
            own = person.names if person.own is None else person.own
            if key in own if exact else any(_variant_of(key, name) for name in own):
                return OWN_NAME
            return 0
        if person.threads is None or thread in person.threads:
            return NAMED
        if exact and group[0] != "thread" and (
                " " in key or author in person.speakers
                or (title and key not in first_names())):    # Mr. Adebayo, two threads
            return NAMED
        return 0

    def _pick(self, key: str, ranked: List[Tuple[int, str]], group: Tuple[str, str],
              thread: str) -> Tuple[str, Optional[DuplicateName], bool]:
        """Among the people with evidence, the members first (those posting in the thread
        before the others), then the people who never post; among those the one who uses
        the name most. With a warning if that choice was not unique, and whether it was
        made among members."""
        members = [(rank, p) for rank, p in ranked if rank >= OWN_NAME]
        pool = sorted(members or ranked, key=lambda item: -item[0])     # (a stable sort)
        chosen = max(pool, key=lambda item: (item[0], self.people[item[1]].names.get(key, 0),
                                             -self.people.order(item[1])))[1]
        duplicate = (DuplicateName(key, tuple(p for _, p in pool), _group_label(group),
                                   chosen, tuple(self._place_of(rank, p, group, thread)
                                                 for rank, p in pool), thread)
                     if len(pool) > 1 else None)
        return chosen, duplicate, bool(members)

    def _place_of(self, rank: int, person_id: str, group: Tuple[str, str],
                  thread: str) -> str:
        """Where a candidate of a duplicate-name warning takes part, for the warning."""
        if rank == IN_THREAD:
            return "posts in thread %s" % thread
        if rank == OWN_NAME:
            return "posts in %s, not in this thread" % _group_label(group)
        threads = self.people[person_id].threads
        if threads is None:
            return "a line of the map"
        return "named in thread %s" % (thread if thread in threads else min(threads))

    def _warn(self, key: str, group: Tuple[str, str], duplicate: DuplicateName) -> None:
        """A duplicate-name warning, once per name and group."""
        if self.warn and (key, group) not in self._warned:
            self._warned.add((key, group))
            self.warn(duplicate)

    def _in_group(self, person_id: str, group: Tuple[str, str]) -> bool:
        return any(self.scopes.in_group(u, group) for u in self.people[person_id].usernames)


def _group_label(group: Tuple[str, str]) -> str:
    return "the dump" if group[0] == "dump" else "%s %s" % group


def _variant_of(key: str, name: str) -> bool:
    """Whether ``key`` is a nickname, initials, part or misspelling of the name ``name``."""
    return called(key, Person("", [], Counter({name: 1}))) > 0
