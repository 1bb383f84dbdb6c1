"""The kinds of identifier mmbdeid removes, in one table.

Each kind has its label (the span label and the spans-file label), its placeholder, whether
it names a person (NAME and USER mentions are linked to people in the person modes and are
what the name metrics count), whether a regular expression finds it before tokenising
(:mod:`mmbdeid.text.patterns`), the :class:`~mmbdeid.output.surrogates.SurrogateFactory`
method that makes a fake value of it, whether it is in the default set (the kinds removed
when the user chooses none: ``--kinds``, ``Scrubber(kinds=...)``) and its entity name in
Presidio (:mod:`mmbdeid.adapters.entities`). The table's order is the order of the run
summary.

Adding a kind is one entry here plus one detector (a pattern in ``text/patterns.py``, or a
detector in ``detect/`` whose registry step says it ``produces`` the kind); placeholders,
the summary and the output modes follow the table.
"""
from typing import NamedTuple, Optional, Tuple

from .errors import MmbdeidValueError


class Kind(NamedTuple):
    label: str
    placeholder: str
    person: bool              # a person's name or username
    pattern: bool             # found by a regular expression (a pattern detector)
    surrogate: Optional[str]  # SurrogateFactory method for a fake value; None: placeholder
    default: bool = True      # removed unless the user chooses other kinds
    presidio: str = ""        # Presidio's entity name (ours where Presidio has none)


KINDS = (
    Kind("NAME", "[NAME]", person=True, pattern=False, surrogate="name",
         presidio="PERSON"),
    Kind("USER", "[USER]", person=True, pattern=True, surrogate="username",   # @handle, u/name
         presidio="USERNAME"),
    Kind("EMAIL", "[EMAIL]", person=False, pattern=True, surrogate="email",
         presidio="EMAIL_ADDRESS"),
    Kind("URL", "[URL]", person=False, pattern=True, surrogate="url", presidio="URL"),
    Kind("PHONE", "[PHONE]", person=False, pattern=True, surrogate="phone",
         presidio="PHONE_NUMBER"),
    # Opt-in kinds (issue 21): the HIPAA Safe Harbor identifiers and the indirect ones.
    # Found by detectors over the visible text (detect/kinds/identifiers.py), not before
    # tokenising, so that the default kinds' tokens stay as they are.
    Kind("ADDRESS", "[ADDRESS]", person=False, pattern=False, surrogate="address",
         default=False, presidio="LOCATION"),
    Kind("POSTCODE", "[POSTCODE]", person=False, pattern=False, surrogate="postcode",
         default=False, presidio="LOCATION"),
    Kind("ID", "[ID]", person=False, pattern=False, surrogate="id_number",
         default=False, presidio="ID"),       # an SSN shape is US_SSN (adapters.entities)
    Kind("IP", "[IP]", person=False, pattern=False, surrogate="ip_address",
         default=False, presidio="IP_ADDRESS"),
    Kind("DATE", "[DATE]", person=False, pattern=False, surrogate="date",
         default=False, presidio="DATE_TIME"),
    Kind("PLACE", "[PLACE]", person=False, pattern=False, surrogate="place",
         default=False, presidio="LOCATION"),
    Kind("ORG", "[ORG]", person=False, pattern=False, surrogate="organisation",
         default=False, presidio="ORGANIZATION"),
)

BY_LABEL = {kind.label: kind for kind in KINDS}
LABELS = tuple(kind.label for kind in KINDS)
PERSON_LABELS = tuple(kind.label for kind in KINDS if kind.person)
PATTERN_LABELS = tuple(kind.label for kind in KINDS if kind.pattern)
# Identifiers that are not people: removed whatever the model says, and left out of the
# name metrics (neither a found name nor a kept word).
NON_PERSON_LABELS = tuple(kind.label for kind in KINDS if not kind.person)
PLACEHOLDERS = {kind.label: kind.placeholder for kind in KINDS}
DEFAULT_KINDS = tuple(kind.label for kind in KINDS if kind.default)
PRESETS = {"default": DEFAULT_KINDS, "safe-harbor": LABELS}


def placeholder(label: str) -> str:
    """``[NAME]`` for NAME; an unknown label in the same shape."""
    return PLACEHOLDERS.get(label, "[%s]" % label)


def parse_kinds(text: str) -> Tuple[str, ...]:
    """The kinds a comma list of labels and preset names chooses (``safe-harbor``,
    ``default,DATE``; labels in any case), in table order. An unknown name, or none at
    all, raises ``ValueError`` naming the known kinds and presets."""
    chosen = set()
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name.lower() in PRESETS:
            chosen.update(PRESETS[name.lower()])
        elif name.upper() in BY_LABEL:
            chosen.add(name.upper())
        else:
            raise MmbdeidValueError("unknown kind %r (kinds: %s; presets: %s)"
                                    % (name, ", ".join(LABELS), ", ".join(PRESETS)))
    if not chosen:
        raise MmbdeidValueError("no kind given (kinds: %s; presets: %s)"
                                % (", ".join(LABELS), ", ".join(PRESETS)))
    return tuple(label for label in LABELS if label in chosen)
