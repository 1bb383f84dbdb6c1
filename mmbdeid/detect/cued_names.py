"""Old path of :mod:`mmbdeid.detect.names.cued_names`, kept for :mod:`.consistency` only
until thread consistency moves to its one home (issue 32): import from the new path."""
from .names.cued_names import CUED, common_use, word_names

__all__ = ["CUED", "common_use", "word_names"]
