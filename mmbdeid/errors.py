"""The one error type the command line turns into ``file:line: message`` and exit status 2."""
from typing import Optional


class InputError(Exception):
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

