"""Who is who: name mentions linked to the people of a board (after Farrow, Moore and
Gašević 2023, "Names, Nicknames, and Spelling Errors: Protecting Participant Identity in
Learning Analytics of Online Discussions").

A pseudonym is only useful if it follows a person. The model finds name and username
spans; they become *mentions* (:mod:`mmbdeid.people.mentions`), and the :class:`Linker`
links each mention to one person:

- adjacent name tokens are one mention (``Mary Jane``, ``Arthur C. Clarke``), as in every
  output (:func:`mmbdeid.spans.adjacent`), if they also look like one name;
- a name in a sign-off (``Hope that helps! R o b e r t``) or a self-introduction is the
  post's own author; a name addressed (``Hi Arhtur``, ``Jess, welcome``, ``Thanks Linda``)
  is someone the post speaks to, never its author: the thread's earlier poster whose names
  match it (the parent post's author first), else the parent post's author when nothing
  is known of their names yet (Farrow et al.), else a person found by name or of its own
  (:meth:`Linker.person_map`); a username mention is its user;
- any other mention is resolved by name: exactly, then through variants — nicknames
  (``Bob`` ~ ``Robert``, shipped ``nicknames`` list), initials (``MJ`` ~ ``Mary Jane``),
  a part of a multi-word name (``Mary``), a misspelling within a small edit distance
  (``Arhtur``, ``Arthr`` ~ ``Arthur``; never between two distinct known first names, so
  ``Mark`` is not ``Mary``) and username variants (``maryjane_p`` ~ ``Mary Jane``);
- names nobody on the board is linked to (a doctor, a husband) become people of their own,
  grouped by the same variant rules.

Two people who share a name within a scope (the thread, the board, or the whole dump:
``--scope``) are not merged silently: the mention goes to the one who uses the name most,
and a :class:`~mmbdeid.people.resolver.DuplicateName` warning says so, to be resolved in
the mapping file (:mod:`mmbdeid.people.personmap`).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from ..errors import MmbdeidValueError
from ..spans import Span
from ..text.placeholders import AUTHOR_PSEUDONYM, PSEUDONYM_IN_TEXT
from .gender_cues import title_gender
from .mentions import Mention, SignedLine, mentions_of, signoff_line
from .own_signoff import signed_initial
from .personmap import Person, PersonMap, name_key
from .resolver import DuplicateName, Resolver
from .scope import SCOPES, ScopeIndex, field_text
from .spread import CONFIDENT, is_word
from .username_names import others_in_username
from .variants import EXACT, VariantIndex, called, known_by_name

_POST_CONTEXT = ("id", "author", "parent", "thread", "board")
# A word of a text that reads like a pseudonym (``U2``, ``p14``), found or not as a name:
# no pseudonym may equal it, or the output's ``[U2]`` and author ``U2`` would be ambiguous.
_PSEUDONYM_LIKE = re.compile(r"\b[UP][1-9]\d{0,8}\b", re.IGNORECASE)
PROGRESS_EVERY = 500        # names linked between two progress reports
SIGNED_HABIT = 2            # posts an author signs with a name no span found: a name of theirs


def _no_progress(step: str, done: int, total: int) -> None:
    """No one is told how far the linking is."""


class _Addressed(NamedTuple):
    """A name in an addressing (or closing) position, decided once every sign-off is in."""
    post: dict          # the post's id, author, parent, thread and board
    key: str
    label: str
    role: str           # "addressee" or "closing"


class Linker:
    """Builds the person map of a dump from its posts and their detected spans.

    Feed every post in dump order with :meth:`observe`; :meth:`person_map` then links the
    names: what authors call themselves first (sign-offs, self-introductions), then the
    names addressed, then every other mention by name. Memory grows with the number of
    posts (post id -> author and position, for ``parent`` and the thread's earlier
    posters), the addressed names and the distinct names.
    """

    def __init__(self, scope: str = "board"):
        if scope not in SCOPES:
            raise MmbdeidValueError("scope must be one of %s" % ", ".join(SCOPES))
        self.scope = scope
        self.scopes = ScopeIndex()
        self._authors: Dict[str, int] = {}                 # username -> first-post order
        self._evidence: Counter = Counter()                 # (username, key) -> posts
        # (username, key) -> posts signed so where no span was found, and how it was written
        self._signed: Counter = Counter()
        self._signed_forms: Dict[str, Counter] = defaultdict(Counter)
        # (key, label) -> (scope group, author the name is not, thread, author, title gender)
        # -> posts
        self._unlinked: Dict[Tuple[str, str], Counter] = {}
        self._addressed: List[_Addressed] = []
        self._forms: Dict[str, Counter] = defaultdict(Counter)
        self._confident: Set[str] = set()              # keys met at CONFIDENT or more
        self._ids_in_texts: Set[str] = set()            # [P12] of an earlier scrub
        self._pseudonym_like: Set[str] = set()          # U2, p14 in the texts

    def observe(self, fields: dict, spans: Sequence[Span],
                mentions: Optional[Sequence[Mention]] = None) -> None:
        """One more post, with its detected spans and, if a worker found them already,
        its mentions (:func:`~mmbdeid.people.mentions.mentions_of` of the spans)."""
        self.scopes.add_post(fields)
        if "[" in fields["text"]:
            self._ids_in_texts.update(PSEUDONYM_IN_TEXT.findall(fields["text"]))
        self._pseudonym_like.update(_PSEUDONYM_LIKE.findall(fields["text"]))
        author = field_text(fields, "author")
        if author and author not in self._authors:
            self._authors[author] = len(self._authors)
        post = {name: fields.get(name) for name in _POST_CONTEXT}
        seen: Set[Tuple[str, str, str]] = set()
        if mentions is None:
            mentions = mentions_of(fields["text"], spans)
        if author:
            self._observe_signoff(author, fields["text"], mentions)
        for mention in mentions:
            key = name_key(mention.text)
            if not key:
                continue
            self._forms[key][mention.text] += 1
            if any(part.score >= CONFIDENT for part in mention.parts) or not mention.parts:
                self._confident.add(key)
            marker = (mention.role, key, mention.label)
            if marker in seen:              # counts are posts, as in Farrow et al.
                continue
            seen.add(marker)
            if mention.role == "author" and author:
                self._evidence[(author, key)] += 1
            elif mention.role in ("addressee", "closing"):
                self._addressed.append(_Addressed(post, key, mention.label, mention.role))
            elif mention.role == "titled":
                self._add_unlinked(key, mention.label, post, author,
                                   title=title_gender(fields["text"], mention.start))
            else:
                self._add_unlinked(key, mention.label, post)

    def _observe_signoff(self, author: str, text: str, mentions: Sequence[Mention]) -> None:
        """A sign-off line no span covers (``\n\nAggie``, ``xx Pen``): counted for its
        author; :meth:`person_map` takes it as their name once it is a habit."""
        signed = signoff_line(text)
        if signed is None:          # an initial signed after a dash (-- d), not a word
            initial = signed_initial(text)
            signed = None if initial is None else SignedLine(*initial, True)
        if signed is None or any(m.start < signed.end and signed.start < m.end
                                 for m in mentions):
            return
        word = text[signed.start:signed.end]
        if signed.after_closing or not is_word(name_key(word)):
            key = name_key(word)
            self._signed[(author, key)] += 1
            self._signed_forms[key][word] += 1

    def _add_unlinked(self, key: str, label: str, post: dict, not_of: str = "",
                      posts: int = 1, group: Optional[Tuple[str, str]] = None,
                      title: str = "") -> None:
        """A name to resolve by name, in the post's scope group (or ``group``), never as
        ``not_of``; where it was met (thread, author) is what may link it to someone, and
        the gender of a title before it (``Mrs.``) who it cannot be."""
        where = (self.scopes.group(post, self.scope) if group is None else group, not_of,
                 field_text(post, "thread"), field_text(post, "author"), title)
        self._unlinked.setdefault((key, label), Counter())[where] += posts

    def person_map(self, warn: Optional[Callable[[DuplicateName], None]] = None,
                   progress: Optional[Callable[[str, int, int], None]] = None) -> PersonMap:
        """The people of the dump. ``progress(step, done, total)`` is told how far the
        linking is: the names addressed (step ``addressed``), then every other name
        (``by name``)."""
        report = progress or _no_progress
        people = PersonMap()
        people.avoid(self.real_strings())
        for person_id in self._ids_in_texts:
            people.reserve(person_id)
        for username, person_id in zip(self._authors, _author_ids(
                self._authors, self._ids_in_texts, people, self._pseudonymised())):
            people.add(Person(person_id, [username]))
        by_username = {p.usernames[0]: p for p in people}
        for (username, key), posts in self._evidence.items():
            named = people.by_username(key)
            if named is not None and named.usernames[0] != username:
                # "Thank you hope and Ron": the user hope, not a name of the parent author
                self._add_unlinked(key, "USER", {}, posts=posts, group=("dump", ""))
            elif username in by_username:
                by_username[username].names[key] += posts
        for (username, key), posts in self._signed.items():
            # what a member signs in two posts or more, or signs once and a span found
            # elsewhere, is their name (the model misses many sign-offs)
            if (username in by_username and people.by_username(key) is None
                    and (posts >= SIGNED_HABIT or key in self._forms)):
                by_username[username].names[key] += posts
        self._link_addressed(people, by_username, report)
        for person in people:                     # what their own posts call them
            person.own = set(person.names)
        index = VariantIndex(people)
        resolver = Resolver(people, self.scopes, self.scope, warn=warn, index=index)
        # Full names first, so a part (`Kowalski`, `Rose`) joins the full name it is a part
        # of; then the most used, so a variant joins the name it is a variant of; then in
        # the order the dump first mentions them.
        first_seen = {key: order for order, key in enumerate(self._forms)}
        total = len(self._unlinked)
        for done, ((key, label), groups) in enumerate(sorted(
                self._unlinked.items(),
                key=lambda item: (" " not in item[0][0], -sum(item[1].values()),
                                  first_seen.get(item[0][0], 0)))):
            if done % PROGRESS_EVERY == 0:
                report("by name", done, total)
            for (group, not_of, thread, author, title), posts in groups.items():
                excluded = by_username[not_of].id if not_of in by_username else ""
                person_id = resolver.resolve_in_group(key, label, group, excluded, thread,
                                                      author, title)
                resolver.place(person_id, thread, author, title)
                person = people[person_id]
                if person.usernames and name_key(person.usernames[0]) == key:
                    continue                      # the username itself, already listed
                person.names[key] += posts
                resolver.learn(key, person_id)
        report("by name", total, total)
        for person in people:
            person.forms = {key: (self._forms.get(key) or self._signed_forms[key]
                                  ).most_common(1)[0][0]
                            for key in person.names
                            if key in self._forms or key in self._signed_forms}
            # sure once, or found in two posts or more: not a single guess
            person.confident = {key for key, posts in person.names.items()
                                if key in self._confident or posts >= 2}
        return people

    def real_strings(self) -> List[str]:
        """The dump's authors, the names and usernames its texts mention (as compared:
        :func:`~mmbdeid.people.personmap.name_key`) and its words that read like
        pseudonyms: what no pseudonym may be."""
        return (list(self._authors) + list(self._forms) + list(self._signed_forms)
                + list(self._pseudonym_like))

    def _pseudonymised(self) -> bool:
        """Whether an earlier pseudonym scrub wrote the dump: every author is a pseudonym
        (``U12``) and the texts hold some (``[P3]``). Otherwise an author called like a
        pseudonym is a member called so, whose name must go like any other."""
        return bool(self._ids_in_texts) and all(AUTHOR_PSEUDONYM.fullmatch(author)
                                                for author in self._authors)

    def _link_addressed(self, people: PersonMap, by_username: Dict[str, Person],
                        report: Callable[[str, int, int], None]) -> None:
        """The names addressed, in dump order, each with the names known by then."""
        linked: Set[Tuple[str, str, str]] = set()          # (post id, username, key)
        total = len(self._addressed)
        for done, addressed in enumerate(self._addressed):
            if done % PROGRESS_EVERY == 0:
                report("addressed", done, total)
            post, key = addressed.post, addressed.key
            author = field_text(post, "author")
            named = people.by_username(key)
            if named is not None:           # a username is its user: a name of theirs
                if named.usernames[0] in self.scopes.addressees(post):   # when addressed
                    username = named.usernames[0]
                else:
                    self._add_unlinked(key, "USER", post, group=("dump", ""))
                    continue
            else:
                username = self._addressee(addressed, by_username)
            if username is None:
                # Nobody who matches: found by name, or a person of its own; not the author.
                self._add_unlinked(key, addressed.label, post, author)
            elif (field_text(post, "id"), username, key) not in linked:
                linked.add((field_text(post, "id"), username, key))
                by_username[username].names[key] += 1
        report("addressed", total, total)

    def _addressee(self, addressed: _Addressed, by_username: Dict[str, Person]
                   ) -> Optional[str]:
        """The username a name addressed (or closing a post) belongs to, if any."""
        post, key = addressed.post, addressed.key
        author = field_text(post, "author")
        if addressed.role == "closing" and author in by_username and (
                called(key, by_username[author]) or self.scopes.opens_thread(post)):
            return author               # their own name, or thanks in advance: a sign-off
        best, best_fit = None, 0            # the first exact fit, else the first variant
        for username in self.scopes.addressees(post):
            fit = called(key, by_username[username]) if username in by_username else 0
            if fit > best_fit:
                best, best_fit = username, fit
                if fit == EXACT:
                    break
        if best is not None:
            return best
        parent = self.scopes.parent_author(post)
        if parent and parent != author and parent in by_username \
                and not known_by_name(by_username[parent]) \
                and key not in others_in_username(parent):       # not Jake of momtojake
            return parent               # Farrow et al.: a greeting names the author replied to
        return None


def _author_ids(usernames: Iterable[str], taken: Iterable[str], people: PersonMap,
                pseudonymised: bool = False) -> List[str]:
    """``U1``, ``U2``, ... in order, skipping the ids of ``taken`` (pseudonyms in the texts)
    and any the map may not give (a username or name of the dump, in any case:
    :meth:`~mmbdeid.people.personmap.PersonMap.free`). In a ``pseudonymised`` dump (a
    scrubbed dump scrubbed again) an author already called like a pseudonym (``U12``)
    keeps that id, and no one else gets it."""
    usernames = list(usernames)
    kept = ({u for u in usernames if AUTHOR_PSEUDONYM.fullmatch(u)} if pseudonymised
            else set())
    reserved = kept | {i for i in taken if i.startswith("U")}
    ids, number = [], 0
    for username in usernames:
        if username in kept:
            ids.append(username)
            continue
        number += 1
        while "U%d" % number in reserved or not people.free("U%d" % number):
            number += 1
        ids.append("U%d" % number)
    return ids
