"""The secret key of ``--mode hash`` and the keyed digest of an identifier.

Each identifier becomes ``[LABEL:digest]``, the digest the first
:data:`~mmbdeid.text.placeholders.HASH_DIGITS` hex digits of HMAC-SHA256(key, the
identifier's normal form), so the same name gives the same value in every post and every
run with the same key, and no one without the key can test a guess (a plain hash of a name
can be reversed by hashing a list of names).

The key is read from ``--hash-key-file`` or, failing that, the environment variable
:data:`ENVIRONMENT_VARIABLE`; there is no default key. It lives in a :class:`HashKey`, whose
``repr`` and ``str`` hide it, so no message, log or configuration printout can show it; it
travels to worker processes in memory (fork, a pipe, a Dask task), never in a file.
"""
import hmac
import os
import re
import stat
import unicodedata
from hashlib import sha256
from typing import Mapping, Optional

from ..errors import InputError, MmbdeidTypeError, MmbdeidValueError
from ..text.placeholders import HASH_DIGITS

ENVIRONMENT_VARIABLE = "MMBDEID_HASH_KEY"
MIN_KEY_BYTES = 16
MAX_KEY_FILE_BYTES = 64 * 1024      # a key file is read whole: never a disk image or a device
_TOO_BIG = ("the hash key file is over %d KiB: a key is a few dozen bytes (the wrong file?)"
            % (MAX_KEY_FILE_BYTES // 1024))
# Keys the digest apart from any other use of the same key (and from a later form of it).
_CONTEXT = b"mmbdeid hash 1\x00"
_SPACES = re.compile(r"\s+")
_USER_PREFIX = re.compile(r"^(?:@|/?u/)", re.IGNORECASE)
_NOT_DIGIT = re.compile(r"\D")


class HashKey:
    """A secret key of at least :data:`MIN_KEY_BYTES` bytes. Never shown: ``repr`` and
    ``str`` say ``HashKey(<hidden>)``. Equal keys compare equal (in constant time) and
    hash alike, so a run's configuration holding one stays a cache key."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes):
        if isinstance(key, str):
            key = key.encode("utf-8")
        if not isinstance(key, (bytes, bytearray)):
            # (the value itself is never put in a message)
            raise MmbdeidTypeError("hash_key must be bytes or a string, not %s"
                                   % type(key).__name__)
        if len(key) < MIN_KEY_BYTES:
            raise MmbdeidValueError("the hash key is shorter than %d bytes" % MIN_KEY_BYTES)
        self._key = bytes(key)

    def __repr__(self) -> str:
        return "HashKey(<hidden>)"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, HashKey) and hmac.compare_digest(self._key, other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __getstate__(self):
        return self._key

    def __setstate__(self, key: bytes) -> None:
        self._key = key

    def digest(self, label: str, original: str) -> str:
        """The hex digest of ``original`` (an identifier of kind ``label``) in its normal
        form (:func:`normal_form`)."""
        message = _CONTEXT + normal_form(label, original).encode("utf-8")
        return hmac.new(self._key, message, sha256).hexdigest()[:HASH_DIGITS]


def normal_form(label: str, original: str) -> str:
    """What is hashed: NFKC, case folded, white space collapsed to one space and trimmed
    (``Mary  Jane`` = ``MARY JANE``); a username without its ``@`` or ``u/`` (``@kaygirl``
    = ``u/kaygirl`` = the author field ``kaygirl``); a phone number's digits alone
    (``(212) 555-0123`` = ``212.555.0123``). The label itself is not hashed: a word the
    model calls a NAME in one post and a USER in another still hashes alike."""
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", original).casefold()).strip()
    if label in ("USER", "AUTHOR"):
        text = _USER_PREFIX.sub("", text)
    elif label == "PHONE":
        text = _NOT_DIGIT.sub("", text) or text
    return text


def key_from_file(path: str) -> HashKey:
    """The key in the file at ``path``: its bytes, less one final line break (``\\n`` or
    ``\\r\\n``, which editors and ``echo`` add). A missing, unreadable, empty or short file,
    one that is not a regular file (``/dev/zero`` would be read until memory runs out, a
    FIFO waited on) or one over :data:`MAX_KEY_FILE_BYTES` is an
    :class:`~mmbdeid.errors.InputError` naming it."""
    try:
        _check_key_file(os.stat(path), path)        # before opening: a FIFO would block
        with open(path, "rb") as handle:
            _check_key_file(os.fstat(handle.fileno()), path)    # replaced meanwhile?
            key = handle.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as error:
        raise InputError("cannot read the hash key file (%s)"
                         % (error.strerror or type(error).__name__), path)
    if len(key) > MAX_KEY_FILE_BYTES:
        raise InputError(_TOO_BIG, path)
    if key.endswith(b"\r\n"):
        key = key[:-2]
    elif key.endswith(b"\n"):
        key = key[:-1]
    if not key:
        raise InputError("the hash key file is empty", path)
    try:
        return HashKey(key)
    except ValueError as error:
        raise InputError(str(error), path) from None


def _check_key_file(status: os.stat_result, path: str) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise InputError("the hash key file is not a regular file (a device, FIFO or "
                         "directory): give a file holding the key, or set %s"
                         % ENVIRONMENT_VARIABLE, path)
    if status.st_size > MAX_KEY_FILE_BYTES:
        raise InputError(_TOO_BIG, path)


def key_from_environment(environ: Optional[Mapping[str, str]] = None) -> Optional[HashKey]:
    """The key in :data:`ENVIRONMENT_VARIABLE` (its UTF-8 bytes), None when it is not
    set; ``ValueError`` when it is empty or short."""
    value = (os.environ if environ is None else environ).get(ENVIRONMENT_VARIABLE)
    if value is None:
        return None
    if not value:
        raise MmbdeidValueError("the environment variable %s is empty" % ENVIRONMENT_VARIABLE)
    try:
        return HashKey(value.encode("utf-8", "surrogateescape"))
    except ValueError as error:
        raise MmbdeidValueError("%s: %s" % (ENVIRONMENT_VARIABLE, error)) from None


def find_key(path: Optional[str] = None,
             environ: Optional[Mapping[str, str]] = None) -> HashKey:
    """The key of a run: from the file at ``path`` when given (it wins over the
    environment: what the command line names is what the user meant), else from the
    environment variable; :class:`~mmbdeid.errors.InputError` when there is none or it
    is unfit. Never a default key."""
    if path:
        return key_from_file(path)
    try:
        key = key_from_environment(environ)
    except ValueError as error:
        raise InputError(str(error)) from None
    if key is None:
        raise InputError("--mode hash needs a key of at least %d bytes: --hash-key-file "
                         "FILE or the environment variable %s"
                         % (MIN_KEY_BYTES, ENVIRONMENT_VARIABLE))
    return key
