"""Street addresses and postcodes (the ADDRESS and POSTCODE kinds, opt-in: issue 21).

Found in the visible text by regular expression, like the pattern identifiers, but after
tokenising and only when the kind is chosen (:mod:`mmbdeid.detect.kinds.identifiers`), so the
default kinds' tokens never change. Each finder returns ``(start, end)`` pairs over one
line (an address never crosses a line break), without the punctuation around it.

An address is a house number, a street name and a street type (``42 Birchwood Lane``,
``1600 NW 5th Ave.``, ``Unit 4/12 Wattle St``, ``Flat 3, 27 Acacia Road``), then optionally
a unit (``Apt 4B``, ``Suite 300``, ``#12``), and a city followed by a state, province or
postcode (``, Spokane, WA 99201-1234``, ``, Leeds LS6 2AB``); or a post-office box (``PO
Box 4471``) with the same tail. The street name is written
with capitals (``5th`` too); in lower case only before an unmistakable street type
(``street``, ``avenue``, ``road``, ``lane``, ``boulevard``) and after a word that leads to
an address (``at``, ``on``, ``to``, ``from``, ``near``, ``address``), since ``2 at the
same place``, ``3 miles down the road`` or ``took 2 long road trips`` are no addresses.

A US ZIP code is five digits like any number, so alone it is a postcode only after a cue
(``zip``, ``postcode``, ``postal code``) or a state (``WA 99201``, ``Texas 75001-2234``).
A full UK postcode (``SW1A 1AA``, ``LS6 2AB``) or Canadian one (``K1A 0B1``) has a shape
no dose or reading has, in capitals with both its parts, and is found wherever it stands.
"""
import re
from typing import List, Tuple

Bounds = Tuple[int, int]

US_STATES = ("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
             "MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY "
             "PR").split()
CA_PROVINCES = "AB BC MB NB NL NS NT NU ON PE QC SK YT".split()
AU_STATES = "NSW VIC QLD WA SA TAS ACT NT".split()
STATE_NAMES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|"
    "Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|"
    "Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|"
    "New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|"
    "Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|"
    "Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|Ontario|"
    "Quebec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|"
    "Victoria|Queensland|New South Wales|Tasmania")
_STATE = r"(?:%s|%s)" % ("|".join(sorted(set(US_STATES + CA_PROVINCES + AU_STATES),
                                         key=len, reverse=True)), STATE_NAMES)

# Street types, capitalised or abbreviated (an abbreviation may take a full stop).
_TYPES = (
    "Street|Avenue|Road|Lane|Drive|Boulevard|Court|Place|Way|Terrace|Circle|Crescent|"
    "Close|Parkway|Highway|Trail|Square|Grove|Gardens|Row|Mews|Parade|Esplanade|Loop|"
    "Pike|Alley|Walk|Hill|Heights|Plaza|Point|Ridge|View|Green")
_TYPE_ABBREVIATIONS = ("St|Ave|Av|Rd|Ln|Dr|Blvd|Ct|Pl|Ter|Terr|Cir|Cres|Cl|Pkwy|Hwy|Trl|"
                       "Sq|Gr|Gdns|Pde|Esp|Hts|Plz|Pt")
_LOWER_TYPES = "street|avenue|road|lane|boulevard|blvd"
_DIRECTION = r"(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\.?"
_ORDINAL = r"\d{1,3}(?:st|nd|rd|th)"
_CAPITALISED = r"(?:[A-Z][a-z'’]*(?:-[A-Z][a-z'’]+)?|Mc[A-Z][a-z]+|%s)" % _ORDINAL
_NUMBER = r"\d{1,6}[A-Za-z]?(?:[-/]\d{1,6}[A-Za-z]?)?"
_UNIT_WORD = r"(?:Apt|Apartment|Unit|Suite|Ste|Flat|Fl|Floor|Rm|Room|Bldg|Building|Lot)"
_UNIT = r"(?:%s\.?[ \t]*#?[ \t]*[A-Za-z0-9][-A-Za-z0-9]{0,5}|#[ \t]*[A-Za-z0-9]{1,6})" % _UNIT_WORD

US_ZIP = r"\d{5}(?:-\d{4})?"
UK_POSTCODE = (r"(?:[A-PR-UWYZ][A-HK-Y]?\d[A-HJKPSTUW\d]?|GIR)[ \t]?"
               r"\d[ABD-HJLNP-UW-Z]{2}")
CA_POSTCODE = (r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]?\d[ABCEGHJ-NPRSTV-Z]\d")
AU_POSTCODE = r"\d{4}"         # only after an Australian state or a cue
_POSTCODE = r"(?:%s|%s|%s)" % (US_ZIP, UK_POSTCODE, CA_POSTCODE)
_AU_STATE = "(?:%s)" % "|".join(AU_STATES)
_CITY = r"[A-Z][a-z'’.-]+(?:[ \t][A-Z][a-z'’.-]+){0,2}"
# ``, Spokane, WA 99201``, ``, Leeds LS6 2AB``, ``, Toronto, ON``: a city counts only
# with a state, province or postcode after it (``42 Elm St, Mary says hi`` ends at ``St``)
_STATE_AND_CODE = r"(?:%s[ \t]+%s(?![\w-])|%s(?:[ \t]+%s)?)" % (
    _AU_STATE, AU_POSTCODE, _STATE, _POSTCODE)
