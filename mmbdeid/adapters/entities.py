"""mmbdeid's labels as entity names of Presidio and spaCy, shared by both adapters so a
mention is called the same in either; read from the table of kinds
(:data:`mmbdeid.kinds.KINDS`, its ``presidio`` field).

NAME is PERSON (the name of both toolkits for people); EMAIL, URL and PHONE are Presidio's
EMAIL_ADDRESS, URL and PHONE_NUMBER; IP is IP_ADDRESS, DATE is DATE_TIME, ORG is
ORGANIZATION, and ADDRESS, POSTCODE and PLACE are all LOCATION. Neither toolkit has an
entity for a board username or for a record number in general: USER becomes USERNAME and
ID becomes ID, names of our own; an ID in the shape of a US Social Security number is
Presidio's US_SSN where that is asked for (:func:`entity_of`).
"""
import re
from typing import Dict, Tuple

from ..kinds import DEFAULT_KINDS, KINDS

ENTITY_OF_LABEL: Dict[str, str] = {kind.label: kind.presidio for kind in KINDS}
# An entity name's label: the first kind of the table with that name (LOCATION: ADDRESS).
LABEL_OF_ENTITY: Dict[str, str] = {}
for _label, _entity in ENTITY_OF_LABEL.items():
    LABEL_OF_ENTITY.setdefault(_entity, _label)
SSN_ENTITY = "US_SSN"
ENTITIES: Tuple[str, ...] = tuple(dict.fromkeys((*ENTITY_OF_LABEL.values(), SSN_ENTITY)))

# What the model finds; e-mails, URLs and phones are patterns the other toolkits have too.
PERSON_LABELS = ("NAME", "USER")
PERSON_ENTITIES = tuple(ENTITY_OF_LABEL[label] for label in PERSON_LABELS)

_SSN = re.compile(r"\d{3}-\d{2}-\d{4}")


def entity_of(label: str, text: str) -> str:
    """The entity name of a mention of ``label`` reading ``text``: US_SSN for an ID in
    the shape of a Social Security number, else the label's."""
    if label == "ID" and _SSN.fullmatch(text):
        return SSN_ENTITY
    return ENTITY_OF_LABEL[label]


def reported_labels(kinds: Tuple[str, ...]) -> Tuple[str, ...]:
    """What an adapter reports by default for a scrubber of ``kinds``: names and usernames,
    and every other kind chosen beyond the default ones (their patterns are the toolkits'
    own: e-mails, URLs, phones)."""
    return PERSON_LABELS + tuple(kind for kind in kinds if kind not in DEFAULT_KINDS)
