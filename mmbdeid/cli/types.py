"""argparse value types: an option's text converted, then checked by one of
:mod:`mmbdeid.checks` (the API's checks), so the command and the API refuse the same
values with the same message."""
import argparse
import functools
from typing import Optional

from .. import checks


def checked(check, convert=float, what: str = "a number"):
    """An argparse type: the text converted (``float``, ``int``), then checked by one of
    :mod:`mmbdeid.checks` (the API's checks), its message the error."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be %s, got %r"
                                             % (check.keywords["name"], what, text))
        try:
            return check(value)
        except (TypeError, ValueError) as error:
            raise argparse.ArgumentTypeError(str(error))
    return parse


def number(option: str, low: float, high: Optional[float]):
    """An argparse type: a finite number in [low, high], errors naming ``option``
    (checked before training, not when the model is saved)."""
    return checked(functools.partial(checks.number, name=option, low=low, high=high))


def positive(option: str, low: int = 1, high: Optional[int] = None):
    """An argparse type: a whole number from ``low`` (to ``high``), errors naming
    ``option``."""
    return checked(functools.partial(checks.whole_number, name=option, low=low, high=high),
                   int, "a whole number")


probability_threshold = checked(functools.partial(checks.threshold, name="threshold"))
DEFAULT_TARGET_RECALL = 0.9
target_recall = checked(functools.partial(checks.number, name="target recall", low=0.0,
                                          high=1.0, low_open=True))
