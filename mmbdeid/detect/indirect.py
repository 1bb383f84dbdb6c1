"""Old path of ``opens_sentence``, kept for :mod:`.consistency` only until thread
consistency moves to its one home (issue 32): import from :mod:`mmbdeid.detect.words`."""
from .words import opens_sentence

__all__ = ["opens_sentence"]
