"""Who is who: name mentions linked to the people of a board (after Farrow, Moore and
Gašević 2023, "Names, Nicknames, and Spelling Errors: Protecting Participant Identity in
Learning Analytics of Online Discussions").

A pseudonym is only useful if it follows a person. The model finds name and username
spans; this module turns them into *mentions* and links each mention to one person:

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
and a :class:`DuplicateName` warning says so, to be resolved in the mapping file
(:mod:`mmbdeid.people.personmap`).
"""
from __future__ import annotations

import bisect
import functools
import re
from collections import Counter, defaultdict
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

import jellyfish

from ..kinds import PERSON_LABELS
from ..lexicon.names import first_names
from ..lexicon.usernames import username_variants
from ..lexicon.wordlists import load_last_name_ranks, load_nickname_groups, load_wordlist, load_zipf
from ..spans import JOINER_GAP, Span, join, mention_groups
from ..text.placeholders import AUTHOR_PSEUDONYM, PSEUDONYM_IN_TEXT
from .personmap import Person, PersonMap, name_key

SCOPES = ("thread", "board", "dump")
COMMON_SURNAME_RANK = 5000
VERY_COMMON_ZIPF = 5.0      # "love", "will", "may": too common to join a name
USERNAME_PREFIX_MIN = 4
MISPLACED_REPLY_RATIO = 3   # a once-seen link loses to a name seen this often for another
ADDRESSEE_WINDOW = 50       # earlier posters of a thread a name addressed may be
ADDRESSEE_SCAN = 500        # posts looked back through for them (long two-person threads)

_WORD = re.compile(r"\w+")

# Roles. A name addressed is someone the post speaks to (Farrow et al.: most often the author
# of the post it replies to): "Hi Arhtur", "Jess, welcome", "Thank you Jo.",
# "Good luck Monique!", "Good idea Hank.", "@Linda", "hugs to Linda".
_GREETING = re.compile(
    r"^\W*(?:(?:hi|hello|hey|heya|hiya|dear|morning|evening|good\s+(?:morning|evening|"
    r"afternoon)|welcome|thanks|thank\s+you|thx|ty|congrats|hugs|aww+|oh)\b[\W_]*)?$",
    re.IGNORECASE)
_ADDRESS_LEAD = re.compile(
    r"\b(?:thank\s+you|thanks|thx|ty|good\s+luck|congrats|congratulations|welcome|hugs|"
    r"hi|hello|hey|dear|sorry|glad)[\s,]+$", re.IGNORECASE)
# Thanks (or a wish) right before a name that ends the post: "Thanks Linda", "Thank you so
# much, Jo.", "Good luck Monique!" either thanks someone or signs the post ("Can you
# explain? Thanks Mary Jane"). The role "closing" leaves that to the names (Linker).
_CLOSING_LEAD = re.compile(
    r"\b(?:thank\s+you|thanks|thx|ty|good\s+luck)(?:\s+(?:so|very)\s+much|\s+again)?"
    r"[\s,]+$", re.IGNORECASE)
# A greeting right before a name is addressing even when the name ends the post
# ("I asked Ron.\nHi Jess", "Congrats Linda", "big hugs to Linda").
_GREETING_LEAD = re.compile(
    r"\b(?:hi|hello|hey|heya|hiya|dear|good\s+(?:morning|evening|afternoon)|welcome|"
    r"congrats|congratulations|hugs\s+(?:to|for))[\s,]+$", re.IGNORECASE)
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
    text: str       # as read: its visible text (``Li\u200bnda`` is ``Linda``)
    label: str      # NAME or USER
    role: str       # "addressee", "author", "closing" (either: see mention_role) or ""
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
    if not _WORD.search(word) or JOINER_GAP.fullmatch(text[previous.end:span.start]):
        return False                    # "C." tagged in pieces, "Ostrowski-Vale"
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
    return first_names() | surnames


