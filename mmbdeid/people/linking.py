"""Who is who: name mentions linked to the people of a board (after Farrow, Moore and
Gašević 2023, "Names, Nicknames, and Spelling Errors: Protecting Participant Identity in
Learning Analytics of Online Discussions").

A pseudonym is only useful if it follows a person. The model finds name and username
spans; this module turns them into *mentions* and links each mention to one person:

- adjacent name tokens are one mention (``Mary Jane``, ``Arthur C. Clarke``), as in every
  output (:func:`mmbdeid.spans.adjacent`), if they also look like one name;
- a name in a greeting (``Hi Arhtur``, ``Jess, welcome``) is evidence for the author of the
  post replied to (``parent``), a name in a sign-off (``Thanks Mary Jane``) for the post's
  own author; a username mention is its user;
- any other mention is resolved by name: exactly, then through variants — nicknames
  (``Bob`` ~ ``Robert``, shipped ``nicknames`` list), initials (``MJ`` ~ ``Mary Jane``),
  a part of a multi-word name (``Mary``), a misspelling within a small edit distance
  (``Arhtur``, ``Arthr`` ~ ``Arthur``; never between two distinct known first names, so
  ``Mark`` is not ``Mary``) and username variants (``maryjane_p`` ~ ``Mary Jane``);
- names nobody on the board is linked to (a doctor, a husband) become people of their own,
  grouped by the same variant rules.

Two people who share a name within a scope (the thread, the board, or the whole dump:
``--scope``) are not merged silently: the mention goes to the one who uses the name most,
and a :class:`DuplicateName` warning says so, to be resolved in the mapping file
(:mod:`mmbdeid.people.personmap`).
"""
from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

import jellyfish

from ..model.lexicon import load_last_name_ranks, load_nickname_groups, load_wordlist, load_zipf
from .personmap import Person, PersonMap, name_key
from ..kinds import PERSON_LABELS
from ..spans import Span, join, mention_groups
from ..model.usernames import username_variants

SCOPES = ("thread", "board", "dump")
COMMON_SURNAME_RANK = 5000
VERY_COMMON_ZIPF = 5.0      # "love", "will", "may": too common to join a name
USERNAME_PREFIX_MIN = 4
MISPLACED_REPLY_RATIO = 3   # a once-seen link loses to a name seen this often for another

# Greeting and closing words: the model at a recall-first threshold sometimes tags them
# ("Hello MJ"), but they never name a person, so they are not mentions.
GREETING_WORDS = frozenset(
    "hi hello hey heya hiya howdy dear morning evening welcome thanks thank thx ty "
    "congrats cheers hugs regards".split())
_WORD = re.compile(r"\w+")

# Roles. The addressee of a post is the author of the post it replies to (Farrow et al.):
# "Hi Arhtur", "Jess, welcome", "Thank you Jo.", "Good luck Monique!", "Good idea Hank."
_GREETING = re.compile(
    r"^\W*(?:(?:hi|hello|hey|heya|hiya|dear|morning|evening|good\s+(?:morning|evening|"
    r"afternoon)|welcome|thanks|thank\s+you|thx|ty|congrats|hugs|aww+|oh)\b[\W_]*)?$",
    re.IGNORECASE)
_ADDRESS_LEAD = re.compile(
    r"\b(?:thank\s+you|thanks|thx|ty|good\s+luck|congrats|congratulations|welcome|hugs|"
    r"hi|hello|hey|dear|sorry|glad)[\s,]+$", re.IGNORECASE)
# A name closing a sentence after another word is most often someone spoken to ("good
# idea Hank.", "glad he stepped up Sue."), unless that word makes it the object of a
# preposition or a relation ("to Helen.", "my sister Colleen.").
_NOT_VOCATIVE_BEFORE = frozenset(
    "to with from for by and or of at about like than as in on into onto my your his her "
    "our their the a an dr mr mrs ms miss named called friend sister brother husband wife "
    "son daughter mom mum dad mother father doctor doc nurse aunt uncle cousin niece nephew "
    "grandma grandpa gran boyfriend girlfriend partner boss neighbor neighbour told tell "
    "ask asked saw see met meet call called".split())
_SENTENCE_END_AFTER = re.compile(r"[ \t]*[.!?]+(?:\s|$)")
# The author of a post: its sign-off ("Thanks Mary Jane" ending the post, "Hope that
# helps! R o b e r t", "...\nRon"), or a self-introduction ("I'm Kristen", "Dawn here").
SIGNOFF_MAX_WORDS = 3         # "Thanks so much Mary Jane", "Hugs and love, Jess"
_SIGNOFF_LEAD = re.compile(
    r"(?:[.!?)\-~]|\b(?:thanks|thx|cheers|love|hugs|regards|best|xo+|xx+|take\s+care|"
    r"later|bye))[\W_]*$", re.IGNORECASE)
