"""Output operators: what a removed identifier becomes. One class per output mode, with one
signature (``rewrite(fields, spans) -> (record, [Replaced])``), registered by name in
:data:`OPERATORS`; the command line's ``--mode`` choices come from that registry.

Every mode replaces *mentions*, not tokens: adjacent name tokens (``Mary Jane``, ``David A.
Foti``) are one span, one placeholder, one person (:func:`mmbdeid.spans.merge_mentions`).
Each :class:`Replaced` keeps the detected spans it joins (``parts``), so the spans file can
still give every token's probability.

- ``placeholder``: ``[NAME]``, ``[USER]``, ``[EMAIL]``, ... (per post: no linking needed);
- ``mask``: ``*`` for every character of the mention, spaces too (per post), the ``author``
  field masked alike;
- ``hash``: ``[NAME:1a2b3c4d5e6f]``, a keyed digest of the identifier
  (:mod:`mmbdeid.output.hash_key`; per post), the ``author`` field hashed as a username;
- ``pseudonym``: one identifier per person across the dump (``[U12]``), the post's
  ``author`` field becoming ``U12`` too; e-mails, URLs and phones stay placeholders;
- ``surrogate``: realistic fake values (:mod:`mmbdeid.output.surrogates`), the same person
  always getting the same fake name and username, shaped like the original.

The two person modes need the people of the dump (``needs_people``): a post's spans are
first completed with the names of the people of the person map, every line of it (found
case-sensitively as whole words, like the substitution step of Farrow, Moore and Gašević
2023, so a name the model missed once is still replaced; never where a keep step of the
analyzer chain keeps the words: ``Graves' disease``, a title, a placeholder), then grouped
into mentions and linked to people (:mod:`mmbdeid.people.linker`).

Other per-post operators: a class registered with :func:`register_operator`, or any
function of (label, original text) wrapped in a :class:`CallableOperator`.
"""
from __future__ import annotations

import re
from typing import (Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple,
                    Type)

from ..checks import kind_of
from ..errors import MmbdeidTypeError, MmbdeidValueError
from ..kinds import BY_LABEL, PERSON_LABELS, placeholder
from ..lexicon.wordlists import load_wordlist
from ..people.mentions import Mention
from ..people.personmap import PersonMap
from ..people.resolver import Answer, DuplicateName, Resolver
from ..people.scope import ScopeIndex
from ..people.spread import where_searched
from ..spans import Span, join, mention_groups
from ..text.markup import stitch_keeping_markup, without_markup
from ..text.placeholders import PLACEHOLDER, mark_surrogate
from .hash_key import HashKey
from .person_mentions import MentionFinder, name_words


class Replaced(NamedTuple):
    """What one replacement in the output stands for."""
    span: Span                  # the mention (or pattern identifier) replaced
    person: str                 # its person id in the person modes, else ""
    parts: Tuple[Span, ...]     # the detected spans it joins, in text order (one: itself)


Linked = List[Replaced]


class Operator:
    """Rewrites a post given its spans. ``needs_people``: the operator is built from the
    person map after a linking pass; otherwise it works post by post (in the workers)."""

    name = ""
    needs_people = False
    keyed = False           # takes the run's hash key (a HashKey)

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        raise NotImplementedError

    @classmethod
    def rewritten_fields(cls) -> Tuple[str, ...]:
        """The fields besides the text that the operator writes anew, as text: an output
        holds text there whatever the dump had (a Parquet output, a string column)."""
        return ("author",)


class PostOperator(Operator):
    """An operator that works post by post: each mention (adjacent name tokens joined)
    becomes :meth:`value`, and the ``author`` field :meth:`author_value`."""

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        text = fields["text"]
        replaced = [Replaced(join(parts), "", parts) for parts in mention_groups(text, spans)]
        record = dict(fields, text=stitch_keeping_markup(text, (
            (r.span, self.value(r.span.label, without_markup(text, r.span)))
            for r in replaced)))
        author = fields.get("author")
        if author not in (None, ""):
            record["author"] = self.author_value(author)
        return record, replaced

    def value(self, label: str, original: str) -> str:
        """What a mention of kind ``label`` (``NAME``, ``EMAIL``, ...) becomes."""
        raise NotImplementedError

    def author_value(self, author):
        """What a non-empty ``author`` field becomes: kept as it is."""
        return author

    @classmethod
    def rewritten_fields(cls) -> Tuple[str, ...]:
        return () if cls.author_value is PostOperator.author_value else ("author",)


