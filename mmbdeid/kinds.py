"""The kinds of identifier mmbdeid removes, in one table.

Each kind has its label (the span label and the spans-file label), its placeholder, whether
it names a person (NAME and USER mentions are linked to people in the person modes and are
what the name metrics count), whether a regular expression finds it before tokenising
(:mod:`mmbdeid.text.patterns`), and the :class:`~mmbdeid.output.surrogates.SurrogateFactory`
method that makes a fake value of it. The table's order is the order of the run summary.

Adding a kind is one entry here plus one detector (a pattern in ``text/patterns.py``, or a
detector in ``detect/``); placeholders, the summary and the output modes follow the table.
"""
from typing import NamedTuple, Optional


class Kind(NamedTuple):
    label: str
    placeholder: str
    person: bool              # a person's name or username
    pattern: bool             # found by a regular expression (a pattern detector)
    surrogate: Optional[str]  # SurrogateFactory method for a fake value; None: placeholder


KINDS = (
    Kind("NAME", "[NAME]", person=True, pattern=False, surrogate="name"),
    Kind("USER", "[USER]", person=True, pattern=True, surrogate="username"),   # @handle, u/name
    Kind("EMAIL", "[EMAIL]", person=False, pattern=True, surrogate="email"),
    Kind("URL", "[URL]", person=False, pattern=True, surrogate="url"),
    Kind("PHONE", "[PHONE]", person=False, pattern=True, surrogate="phone"),
)

BY_LABEL = {kind.label: kind for kind in KINDS}
LABELS = tuple(kind.label for kind in KINDS)
PERSON_LABELS = tuple(kind.label for kind in KINDS if kind.person)
PATTERN_LABELS = tuple(kind.label for kind in KINDS if kind.pattern)
# Pattern identifiers that are not people: removed whatever the model says, and left out of
# the name metrics (neither a found name nor a kept word).
NON_PERSON_LABELS = tuple(kind.label for kind in KINDS if not kind.person)
PLACEHOLDERS = {kind.label: kind.placeholder for kind in KINDS}


def placeholder(label: str) -> str:
    """``[NAME]`` for NAME; an unknown label in the same shape."""
    return PLACEHOLDERS.get(label, "[%s]" % label)
