"""mmbdeid: de-identify medical message board text (Benton et al. 2011, extended).

One call: ``mmbdeid.scrub(text)``, ``mmbdeid.analyze(text)``; many: ``Scrubber``,
``scrub_records``, ``scrub_dataframe`` (see :mod:`mmbdeid.api`).
"""
__version__ = "0.1.0"

from .api import Scrubber, analyze, scrub, scrub_dataframe, scrub_records  # noqa: E402
from .model.tagger import NameTagger  # noqa: E402
from .spans import Span  # noqa: E402

__all__ = ["Scrubber", "NameTagger", "Span", "analyze", "scrub", "scrub_dataframe",
           "scrub_records", "__version__"]