_SELF_LEAD = re.compile(r"\b(?:i'?m|i\s+am|my\s+name\s+is|name'?s|it'?s|this\s+is)\s+$",
                        re.IGNORECASE)
_SELF_AFTER = re.compile(r"^\s+here\b", re.IGNORECASE)


class Mention(NamedTuple):
    start: int
    end: int
    text: str
    label: str      # NAME or USER
    role: str       # "addressee", "author" or "" (anyone)
    parts: Tuple[Span, ...] = ()    # the detected spans it joins, in text order


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


# -- mentions --------------------------------------------------------------------------
def merge_name_spans(text: str, spans: Iterable[Span]) -> List[Span]:
    """Adjacent name spans joined into one (``Mary`` ``Jane`` -> ``Mary Jane``, ``Arthur C.
    Clarke``): :func:`name_groups`, each joined."""
    return [join(group) for group in name_groups(text, spans)]


def name_groups(text: str, spans: Iterable[Span]) -> List[Tuple[Span, ...]]:
    """The spans grouped into the mentions of people: the gaps allowed between the parts
    of one mention are those of every output (:func:`mmbdeid.spans.adjacent`), and the
    parts must also look like one name (:func:`keep_apart`), since the name is what links
    the mention to a person. A mention does not end with punctuation tagged on its own
    (``Linda`` ``.`` ending a sentence): that stays a span of its own."""
    groups: List[Tuple[Span, ...]] = []
    for group in mention_groups(text, spans, keep_apart):
        end = len(group)
        while end > 1 and not _WORD.search(text, group[end - 1].start, group[end - 1].end):
            end -= 1
        groups.append(group[:end])
        groups.extend((part,) for part in group[end:])
    return groups


def keep_apart(text: str, previous: Span, span: Span) -> bool:
    """Whether two adjacent person spans are still two names: the case differs (``Kristen
    btw``), one is an ordinary word the model tagged for its position (``Ouch Hank``;
    not next to an initial: ``David A. Foti``) or a word that is never a name (``Dr``,
    ``Thanks``, ``I``). The dot of ``C.`` tagged on its own joins."""
    word = text[span.start:span.end]
    if not _WORD.search(word):
        return False
    last_word = text[previous.start:previous.end].split()[-1]
    if _never_a_name(last_word) or _never_a_name(word):
        return True
    if last_word[:1].isupper() != word[:1].isupper():
        return True
    if _is_initial(last_word) or _is_initial(word):
        return False                    # "David A. Foti": an initial makes it a name
    return _ordinary_word(last_word) or _ordinary_word(word)


def _is_initial(word: str) -> bool:
    return len(word.rstrip(".")) == 1 and word[:1].isalpha()


def _ordinary_word(word: str) -> bool:
    """A common word that is not also a name (``ouch``, ``also``; not ``grace``), or a
    very common one even if it is (``love``, ``will``)."""
    key = word.lower()
    return len(key) > 1 and key in _common_words() and (
        key not in _names() or load_zipf().get(key, 0.0) >= VERY_COMMON_ZIPF)


@functools.lru_cache(maxsize=1)
def _common_words() -> frozenset:
    return load_wordlist("common_words") | load_wordlist("stop_words")


@functools.lru_cache(maxsize=1)
def _names() -> frozenset:
    """First names and the commoner surnames (the census list's tail holds words like
    ``ouch``)."""
    surnames = {name for name, rank in load_last_name_ranks().items()
                if rank <= COMMON_SURNAME_RANK}
    return _known_first_names() | surnames