def mention_role(text: str, start: int, end: int) -> str:
    """Who a mention most likely is, from the words around it: ``addressee`` (someone the
    post speaks to, never its author), ``author`` (the post's own author: a sign-off or
    self-introduction), ``closing`` (thanks right before a name ending the post: a
    sign-off or someone thanked, which the names decide), ``titled`` (a name after a
    title, ``Dr. Osei``: never the post's author) or ``""`` (decided by name alone)."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if after_title(before):
        return "titled"
    if "@" in text[max(start - 1, 0):start + 1]:          # "@Linda": a handle addressed
        return "addressee"
    if not text[:line_start].strip() and _GREETING.match(before):
        return "addressee"
    if _SELF_LEAD.search(before) or _SELF_AFTER.match(text[end:]):
        return "author"
    ends_post = not _WORD.search(text, end)
    if _CLOSING_LEAD.search(before):
        return "closing" if ends_post else "addressee"
    if _GREETING_LEAD.search(before):
        return "addressee"
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


_LAST_WORD_BEFORE = re.compile(r"(\w+)(\.?)[ \t]+$")


def after_title(before: str) -> bool:
    """Whether the text ``before`` a name ends with a title (``Dr. ``, ``Nurse ``)."""
    match = _LAST_WORD_BEFORE.search(before)
    if match is None:
        return False
    word, dot = match.group(1), match.group(2)
    key = word.lower()
    # (imported here: the detectors' modules load the tokenizer's tables, which the
    # command line does not need to start)
    from ..lexicon.names import title_words
    from ..detect.titles import ABBREVIATED_TITLES, LOWER_CASE_TITLES
    return (key in title_words() and (word[:1].isupper() or key in LOWER_CASE_TITLES)
            and (not dot or key in ABBREVIATED_TITLES))


def mentions_of(text: str, spans: Iterable[Span]) -> List[Mention]:
    """The person mentions of a post's spans: NAME/USER spans, adjacent names merged;
    greeting words, honorifics (``Dr``), ``I``, lower-case stop words and bare punctuation
    are not mentions (a capitalised ``Will`` may be a person)."""
    from ..text.normalize import visible_text      # (see after_title)
    person_spans = [s for s in spans if s.label in PERSON_LABELS
                    and not _never_a_name(text[s.start:s.end])]
    mentions = []
    for parts in name_groups(text, person_spans):
        s = join(parts)
        if _WORD.search(text, s.start, s.end):
            mentions.append(Mention(s.start, s.end, visible_text(text[s.start:s.end]), s.label,
                                    mention_role(text, s.start, s.end), parts))
    return _unrole_lists(text, mentions)


def _never_a_name(word: str) -> bool:
    key = word.lower().rstrip(".")
    return (key in load_wordlist("greetings") or key in load_wordlist("honorifics") or word == "I"
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


def initials(key: str) -> str:
    """``mary jane`` -> ``mj``."""
    return "".join(word[0] for word in key.split())


def misspelling_distance(length: int) -> int:
    """Edits allowed between a misspelling and a name of this length."""
    return 0 if length < 4 else 1 if length < 8 else 2


_distance = jellyfish.damerau_levenshtein_distance


def is_misspelling(key: str, name: str) -> bool:
    """``arhtur``/``arthr`` of ``arthur``: close in Damerau-Levenshtein distance, and not a
    different real name (``mark`` is not a misspelling of ``mary``)."""
    if key == name or " " in key or " " in name or key in first_names():
        return False
    allowed = misspelling_distance(min(len(key), len(name)))
    return (allowed > 0 and abs(len(key) - len(name)) <= allowed
            and jellyfish.damerau_levenshtein_distance(key, name) <= allowed)


class VariantIndex:
    """Which people a name key may be a variant of, without comparing it to every name.

    Each index maps a key to its people in the order they were added, as a dict used as
    an ordered set: a key can have thousands of people (every ``mary...`` username has the
    prefix ``mary``), and a list's ``in`` test made adding them quadratic."""

    def __init__(self, person_map: PersonMap):
        self.exact: Dict[str, Dict[str, None]] = defaultdict(dict)
        self.by_nickname_group: Dict[str, Dict[str, None]] = defaultdict(dict)
        self.by_initials: Dict[str, Dict[str, None]] = defaultdict(dict)
        self.by_part: Dict[str, Dict[str, None]] = defaultdict(dict)
        self.by_username_variant: Dict[str, Dict[str, None]] = defaultdict(dict)
        self.by_username_prefix: Dict[str, Dict[str, None]] = defaultdict(dict)
        # words misspellings are compared with: (first letter, length) -> [(order added,
        # word, person)] (only lengths within reach of a key's are looked at)
        self.by_first_letter: Dict[Tuple[str, int], List[Tuple[int, str, str]]] = \
            defaultdict(list)
        self._letter_entries: Set[Tuple[str, str]] = set()
        # key -> variant_people(key): emptied whenever a name or username is added
        self._variants: Dict[str, List[str]] = {}
        for person in person_map:
            self.add_usernames(person)
            for key in person.names:
                self.add_name(key, person.id)

    def add_name(self, key: str, person_id: str) -> None:
        self._variants.clear()
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
        self._variants.clear()
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
            self.by_first_letter[word[:1], len(word)].append(
                (len(self._letter_entries), word, person_id))

    def exact_people(self, key: str) -> List[str]:
        return list(self.exact.get(key, ()))

    def variant_people(self, key: str) -> List[str]:
        """People one of whose names ``key`` is a variant of, in first-seen order."""
        found = self._variants.get(key)
        if found is None:
            found = self._variants[key] = self._variant_people(key)
        return list(found)

    def _misspelt(self, key: str) -> List[Tuple[int, str, str]]:
        """The (order added, word, person) entries ``key`` is a misspelling of
        (``is_misspelling``), in the order they were added."""
        if " " in key or key in first_names():
            return []
        found = []
        for length in range(max(1, len(key) - 2), len(key) + 3):
            allowed = misspelling_distance(min(len(key), length))
            if allowed == 0 or abs(len(key) - length) > allowed:
                continue
            # (is_misspelling with what holds for every entry here checked once)
            for entry in self.by_first_letter.get((key[:1], length), ()):
                if entry[1] != key and _distance(key, entry[1]) <= allowed:
                    found.append(entry)
        found.sort()
        return found

    def _variant_people(self, key: str) -> List[str]:
        found: Dict[str, None] = {}             # (an ordered set)
        if " " not in key:
            for canonical in _nickname_groups_by_name().get(key, ()):
                found.update(dict.fromkeys(self.by_nickname_group.get(canonical, ())))
            if 2 <= len(key) <= 4:
                found.update(dict.fromkeys(self.by_initials.get(key, ())))
            found.update(dict.fromkeys(self.by_part.get(key, ())))
            found.update(dict.fromkeys(person_id for _, _, person_id in self._misspelt(key)))
        for index in (self.by_username_variant, self.by_username_prefix):
            found.update(dict.fromkeys(index.get(key.replace(" ", ""), ())))
        exact = self.exact.get(key, {})
        return [p for p in found if p not in exact]


