"""Measuring detection against gold data.

``CHAINS``: what evaluation measures, by the stages of the chain it runs
(:mod:`mmbdeid.detect.registry`): the model with its threshold and filters (``model``) or
everything ``scrub`` removes, the rule steps too (``scrub``); ``GROUPINGS``: what
figures can be broken down by (``evaluate --by``): the board, the thread, or the forum (a
board's name up to its first ``:``, as crawls name sub-boards: ``ewt-newsgroup:cats``), or
the kind of identifier; ``THRESHOLD_FLOOR``: the lowest threshold ``train --dev`` chooses
without ``--force``."""
CHAINS = {"model": ("model", "filter"), "scrub": ("model", "filter", "rule")}
GROUPINGS = ("board", "forum", "thread")
# ``evaluate --by``: a grouping, or ``kind``: recall and false removals per kind of
# identifier, and the lookalikes removed (:mod:`mmbdeid.evaluation.kinds`)
BREAKDOWNS = GROUPINGS + ("kind",)

#: The lowest threshold ``train --dev`` chooses without ``--force``: the bottom of the sweep.
#: Below it the model removes words it rates more than 199 to 1 against being a name; a
#: target that needs that is a reason to tag more data, so going lower is asked for by name.
THRESHOLD_FLOOR = 0.005