def mention_role(text: str, start: int, end: int) -> str:
    """Who a mention most likely is: ``addressee`` (the author of the parent post),
    ``author`` (the post's own author) or ``""`` (decided by name alone)."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if not text[:line_start].strip() and _GREETING.match(before):
        return "addressee"
    if _SELF_LEAD.search(before) or _SELF_AFTER.match(text[end:]):
        return "author"
    ends_post = not _WORD.search(text, end)
    if re.search(r"\bthank\s+you[\s,]+$", before, re.IGNORECASE):
        return "addressee"               # "Thank you Jo." thanks someone, even at the end
    if ends_post and (len(_WORD.findall(before)) <= SIGNOFF_MAX_WORDS
                      or _SIGNOFF_LEAD.search(before)):
        return "author"
    if _ADDRESS_LEAD.search(before):
        return "addressee"
    previous_words = _WORD.findall(before)
    if (previous_words and previous_words[-1].lower() not in _NOT_VOCATIVE_BEFORE
            and _SENTENCE_END_AFTER.match(text, end)
            and not _is_initial(text[start:end].split()[-1])):   # "David A. Foti"
        return "addressee"
    return ""


def mentions_of(text: str, spans: Iterable[Span]) -> List[Mention]:
    """The person mentions of a post's spans: NAME/USER spans, adjacent names merged;
    greeting words, honorifics (``Dr``), ``I``, lower-case stop words and bare punctuation
    are not mentions (a capitalised ``Will`` may be a person)."""
    person_spans = [s for s in spans if s.label in PERSON_LABELS
                    and not _never_a_name(text[s.start:s.end])]
    mentions = []
    for parts in name_groups(text, person_spans):
        s = join(parts)
        if _WORD.search(text, s.start, s.end):
            mentions.append(Mention(s.start, s.end, text[s.start:s.end], s.label,
                                    mention_role(text, s.start, s.end), parts))
    return _unrole_lists(text, mentions)


def _never_a_name(word: str) -> bool:
    key = word.lower().rstrip(".")
    return (key in GREETING_WORDS or key in load_wordlist("honorifics") or word == "I"
            or (word.islower() and key in load_wordlist("stop_words")))


_LIST_GAP = re.compile(r"^\s*(?:,|&|and|,\s*and)\s*$", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.!?\n]")


def _unrole_lists(text: str, mentions: List[Mention]) -> List[Mention]:
    """"Thanks Cindy, Maggie, Kay", "thanks gardengal, and thanks Roxy": several names
    addressed in one sentence say nothing about which is the parent post's author (nor a
    list which one signed), so none of them gets a role."""
    in_list = set()
    for i, (first, second) in enumerate(zip(mentions, mentions[1:])):
        gap = text[first.end:second.start]
        if _LIST_GAP.match(gap) or (first.role and second.role
                                    and not _SENTENCE_BREAK.search(gap)):
            in_list.update((i, i + 1))
    return [m._replace(role="") if i in in_list else m for i, m in enumerate(mentions)]


# -- variants --------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def _nickname_groups_by_name() -> Dict[str, frozenset]:
    """Name -> the canonical names it is (a nickname of): ``bob`` -> {robert, ...}."""
    groups: Dict[str, Set[str]] = defaultdict(set)
    for canonical, nicks in load_nickname_groups().items():
        groups[canonical].add(canonical)
        for nick in nicks:
            groups[nick].add(canonical)
    return {name: frozenset(canonicals) for name, canonicals in groups.items()}


@functools.lru_cache(maxsize=1)
def _known_first_names() -> frozenset:
    return load_wordlist("first_names") | load_wordlist("nicknames")


def initials(key: str) -> str:
    """``mary jane`` -> ``mj``."""
    return "".join(word[0] for word in key.split())


def misspelling_distance(length: int) -> int:
    """Edits allowed between a misspelling and a name of this length."""
    return 0 if length < 4 else 1 if length < 8 else 2


def is_misspelling(key: str, name: str) -> bool:
    """``arhtur``/``arthr`` of ``arthur``: close in Damerau-Levenshtein distance, and not a
    different real name (``mark`` is not a misspelling of ``mary``)."""
    if key == name or " " in key or " " in name or key in _known_first_names():
        return False
    allowed = misspelling_distance(min(len(key), len(name)))
    return (allowed > 0 and abs(len(key) - len(name)) <= allowed
            and jellyfish.damerau_levenshtein_distance(key, name) <= allowed)


class VariantIndex:
    """Which people a name key may be a variant of, without comparing it to every name."""

    def __init__(self, person_map: PersonMap):
        self.exact: Dict[str, List[str]] = defaultdict(list)
        self.by_nickname_group: Dict[str, List[str]] = defaultdict(list)
        self.by_initials: Dict[str, List[str]] = defaultdict(list)
        self.by_part: Dict[str, List[str]] = defaultdict(list)
        self.by_username_variant: Dict[str, List[str]] = defaultdict(list)
        self.by_username_prefix: Dict[str, List[str]] = defaultdict(list)
        self.by_first_letter: Dict[str, List[Tuple[str, str]]] = defaultdict(list)
        self._letter_entries: Set[Tuple[str, str]] = set()
        for person in person_map:
            self.add_usernames(person)
            for key in person.names:
                self.add_name(key, person.id)

    def add_name(self, key: str, person_id: str) -> None:
        _add(self.exact, key, person_id)
        if " " in key:
            _add(self.by_initials, initials(key), person_id)
            for part in key.split():
                if len(part) >= 2:
                    _add(self.by_part, part, person_id)
        else:
            for canonical in _nickname_groups_by_name().get(key, ()):
                _add(self.by_nickname_group, canonical, person_id)
            self._add_spelling(key, person_id)

    def add_usernames(self, person: Person) -> None:
        stop_words = load_wordlist("stop_words")
        for username in person.usernames:
            _add(self.exact, name_key(username), person.id)
            folded = username.casefold()
            for end in range(USERNAME_PREFIX_MIN, len(folded)):   # "oneday" of onedayatatime
                _add(self.by_username_prefix, folded[:end], person.id)
            for variant in username_variants(username):
                if len(variant) >= 3 and variant not in stop_words:
                    _add(self.by_username_variant, variant, person.id)
                    if variant.isalpha():                      # "kaygril" of kaygirl
                        self._add_spelling(variant, person.id)

    def _add_spelling(self, word: str, person_id: str) -> None:
        """A word misspellings are compared with, bucketed by first letter."""
        if (word, person_id) not in self._letter_entries:
            self._letter_entries.add((word, person_id))
            self.by_first_letter[word[:1]].append((word, person_id))

    def exact_people(self, key: str) -> List[str]:
        return self.exact.get(key, [])

    def variant_people(self, key: str) -> List[str]:
        """People one of whose names ``key`` is a variant of, in first-seen order."""
        found: List[str] = []
        if " " not in key:
            for canonical in _nickname_groups_by_name().get(key, ()):
                for person_id in self.by_nickname_group.get(canonical, ()):
                    _add_unique(found, person_id)
            if 2 <= len(key) <= 4:
                for person_id in self.by_initials.get(key, ()):
                    _add_unique(found, person_id)
            for person_id in self.by_part.get(key, ()):
                _add_unique(found, person_id)
            for name, person_id in self.by_first_letter.get(key[:1], ()):
                if is_misspelling(key, name):
                    _add_unique(found, person_id)
        for index in (self.by_username_variant, self.by_username_prefix):
            for person_id in index.get(key.replace(" ", ""), ()):
                _add_unique(found, person_id)
        return [p for p in found if p not in self.exact.get(key, ())]


def _add(index: Dict[str, List[str]], key: str, person_id: str) -> None:
    if person_id not in index[key]:
        index[key].append(person_id)


def _add_unique(found: List[str], person_id: str) -> None:
    if person_id not in found:
        found.append(person_id)


# -- scope -----------------------------------------------------------------------------
class ScopeIndex:
    """Who posts where: the people of each thread and board, and each post's author."""

    def __init__(self):
        self.members: Dict[Tuple[str, str], Set[str]] = defaultdict(set)
        self.author_of: Dict[str, str] = {}

    def add_post(self, fields: dict) -> None:
        author = _text(fields, "author")
        self.author_of[_text(fields, "id")] = author
        self.members[("thread", _text(fields, "thread"))].add(author)
        self.members[("board", _text(fields, "board"))].add(author)

    def group(self, fields: dict, scope: str) -> Tuple[str, str]:
        return ("dump", "") if scope == "dump" else (scope, _text(fields, scope))

    def in_group(self, username: str, group: Tuple[str, str]) -> bool:
        return group[0] == "dump" or username in self.members.get(group, ())

    def parent_author(self, fields: dict) -> Optional[str]:
        parent = fields.get("parent")
        return None if parent in (None, "") else self.author_of.get(str(parent))


