"""The chain's options: the one place each is named, defaulted and checked.

The command line builds a :class:`ChainOptions` from its arguments (``cli/``), the Python API
from its keywords (:class:`mmbdeid.Scrubber`), and the chain builder
(:meth:`Analyzer.build <mmbdeid.detect.analyzer.Analyzer.build>`), the reusable chain of the
API, the workers of both engines (inside :class:`mmbdeid.jobs.config.DetectionConfig`),
evaluation and review receive it whole. Frozen and made of plain values, so it is hashable
and pickles to worker processes and Dask workers. Adding an option is one field here.
"""
from dataclasses import dataclass, fields, replace
from typing import Iterable, Optional, Tuple

from .. import checks
from ..errors import MmbdeidValueError
from ..crf import TAGGERS
from ..kinds import DEFAULT_KINDS, parse_kinds
from ..spans import CONSISTENCY_LEVEL


@dataclass(frozen=True)
class ChainOptions:
    """``threshold``: None for the model's own, or strictly between 0 and 1; ``every_token``:
    a span on every token whatever its score, for evaluation
    (:data:`~mmbdeid.detect.crf.EVERY_TOKEN`; the threshold is then left aside);
    ``steps``: the names of the chain's steps (:mod:`mmbdeid.detect.registry`; None: every
    step); ``allow``/``deny``: terms never / always removed (deny wins); ``tagging``: how
    the CRF's marginals are computed, ``compiled`` or ``crfsuite`` (the command line's
    ``--tagging``; :mod:`mmbdeid.detect.crf`); ``consistency``: the probability from which a
    word removed in a thread (and, with ``authors``, by an author on the board) is removed
    wherever it stands there (:mod:`mmbdeid.detect.thread_names`); ``kinds``: the kinds of
    identifier removed (:mod:`mmbdeid.kinds`; a step finding only others is left out).

    A value of the wrong kind raises ``MmbdeidTypeError``, one out of range
    ``MmbdeidValueError`` (a ``TypeError``, a ``ValueError``), naming
    the option; lists become tuples. Unknown step names are refused where the steps are
    resolved (:func:`~mmbdeid.detect.registry.step_names`)."""
    threshold: Optional[float] = None
    steps: Optional[Tuple[str, ...]] = None
    allow: Tuple[str, ...] = ()
    deny: Tuple[str, ...] = ()
    tagging: str = TAGGERS[0]
    consistency: float = CONSISTENCY_LEVEL
    authors: bool = True
    kinds: Tuple[str, ...] = DEFAULT_KINDS
    every_token: bool = False

    def __post_init__(self):
        checked = dict(
            threshold=checks.optional_threshold(self.threshold),
            steps=None if self.steps is None else checks.terms(self.steps, "steps", "step"),
            allow=checks.terms(self.allow, "allow"), deny=checks.terms(self.deny, "deny"),
            tagging=_tagging(self.tagging),
            consistency=checks.number(self.consistency, "consistency", 0.0, 1.0),
            authors=checks.flag(self.authors, "authors"),
            kinds=parse_kinds(",".join(checks.terms(self.kinds, "kinds", "kind")) or " "),
            every_token=checks.flag(self.every_token, "every_token"))
        for name, value in checked.items():
            object.__setattr__(self, name, value)   # (frozen: set once, here)

    @classmethod
    def names(cls) -> Tuple[str, ...]:
        """The options' names, in order."""
        return tuple(field.name for field in fields(cls))

    def runs(self, step: str) -> bool:
        """Whether the chain has the step named ``step``."""
        return self.steps is None or step in self.steps

    def with_steps(self, steps: Optional[Iterable[str]]) -> "ChainOptions":
        """These options for the chain of ``steps`` (None: every step)."""
        return replace(self, steps=None if steps is None else tuple(steps))


def chain_options(options: Optional[ChainOptions] = None, **chosen) -> ChainOptions:
    """``options`` (None: the defaults) with the options ``chosen`` by keyword: what a
    builder taking both (``Analyzer.build(tagger, stats, options, threshold=0.2)``) runs."""
    if options is None:
        return ChainOptions(**chosen)
    return replace(options, **chosen) if chosen else options


def _tagging(value) -> str:
    checks.string(value, "tagging")
    if value not in TAGGERS:
        raise MmbdeidValueError("tagging must be one of %s, got %s"
                         % (", ".join(TAGGERS), checks.shown(value)))
    return value
