"""Measuring detection against gold data.

``CHAINS``: what evaluation measures, by the stages of the chain it runs
(:mod:`mmbdeid.detect.registry`): the model with its threshold and filters (``model``) or
everything ``scrub`` removes, the rule steps too (``scrub``); ``GROUPINGS``: what
figures can be broken down by (``evaluate --by``): the board, the thread, or the forum (a
board's name up to its first ``:``, as crawls name sub-boards: ``ewt-newsgroup:cats``)."""
CHAINS = {"model": ("model", "filter"), "scrub": ("model", "filter", "rule")}
GROUPINGS = ("board", "forum", "thread")