def _text(fields: dict, name: str) -> str:
    value = fields.get(name)
    return "" if value is None else str(value)


def _group_label(group: Tuple[str, str]) -> str:
    return "the dump" if group[0] == "dump" else "%s %s" % group


# -- linking ---------------------------------------------------------------------------
class Linker:
    """Builds the person map of a dump from its posts and their detected spans.

    Feed every post in dump order with :meth:`observe`; :meth:`person_map` then links the
    names: greeting/sign-off evidence first, then every other mention by name. Memory grows
    with the number of posts (post id -> author, for ``parent``) and distinct names.
    """

    def __init__(self, scope: str = "board"):
        if scope not in SCOPES:
            raise ValueError("scope must be one of %s" % ", ".join(SCOPES))
        self.scope = scope
        self.scopes = ScopeIndex()
        self._authors: Dict[str, int] = {}                 # username -> first-post order
        self._evidence: Counter = Counter()                 # (username, key) -> posts
        self._unlinked: Dict[Tuple[str, str], Counter] = {} # (key, label) -> group -> posts
        self._pending_addressees: List[Tuple[str, str]] = [] # (parent id, key)
        self._forms: Dict[str, Counter] = defaultdict(Counter)

    def observe(self, fields: dict, spans: Sequence[Span]) -> None:
        self.scopes.add_post(fields)
        author = _text(fields, "author")
        if author and author not in self._authors:
            self._authors[author] = len(self._authors)
        seen: Set[Tuple[str, str, str]] = set()
        for mention in mentions_of(fields["text"], spans):
            key = name_key(mention.text)
            if not key:
                continue
            self._forms[key][mention.text] += 1
            target = None
            if mention.role == "author":
                target = author
            elif mention.role == "addressee":
                target = self.scopes.parent_author(fields)
                if target == author:                 # a reply in one's own thread
                    target = None
                elif target is None and fields.get("parent") not in (None, ""):
                    self._pending_addressees.append((str(fields["parent"]), key))
                    continue
            marker = (target or "", key, mention.label)
            if marker in seen:              # counts are posts, as in Farrow et al.
                continue
            seen.add(marker)
            if target:
                self._evidence[(target, key)] += 1
            else:
                group = self.scopes.group(fields, self.scope)
                self._unlinked.setdefault((key, mention.label), Counter())[group] += 1

    def person_map(self, warn: Optional[Callable[[DuplicateName], None]] = None) -> PersonMap:
        people = PersonMap()
        for username in self._authors:
            people.add(Person(people.next_id("U"), [username]))
        by_username = {p.usernames[0]: p for p in people}
        for parent_id, key in self._pending_addressees:
            parent_author = self.scopes.author_of.get(parent_id)
            if parent_author:
                self._evidence[(parent_author, key)] += 1
            else:
                self._unlinked.setdefault((key, "NAME"), Counter())[("dump", "")] += 1
        for (username, key), posts in self._evidence.items():
            named = people.by_username(key)
            if named is not None and named.usernames[0] != username:
                # "Thank you hope and Ron": the user hope, not a name of the parent author
                self._unlinked.setdefault((key, "USER"), Counter())[("dump", "")] += posts
            elif username in by_username:
                by_username[username].names[key] += posts
        index = VariantIndex(people)
        resolver = Resolver(people, self.scopes, self.scope, warn=warn, index=index)
        # Most used names first, so a variant joins the name it is a variant of.
        for (key, label), groups in sorted(self._unlinked.items(),
                                           key=lambda item: -sum(item[1].values())):
            for group, posts in groups.items():
                person_id = resolver.resolve_in_group(key, label, group)
                person = people[person_id]
                if person.usernames and name_key(person.usernames[0]) == key:
                    continue                      # the username itself, already listed
                person.names[key] += posts
                resolver.learn(key, person_id)
        for person in people:
            person.forms = {key: self._forms[key].most_common(1)[0][0]
                            for key in person.names if key in self._forms}
        return people


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
        # name key -> (label, scope group) -> person id
        self._cache: Dict[str, Dict[Tuple[str, Tuple[str, str]], str]] = defaultdict(dict)

    def resolve(self, mention: Mention, fields: dict) -> str:
        key = name_key(mention.text)
        named = self.people.by_username(mention.text)
        if named is not None:                # a username is its user, wherever it stands
            return named.id
        if mention.role:
            username = (_text(fields, "author") if mention.role == "author"
                        else self.scopes.parent_author(fields))
            person = self.people.by_username(username) if username else None
            addressing_oneself = (mention.role == "addressee"
                                  and username == _text(fields, "author"))
            if (person is not None and key in person.names and not addressing_oneself
                    and not self._better_known_as(key, person)):
                return person.id
        return self.resolve_in_group(key, mention.label, self.scopes.group(fields, self.scope))

    def _better_known_as(self, key: str, person: Person) -> bool:
        """A name found once for the parent's author but often for someone else is most
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

    def resolve_in_group(self, key: str, label: str, group: Tuple[str, str]) -> str:
        cached = self._cache[key]
        person_id = cached.get((label, group))
        if person_id is None:
            person_id = self._resolve(key, group)
            # _resolve may have learned the key: its cache is then fresh
            self._cache[key][(label, group)] = person_id
        return person_id

    def learn(self, key: str, person_id: str) -> None:
        """``key`` is now a name of ``person_id`` (found while linking)."""
        self.index.add_name(key, person_id)
        self.people[person_id].names.setdefault(key, 0)
        self._cache.pop(key, None)

    def _resolve(self, key: str, group: Tuple[str, str]) -> str:
        for candidates in (self.index.exact_people(key), self.index.variant_people(key)):
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