def _add(index: Dict[str, Dict[str, None]], key: str, person_id: str) -> None:
    index[key][person_id] = None      # (a person already there keeps their place)


# -- scope -----------------------------------------------------------------------------
class ScopeIndex:
    """Who posts where: the people of each thread and board, each post's author and place
    in the dump, and who posted in each thread before a post."""

    def __init__(self):
        self.members: Dict[Tuple[str, str], Set[str]] = defaultdict(set)
        self.author_of: Dict[str, str] = {}
        self.position: Dict[str, int] = {}                  # post id -> order in the dump
        self.thread_posts: Dict[str, List[Tuple[int, str]]] = defaultdict(list)
        self._posts = 0

    def add_post(self, fields: dict) -> None:
        author, thread = _text(fields, "author"), _text(fields, "thread")
        self.position[_text(fields, "id")] = self._posts
        self.thread_posts[thread].append((self._posts, author))   # (position, author)
        self._posts += 1
        self.author_of[_text(fields, "id")] = author
        self.members[("thread", thread)].add(author)
        self.members[("board", _text(fields, "board"))].add(author)

    def group(self, fields: dict, scope: str) -> Tuple[str, str]:
        return ("dump", "") if scope == "dump" else (scope, _text(fields, scope))

    def in_group(self, username: str, group: Tuple[str, str]) -> bool:
        return group[0] == "dump" or username in self.members.get(group, ())

    def parent_author(self, fields: dict) -> Optional[str]:
        parent = fields.get("parent")
        return None if parent in (None, "") else self.author_of.get(str(parent))

    def earlier_posters(self, fields: dict) -> List[str]:
        """Who posted in the post's thread before it, the latest first (at most
        ``ADDRESSEE_WINDOW`` of them, within ``ADDRESSEE_SCAN`` posts), and the thread's
        first poster, so often thanked, however far back."""
        posts = self.thread_posts.get(_text(fields, "thread"), [])
        end = bisect.bisect_left(posts, (self.position.get(_text(fields, "id"), self._posts),))
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
        author = _text(fields, "author")
        found: List[str] = []
        for username in [self.parent_author(fields) or ""] + self.earlier_posters(fields):
            if username and username != author and username not in found:
                found.append(username)
        return found

    def opens_thread(self, fields: dict) -> bool:
        """A post replying to nothing and no one: no parent, nobody else posted before."""
        return (fields.get("parent") in (None, "")
                and not self.addressees(fields))