class PlaceholderOperator(PostOperator):
    name = "placeholder"

    def value(self, label: str, original: str) -> str:
        return placeholder(label)


class MaskOperator(PostOperator):
    """Every character of a mention becomes ``*``, white space too, so the text keeps its
    length and every offset of the original (the spans file's offsets hold for both), and
    neither the number of words nor their lengths shows. The author field is masked too:
    it is a username."""

    name = "mask"

    def value(self, label: str, original: str) -> str:
        return "*" * len(original)

    def author_value(self, author) -> str:
        return "*" * len(str(author))


class HashOperator(PostOperator):
    """``[NAME:1a2b3c4d5e6f]``: the label and a keyed digest of the identifier
    (:class:`~mmbdeid.output.hash_key.HashKey`), the same for the same identifier in every
    post and run with the same key. The author field is hashed as a username, so it equals
    the value of that user's ``@handle`` in the texts; one already hashed is kept."""

    name = "hash"
    keyed = True

    def __init__(self, hash_key: HashKey):
        if not isinstance(hash_key, HashKey):
            raise MmbdeidTypeError("the hash operator needs a HashKey, not %s" % kind_of(hash_key))
        self.hash_key = hash_key

    def value(self, label: str, original: str) -> str:
        return "[%s:%s]" % (label, self.hash_key.digest(label, original))

    def author_value(self, author) -> str:
        author = str(author)
        if PLACEHOLDER.fullmatch(author):       # a scrub of hashed output changes nothing
            return author
        return self.value("USER", author)


class CallableOperator(PostOperator):
    """A function of ``(label, original)`` returning the replacement text, as an operator:
    ``Scrubber(mode=function)``. With ``author=True`` the author field is given to it too,
    as label ``AUTHOR``; otherwise it is kept (as in placeholder mode)."""

    name = "callable"

    def __init__(self, function: Callable[[str, str], str], author: bool = False):
        if not callable(function):
            raise MmbdeidTypeError("the operator must be callable, not %s" % kind_of(function))
        self.function = function
        self.author = author

    def value(self, label: str, original: str) -> str:
        result = self.function(label, original)
        if not isinstance(result, str):
            # (the original is not shown: a message must not carry an identifier)
            raise MmbdeidTypeError("the operator %s returned %s for a %s; it must return a str"
                                   % (_function_name(self.function), kind_of(result), label))
        return result

    def author_value(self, author):
        return self.value("AUTHOR", str(author)) if self.author else author


class PersonOperator(Operator):
    """The person modes: every mention of a person gets that person's value."""

    needs_people = True
    seeded = False          # takes a ``seed`` (the surrogates')

    def __init__(self, people: PersonMap, scopes: ScopeIndex, scope: str = "board",
                 allow: Sequence[str] = (), steps: Optional[Sequence[str]] = None,
                 warn: Optional[Callable[[DuplicateName], None]] = None):
        self.people = people
        self.resolver = Resolver(people, scopes, scope, warn=warn)
        self.resolver.fix()
        self.member_forms = member_name_forms(people)
        self._finder_options = (allow, steps)
        self._finder: Optional[MentionFinder] = None

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        if self._finder is None:        # (built on first use: with workers, they find)
            self._finder = finder_of(self.people, *self._finder_options)
        return self.write(fields, *self._finder(fields["text"], spans, fields,
                                                self.resolver.scopes.addressees(fields)))

    def write(self, fields: dict, spans: Sequence[Span], mentions: Sequence[Mention],
              answers: Optional[Sequence[Answer]] = None) -> Tuple[dict, Linked]:
        """The post rewritten, given what :class:`~mmbdeid.output.person_mentions.
        MentionFinder` made of its spans: each mention linked to its person, from the
        workers' ``answers`` if given (:meth:`~mmbdeid.people.resolver.Resolver.settle`).
        Posts are written in input order, since the resolver learns as it goes and each
        surrogate is drawn once."""
        text = fields["text"]
        replaced: List[Tuple[Replaced, str]] = []         # (what, its replacement)
        for number, mention in enumerate(mentions):
            person_id = (self.resolver.resolve(mention, fields) if answers is None
                         else self.resolver.settle(answers[number], mention, fields))
            replaced.append((Replaced(join(mention.parts), person_id, mention.parts),
                             self.person_value(person_id, mention.label, mention.text)))
        for span in spans:
            if span.label not in PERSON_LABELS:
                replaced.append((Replaced(span, "", (span,)),
                                 self.other_value(span, without_markup(text, span))))
        replaced.sort(key=lambda item: item[0].span.start)
        record = dict(fields, text=stitch_keeping_markup(
            text, ((r.span, v) for r, v in replaced)))
        author = fields.get("author")
        if author not in (None, ""):
            person_id = self.resolver.author(str(author))
            record["author"] = self.person_value(person_id, "AUTHOR", str(author))
        return record, [r for r, _ in replaced]

    def person_value(self, person_id: str, label: str, original: str) -> str:
        """What a mention of a person (or, label ``AUTHOR``, the author field) becomes."""
        raise NotImplementedError

    def other_value(self, span: Span, original: str) -> str:
        """What an identifier that is not a person (e-mail, URL, phone) becomes."""
        return placeholder(span.label)


