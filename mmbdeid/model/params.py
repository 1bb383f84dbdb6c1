"""scikit-learn's parameter conventions, without importing scikit-learn.

``sklearn.base.BaseEstimator`` gives an estimator ``get_params``/``set_params`` from the
arguments of its ``__init__``; everything else about the convention (``__init__`` stores
its arguments as given, ``fit`` returns self, learned state ends in ``_``) is the class's
own. Importing scikit-learn costs about 0.9 s and 150 MB of resident memory in every
process (measured on this project's machine), and a scrub only loads a trained model: so
the tagger takes the two methods from here, and scikit-learn's ``clone``, grid searches and
pipelines, which only ask for ``get_params``/``set_params``, still work with it.
"""
import inspect
from typing import Dict, List

from ..errors import MmbdeidValueError


class Parameters:
    """``get_params``/``set_params`` as ``BaseEstimator`` has them (not nested ``a__b``
    names: no parameter here is an estimator)."""

    @classmethod
    def _get_param_names(cls) -> List[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(p.name for p in signature.parameters.values()
                      if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))

    def get_params(self, deep: bool = True) -> Dict[str, object]:
        """The parameters by name (``deep`` is accepted as scikit-learn passes it)."""
        return {name: getattr(self, name) for name in self._get_param_names()}

    def set_params(self, **params) -> "Parameters":
        valid = self._get_param_names()
        for name, value in params.items():
            if name not in valid:
                raise MmbdeidValueError("Invalid parameter %r for estimator %s. Valid parameters "
                                        "are: %r." % (name, type(self).__name__, valid))
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        defaults = {p.name: p.default for p in
                    inspect.signature(type(self).__init__).parameters.values()}
        changed = ["%s=%r" % (name, value) for name, value in self.get_params().items()
                   if not _same(value, defaults.get(name, inspect.Parameter.empty))]
        return "%s(%s)" % (type(self).__name__, ", ".join(changed))


def _same(value, default) -> bool:
    try:
        return bool(value == default)
    except Exception:               # an array or other value without a plain ==
        return value is default
