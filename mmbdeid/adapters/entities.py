"""mmbdeid's labels as entity names of Presidio and spaCy, shared by both adapters so a
mention is called the same in either.

NAME is PERSON (the name of both toolkits for people); EMAIL, URL and PHONE are Presidio's
EMAIL_ADDRESS, URL and PHONE_NUMBER. Neither toolkit has an entity for a board username:
USER becomes USERNAME, a name of our own.
"""
from typing import Dict

ENTITY_OF_LABEL: Dict[str, str] = {
    "NAME": "PERSON",
    "USER": "USERNAME",
    "EMAIL": "EMAIL_ADDRESS",
    "URL": "URL",
    "PHONE": "PHONE_NUMBER",
}
LABEL_OF_ENTITY: Dict[str, str] = {entity: label for label, entity in ENTITY_OF_LABEL.items()}

# What the model finds; e-mails, URLs and phones are patterns the other toolkits have too.
PERSON_LABELS = ("NAME", "USER")
PERSON_ENTITIES = tuple(ENTITY_OF_LABEL[label] for label in PERSON_LABELS)