_TAIL = (r"(?:,?[ \t]+%s(?:,[ \t]*|[ \t]+)(?:%s|%s)|,?[ \t]+%s|,?[ \t]+%s)"
         % (_CITY, _STATE_AND_CODE, _POSTCODE, _STATE_AND_CODE, _POSTCODE))

_ADDRESS = re.compile(
    r"(?<![\w/.,-])"
    r"(?:%s\.?[ \t]*[A-Za-z0-9]{1,5}(?:,?[ \t]+|/))?" % _UNIT_WORD  # Flat 3, 27 Acacia Road
    + r"(?:"
    # capitalised: 42 Birchwood Lane, 1600 NW 5th Ave., 12 Old Mill Rd
    r"%s[ \t]+(?:%s[ \t]+)?%s(?:[ \t]+%s){0,3}[ \t]+(?:(?:%s)\b|(?:%s)\b\.?)"
    % (_NUMBER, _DIRECTION, _CAPITALISED, _CAPITALISED, _TYPES, _TYPE_ABBREVIATIONS)
    # a post-office box: PO Box 4471, P.O. Box 12
    + r"|(?:P\.?[ \t]?O\.?|Post[ \t]+Office)[ \t]+Box[ \t]+\d{1,6}"
    # lower case, before an unmistakable type: 42 birchwood lane
    + r"|(?P<lower>%s[ \t]+(?!(?:the|a|an|my|our|your|his|her|their|this|that|of|on|in|to"
      r"|down|up|along|across|long|short|miles?|blocks?|km|minutes?|mins?|hours?|hrs?)\b)"
      r"[a-z]{3,}(?:[ \t]+[a-z]{3,})?[ \t]+(?:%s)\b)" % (_NUMBER, _LOWER_TYPES)
    + r")(?:[ \t]+%s)?" % _DIRECTION.replace(r"\.?", "")          # 10 Downing St NW
    + r"(?:,?[ \t]+%s)?" % _UNIT
    + r"(?:%s)?" % _TAIL
    + r"(?![\w-])"
)

# An address in lower case only after a word that leads to one (``I'm at 88 old orchard
# road``), not in ``took 2 long road trips`` or ``342 nearly train road``.
_LOWER_CASE_CUE = re.compile(r"(?i:\b(?:at|on|to|from|near|address(?:[ \t]+is)?:?)[ \t]+)$")

_ZIP_AFTER_STATE = re.compile(
    r"(?<![\w-])(?:%s,?[ \t]+(%s)|%s[ \t]+(%s))(?![\w-])"
    % (_STATE, _POSTCODE, _AU_STATE, AU_POSTCODE))
_POSTCODE_CUE = re.compile(
    r"(?i:\b(?:zip|zip[ \t]?code|post[ \t]?code|postal[ \t]?code)s?)"
    # ``zip 99201``, ``postcode: SW1A 1AA``, ``zip code for the clinic is 30309``
    r"[ \t]*[:#]?(?:[ \t]+[A-Za-z.']{1,10}){0,4}?[ \t]*[:#]?[ \t]*"
    r"(%s|%s)(?![\w-])" % (_POSTCODE, AU_POSTCODE))
# Quick necessary conditions (the searches above try every position): a ZIP after a state
# has four digits or more; a UK or Canadian postcode a digit before a capital.
_FOUR_DIGITS = re.compile(r"\d{4}")
_DIGIT_CAPITAL = re.compile(r"\d[A-Z]")
_UK_OR_CA = re.compile(r"(?<![\w-])(?:%s|%s)(?![\w-])" % (UK_POSTCODE, CA_POSTCODE))


def _trimmed(text: str, start: int, end: int) -> Bounds:
    """``(start, end)`` without the full stop or comma an expression took at the end: an
    abbreviated street type's full stop may end the sentence too."""
    while end > start and text[end - 1] in ".,":
        end -= 1
    return start, end


def find_addresses(text: str) -> List[Bounds]:
    """The street addresses in ``text``."""
    if not any(c.isdigit() for c in text):
        return []
    return [_trimmed(text, *match.span()) for match in _ADDRESS.finditer(text)
            if match.group("lower") is None
            or _LOWER_CASE_CUE.search(text, 0, match.start())]


def find_postcodes(text: str) -> List[Bounds]:
    """The postcodes in ``text``: after a cue or a state (any), or a full UK or Canadian
    postcode; sorted, without overlaps."""
    if not any(c.isdigit() for c in text):
        return []
    found = []
    lowered = text.lower()
    if "zip" in lowered or "post" in lowered:
        found += [match.span(match.lastindex) for match in _POSTCODE_CUE.finditer(text)]
    if _FOUR_DIGITS.search(text):
        found += [match.span(match.lastindex) for match in _ZIP_AFTER_STATE.finditer(text)]
    if _DIGIT_CAPITAL.search(text):
        found += [match.span() for match in _UK_OR_CA.finditer(text)]
    return without_overlaps(found)


def without_overlaps(found: List[Bounds]) -> List[Bounds]:
    """The earliest, then longest, of overlapping bounds."""
    kept: List[Bounds] = []
    for start, end in sorted(set(found), key=lambda b: (b[0], -b[1])):
        if not kept or start >= kept[-1][1]:
            kept.append((start, end))
    return kept
