"""Output operators: what a removed identifier becomes. One class per output mode, with one
signature (``rewrite(fields, spans) -> (record, [Replaced])``), registered by name in
:data:`OPERATORS`; the command line's ``--mode`` choices come from that registry.

Every mode replaces *mentions*, not tokens: adjacent name tokens (``Mary Jane``, ``David A.
Foti``) are one span, one placeholder, one person (:func:`mmbdeid.spans.merge_mentions`).
Each :class:`Replaced` keeps the detected spans it joins (``parts``), so the spans file can
still give every token's probability.

- ``placeholder``: ``[NAME]``, ``[USER]``, ``[EMAIL]``, ... (per post: no linking needed);
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
"""
from __future__ import annotations

from typing import (Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple,
                    Type)

from ..kinds import BY_LABEL, PERSON_LABELS, placeholder
from ..lexicon.wordlists import load_wordlist
from ..people.mentions import Mention
from ..people.personmap import PersonMap
from ..people.resolver import DuplicateName, Resolver
from ..people.scope import ScopeIndex
from ..spans import Span, join, mention_groups, stitch
from .person_mentions import MentionFinder


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

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        raise NotImplementedError


class PlaceholderOperator(Operator):
    name = "placeholder"

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        text = fields["text"]
        replaced = [Replaced(join(parts), "", parts) for parts in mention_groups(text, spans)]
        return (dict(fields, text=stitch(text, ((r.span, placeholder(r.span.label))
                                                for r in replaced))),
                replaced)


class PersonOperator(Operator):
    """The person modes: every mention of a person gets that person's value."""

    needs_people = True
    seeded = False          # takes a ``seed`` (the surrogates')

    def __init__(self, people: PersonMap, scopes: ScopeIndex, scope: str = "board",
                 allow: Sequence[str] = (), steps: Optional[Sequence[str]] = None,
                 warn: Optional[Callable[[DuplicateName], None]] = None):
        self.people = people
        self.resolver = Resolver(people, scopes, scope, warn=warn)
        self.member_forms = _member_name_forms(people)
        self._finder_options = (allow, steps)
        self._finder: Optional[MentionFinder] = None

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, Linked]:
        if self._finder is None:        # (built on first use: with workers, they find)
            self._finder = MentionFinder(self.member_forms, *self._finder_options)
        return self.write(fields, *self._finder(fields["text"], spans))

    def write(self, fields: dict, spans: Sequence[Span], mentions: Sequence[Mention]
              ) -> Tuple[dict, Linked]:
        """The post rewritten, given what :class:`~mmbdeid.output.person_mentions.
        MentionFinder` made of its spans: each mention linked to its person. Posts are
        written in input order, since the resolver learns as it goes and each surrogate
        is drawn once."""
        text = fields["text"]
        replaced: List[Tuple[Replaced, str]] = []         # (what, its replacement)
        for mention in mentions:
            person_id = self.resolver.resolve(mention, fields)
            replaced.append((Replaced(join(mention.parts), person_id, mention.parts),
                             self.person_value(person_id, mention.label, mention.text)))
        for span in spans:
            if span.label not in PERSON_LABELS:
                replaced.append((Replaced(span, "", (span,)),
                                 self.other_value(span, text[span.start:span.end])))
        replaced.sort(key=lambda item: item[0].span.start)
        record = dict(fields, text=stitch(text, ((r.span, v) for r, v in replaced)))
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
    name = "surrogate"
    seeded = True

    def __init__(self, people: PersonMap, scopes: ScopeIndex, scope: str = "board",
                 allow: Sequence[str] = (), steps: Optional[Sequence[str]] = None,
                 warn: Optional[Callable[[DuplicateName], None]] = None, seed: int = 0):
        super().__init__(people, scopes, scope, allow, steps, warn)
        from .surrogates import SurrogateFactory
        self.surrogates = SurrogateFactory(seed=seed, reserved=_real_strings(people))
        # Identities drawn in map order from each person's most used name: the values
        # do not depend on which post comes first, and the fake name matches the
        # real one's gender where that is known.
        for person in people:
            if person.names:
                top = max(person.names, key=lambda key: (person.names[key], key))
                self.surrogates.name(person.id, people.form(person, top))

    def person_value(self, person_id: str, label: str, original: str) -> str:
        if label in ("USER", "AUTHOR"):
            return self.surrogates.username(person_id, original)
        return self.surrogates.name(person_id, original)

    def other_value(self, span: Span, original: str) -> str:
        kind = BY_LABEL.get(span.label)
        if kind is None or kind.surrogate is None:
            return placeholder(span.label)
        return getattr(self.surrogates, kind.surrogate)(original)


OPERATORS: Dict[str, Type[Operator]] = {
    operator.name: operator
    for operator in (PlaceholderOperator, PseudonymOperator, SurrogateOperator)}
MODES = tuple(OPERATORS)


def _member_name_forms(people: PersonMap) -> List[str]:
    """How the people of the map are called, for the whole-word search: every line of the
    map, board members and people only mentioned alike, so a name added to a ``P`` line by
    hand is applied (stop words and one-letter names left out: they would replace
    ordinary words)."""
    stop_words = load_wordlist("stop_words")
    forms = []
    for person in people:
        for key in person.names:
            form = people.form(person, key)
            if len(key) >= 2 and key not in stop_words:
                forms.append(form)
    return forms


def _real_strings(people: PersonMap) -> List[str]:
    """Every real name and username of the map: a surrogate must never be one of them."""
    strings = []
    for person in people:
        strings += person.usernames
        strings += list(person.names)
    return strings
