"""Some cases of a parametrized test marked slow: the others stand for them in the default
run (``python3 -m pytest``); ``-m "slow or not slow"`` runs them all."""
import pytest


def slow_except(params, fast):
    """``params``, the values of a parametrize (each a value, or a tuple of the values of
    its arguments), as ``pytest.param``s: those not in ``fast`` marked slow. The test ids
    stay those of the plain values."""
    params = list(params)
    missing = [case for case in fast if case not in params]
    assert not missing, "not among the cases: %r" % (missing,)
    return [pytest.param(*(case if isinstance(case, tuple) else (case,)),
                         marks=() if case in fast else pytest.mark.slow)
            for case in params]
