"""mmbdeid: de-identify medical message board text (Benton et al. 2011, extended).

One call: ``mmbdeid.scrub(text)``, ``mmbdeid.analyze(text)``; many: ``Scrubber``,
``scrub_records``, ``scrub_dataframe`` (see :mod:`mmbdeid.api`).
"""
__version__ = "0.1.0"

# The API's names are imported on first use (PEP 562), so the command line, which imports
# this package for its version, does not load the model's modules before it needs them.
_API = {"Scrubber": "api", "analyze": "api", "scrub": "api", "scrub_dataframe": "api",
        "scrub_records": "api", "NameTagger": "model.tagger", "Span": "spans",
        "MmbdeidError": "errors", "InputError": "errors", "Detector": "detect.base",
        "register_detector": "detect.registry"}

__all__ = sorted(_API) + ["__version__"]


def __getattr__(name):
    if name in _API:
        import importlib
        return getattr(importlib.import_module("." + _API[name], __name__), name)
    raise AttributeError("module 'mmbdeid' has no attribute %r" % name)


def __dir__():
    return __all__
