"""Checks of the values a user gives, shared by the command line (its argparse types), the
Python API and the model's parameters, so that all refuse the same values in the same words.

Each check takes the value and the name to call it by (``threshold`` in Python,
``--c1`` on the command line) and returns the value, or raises
:class:`~mmbdeid.errors.MmbdeidTypeError` (a ``TypeError``: a value of the wrong kind,
``"abc"`` for a number, a string for a list of terms) or
:class:`~mmbdeid.errors.MmbdeidValueError` (a ``ValueError``: the right kind, out of
range), the message naming the argument.
"""
import math
import numbers
import os
from typing import Any, Iterable, Optional, Tuple

from .errors import MmbdeidTypeError, MmbdeidValueError


def shown(value: Any) -> str:
    """A value as a message shows it: numbers as written (``2``, ``0.05``, ``nan``),
    anything else as Python writes it (``'abc'``, ``None``)."""
    if _is_number(value):
        return "%.15g" % value
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def kind_of(value: Any) -> str:
    """What a value is, for a message: ``None``, ``a list``, ``an int``."""
    if value is None or isinstance(value, bytes):
        return type(value).__name__ if value is not None else "None"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _range_words(low: Optional[float], high: Optional[float], low_open: bool,
                 high_open: bool) -> str:
    if high is None:
        return ("greater than %g" if low_open else "at least %g") % low
    if low is None:
        return ("less than %g" if high_open else "at most %g") % high
    if low_open == high_open:
        return "between %g and %g%s" % (low, high, " (exclusive)" if low_open else "")
    return ("greater than %g and at most %g" if low_open
            else "at least %g and less than %g") % (low, high)


def number(value: Any, name: str, low: Optional[float] = None, high: Optional[float] = None,
           low_open: bool = False, high_open: bool = False) -> float:
    """A finite number (not a bool) from ``low`` to ``high`` (each left out when None,
    excluded when ``low_open`` / ``high_open``)."""
    if not _is_number(value):
        raise MmbdeidTypeError("%s must be a number, got %s" % (name, shown(value)))
    if not math.isfinite(value):
        raise MmbdeidValueError("%s must be a finite number, got %s" % (name, shown(value)))
    if (low is not None and (value <= low if low_open else value < low)) or \
            (high is not None and (value >= high if high_open else value > high)):
        raise MmbdeidValueError("%s must be %s, got %s" % (
            name, _range_words(low, high, low_open, high_open), shown(value)))
    return float(value)


def whole_number(value: Any, name: str, low: Optional[int] = None,
                 high: Optional[int] = None) -> int:
    """An integer (not a bool) from ``low`` to ``high``."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise MmbdeidTypeError("%s must be a whole number, got %s" % (name, shown(value)))
    if low is not None and value < low:
        raise MmbdeidValueError("%s must be at least %d, got %d" % (name, low, value))
    if high is not None and value > high:
        raise MmbdeidValueError("%s must be at most %d, got %d" % (name, high, value))
    return int(value)


def threshold(value: Any, name: str = "threshold") -> float:
    """A name-probability threshold: strictly between 0 and 1 (at 0 every token goes, at
    1 none does)."""
    return number(value, name, 0.0, 1.0, low_open=True, high_open=True)


def optional_threshold(value: Any, name: str = "threshold") -> Optional[float]:
    """None (the model's own threshold) or a :func:`threshold`."""
    return None if value is None else threshold(value, name)


def flag(value: Any, name: str) -> bool:
    """True or False (a string such as ``"no"`` would read as true)."""
    if not isinstance(value, bool):
        raise MmbdeidTypeError("%s must be True or False, got %s" % (name, shown(value)))
    return value


def string(value: Any, name: str, hint: str = "") -> str:
    """A ``str`` (a field name, a key)."""
    if not isinstance(value, str):
        raise MmbdeidTypeError("%s must be a string, not %s%s" % (name, kind_of(value), hint))
    return value


def text(value: Any, name: str = "text") -> str:
    """A text to scrub or analyse: a ``str``."""
    return string(value, name, " (for many texts: Scrubber.scrub_many or scrub_records)"
                  if isinstance(value, (list, tuple)) else "")


def instance(value: Any, kind: type, name: str) -> Any:
    """An instance of ``kind``."""
    if not isinstance(value, kind):
        raise MmbdeidTypeError("%s must be a %s, not %s" % (name, kind.__name__, kind_of(value)))
    return value


def terms(value: Any, name: str, what: str = "term") -> Tuple[str, ...]:
    """A list of terms (allow, deny) or other ``what`` names (steps): an iterable of
    strings, not one string (whose characters would be taken as terms); None is none."""
    if value is None:
        return ()
    if isinstance(value, (str, bytes)):
        raise MmbdeidTypeError("%s must be a list of %ss, not a string (for one %s: "
                               "%s=[%s])" % (name, what, what, name, shown(value)))
    try:
        items = tuple(value)
    except TypeError:
        raise MmbdeidTypeError("%s must be a list of %ss (strings), not %s"
                               % (name, what, kind_of(value))) from None
    for number_, item in enumerate(items, 1):
        if not isinstance(item, str):
            raise MmbdeidTypeError("%s: %s %d must be a string, not %s"
                                   % (name, what, number_, kind_of(item)))
    return items


def optional_path(value: Any, name: str) -> Optional[str]:
    """None or a file path (a string or an ``os.PathLike``)."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise MmbdeidTypeError("%s must be a file path, not %s" % (name, kind_of(value)))
    return os.fspath(value)


def names_in(values: Any, known: Iterable[str], name: str, what: str) -> list:
    """A list of names (``what``: label, entity), each one of ``known``; not one string."""
    known = list(known)
    if isinstance(values, (str, bytes)):
        raise MmbdeidTypeError("%s must be a list, not a string (for one: %s=[%s])"
                               % (name, name, shown(values)))
    try:
        values = list(values)
    except TypeError:
        raise MmbdeidTypeError("%s must be a list, not %s" % (name, kind_of(values))) from None
    for value in values:
        if value not in known:
            raise MmbdeidValueError("unknown %s %s (known: %s)" % (what, shown(value),
                                                            ", ".join(known)))
    return values
