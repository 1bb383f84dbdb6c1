"""The device filter: medical devices, implants and device-based tests and procedures
(``Dexcom``, ``OmniPod``, ``MiniMed``, ``Mediport``, ``CyberKnife``, ``Oncotype``) are kept
whatever the model says, like drug names (``lexicons/medical_devices.txt``, hand-made; a
device named after a person, ``Foley``, ``Holter``, is an eponym of
``detect/keep/medical_terms.py``)."""
from ...lexicon.wordlists import load_wordlist
from .terms import TermKeeper


class DeviceKeeper(TermKeeper):
    """A KEEP span on every token that is a medical device's name (pattern tokens excepted)."""

    source = "device"

    def __init__(self, devices=None):
        super().__init__(load_wordlist("medical_devices") if devices is None else devices)
