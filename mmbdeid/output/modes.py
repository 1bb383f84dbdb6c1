"""What the Python API's ``mode`` names: the per-post operator that rewrites each text.

``mode`` is the name of a registered operator (``"placeholder"``, ``"mask"``, ``"hash"``,
or one added with :func:`~mmbdeid.output.operators.register_operator`), an operator
instance, or a function of ``(label, original)`` returning the replacement. The person
modes link names across a whole dump first, which the command line's ``scrub`` does.
"""
from typing import Any

from ..checks import kind_of
from ..errors import MmbdeidTypeError, MmbdeidValueError
from .hash_key import ENVIRONMENT_VARIABLE, MIN_KEY_BYTES, HashKey, key_from_environment
from .operators import OPERATORS, CallableOperator, Operator, post_operator


def operator_for(mode: Any, hash_key: Any = None) -> Operator:
    """The operator ``mode`` names (see the module), checked: ``TypeError`` for a value of
    the wrong kind, ``ValueError`` for an unknown or person mode, a hash mode without a
    key, or a key without the hash mode. ``hash_key``: bytes, a string or a
    :class:`~mmbdeid.output.hash_key.HashKey`; None reads the environment variable."""
    if isinstance(mode, Operator):
        if mode.needs_people:
            raise MmbdeidValueError(_people_message(mode.name))
        operator = mode
    elif isinstance(mode, str):
        if mode not in OPERATORS:
            raise MmbdeidValueError("mode must be one of %s, or an operator, got %r"
                                    % (", ".join(OPERATORS), mode))
        if OPERATORS[mode].needs_people:
            raise MmbdeidValueError(_people_message(mode))
        key = _key(hash_key) if OPERATORS[mode].keyed else None
        operator = post_operator(mode, key)
    elif callable(mode) and not isinstance(mode, type):
        operator = CallableOperator(mode)
    else:
        raise MmbdeidTypeError("mode must be a mode's name, an Operator or a function, not %s"
                               % kind_of(mode))
    if hash_key is not None and not operator.keyed:
        raise MmbdeidValueError("hash_key goes with mode='hash'")
    return operator


def _key(hash_key: Any) -> HashKey:
    if isinstance(hash_key, HashKey):
        return hash_key
    if hash_key is not None:
        return HashKey(hash_key)
    key = key_from_environment()
    if key is None:
        raise MmbdeidValueError("mode 'hash' needs a key of at least %d bytes: hash_key=... or the "
                                "environment variable %s" % (MIN_KEY_BYTES, ENVIRONMENT_VARIABLE))
    return key


def _people_message(name: str) -> str:
    return ("mode %r links the people of a whole dump: use the command line's "
            "'mmbdeid scrub --mode %s'" % (name, name))
