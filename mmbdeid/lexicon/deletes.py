"""The deletion index's storage: hashes of the strings made by deleting characters from
words, and the sorted tables that find the words sharing one (used by
:class:`~mmbdeid.lexicon.fuzzy.FuzzyIndex`).

The deletes are not kept as strings. Each is one uint64 key, a 32-bit hash of the delete in
the high half and the id of its word in the low half, in sorted numpy arrays (8 bytes per
delete; looked up with ``np.searchsorted``): one for the deletes of 0 or 1 characters
("near"), one for those of 2 ("far", whose keys also carry the two deleted positions, 8 bits
above a 24-bit id). Each array has a bitmap of the hashes present (their top bits, about 8
bits per key), which turns away most deletes of a query that match nothing for far less than
a binary search. Hash collisions only add candidates, which the verification removes, so
they cost time, never correctness. The delete hashes of all entries of one length are
computed at once with numpy from prefix sums of a polynomial hash modulo 2**64 (deleting
character ``i`` gives ``P[i] + (h - P[i+1]) * B**-1``), which makes the build fast.
"""
from __future__ import annotations

import numpy as np

LOW_HALF = 0xFFFFFFFF    # low half of a key: [8 bits: positions of a far delete] [24: id]
ID_BITS = 24             # (indexes of 2**24 entries or more keep no positions: 32-bit ids)
CODED_POSITIONS = 16     # a far delete's positions (i, j), both below 16, coded i << 4 | j

_MASK = (1 << 64) - 1
_BASE = 0x100000001B3                 # odd, so it has an inverse modulo 2**64
_BASE_INV = pow(_BASE, -1, 1 << 64)
_LENGTH_SALT = 0x9E3779B97F4A7C15     # mixes the delete's length into its hash
_MIX = 0xBF58476D1CE4E5B9             # splitmix64 finaliser constant


def _close_positions() -> np.ndarray:
    """CLOSE_POSITIONS[a << 8 | b]: the positions coded ``a`` and ``b`` differ by at most 1 each."""
    codes = np.arange(256)
    i, j = codes >> 4, codes & 15
    return ((np.abs(i[:, None] - i[None, :]) <= 1)
            & (np.abs(j[:, None] - j[None, :]) <= 1)).ravel()


CLOSE_POSITIONS = _close_positions()


def _finalise_py(raw: int, length: int) -> int:
    """32-bit hash of a delete from its raw polynomial value (Python ints)."""
    x = (raw + length * _LENGTH_SALT) & _MASK   # raw may be any int: reduced here
    x ^= x >> 31
    x = (x * _MIX) & _MASK
    return x >> 32


def _finalise_np(raw: np.ndarray, length: int) -> np.ndarray:
    """Same as ``_finalise_py`` on a uint64 array (arithmetic wraps modulo 2**64)."""
    x = raw + np.uint64((length * _LENGTH_SALT) & _MASK)
    x ^= x >> np.uint64(31)
    x *= np.uint64(_MIX)
    return (x >> np.uint64(32)).astype(np.uint32)


def query_hashes(token: str, max_deletes: int) -> list[int]:
    """Hashes of every string made by deleting 0..max_deletes characters of ``token``.

    Python-int twin of ``group_hashes`` (same values), fast for a single short token.
    """
    n = len(token)
    prefix = [0] * (n + 1)      # prefix[k] = sum(ord(c_i) * B**i for i < k)
    power = 1
    for k, ch in enumerate(token):
        prefix[k + 1] = (prefix[k] + ord(ch) * power) & _MASK
        power = (power * _BASE) & _MASK
    whole = prefix[n]
    raws = [(whole, n)]
    if max_deletes >= 1 and n >= 2:
        inv = _BASE_INV
        raws += [(prefix[i] + (whole - prefix[i + 1]) * inv, n - 1) for i in range(n)]
    if max_deletes >= 2 and n >= 3:
        inv, inv2 = _BASE_INV, (_BASE_INV * _BASE_INV) & _MASK
        raws += [(prefix[i] + (prefix[j] - prefix[i + 1]) * inv + (whole - prefix[j + 1]) * inv2, n - 2)
                 for i in range(n) for j in range(i + 1, n)]
    return [_finalise_py(raw, length) for raw, length in raws]


def deletes_per_word(length: int, max_deletes: int) -> int:
    """How many delete hashes ``group_hashes`` makes for one word of this length."""
    count = 1
    if max_deletes >= 1 and length >= 2:
        count += length
    if max_deletes >= 2 and length >= 3:
        count += length * (length - 1) // 2
    return count


