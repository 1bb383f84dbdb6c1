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


def open_share(option: str):
    """An argparse type: a share strictly between 0 and 1, errors naming ``option``."""
    return checked(functools.partial(checks.number, name=option, low=0.0, high=1.0,
                                     low_open=True, high_open=True))


probability_threshold = checked(functools.partial(checks.threshold, name="threshold"))
DEFAULT_TARGET_RECALL = 0.9
target_recall = checked(functools.partial(checks.number, name="target recall", low=0.0,
                                          high=1.0, low_open=True))


MAX_CORPUS_WEIGHT = 1000


def corpus_weight(text: str):
    """``crossval --weight FILE=W``: (file, weight), W 0 (not trained on), a share below
    1 or a whole number up to ``MAX_CORPUS_WEIGHT``."""
    path, equals, weight = text.rpartition("=")
    if not equals or not path:
        raise argparse.ArgumentTypeError("--weight must be FILE=W, got %r" % text)
    try:
        value = float(weight)
    except ValueError:
        value = -1.0
    if not (0 <= value < 1 or (value.is_integer() and 1 <= value <= MAX_CORPUS_WEIGHT)):
        raise argparse.ArgumentTypeError(
            "--weight %s: W must be 0, a share below 1 or a whole number from 1 to %d, "
            "got %r" % (path, MAX_CORPUS_WEIGHT, weight))
    return path, value
