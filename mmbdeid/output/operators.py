"""Output modes: what a removed identifier becomes.

- ``placeholder``: ``[NAME]``, ``[USER]``, ``[EMAIL]``, ... (no linking needed);
- ``pseudonym``: one identifier per person across the dump (``[U12]``), the post's
  ``author`` field becoming ``U12`` too; e-mails, URLs and phones stay placeholders;
- ``surrogate``: realistic fake values (:mod:`mmbdeid.surrogates`), the same person always
  getting the same fake name and username, shaped like the original.

For the two person modes, a post's spans are first completed with the names of board
members from the person map (found case-sensitively as whole words, like the substitution
step of paper 003, so a name the model missed once is still replaced), then grouped into
mentions and linked to people (:mod:`mmbdeid.linking`).
"""
from __future__ import annotations

from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from ..model.lexicon import load_wordlist
from ..people.linking import DuplicateName, Resolver, ScopeIndex, mentions_of
from ..people.personmap import PersonMap
from ..detect.analyzer import add_spans
from ..spans import PLACEHOLDERS, Span, stitch
from ..text.terms import TermMatcher, allow_step

MODES = ("placeholder", "pseudonym", "surrogate")
PERSON_MODES = ("pseudonym", "surrogate")


class Pseudonymizer:
    """Rewrites posts (text and author) in a person mode, given the person map."""

    def __init__(self, people: PersonMap, scopes: ScopeIndex, mode: str = "pseudonym",
                 scope: str = "board", seed: int = 0, allow: Sequence[str] = (),
                 warn: Optional[Callable[[DuplicateName], None]] = None):
        if mode not in PERSON_MODES:
            raise ValueError("mode must be one of %s" % ", ".join(PERSON_MODES))
        self.mode = mode
        self.people = people
        self.resolver = Resolver(people, scopes, scope, warn=warn)
        self.allow = TermMatcher(allow) if allow else None
        self.member_names = TermMatcher(_member_name_forms(people), case_sensitive=True)
        self.surrogates = None
        if mode == "surrogate":
            from ..output.surrogates import SurrogateFactory
            self.surrogates = SurrogateFactory(seed=seed, reserved=_real_strings(people))
            # Identities drawn in map order from each person's most used name: the values
            # do not depend on which post comes first, and the fake name matches the
            # real one's gender where that is known.
            for person in people:
                if person.names:
                    top = max(person.names, key=lambda key: (person.names[key], key))
                    self.surrogates.name(person.id, people.form(person, top))

    def rewrite(self, fields: dict, spans: Sequence[Span]) -> Tuple[dict, List[Tuple[Span, str]]]:
        """(new record, [(span, person id or "")]) for a post and its detected spans."""
        text = fields["text"]
        spans = add_spans(spans, [Span("NAME", start, end, 1.0) for start, end, _ in
                                  self.member_names.finditer(text)
                                  if not _inside_any(start, end, spans)])
        if self.allow is not None:
            spans = allow_step(spans, text, self.allow)
        mentions = mentions_of(text, spans)
        others = [s for s in spans if s.label not in ("NAME", "USER")]
        replaced: List[Tuple[Span, str, str]] = []
        for mention in mentions:
            person_id = self.resolver.resolve(mention, fields)
            span = Span(mention.label, mention.start, mention.end, 1.0)
            replaced.append((span, person_id, self._person_value(person_id, mention.label,
                                                                 mention.text)))
        for span in others:
            replaced.append((span, "", self._other_value(span, text[span.start:span.end])))
        replaced.sort(key=lambda item: item[0].start)
        record = dict(fields, text=stitch(text, ((s, v) for s, _, v in replaced)))
        author = fields.get("author")
        if author not in (None, ""):
            person_id = self.resolver.author(str(author))
            record["author"] = self._person_value(person_id, "AUTHOR", str(author))
        return record, [(s, p) for s, p, _ in replaced]

    def _person_value(self, person_id: str, label: str, original: str) -> str:
        if self.surrogates is None:
            return person_id if label == "AUTHOR" else "[%s]" % person_id
        if label in ("USER", "AUTHOR"):
            return self.surrogates.username(person_id, original)
        return self.surrogates.name(person_id, original)

    def _other_value(self, span: Span, original: str) -> str:
        if self.surrogates is None:
            return PLACEHOLDERS.get(span.label, "[%s]" % span.label)
        make = {"EMAIL": self.surrogates.email, "URL": self.surrogates.url,
                "PHONE": self.surrogates.phone}.get(span.label)
        return make(original) if make else "[%s]" % span.label


def _inside_any(start: int, end: int, spans: Iterable[Span]) -> bool:
    return any(s.start <= start and end <= s.end for s in spans)


def _member_name_forms(people: PersonMap) -> List[str]:
    """How board members' names are written, for the whole-word search (stop words and
    one-letter names left out: they would replace ordinary words)."""
    stop_words = load_wordlist("stop_words")
    forms = []
    for person in people:
        if not person.usernames:
            continue
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
