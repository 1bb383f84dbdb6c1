"""The name tagger's labels and hyperparameters, and the checks of their values: the
estimator's ``check_params``, its ``save`` and a model file's ``params`` use the same."""
import functools
from typing import Optional

from .. import checks

LABELS = ("NAME", "USER", "O")
# The hyperparameters a model file keeps under "params" (every parameter but metadata).
HYPERPARAMETERS = ("c1", "c2", "max_iterations", "all_possible_transitions", "threshold",
                   "window", "lowercase_share", "random_state", "second_stage", "context_folds")
# Parameters added after models were first saved: a model file without them has these
# values (a one-stage model, as every model was before the second stage existed).
LATER_HYPERPARAMETERS = {"second_stage": False, "context_folds": 5}
MAX_WINDOW = 10                       # tokens each side; the feature count grows with it
MAX_CONTEXT_FOLDS = 20

# name -> its check (:mod:`mmbdeid.checks`, as the command line's options have them)
PARAM_CHECKS = {
    "c1": functools.partial(checks.number, low=0.0),
    "c2": functools.partial(checks.number, low=0.0),
    "max_iterations": functools.partial(checks.whole_number, low=1),
    "all_possible_transitions": checks.flag,
    "threshold": checks.threshold,
    "window": functools.partial(checks.whole_number, low=0, high=MAX_WINDOW),
    "lowercase_share": functools.partial(checks.number, low=0.0, high=1.0),
    "random_state": checks.whole_number,
    "second_stage": checks.flag,
    "context_folds": functools.partial(checks.whole_number, low=2, high=MAX_CONTEXT_FOLDS),
}
assert set(PARAM_CHECKS) == set(HYPERPARAMETERS)


def param_problem(name: str, value) -> Optional[str]:
    """What is wrong with a hyperparameter value, or None."""
    try:
        PARAM_CHECKS[name](value, name)
    except (TypeError, ValueError) as error:
        return str(error)
    return None


def first_problem(params: dict) -> Optional[str]:
    """What is wrong with the first hyperparameter of ``params`` that is wrong, or None."""
    for name in HYPERPARAMETERS:
        problem = param_problem(name, params[name])
        if problem:
            return problem
    return None
