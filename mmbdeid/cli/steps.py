"""The detector chain's steps on the command line: the names ``--steps`` and ``--no-step``
take, and the ``steps`` command that lists them (:mod:`mmbdeid.detect.registry`)."""
import argparse
from typing import Optional, Tuple

from .exits import EXIT_OK


def step_list(text: str) -> Tuple[str, ...]:
    """An argparse type: step names, comma-separated, each a registry step."""
    from ..detect.registry import step_names      # only when the option is given
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    try:
        step_names(names)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return names


def chosen_steps(args) -> Optional[Tuple[str, ...]]:
    """The steps ``--steps`` and ``--no-step`` choose; None: every step."""
    if args.steps is None and not args.no_step:
        return None
    from ..detect.registry import step_names
    return step_names(args.steps, [name for names in args.no_step for name in names])


def run_steps(args) -> int:
    from ..detect.registry import STEPS
    width = max(len(step.name) for step in STEPS)
    for step in STEPS:
        print("%-*s  %-6s  %-6s  %s" % (width, step.name, step.stage, step.effect, step.help))
    return EXIT_OK