def group_hashes(codes: np.ndarray, max_deletes: int) -> list[np.ndarray]:
    """Delete hashes for words of one length; ``codes`` is (n_words, length) uint64.

    Returns arrays of shape (n_words, k), one per number of deleted characters.
    """
    n_words, length = codes.shape
    powers = np.array([pow(_BASE, k, 1 << 64) for k in range(length)], dtype=np.uint64)
    inv, inv2 = np.uint64(_BASE_INV), np.uint64((_BASE_INV * _BASE_INV) & _MASK)
    prefix = np.zeros((n_words, length + 1), dtype=np.uint64)
    np.cumsum(codes * powers, axis=1, out=prefix[:, 1:])
    whole = prefix[:, length:]
    out = [_finalise_np(whole, length)]
    if max_deletes >= 1 and length >= 2:
        i = np.arange(length)
        raw = prefix[:, i] + (whole - prefix[:, i + 1]) * inv
        out.append(_finalise_np(raw, length - 1))
    if max_deletes >= 2 and length >= 3:
        i, j = np.triu_indices(length, k=1)
        raw = prefix[:, i] + (prefix[:, j] - prefix[:, i + 1]) * inv + (whole - prefix[:, j + 1]) * inv2
        out.append(_finalise_np(raw, length - 2))
    return out


def pair_codes(length: int) -> np.ndarray:
    """The deleted positions (i, j) of the 2-character deletes of ``group_hashes``, in its
    column order, coded ``i << 4 | j`` (uint64)."""
    i, j = np.triu_indices(length, k=1)
    return ((i << 4) | j).astype(np.uint64)


def pack(needles: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Needles (uint32 delete hashes), each with a low half (the position of its token in
    the batch, and for far deletes their positions), as the sorted uint64 values that
    ``DeleteTable.lookup`` takes."""
    return np.sort((needles.astype(np.uint64) << np.uint64(32)) | low.astype(np.uint64))


class DeleteTable:
    """Delete hashes of entries, one sorted uint64 array: hash in the high half, entry id
    (and for far deletes their positions) in the low half, so the deletes with one hash
    form one run of the array. With a bitmap of the hashes present (their top bits, about
    8 bits per key): most deletes of a batch match nothing, and the bitmap turns most of
    them away for far less than a binary search."""

    def __init__(self, keys: np.ndarray) -> None:
        keys.sort()
        self.keys = keys
        low_half = 0 if np.little_endian else 1
        self.low = keys.view(np.uint32)[low_half::2]   # a view: the ids (and positions)
        self.bits = min(32, max(13, (keys.size * 8).bit_length() - 1))
        self.bitmap = np.empty(1 << (self.bits - 3), dtype=np.uint8)
        shift, span = np.uint64(64 - self.bits), min(1 << self.bits, 1 << 21)
        starts = np.searchsorted(keys, np.arange(0, 1 << self.bits, span, dtype=np.uint64) << shift)
        present = np.empty(span, dtype=bool)
        for k, (start, end) in enumerate(zip(starts.tolist(), starts[1:].tolist() + [keys.size])):
            present[:] = False   # span by span: bounds the temporaries
            present[(keys[start:end] >> shift).astype(np.int64) - k * span] = True
            self.bitmap[k * span // 8:(k + 1) * span // 8] = np.packbits(present, bitorder="little")

    def __len__(self) -> int:
        return self.keys.size

    def lookup(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For every stored delete with the hash of a needle: the needle's low half and the
        key's low half (two uint32 arrays). ``packed`` as made by ``pack``: sorted needles,
        so searchsorted walks the table forwards, several times faster than random probes."""
        keys = self.keys
        if packed.size == 0 or keys.size == 0:
            return np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.uint32)
        slots = packed >> np.uint64(64 - self.bits)
        maybe = (self.bitmap[slots >> np.uint64(3)] >> (slots & np.uint64(7)).astype(np.uint8)) & 1
        packed = packed[maybe.view(bool)]
        starts = (packed >> np.uint64(32)) << np.uint64(32)
        lo = np.searchsorted(keys, starts, side="left")
        # the bitmap lets through some needles that match nothing: compare the hash found
        # there before the second search
        found = (keys[np.minimum(lo, keys.size - 1)] ^ starts) >> np.uint64(32) == 0
        hit = np.flatnonzero(found & (lo < keys.size))
        lo = lo[hit]
        counts = np.searchsorted(keys, starts[hit] | np.uint64(LOW_HALF), side="right") - lo
        ends = np.cumsum(counts)
        # every index position of every hit run, without a Python loop
        positions = np.arange(ends[-1] if ends.size else 0) + np.repeat(lo - (ends - counts), counts)
        # (uint64 to uint32 keeps the needle's low half)
        return np.repeat(packed[hit].astype(np.uint32), counts), self.low[positions]

    def ids_of(self, hashes: list[int], id_mask: int) -> set[int]:
        """Ids of the entries with a delete of one of these hashes (a single query)."""
        query = np.array(hashes, dtype=np.uint64) << np.uint64(32)
        keys, found = self.keys, set()
        lo = np.searchsorted(keys, query, side="left").tolist()
        hi = np.searchsorted(keys, query | np.uint64(LOW_HALF), side="right").tolist()
        for a, b in zip(lo, hi):
            if a < b:  # few runs are non-empty: a Python loop beats numpy gathering here
                found.update(keys[a:b].tolist())
        return {key & id_mask for key in found}
