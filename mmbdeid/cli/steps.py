"""The detector chain's steps on the command line: the names ``--steps`` and ``--no-step``
take, the kinds ``--kinds`` takes, the chain's options the arguments choose, and the
``steps`` command that lists them (:mod:`mmbdeid.detect.registry`)."""
import argparse
from typing import Optional, Tuple

from ..kinds import DEFAULT_KINDS, parse_kinds
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


def kind_list(text: str) -> Tuple[str, ...]:
    """An argparse type: kinds of identifier and presets, comma-separated
    (:func:`mmbdeid.kinds.parse_kinds`)."""
    try:
        return parse_kinds(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def chosen_steps(args) -> Optional[Tuple[str, ...]]:
    """The steps ``--steps`` and ``--no-step`` choose, of those finding the ``--kinds``
    chosen; None: every step (of the default kinds)."""
    kinds = getattr(args, "kinds", DEFAULT_KINDS)
    if args.steps is None and not args.no_step and kinds == DEFAULT_KINDS:
        return None
    from ..detect.registry import step_names
    return step_names(args.steps, [name for names in args.no_step for name in names],
                      kinds=kinds)


def chosen_options(args, **chosen):
    """The chain's options (:class:`~mmbdeid.detect.options.ChainOptions`) the command
    line's arguments choose (``--threshold``, ``--steps``, ``--no-step``, ``--tagging``,
    ``--kinds``), with those ``chosen`` here (the terms of ``--allow`` and ``--deny``)."""
    from ..detect.options import ChainOptions
    given = dict(threshold=getattr(args, "threshold", None), steps=chosen_steps(args),
                 tagging=args.tagging, kinds=args.kinds)
    return ChainOptions(**dict(given, **chosen))


def run_steps(args) -> int:
    from ..detect.registry import STEPS, load_entry_points
    load_entry_points()
    width = max(len(step.name) for step in STEPS)
    produces = [", ".join(step.produces) or "-" for step in STEPS]
    kinds_width = max(map(len, produces))
    for step, kinds in zip(STEPS, produces):
        print("%-*s  %-6s  %-6s  %-*s  %s" % (width, step.name, step.stage, step.effect,
                                             kinds_width, kinds, step.help))
    return EXIT_OK
