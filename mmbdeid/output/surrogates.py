"""Realistic fake values for ``--mode surrogate``: one stable fake identity per person.

Placeholders (``[NAME]``) make a thread unreadable and hide who answers whom. Surrogates keep
the text natural, but only if the same person reads as the same fake person everywhere,
each mention shaped like its original (``arthur``/``ARTHUR``, ``A.T.``, ``A r t h u r``,
``Trapp``, ``KayGirl96``), and if no surrogate is a real name or username of the dump
(``reserved``) that a reader could take for a real poster.

Each person's fake identity (first name, middle initial, surname) is drawn once; every
mention is that identity written in the original's shape (:mod:`mmbdeid.output.
surrogate_names`: ``KOWALSKI, STAN`` -> ``SMITH, WILLIAM`` as ``Stan Kowalski`` -> ``William
Smith``). No two people share a fake first name or surname, nor does one's first name equal
another's surname, as long as the lists hold enough names (about 5,800 first names and
50,000 surnames; beyond, a first name may be shared, a full name never).

Reproducibility: every draw reseeds a Faker instance from ``sha256(seed, kind, key)``, never
from Python's salted ``hash()``, so values are identical across runs and processes. They
depend on the seed, the key, ``reserved``, the locale and Faker's word lists, and, when two
keys would collide, on the order of first requests.

Gender: what the text says of the person (:meth:`SurrogateFactory.describe`, from
:mod:`mmbdeid.people.gender_cues`: ``Mr.``, ``my sister``, ``he``) outranks the name list.
Otherwise it is read from the first name of the original of the first request for that
person, or from a first name in it if that is a username (``levo_lisa``), with
:func:`mmbdeid.people.gender.name_gender` (the ``first_names_gender`` list: ``Marge``
female, ``Christopher`` male). A female or male name gets a fake first name of the same
gender, drawn from Faker's female or male names that the list does not read as the other
gender or as both (no Faker "female" ``Jordan`` for a ``Marge``); a name of either or
unknown gender (``Jordan``, ``Tenzin``) gets any fake first name.
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import random
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Optional, Sequence, Tuple, Union

from faker import Faker

from ..errors import MmbdeidRuntimeError, MmbdeidValueError
from ..people.gender import GENDERS, fits, name_gender, username_gender_name
from .identifier_surrogates import IdentifierSurrogates
from .surrogate_names import Identity, PersonNames, name_lexicon, name_shape, render_name

MAX_DRAWS = 2000                 # redraws on collision before giving up
FAKER_DRAWS = 50                 # draws from Faker's common names before the long lexicon
SCAN_AFTER = 400                 # random draws of a person's names before a scan of the lists
SOFT_DRAWS = SCAN_AFTER // 2     # after this many, reserved initials are tolerated
USERNAME_SEPARATORS = "_.-"

# Username stems, like Faker's user_name formats: (pattern, weight); f/l = first/last name,
# fi/li = their initials. Every pattern has two parts so a separator can always be kept.
_STEM_PATTERNS = ((("f", "l"), 4), (("fi", "l"), 3), (("l", "f"), 2), (("f", "li"), 1))

_URL_RE = re.compile(r"(?P<scheme>[a-z][a-z0-9+.\-]*://)?(?P<www>www\d*\.)?"
                     r"(?P<host>[^/?#]*)(?P<rest>.*)", re.IGNORECASE | re.DOTALL)
_WORD_RE = re.compile(r"[^\W\d_]+")


def _stable_seed(seed: int, kind: str, key: str) -> int:
    digest = hashlib.sha256(f"{seed}\0{kind}\0{key}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def _words(text: str) -> list[str]:
    """Lower-case letter runs of ``text`` (``mary.smith42`` -> mary, smith)."""
    return [w.lower() for w in _WORD_RE.findall(text)]


class _NamePool:
    """Faker's names, drawn by their weights; then, once those are reserved or taken, the
    much longer census lexicon, so a big dump whose real names cover Faker's ~1,700 common
    names still gets unique surrogates."""

    def __init__(self, weighted: Mapping[str, float], extra: Iterable[str]):
        self.names = list(weighted)
        self.cum_weights = list(itertools.accumulate(weighted.values()))
        self.extra = sorted(extra)  # sorted: set order is not stable across processes
        if not self.names and not self.extra:
            raise MmbdeidValueError("every candidate name is reserved; nothing left to draw from")

    def draw(self, rng: random.Random, attempt: int = 0, patience: int = FAKER_DRAWS) -> str:
        """A name; after ``patience`` failed attempts, from the long lexicon."""
        if self.names and (attempt < patience or not self.extra):
            return rng.choices(self.names, cum_weights=self.cum_weights)[0]
        return rng.choice(self.extra)

    def rotated(self, rng: random.Random) -> Iterable[str]:
        """Every name once, from a seeded place in the lists."""
        names = self.names + self.extra
        start = rng.randrange(len(names))
        return itertools.chain(names[start:], names[:start])

    def free(self, rng: random.Random, ok: Callable[[str], bool]) -> Optional[str]:
        """The first name ``ok`` accepts, from a seeded place in the lists; None if none."""
        return next((name for name in self.rotated(rng) if ok(name)), None)


def _person_provider(faker: Faker):
    for provider in faker.factories[0].get_providers():
        if provider.__provider__ == "faker.providers.person":
            return provider
    raise MmbdeidValueError("Faker locale without a person provider")


def _weighted(names: Union[Mapping[str, float], Sequence[str]], excluded: frozenset[str],
              keep: Callable[[str], bool] = lambda name: True) -> dict[str, float]:
    """Plain alphabetic names (usable in initials and usernames) not in ``excluded`` that
    ``keep`` accepts."""
    weights = names if isinstance(names, Mapping) else dict.fromkeys(names, 1.0)
    return {name: float(weight) for name, weight in weights.items()
            if name.isalpha() and len(name) > 1 and name.lower() not in excluded
            and keep(name)}


@dataclass(frozen=True)
class _UsernameShape:
    case: str                   # lower, upper, title, camel, lowercamel
    separator: str              # "" or one of USERNAME_SEPARATORS
    digit_count: int
    digits_separated: bool      # a separator stands before the trailing digits
    leading_zero: bool          # the original digits start with 0
    has_letters: bool


@functools.lru_cache(maxsize=4096)
def _username_shape(original: str) -> _UsernameShape:
    letters = [c for c in original if c.isalpha()]
    digits = [c for c in original if c.isdigit()]
    separator = next((c for c in original if c in USERNAME_SEPARATORS), "")
    uppers = sum(c.isupper() for c in letters)
    if uppers == 0:
        case = "lower"
    elif uppers == len(letters) and len(letters) > 1:
        case = "upper"
    elif uppers == 1 and letters[0].isupper():
        case = "title"
    else:
        case = "camel" if letters[0].isupper() else "lowercamel"
    trailing = re.search(r"([%s]?)\d+\W*$" % re.escape(USERNAME_SEPARATORS), original)
    return _UsernameShape(case, separator, len(digits),
                          bool(separator and trailing and trailing.group(1) and letters),
                          bool(digits and digits[0] == "0"), bool(letters))


def _render_username(parts: Sequence[str], shape: _UsernameShape, digits: str) -> str:
    """``parts`` (lower-case) joined and cased like the original, ``digits`` at the end."""
    if not shape.has_letters:
        return digits or "".join(parts)
    if shape.case == "upper":
        cased = [p.upper() for p in parts]
    elif shape.case in ("camel", "lowercamel"):
        cased = [p.capitalize() for p in parts]
        if shape.case == "lowercamel":
            cased[0] = cased[0].lower()
    elif shape.case == "title":
        cased = [parts[0].capitalize(), *parts[1:]]
    else:
        cased = list(parts)
    stem = shape.separator.join(cased)
    glue = shape.separator if shape.digits_separated and digits else ""
    return stem + glue + digits


def _draw_digits(rng: random.Random, count: int, leading_zero: bool) -> str:
    # A count like "2009" should not come back as "0482" unless the original began with 0.
    digits = [str(rng.randrange(10)) for _ in range(count)]
    if digits and count > 1 and not leading_zero:
        digits[0] = str(rng.randrange(1, 10))
    return "".join(digits)


class SurrogateFactory(IdentifierSurrogates):
    """Stable, realistic, unique fake names, usernames, e-mails, URLs and phone numbers
    (and the opt-in kinds' values: :mod:`mmbdeid.output.identifier_surrogates`).

    Every value is drawn once per key and cached, so repeated mentions cost a dict lookup.
    """

    def __init__(self, seed: int = 0, locale: str = "en_US", reserved: Iterable[str] = ()):
        """reserved: strings (compared lower-case) never to emit, e.g. every real name and
        username of the dump, so a surrogate can never be mistaken for a real person."""
        self.seed = seed
        self.reserved = frozenset(s.lower() for s in reserved)
        self._faker = Faker(locale)
        provider = _person_provider(self._faker)
        lexicon_first, lexicon_last, _ = name_lexicon()
        extra_first = _weighted([n.capitalize() for n in lexicon_first], self.reserved)
        extra_last = _weighted([n.capitalize() for n in lexicon_last], self.reserved)
        self._any_first = _NamePool(_weighted(provider.first_names, self.reserved), extra_first)
        self._last = _NamePool(_weighted(provider.last_names, self.reserved), extra_last)
        self._gendered: dict[str, _NamePool] = {}
        for gender in GENDERS:
            # Faker's names of this gender that the name list does not read otherwise,
            # then the lexicon's names the list reads as this gender.
            weighted = _weighted(getattr(provider, f"first_names_{gender}", ()),
                                 self.reserved, functools.partial(fits, gender=gender))
            extra = {name: weight for name, weight in extra_first.items()
                     if name_gender(name) == gender}
            if weighted or extra:
                self._gendered[gender] = _NamePool(weighted, extra)

        self._identities: dict[str, Identity] = {}
        self._known: dict[str, PersonNames] = {}
        self._genders: dict[str, str] = {}
        self._taken_full_names: set[str] = set()
        self._taken_words: set[str] = set()      # every first name and surname given
        self._taken_username_stems: set[str] = set()
        self._names: dict[tuple[str, str], tuple[str, str, str]] = {}
        self._usernames: dict[tuple[str, str], str] = {}
        self._emails: dict[str, str] = {}
        self._urls: dict[str, str] = {}
        self._phone_digits: dict[str, str] = {}
        self._issued: set[str] = set()   # e-mails, URLs and phone digits already handed out

    # -- seeded randomness --------------------------------------------------------------

    def _rng(self, kind: str, key: str) -> random.Random:
        """Faker's generator reseeded for (seed, kind, key); valid until the next call."""
        self._faker.seed_instance(_stable_seed(self.seed, kind, key))
        return self._faker.random

    def _is_reserved(self, value: str) -> bool:
        lowered = value.lower()
        return lowered in self.reserved or any(w in self.reserved for w in _words(lowered))

    # -- names --------------------------------------------------------------------------

    def describe(self, person: str, forms: Iterable[str] = (), gender: str = "",
                 surnames: Iterable[str] = ()) -> None:
        """What is known of ``person`` before their identity is drawn: the forms of their
        names (which word of them is a first name, which a surname:
        :class:`~mmbdeid.output.surrogate_names.PersonNames`) and the gender the text
        gives them (``female``, ``male``; outranks the name list), if any; ``surnames``:
        one-word names of the dump known to be surnames (``Adebayo`` of ``Mr. Adebayo``)."""
        self._known[person] = PersonNames.of(forms, surnames)
        if gender in GENDERS:
            self._genders[person] = gender

    def _identity(self, person: str, original: str = "", hint: Optional[str] = None) -> Identity:
        identity = self._identities.get(person)
        if identity is None:
            identity = self._draw_identity(person, original, hint)
            self._identities[person] = identity
        return identity

    def _draw_identity(self, person: str, original: str, hint: Optional[str]) -> Identity:
        gender = self._genders.get(person) or name_gender(hint or "")
        first_pool = self._gendered.get(gender, self._any_first)
        avoid = set(_words(original))  # never hand back the original name itself

        def fresh(name: str) -> bool:
            # one person's first name is nobody else's first name or surname
            return name.lower() not in self._taken_words and name.lower() not in avoid

        rng = self._rng("person", person)
        for attempt in range(SCAN_AFTER):
            first, last = first_pool.draw(rng, attempt), self._last.draw(rng, attempt)
            middle_initial = self._any_first.draw(rng)[0]
            if not (fresh(first) and fresh(last)) or first.lower() == last.lower():
                continue
            # Initials ("MJ") of a real poster are reserved too, but there are only 26**2
            # of them: prefer clean ones, then tolerate a clash rather than fail.
            initials = {(first[0] + last[0]).lower(), (first[0] + middle_initial + last[0]).lower()}
            if attempt < SOFT_DRAWS and initials & self.reserved:
                continue
            return self._take(first, last, middle_initial)
        # Crowded pools: the first free names from a seeded place in each list, a name
        # of the person's gender first, then any name that does not read otherwise.
        middle_initial = self._any_first.draw(rng)[0]
        last = self._last.free(rng, fresh)
        first = (first_pool.free(rng, lambda n: fresh(n) and n.lower() != (last or "").lower())
                 or self._any_first.free(rng, lambda n: fresh(n) and fits(n, gender)
                                         and n.lower() != (last or "").lower()))
        # More people than names: a first name or surname is shared, a full name never.
        lasts = (iter([last]) if last is not None else
                 (n for n in self._last.rotated(rng) if n.lower() not in avoid))
        if first is None:
            for last in lasts:
                first = first_pool.free(rng, lambda n, last=last: n.lower() not in avoid and
                                        f"{n} {last}".lower() not in self._taken_full_names)
                if first is not None:
                    break
        elif last is None:
            last = next(lasts, None)
        if first is None or last is None:
            raise MmbdeidRuntimeError(f"no unique fake name left for person {person!r}")
        return self._take(first, last, middle_initial)

    def _take(self, first: str, last: str, middle_initial: str) -> Identity:
        self._taken_full_names.add(f"{first} {last}".lower())
        self._taken_words.update((first.lower(), last.lower()))
        return Identity(first, last, middle_initial)

    def name(self, person: str, original: str) -> str:
        """The person's fake name, shaped like ``original``
        (:func:`~mmbdeid.output.surrogate_names.name_shape`)."""
        return "".join(self.name_parts(person, original))

    def name_parts(self, person: str, original: str) -> Tuple[str, str, str]:
        """:meth:`name` as (what is kept before it: spaces, a title; the fake name; the
        spaces after it)."""
        cached = self._names.get((person, original))
        if cached is None:
            shape = name_shape(original, self._known.get(person, PersonNames()))
            identity = self._identity(person, original, shape.hint)
            cached = (shape.prefix, render_name(identity, shape), shape.suffix)
            self._names[(person, original)] = cached
        return cached

    # -- usernames ----------------------------------------------------------------------

    def _username_stem_ok(self, parts: tuple[str, str]) -> bool:
        if "".join(parts) in self._taken_username_stems:
            return False
        return not any(separator.join(parts) in self.reserved
                       for separator in ("", *USERNAME_SEPARATORS))

    def _random_stem(self, rng: random.Random, attempt: int = 0,
                     first: Optional[str] = None, last: Optional[str] = None) -> tuple[str, str]:
        """Two lower-case parts after one of ``_STEM_PATTERNS`` (Faker user_name style)."""
        first = (first or self._any_first.draw(rng, attempt)).lower()
        last = (last or self._last.draw(rng, attempt)).lower()
        pattern = rng.choices([p for p, _ in _STEM_PATTERNS],
                              weights=[w for _, w in _STEM_PATTERNS])[0]
        pieces = {"f": first, "l": last, "fi": first[0], "li": last[0]}
        return pieces[pattern[0]], pieces[pattern[1]]

    def _draw_username_parts(self, person: str, identity: Identity) -> tuple[str, str]:
        rng = self._rng("username", person)
        # The person's own fake names first, so "Linda Moss" posts as lmoss or linda_moss.
        for attempt in range(MAX_DRAWS):
            own_names = attempt < 8
            parts = self._random_stem(rng, attempt, identity.first if own_names else None,
                                      identity.last if own_names else None)
            if self._username_stem_ok(parts):
                self._taken_username_stems.add("".join(parts))
                return parts
        raise MmbdeidRuntimeError(f"no unique fake username left for person {person!r}")

    def username(self, person: str, original: str) -> str:
        """The person's fake username, shaped like ``original``: same number of digits
        (at the end), same separator kind, same CamelCase/lower/upper style, no spaces."""
        cached = self._usernames.get((person, original))
        if cached is not None:
            return cached
        # A person first met by username (never named in the text): the gender of a first
        # name in it, if any (levo_lisa).
        identity = self._identity(person, original, username_gender_name(original) or None)
        if identity.username_parts is None:
            identity.username_parts = self._draw_username_parts(person, identity)
        shape = _username_shape(original)
        for attempt in range(MAX_DRAWS):
            rng = self._rng("username-digits", f"{person}\0{shape.digit_count}\0{attempt}")
            digits = _draw_digits(rng, shape.digit_count, shape.leading_zero)
            value = _render_username(identity.username_parts, shape, digits)
            # The stem is clean; only the digits can make it a real username ("moss42").
            if value.lower() not in self.reserved:
                break
        self._usernames[(person, original)] = value
        return value

    # -- e-mails, URLs, phones ----------------------------------------------------------

    def email(self, original: str) -> str:
        """A fake address on a reserved ``example.*`` domain, stable per (lower-cased)
        original; the local part is shaped like the original's (digits, separator)."""
        key = original.strip().lower()
        cached = self._emails.get(key)
        if cached is None:
            local = key.rpartition("@")[0] or key
            shape = _username_shape(local)
            rng = self._rng("email", key)
            for attempt in range(MAX_DRAWS):
                digits = _draw_digits(rng, shape.digit_count, shape.leading_zero)
                local_part = _render_username(self._random_stem(rng, attempt), shape,
                                              digits).lower()
                cached = f"{local_part}@{self._faker.safe_domain_name()}"
                if cached not in self._issued and not self._is_reserved(local_part):
                    break
            self._issued.add(cached)
            self._emails[key] = cached
        return cached

    def url(self, original: str) -> str:
        """A fake URL under ``example.com/org/net``, stable per (lower-cased) original,
        keeping the scheme (or none), a ``www.`` prefix, a path and a trailing slash."""
        key = original.strip().lower()
        cached = self._urls.get(key)
        if cached is None:
            parts = _URL_RE.fullmatch(key)
            scheme, www, rest = parts.group("scheme") or "", parts.group("www") or "", parts.group("rest")
            path = rest.split("?")[0].split("#")[0]
            segments = [s for s in path.split("/") if s]
            rng = self._rng("url", key)
            for attempt in range(MAX_DRAWS):
                # A subdomain of a reserved domain keeps distinct originals distinct.
                # Only 3,000 Faker subdomains: move on to the lexicon quickly.
                label = self._last.draw(rng, attempt, patience=5).lower()
                host = f"{label}.{self._faker.safe_domain_name()}"
                fake_path = "/" + self._faker.uri_path(deep=len(segments)) if segments else ""
                if path.endswith("/"):
                    fake_path += "/"
                cached = f"{scheme}{www}{host}{fake_path}"
                if cached not in self._issued and not self._is_reserved(fake_path):
                    break
            self._issued.add(cached)
            self._urls[key] = cached
        return cached

    def phone(self, original: str) -> str:
        """``original`` with every digit replaced by a seeded random digit; separators,
        spaces, ``+`` and parentheses kept. A country code written as its own group after a
        leading ``+`` (``+44 20 ...``, ``+1-555-...``) is kept: it identifies no one and keeps
        the number plausible. Stable per digit sequence; an original without digits is
        returned unchanged."""
        digits = "".join(c for c in original if c.isdigit())
        if not digits:
            return original
        fake = self._phone_digits.get(digits)
        if fake is None:
            country_code = re.match(r"\s*\+\s*(\d{1,3})(?=\D)", original)
            kept = country_code.group(1) if country_code else ""
            if len(kept) == len(digits):
                kept = ""  # nothing else to replace: "+44 " alone is not kept
            rng = self._rng("phone", digits)
            for _ in range(MAX_DRAWS):
                fake = kept + "".join(str(rng.randrange(10))
                                      for _ in range(len(digits) - len(kept)))
                if fake != digits and fake not in self._issued and fake not in self.reserved:
                    break
            self._issued.add(fake)
            self._phone_digits[digits] = fake
        replacement = iter(fake)
        return "".join(next(replacement) if c.isdigit() else c for c in original)