def _text(fields: dict, name: str) -> str:
    value = fields.get(name)
    return "" if value is None else str(value)


def _group_label(group: Tuple[str, str]) -> str:
    return "the dump" if group[0] == "dump" else "%s %s" % group


# -- is a person called so? -----------------------------------------------------------
EXACT, VARIANT = 2, 1


def called(key: str, person: Person) -> int:
    """How well ``key`` fits a person's names and usernames: ``EXACT`` (a name, the
    username or a part of it: ``linda`` of linda_k), ``VARIANT`` (a nickname, initials,
    a part of a longer name or a longer name of a part, a misspelling, a username prefix)
    or 0."""
    variants = _username_words(tuple(person.usernames))
    if key in person.names or key in variants:
        return EXACT
    names = list(person.names) + [v for v in variants if v.isalpha()]
    canonicals = _nickname_groups_by_name().get(key, frozenset())
    key_parts = key.split()
    for name in names:
        parts = name.split()
        if (canonicals & _nickname_groups_by_name().get(name, frozenset())
                or (len(parts) > 1 and (key in parts or key == initials(name)))
                or (len(key_parts) > 1 and name in key_parts)
                or is_misspelling(key, name)):
            return VARIANT
    folded = key.replace(" ", "")
    if len(folded) >= USERNAME_PREFIX_MIN and any(
            u.casefold().startswith(folded) for u in person.usernames):
        return VARIANT
    return 0


def known_by_name(person: Person) -> bool:
    """Whether anything says what a person is called: a name found for them other than
    their username, or a first name in their username (``linda_k``; not ``hope4all``, a
    word first)."""
    username_words = _username_words(tuple(person.usernames))
    return any(name not in username_words for name in person.names) or any(
        v in first_names() and not _ordinary_word(v) for v in username_words)


@functools.lru_cache(maxsize=65536)
def _username_words(usernames: Tuple[str, ...]) -> frozenset:
    """The usernames as names are compared (``name_key``) and their variants of three or
    more letters that are not stop words (as :class:`VariantIndex` indexes them)."""
    stop_words = load_wordlist("stop_words")
    words = {name_key(u) for u in usernames}
    for username in usernames:
        words |= {v for v in username_variants(username)
                  if len(v) >= 3 and v not in stop_words}
    return frozenset(words)


