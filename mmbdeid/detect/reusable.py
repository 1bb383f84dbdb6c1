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
from typing import Optional

from .analyzer import Analyzer
from .options import ChainOptions, chain_options
from .registry import BY_NAME, STEP_NAMES, Setup, named_steps


class ReusableChain:
    """The chain of ``options`` (:class:`~mmbdeid.detect.options.ChainOptions`, or its
    fields as keywords) for ``tagger``, as :meth:`Analyzer.build
    <mmbdeid.detect.analyzer.Analyzer.build>` builds it, for one input after another:
    :meth:`analyzer` gives each input's."""

    def __init__(self, tagger, options: Optional[ChainOptions] = None, **chosen):
        self._setup = Setup(tagger, None, chain_options(options, **chosen))
        steps = self._setup.options.steps
        self._steps = named_steps(STEP_NAMES if steps is None else steps, self._setup)

    def analyzer(self, stats) -> Analyzer:
        """The chain for an input whose corpus statistics are ``stats``: what
        ``Analyzer.build(tagger, stats, options)`` builds, the same detectors but for the
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
