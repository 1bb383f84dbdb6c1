"""Fake values of the opt-in kinds (issue 21), each in the format of its original:
addresses, postcodes, ID numbers, IP addresses, dates, places and organisations.

Every value is drawn from Faker's generator reseeded for (seed, kind, original), as the
names' are (:class:`~mmbdeid.output.surrogates.SurrogateFactory`, which these methods are
part of), so the same original gets the same fake everywhere and in every run. The format
is kept: a ZIP+4 stays ZIP+4 and a UK postcode stays a UK postcode (letter for letter,
digit for digit, separators kept); an ID keeps its length and its letters and digits where
they were; an IPv4 address becomes one of the documentation ranges (``192.0.2.x``,
``198.51.100.x``, ``203.0.113.x``), never a real host, and an IPv6 one keeps its groups,
``::`` and prefix length; a date keeps its written format (order, separators, padding,
month and weekday names full or short, ordinal suffixes) and its year (a year alone
identifies no one, and keeps the text's time line), with another day and month; an address
keeps its street type, unit word, direction and state and gets another number, street name,
city and postcode.
"""
import random
import re

_MONTHS = ("January February March April May June July August September October November "
           "December").split()
_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_TEST_NETS = ("192.0.2", "198.51.100", "203.0.113")
# The words of an address kept as written: street types, unit words, directions, states.
_ADDRESS_WORDS = frozenset(w.lower() for w in (
    "Street St Avenue Ave Av Road Rd Lane Ln Drive Dr Boulevard Blvd Court Ct Place Pl Way "
    "Terrace Ter Terr Circle Cir Crescent Cres Close Cl Parkway Pkwy Highway Hwy Trail Trl "
    "Square Sq Grove Gr Gardens Gdns Row Mews Parade Pde Esplanade Esp Loop Pike Alley Walk "
    "Hill Heights Hts Plaza Plz Point Pt Ridge View Green Apt Apartment Unit Suite Ste Flat "
    "Fl Floor Rm Room Bldg Building Lot N S E W NE NW SE SW North South East West Jr").split())
_STATE_CODE = re.compile(r"[A-Z]{2,3}")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.IGNORECASE)
_DATE_PART = re.compile(r"[A-Za-z]+\.?|\d+(?:st|nd|rd|th)?")


def _case_like(template: str, value: str) -> str:
    if template.isupper() and len(template) > 1:
        return value.upper()
    if template.islower():
        return value.lower()
    return value


def _same_shape(rng: random.Random, original: str) -> str:
    """Each digit another digit, each letter another letter of the same case; the rest
    kept (``99201-1234``, ``SW1A 1AA``, ``XJH442189013``)."""
    def fake(character: str) -> str:
        if character.isdigit():
            return str(rng.randrange(10))
        if character.isalpha() and character.isascii():
            letter = chr(ord("A") + rng.randrange(26))
            return letter if character.isupper() else letter.lower()
        return character
    return "".join(map(fake, original))


class IdentifierSurrogates:
    """The methods of :class:`~mmbdeid.output.surrogates.SurrogateFactory` for the opt-in
    kinds (named in :data:`mmbdeid.kinds.KINDS`); each takes the original and returns its
    fake. Needs ``_rng(kind, key)`` and ``_faker`` from the factory."""

    def _drawn(self, kind: str, original: str, draw) -> str:
        """``draw(rng)`` for ``original``, drawn again (a few times) where it came out the
        same as the original."""
        rng = self._rng(kind, original)
        value = draw(rng)
        for _ in range(10):
            if value != original:
                break
            value = draw(rng)
        return value

    def postcode(self, original: str) -> str:
        return self._drawn("postcode", original, lambda rng: _same_shape(rng, original))

    def id_number(self, original: str) -> str:
        return self._drawn("id", original, lambda rng: _same_shape(rng, original))

    def ip_address(self, original: str) -> str:
        def draw(rng):
            if ":" not in original:
                return "%s.%d" % (rng.choice(_TEST_NETS), rng.randrange(1, 255))
            address, slash, prefix = original.partition("/")
            groups = [_same_shape(rng, group.upper()) if group else ""
                      for group in address.split(":")]
            fake = ":".join(g if not g or not address.islower() else g.lower()
                            for g in _hex(groups))
            return fake + slash + prefix
        return self._drawn("ip", original, draw)

    def date(self, original: str) -> str:
        parts = list(_DATE_PART.finditer(original))
        numbers = [m for m in parts if m.group()[0].isdigit()]
        # the year: four digits, or the last of three numbers (``12/25/23``)
        years = [m for m in numbers if m.group().isdigit() and len(m.group()) == 4]
        if not years and len(numbers) == 3 and numbers[-1].group().isdigit():
            years = numbers[-1:]

        def draw(rng):
            month, weekday = rng.randrange(12), rng.randrange(7)
            small = [month + 1, rng.randrange(1, 13)]       # a day or a month up to 12
            large = rng.randrange(13, 29)                   # a day after the 12th
            fake, at = [], 0
            for match in parts:
                fake.append(original[at:match.start()])
                part = match.group()
                if match in years:
                    fake.append(part)                       # the year stays
                elif part[0].isdigit():
                    fake.append(_day_or_month(part, small, large))
                else:
                    fake.append(_name_part(part, month, weekday))
                at = match.end()
            return "".join(fake) + original[at:]
        return self._drawn("date", original, draw)

    def address(self, original: str) -> str:
        def draw(rng):
            def part(match):
                word = match.group()
                if _ORDINAL.fullmatch(word):             # 5th Ave
                    number = rng.randrange(1, 100)
                    return "%d%s" % (number, _ordinal(number))
                if any(c.isdigit() for c in word):       # 42, 4B, LS6
                    return _same_shape(rng, word)
                if word.lower() in _ADDRESS_WORDS or _STATE_CODE.fullmatch(word):
                    return word
                return _case_like(word, self._faker.last_name())
            return _WORD.sub(part, original)
        return self._drawn("address", original, draw)

    def place(self, original: str) -> str:
        return self._drawn("place", original,
                           lambda rng: _case_like(original, self._faker.city()))

    def organisation(self, original: str) -> str:
        return self._drawn("organisation", original,
                           lambda rng: _case_like(original, self._faker.company()))


def _hex(groups):
    """IPv6 groups with the letters ``_same_shape`` drew kept to hexadecimal digits."""
    return [re.sub("[G-Z]", lambda m: "ABCDEF"[ord(m.group()) % 6], group)
            for group in groups]


def _name_part(part: str, month: int, weekday: int) -> str:
    """A month or weekday name made the fake date's, written as ``part`` was (full or
    short, its case, its full stop); another word (``of``, ``the``) as it is."""
    word = part.rstrip(".")
    lowered = word.lower()
    for names, index in ((_MONTHS, month), (_WEEKDAYS, weekday)):
        full = next((name for name in names if name.lower().startswith(lowered)), None)
        if full is not None and len(word) >= 3:
            name = names[index]
            return _case_like(word, name if len(word) == len(full) else name[:len(word)]) \
                + part[len(word):]
    return part


def _day_or_month(part: str, small: list, large: int) -> str:
    """A day or month number made the fake date's: one up to 12 stays up to 12 (it may be
    either), a larger one stays larger; its zero padding and ordinal suffix kept."""
    digits = part.rstrip("stndrhSTNDRH")
    value = small.pop(0) if int(digits) <= 12 and small else large
    text = "%0*d" % (len(digits), value) if digits.startswith("0") else str(value)
    return text + (_ordinal(value) if len(part) > len(digits) else "")


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
