"""A chain built once and run on many inputs, each with its own corpus statistics (the
Python API: every call is a dump of its own).

Most steps neither read the statistics nor keep anything between posts: their detectors
(word lists, gazetteer forms, about a second to build) are built once and shared by every
analyzer made here, in any thread. The steps marked ``per_input``
(:class:`~mmbdeid.detect.registry.Step`) read the statistics or gather state over one
input: they are made again for each, the CRF from the first one, whose weight tables it
shares (:meth:`~mmbdeid.detect.crf.CrfDetector.with_stats`). A new step that reads
``Setup.stats`` or keeps state is marked so (tests/detect/test_reusable.py checks that no
other step touches the statistics).
"""
from dataclasses import replace
from typing import Iterable, Optional, Sequence

from ..kinds import DEFAULT_KINDS
from .analyzer import Analyzer
from .registry import BY_NAME, STEP_NAMES, Setup, named_steps


class ReusableChain:
    """The chain of ``steps`` (None: every step of ``kinds``) for ``tagger``, as
    :meth:`Analyzer.build <mmbdeid.detect.analyzer.Analyzer.build>` with the same options
    builds it, for one input after another: :meth:`analyzer` gives each input's."""

    def __init__(self, tagger, threshold: Optional[float] = None,
                 steps: Optional[Iterable[str]] = None, allow: Sequence[str] = (),
                 deny: Sequence[str] = (), tagging: str = "compiled",
                 kinds: Iterable[str] = DEFAULT_KINDS):
        self._setup = Setup(tagger, None, threshold, tagging, allow=tuple(allow),
                            deny=tuple(deny), kinds=tuple(kinds))
        self._steps = named_steps(STEP_NAMES if steps is None else steps, self._setup)

    def analyzer(self, stats) -> Analyzer:
        """The chain for an input whose corpus statistics are ``stats``: what
        ``Analyzer.build(tagger, stats, ...)`` builds, the same detectors but for the
        shared ones."""
        setup = replace(self._setup, stats=stats)
        detectors = []
        for name, detector in self._steps:
            if BY_NAME[name].per_input:
                shared = detector.with_stats(stats) if detector is not None else None
                detector = shared if shared is not None else BY_NAME[name].make(setup)
            if detector is not None:
                detectors.append(detector)
        return Analyzer(detectors)