class PseudonymOperator(PersonOperator):
    name = "pseudonym"

    def person_value(self, person_id: str, label: str, original: str) -> str:
        return person_id if label == "AUTHOR" else "[%s]" % person_id


class SurrogateOperator(PersonOperator):
    """``evidence``: what pass 2 read of each name (:class:`~mmbdeid.people.gender_cues.
    GenderEvidence`: the gender the text gives a person, the names that follow ``Mr.``);
    ``mark``: every surrogate in the text between ``⟦`` and ``⟧`` (``--mark-surrogates``),
    so a reader can tell the changed words, and a later scrub keeps them."""

    name = "surrogate"
    seeded = True

    def __init__(self, people: PersonMap, scopes: ScopeIndex, scope: str = "board",
                 allow: Sequence[str] = (), steps: Optional[Sequence[str]] = None,
                 warn: Optional[Callable[[DuplicateName], None]] = None, seed: int = 0,
                 evidence=None, mark: bool = False):
        super().__init__(people, scopes, scope, allow, steps, warn)
        from .surrogates import SurrogateFactory
        self.surrogates = SurrogateFactory(seed=seed, reserved=_real_strings(people))
        self.mark = mark
        self._evidence = evidence
        genders = evidence.genders(people) if evidence is not None else {}
        surnames = evidence.surnames() if evidence is not None else frozenset()
        self._surnames = surnames
        self._map_names = {key for person in people for key in person.names}
        self._described = {person.id for person in people}
        # Identities drawn in map order, before any post is written, from what the whole
        # dump says of each person (their names' forms, the gender the text gives them,
        # else their most used name's): the values do not depend on which post comes
        # first, and no two people share a fake name.
        for person in people:
            forms = [people.form(person, key) for key in person.names]
            self.surrogates.describe(person.id, forms, genders.get(person.id, ""), surnames)
            if person.names:
                top = max(person.names, key=lambda key: (person.names[key], key))
                self.surrogates.name(person.id, people.form(person, top))
            elif person.usernames:          # a member never named: by their username
                self.surrogates.username(person.id, person.usernames[0])

    def person_value(self, person_id: str, label: str, original: str) -> str:
        if person_id not in self._described:
            self._describe_new(person_id)
        if label == "AUTHOR":
            return self.surrogates.username(person_id, original)
        if label == "USER":
            return self._marked(self.surrogates.username(person_id, original))
        if not self.mark:
            return self.surrogates.name(person_id, original)
        before, fake, after = self.surrogates.name_parts(person_id, original)
        return before + self._marked(fake) + after      # "Dr. ⟦Smith⟧": the title is kept

    def _describe_new(self, person_id: str) -> None:
        """A person pass 3 met first (a name no one of the map had): described from their
        names so far, with the gender the text gave those names if no one else has them."""
        self._described.add(person_id)
        person = self.people[person_id] if person_id in self.people else None
        keys = [key for key in person.names] if person is not None else []
        gender = (self._evidence.gender_of(k for k in keys if k not in self._map_names)
                  if self._evidence is not None else "")
        self.surrogates.describe(person_id, [self.people.form(person, k) for k in keys],
                                 gender, self._surnames)

    def other_value(self, span: Span, original: str) -> str:
        kind = BY_LABEL.get(span.label)
        if kind is None or kind.surrogate is None:
            return placeholder(span.label)
        return self._marked(getattr(self.surrogates, kind.surrogate)(original))

    def _marked(self, value: str) -> str:
        """``value`` between the surrogate marks if asked (spaces around it outside)."""
        body = value.strip()
        if not self.mark or not body:
            return value
        start = value.index(body)
        return value[:start] + mark_surrogate(body) + value[start + len(body):]


