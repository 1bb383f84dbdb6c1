"""The person map: who is called what, as a text file a person can edit (the mapping file
of Farrow, Moore and Gašević 2023, "Names, Nicknames, and Spelling Errors", Fig. 3).

One person per line: their identifier, their board usernames (``@name``), then the names
they are called by, most used first, each with the number of posts it was found in::

    U12 | @arthur_k | Arthur (5) | Arhtur (1) | Arthr (1)
    U43 | @mj_poe | Mary Jane (3) | MJ (1) | Mary (1)
    P3 | Lindqvist (2)

``U`` people post on the board; ``P`` people are only mentioned (a doctor, a husband).
Edit freely: delete a wrong name, move a name to another line, add a missed one (the count
may be left out), rename an identifier. ``#`` lines are comments. The file links
pseudonyms to real names, so it is as secret as the raw dump.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Dict, Iterable, Iterator, List, Optional, Set

from ..errors import InputError, MmbdeidValueError

HEADER = """\
# mmbdeid person map. SECRET: it links pseudonyms to real names and usernames.
# Keep it with the raw dump, never with scrubbed output; do not share or commit it.
# One person per line: ID | @username | name (posts) | ...  Edit freely, then
# apply it with: mmbdeid scrub DUMP -o OUT --mode pseudonym --map THIS_FILE
"""
_ID = re.compile(r"^[A-Za-z][\w-]*$")
_ID_NUMBER = re.compile(r"^([A-Za-z]+)(\d+)$")
_COUNT = re.compile(r"\s*\((\d+)\)$")
_SPACED_LETTERS = re.compile(r"^(?:\w )+\w$")
_EDGE_PUNCTUATION = re.compile(r"^[\W_]+|[\W_]+$")


def name_key(text: str) -> str:
    """How names are compared: case-folded, letters of a spaced-out name joined
    (``R o b e r t`` -> ``robert``), edge punctuation dropped, inner spaces single;
    an initial's dot is dropped (``Arthur C. Clarke`` -> ``arthur c clarke``); a
    surname-first form is turned round (``KOWALSKI, STAN`` -> ``stan kowalski``)."""
    text = unicodedata.normalize("NFKC", text).strip()
    if _SPACED_LETTERS.match(text):
        text = text.replace(" ", "")
    text = _EDGE_PUNCTUATION.sub("", text.replace(".", " "))
    key = " ".join(text.casefold().split())
    return _given_name_first(key) if "," in key else key


def _given_name_first(key: str) -> str:
    """``kowalski, stanislaw j`` -> ``stanislaw j kowalski``: a surname-first form (a letter
    heading, a wristband) is compared as the name in its usual order; not ``smith, jr``."""
    from ..lexicon.wordlists import load_wordlist     # (the map is read without the lists)
    surname, _, given = (part.strip() for part in key.partition(","))
    if not surname or not given or "," in given or given in load_wordlist("name_suffixes"):
        return key
    return given + " " + surname


@dataclass
class Person:
    id: str
    usernames: List[str]
    names: Counter = field(default_factory=Counter)      # name key -> posts
    forms: Dict[str, str] = field(default_factory=dict)  # name key -> how it is written
    # What links a name to this person outside a thread where they take part (issue 30),
    # None where nothing is known (a map read from a file: every line applies anywhere).
    # A member: the names their own posts give them (sign-offs, greetings to them).
    own: Optional[Set[str]] = None
    # Someone who never posts: the threads they are named in, and who names them.
    threads: Optional[Set[str]] = None
    speakers: Optional[Set[str]] = None
    # the genders the titles before their names give (Mr. Adebayo: "male")
    titles: Set[str] = field(default_factory=set)
    # The names met at least once with a confident probability (people/spread.py); in a
    # map read from a file, the names written without a count (added by hand).
    confident: Optional[Set[str]] = None
    by_hand: Set[str] = field(default_factory=set)


class PersonMap:
    """People in first-seen order, with lookups by id, username and name."""

    def __init__(self):
        self._people: Dict[str, Person] = {}
        self._by_username: Dict[str, Person] = {}
        self._order: Dict[str, int] = {}
        self._next_number: Counter = Counter()
        self._avoided: Set[str] = set()         # what no new id may be, case-folded

    def __iter__(self) -> Iterator[Person]:
        return iter(self._people.values())

    def __len__(self) -> int:
        return len(self._people)

    def __getitem__(self, person_id: str) -> Person:
        return self._people[person_id]

    def __contains__(self, person_id: str) -> bool:
        return person_id in self._people

    def order(self, person_id: str) -> int:
        return self._order[person_id]

    def add(self, person: Person) -> Person:
        if person.id in self._people:
            raise MmbdeidValueError("duplicate person id %r" % person.id)
        self._people[person.id] = person
        self._order[person.id] = len(self._order)
        for username in person.usernames:
            self._by_username.setdefault(username.casefold(), person)
        self.reserve(person.id)
        return person

    def reserve(self, person_id: str) -> None:
        """Number new people after ``person_id`` too (an id already in the texts)."""
        match = _ID_NUMBER.match(person_id)
        if match:
            prefix, number = match.group(1), int(match.group(2))
            self._next_number[prefix] = max(self._next_number[prefix], number)

    def avoid(self, strings: Iterable[str]) -> None:
        """No new identifier will equal one of ``strings`` (the dump's usernames and
        names), in any case: a member called ``U2`` never shares a pseudonym with
        someone else's ``[U2]``."""
        self._avoided.update(string.casefold() for string in strings)

    def next_id(self, prefix: str) -> str:
        """A fresh identifier, numbered after the highest one with this prefix, and
        equal to no username of the map nor string it was told to :meth:`avoid`."""
        number = self._next_number[prefix] + 1
        while not self.free("%s%d" % (prefix, number)):
            number += 1
        return "%s%d" % (prefix, number)

    def free(self, person_id: str) -> bool:
        """Whether ``person_id`` may be given to someone new: it is no username of the map
        nor a string to :meth:`avoid`, in any case."""
        folded = person_id.casefold()
        return folded not in self._avoided and folded not in self._by_username

    def by_username(self, username: str) -> Optional[Person]:
        return self._by_username.get(username.casefold())

    def form(self, person: Person, key: str) -> str:
        return person.forms.get(key, key)

    # -- the text file ---------------------------------------------------------------
    def write(self, handle: IO[str], comments: List[str] = ()) -> None:
        handle.write(HEADER)
        for comment in comments:
            handle.write("# warning: %s\n" % comment.replace("\n", " "))
        for person in self:
            fields = [person.id] + ["@" + u for u in person.usernames]
            ranked = sorted(person.names.items(), key=lambda item: (-item[1], item[0]))
            fields += ["%s (%d)" % (self.form(person, key), posts) for key, posts in ranked]
            handle.write(" | ".join(fields) + "\n")

    @classmethod
    def read(cls, path: str) -> "PersonMap":
        people = cls()
        try:
            with open(path, encoding="utf-8") as handle:
                lines = list(handle)
        except OSError as error:
            raise InputError("cannot read the person map: %s" % error.strerror, path) from None
        except UnicodeDecodeError:
            raise InputError("the person map is not UTF-8 text", path) from None
        # Messages name the line and what is wrong, never what it holds: a map is full of
        # real names, and a file given as a map by mistake may be a dump of raw posts.
        owner: Dict[str, int] = {}               # username, folded -> its line
        id_line: Dict[str, int] = {}             # person id -> its line
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [f.strip() for f in line.split("|")]
            person_id = fields[0]
            if not _ID.match(person_id):
                raise InputError("not a person map line: the first field must be a person "
                                 "id (a letter, then letters, digits, _ or -), as in "
                                 "'U12 | @username | Name (3)'", path, number)
            if person_id in id_line:
                raise InputError("this line's person id is also on line %d"
                                 % id_line[person_id], path, number)
            id_line[person_id] = number
            person = Person(person_id, [])
            for position, entry in enumerate(fields[1:], 2):
                if not entry:
                    continue
                if entry.startswith("@"):
                    username = entry[1:].strip()
                    if not username:
                        raise InputError("field %d is an empty username '@'" % position,
                                         path, number)
                    if username.casefold() in owner:
                        raise InputError("the username in field %d is also on line %d"
                                         % (position, owner[username.casefold()]),
                                         path, number)
                    owner[username.casefold()] = number
                    person.usernames.append(username)
                    continue
                count = _COUNT.search(entry)
                written = entry[:count.start()] if count else entry
                key = name_key(written)
                if not key:
                    raise InputError("field %d is not a name (no letters or digits)"
                                     % position, path, number)
                person.names[key] += int(count.group(1)) if count else 1
                if not count:
                    person.by_hand.add(key)
                person.forms.setdefault(key, written.strip())
            people.add(person)
            people.avoid(person.names)           # a name of the map is no new id either
        return people
