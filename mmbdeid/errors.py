"""The exceptions mmbdeid raises on purpose, all under :class:`MmbdeidError`, so a caller
can catch every one of them in one clause.

* :class:`InputError`: bad input (a record, a file, a model file); the command line turns
  it into ``file:line: message`` and exit status 2.
* :class:`MmbdeidValueError`, :class:`MmbdeidTypeError`, :class:`MmbdeidRuntimeError`: a
  value out of range or unknown, a value of the wrong kind, a state that forbids the call
  (a model not fitted). Each is also the built-in error it is named after, so code that
  catches ``ValueError`` or ``TypeError``, as docs/python-api.md said before, still does.

:class:`Stopped` is not an error: a stop signal, which unwinds like Ctrl-C.
"""
from typing import Optional


class MmbdeidError(Exception):
    """Base of every exception mmbdeid raises on purpose."""


class MmbdeidValueError(MmbdeidError, ValueError):
    """A value of the right kind but out of range, or a name that is not known."""


class MmbdeidTypeError(MmbdeidError, TypeError):
    """A value of the wrong kind (a string for a number, a string for a list of terms)."""


class MmbdeidRuntimeError(MmbdeidError, RuntimeError):
    """A call the object's state forbids (predicting with a model not fitted)."""


class InputError(MmbdeidError):
    """Bad input: a malformed record, a missing field, an unreadable or empty file."""

    def __init__(self, message: str, path: Optional[str] = None, line: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path) + (":%d" % self.line if self.line is not None else "") + ": "
        return where + self.message


class Stopped(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGHUP) unwinding like Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


# The stop signal received by this process, if any. Python drops an exception raised by a
# signal handler while it runs certain callbacks (an import lock's, a weakref's), so the
# signal is also noted here and checked before any output is renamed into place.
_stop_signal: Optional[int] = None


def note_stop(signum: Optional[int]) -> None:
    global _stop_signal
    _stop_signal = signum


def stop_signal() -> Optional[int]:
    """The stop signal received, if any."""
    return _stop_signal


def raise_if_stopped() -> None:
    if _stop_signal is not None:
        raise Stopped(_stop_signal)