OPERATORS: Dict[str, Type[Operator]] = {
    operator.name: operator
    for operator in (PlaceholderOperator, MaskOperator, HashOperator, PseudonymOperator,
                     SurrogateOperator)}
_MODE_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def register_operator(operator: Type[Operator]) -> Type[Operator]:
    """Adds an :class:`Operator` class to :data:`OPERATORS` under its ``name`` (a lower-case
    word), so ``Scrubber(mode=name)`` and, in this process, the command line's ``--mode``
    take it; returns the class (a decorator). A per-post operator must be built without
    arguments; a ``PersonOperator``'s constructor takes those of the person modes."""
    if not (isinstance(operator, type) and issubclass(operator, Operator)):
        raise MmbdeidTypeError("an operator must be a subclass of Operator, not %s"
                               % kind_of(operator))
    name = operator.name
    if not isinstance(name, str) or not _MODE_NAME.fullmatch(name):
        raise MmbdeidValueError("an operator's name must be a lower-case word (letters, digits, "
                                "- and _), got %r" % (name,))
    if OPERATORS.get(name, operator) is not operator:
        raise MmbdeidValueError("an operator named %r is registered already" % name)
    OPERATORS[name] = operator
    return operator


def post_operator(mode: str, hash_key: Optional[HashKey] = None) -> Operator:
    """The per-post operator of ``mode`` (a name in :data:`OPERATORS`), built with the
    run's hash key where it takes one."""
    operator = OPERATORS[mode]
    if operator.needs_people:
        raise MmbdeidValueError("mode %r links people across the dump: only the command line's "
                                "scrub runs it" % mode)
    return operator(hash_key) if operator.keyed else operator()


def _function_name(function) -> str:
    return getattr(function, "__qualname__", None) or type(function).__name__


def member_name_forms(people: PersonMap) -> List[str]:
    """How the people of the map are called, for the whole-word search: every line of the
    map, board members and people only mentioned alike, so a name added to a ``P`` line by
    hand is applied (stop words and one-letter names left out: they would replace
    ordinary words); but only what is a name (:mod:`mmbdeid.people.spread`: not a
    dictionary or medical word, not a name the model only guessed at)."""
    stop_words = load_wordlist("stop_words")
    forms = []
    for person in people:
        for key in person.names:
            form = people.form(person, key)
            if len(key) >= 2 and key not in stop_words and (key in person.by_hand or (
                    where_searched(form)
                    and (person.confident is None or key in person.confident))):
                forms.append(form)
    return forms


def own_name_keys(people: PersonMap) -> Dict[str, frozenset]:
    """Each member's username (case-folded) -> the names of their line: what they may
    sign their own posts with (:mod:`mmbdeid.people.own_signoff`)."""
    return {username.casefold(): frozenset(person.names)
            for person in people for username in person.usernames if person.names}


def thread_name_parts(people: PersonMap) -> Dict[str, List[str]]:
    """Thread -> the parts of the confident full names of the people named there who
    never post (``Dolores`` of ``Dolores Nakamura-Reyes``): searched in that thread only.
    (A map read from a file does not know the threads.)"""
    parts: Dict[str, List[str]] = {}
    for person in people:
        if person.usernames or not person.threads:
            continue
        words = [word for key in person.names if " " in key and (
                 person.confident is None or key in person.confident)
                 for word in name_words(people.form(person, key).split())]
        for thread in person.threads if words else ():
            parts.setdefault(thread, []).extend(words)
    return parts


def finder_of(people: PersonMap, allow: Sequence[str] = (),
              steps: Optional[Sequence[str]] = None) -> MentionFinder:
    """The :class:`MentionFinder` of a person map."""
    return MentionFinder(member_name_forms(people), allow, steps,
                         hand_added=hand_added_forms(people),
                         own_names=own_name_keys(people),
                         thread_parts=thread_name_parts(people))


def hand_added_forms(people: PersonMap) -> List[str]:
    """The names written in an edited map without a count (``P7 | Grant``): added by
    hand, searched as written wherever they stand, words or not."""
    return [people.form(person, key) for person in people for key in person.by_hand]


def _real_strings(people: PersonMap) -> List[str]:
    """Every real name and username of the map, and every word of two or more letters of
    a name (``stan`` of ``stan kowalski``): a surrogate must never be one of them."""
    strings = []
    for person in people:
        strings += person.usernames
        strings += list(person.names)
        strings += [word for key in person.names if " " in key
                    for word in key.split() if len(word) >= 2]
    return strings
