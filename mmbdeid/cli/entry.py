"""Running a command line: ``main(argv)`` parses it, runs the command from ``COMMANDS`` and
turns errors and stop signals into a message on stderr and the exit status."""
import signal
import sqlite3
import sys
from typing import List, Optional

from ..errors import InputError, Stopped, note_stop, raise_if_stopped, stop_signal
from .exits import EXIT_BAD_INPUT
from .io import output_formats, stdin_spooled
from .measuring import run_evaluate, run_sweep
from .parser import build_parser
from .scrubbing import run_audit, run_link, run_review, run_scrub, run_stats
from .steps import run_steps
from .tagging import run_convert, run_sample
from .training import run_crossval, run_split, run_train

COMMANDS = {"train": run_train, "scrub": run_scrub, "evaluate": run_evaluate,
            "sweep": run_sweep, "crossval": run_crossval, "stats": run_stats,
            "link": run_link, "review": run_review, "audit": run_audit, "split": run_split,
            "steps": run_steps, "convert": run_convert, "sample": run_sample}


def main(argv: Optional[List[str]] = None) -> int:
    note_stop(None)
    previous = _stop_on_signals()
    try:
        args = build_parser().parse_args(argv)
        args.output_formats = output_formats(args)      # a name for another format: refused
        with stdin_spooled(args):
            status = COMMANDS[args.command](args)
        raise_if_stopped()          # a stop whose exception Python dropped
        return status
    except InputError as error:
        print("mmbdeid: error: %s" % error, file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:       # disk full, file too large, permissions: no traceback
        where = "%s: " % error.filename if error.filename else ""
        print("mmbdeid: error: %scannot write or read: %s; no output written" % (
            where, error.strerror or error), file=sys.stderr)
        return EXIT_BAD_INPUT
    except sqlite3.Error as error:  # the statistics store, e.g. a full TMPDIR
        if stop_signal() is not None:   # a query a stop signal interrupted
            return _stopped(stop_signal())
        print("mmbdeid: error: statistics store: %s; no output written" % error,
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as interrupt:
        return _stopped(getattr(interrupt, "signum", signal.SIGINT))
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def main_entry() -> None:
    sys.exit(main())


def _stopped(signum: int) -> int:
    print("mmbdeid: %s; no output written" % (
        "interrupted" if signum == signal.SIGINT else "stopped by %s"
        % signal.Signals(signum).name), file=sys.stderr)
    return 128 + signum


def _stop_on_signals() -> dict:
    """Ctrl-C, a kill (SIGTERM) or a closed terminal (SIGHUP) unwinds, so temporary
    outputs, scratch stores and locks are removed; the exit status is 128 + the signal.
    SIGXFSZ is ignored, so a file-size limit makes the write fail with a clear error
    instead of killing the process with its temporary files in place."""
    def stop(signum, frame):
        note_stop(signum)
        raise Stopped(signum)
    previous = {}
    try:
        for signum, handler in ((signal.SIGINT, stop), (signal.SIGTERM, stop),
                                (signal.SIGHUP, stop),
                                (signal.SIGXFSZ, signal.SIG_IGN)):
            previous[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread (an embedding application)
        pass
    return previous