# -- linking ---------------------------------------------------------------------------
_POST_CONTEXT = ("id", "author", "parent", "thread", "board")


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
            raise ValueError("scope must be one of %s" % ", ".join(SCOPES))
        self.scope = scope
        self.scopes = ScopeIndex()
        self._authors: Dict[str, int] = {}                 # username -> first-post order
        self._evidence: Counter = Counter()                 # (username, key) -> posts
        # (key, label) -> (scope group, author the name is not) -> posts
        self._unlinked: Dict[Tuple[str, str], Counter] = {}
        self._addressed: List[_Addressed] = []
        self._forms: Dict[str, Counter] = defaultdict(Counter)
        self._ids_in_texts: Set[str] = set()            # [P12] of an earlier scrub

    def observe(self, fields: dict, spans: Sequence[Span]) -> None:
        self.scopes.add_post(fields)
        if "[" in fields["text"]:
            self._ids_in_texts.update(PSEUDONYM_IN_TEXT.findall(fields["text"]))
        author = _text(fields, "author")
        if author and author not in self._authors:
            self._authors[author] = len(self._authors)
        post = {name: fields.get(name) for name in _POST_CONTEXT}
        seen: Set[Tuple[str, str, str]] = set()
        for mention in mentions_of(fields["text"], spans):
            key = name_key(mention.text)
            if not key:
                continue
            self._forms[key][mention.text] += 1
            marker = (mention.role, key, mention.label)
            if marker in seen:              # counts are posts, as in Farrow et al.
                continue
            seen.add(marker)
            if mention.role == "author" and author:
                self._evidence[(author, key)] += 1
            elif mention.role in ("addressee", "closing"):
                self._addressed.append(_Addressed(post, key, mention.label, mention.role))
            elif mention.role == "titled":
                self._add_unlinked(key, mention.label, self.scopes.group(fields, self.scope),
                                   author)
            else:
                self._add_unlinked(key, mention.label, self.scopes.group(fields, self.scope))

    def _add_unlinked(self, key: str, label: str, group: Tuple[str, str], not_of: str = "",
                      posts: int = 1) -> None:
        self._unlinked.setdefault((key, label), Counter())[(group, not_of)] += posts

    def person_map(self, warn: Optional[Callable[[DuplicateName], None]] = None) -> PersonMap:
        people = PersonMap()
        for person_id in self._ids_in_texts:
            people.reserve(person_id)
        for username, person_id in zip(self._authors,
                                       _author_ids(self._authors, self._ids_in_texts)):
            people.add(Person(person_id, [username]))
        by_username = {p.usernames[0]: p for p in people}
        for (username, key), posts in self._evidence.items():
            named = people.by_username(key)
            if named is not None and named.usernames[0] != username:
                # "Thank you hope and Ron": the user hope, not a name of the parent author
                self._add_unlinked(key, "USER", ("dump", ""), posts=posts)
            elif username in by_username:
                by_username[username].names[key] += posts
        self._link_addressed(people, by_username)
        index = VariantIndex(people)
        resolver = Resolver(people, self.scopes, self.scope, warn=warn, index=index)
        # Most used names first, so a variant joins the name it is a variant of; then in
        # the order the dump first mentions them.
        first_seen = {key: order for order, key in enumerate(self._forms)}
        for (key, label), groups in sorted(
                self._unlinked.items(),
                key=lambda item: (-sum(item[1].values()), first_seen.get(item[0][0], 0))):
            for (group, not_of), posts in groups.items():
                excluded = by_username[not_of].id if not_of in by_username else ""
                person_id = resolver.resolve_in_group(key, label, group, excluded)
                person = people[person_id]
                if person.usernames and name_key(person.usernames[0]) == key:
                    continue                      # the username itself, already listed
                person.names[key] += posts
                resolver.learn(key, person_id)
        for person in people:
            person.forms = {key: self._forms[key].most_common(1)[0][0]
                            for key in person.names if key in self._forms}
        return people

    def _link_addressed(self, people: PersonMap, by_username: Dict[str, Person]) -> None:
        """The names addressed, in dump order, each with the names known by then."""
        linked: Set[Tuple[str, str, str]] = set()          # (post id, username, key)
        for addressed in self._addressed:
            post, key = addressed.post, addressed.key
            author = _text(post, "author")
            named = people.by_username(key)
            if named is not None:           # a username is its user: a name of theirs
                if named.usernames[0] in self.scopes.addressees(post):   # when addressed
                    username = named.usernames[0]
                else:
                    self._add_unlinked(key, "USER", ("dump", ""))
                    continue
            else:
                username = self._addressee(addressed, by_username)
            if username is None:
                # Nobody who matches: found by name, or a person of its own; not the author.
                self._add_unlinked(key, addressed.label, self.scopes.group(post, self.scope),
                                   author)
            elif (_text(post, "id"), username, key) not in linked:
                linked.add((_text(post, "id"), username, key))
                by_username[username].names[key] += 1

    def _addressee(self, addressed: _Addressed, by_username: Dict[str, Person]
                   ) -> Optional[str]:
        """The username a name addressed (or closing a post) belongs to, if any."""
        post, key = addressed.post, addressed.key
        author = _text(post, "author")
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
                and not known_by_name(by_username[parent]):
            return parent               # Farrow et al.: a greeting names the author replied to
        return None


def _author_ids(usernames: Iterable[str], taken: Iterable[str] = ()) -> List[str]:
    """``U1``, ``U2``, ... in order; an author already called like a pseudonym (``U12``:
    a scrubbed dump scrubbed again) keeps that id, and no one else gets it, nor an id of
    ``taken`` (pseudonyms in the texts)."""
    usernames = list(usernames)
    reserved = {u for u in usernames if AUTHOR_PSEUDONYM.fullmatch(u)}
    reserved |= {i for i in taken if i.startswith("U")}
    ids, number = [], 0
    for username in usernames:
        if username in reserved:
            ids.append(username)
            continue
        number += 1
        while "U%d" % number in reserved:
            number += 1
        ids.append("U%d" % number)
    return ids


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
        author_name = _text(fields, "author")
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
