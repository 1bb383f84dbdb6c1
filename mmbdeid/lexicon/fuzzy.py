"""Approximate word-list membership: edit distance 0, 1 or 2 via a deletion index.

The distance is the (unrestricted) Damerau-Levenshtein distance computed by
``jellyfish.damerau_levenshtein_distance``: insertions, deletions, substitutions and
transpositions of adjacent characters each cost 1.

Method (symmetric delete, as in SymSpell): two strings within distance ``d`` share a
string reached by deleting at most ``d`` characters from each (their longest common
subsequence: every edit removes at most one character of it on either side). So the
index stores every string obtained by deleting 0..``max_distance`` characters from each
entry, the query generates its own deletes, and entries sharing a delete are the
candidates, which are then verified (jellyfish for one token, one rapidfuzz ``cpdist``
call for a batch). No scan of the list.

Long words: as in SymSpell, deletes are taken of the first ``PREFIX_LENGTH`` (10)
characters of entries and queries only. This keeps the candidate property (if two words
are within d, so are their prefixes in the delete-neighbourhood sense: each prefix needs
at most d deletions to reach a common string) while bounding the deletes per word at
1 + 10 + 45; the verification uses the full words.

Memory: the deletes are not kept as strings. Each is one uint64 key, a 32-bit hash of
the delete in the high half and the id of its word in the low half, in sorted numpy
arrays (8 bytes per delete; looked up with ``np.searchsorted``): one for the deletes of
0 or 1 characters ("near"), one for those of 2 ("far", whose keys also carry the two
deleted positions, 8 bits above a 24-bit id). Each array has a bitmap of the hashes
present (their top bits, about 8 bits per key), which turns away most deletes of a query
that match nothing for far less than a binary search. Hash collisions only add
candidates, which the verification removes, so they cost time, never correctness. The
delete hashes of all entries of one length are computed at once with numpy from prefix
sums of a polynomial hash modulo 2**64 (deleting character ``i`` gives
``P[i] + (h - P[i+1]) * B**-1``), which makes the build fast: about 0.3 s and 50 MB (45 MB
of keys, 5 MB of bitmaps) for the 152k words of the shipped lists.

Batches (``FuzzyIndex.near_matches``): the delete hashes of all tokens are computed by
numpy, sorted, screened by the bitmaps and looked up with one ``searchsorted`` pass per
table, the candidates gathered with array operations, deduplicated, and verified in one
rapidfuzz call (C++).

Several lists (``MultiListIndex``, ``FuzzyIndex.near_masks``): one index over their
union, each entry tagged with the bit mask of its lists; what is wanted is the smallest
distance per token and list, which allows skipping most candidates, in two rounds:

1. Every pair within distance 1 shares a delete of at most one character on each side
   (also for the indexed prefixes), so the first round looks up only the tokens' near
   deletes in the near table, which finds every entry at distance 1 (and some at 2).
2. A list thus answered, or one the token is an entry of, cannot get a smaller distance
   from other candidates, so the second round (the other pairs of tables, for tokens
   allowed distance 2) keeps only candidates with a list still unanswered. Moreover a
   pair of equal length still to be found there at distance 2 shares no delete of one
   character (it would have been verified in the first round), so its differences are
   two substitutions or adjacent transpositions, and it shares a delete of two
   characters at positions (i, j) and (i', j') with |i - i'| <= 1 and |j - j'| <= 1. So
   for tokens shorter than the prefix (whose far-far candidates are all of their length)
   a far-far candidate is kept only through such a shared delete.

Short tokens: an edit that changes half of a word is not a misspelling, and within
distance 2 of a three- or four-letter token lie thousands of entries (which made short
tokens the bulk of the query cost). So the distance allowed grows with the token's length
(``DISTANCE_BY_LENGTH``): none below 3 characters, 1 for 3-4 characters, 2 from 5. Deletes are never taken down to the empty string; the only pairs that this loses
are two single characters (``"a"`` is not reported at distance 1 from ``"b"``).
Comparison is case-sensitive: the shipped lists are lower-case, so lower-case tokens
before asking.
"""
from __future__ import annotations

import functools
import re
from typing import Iterable, Mapping, Optional

import jellyfish
import numpy as np
from rapidfuzz.distance import DamerauLevenshtein
from rapidfuzz.process import cpdist

from .many_lists import MASK_LISTS, ListMembership

# (shortest length, distance allowed from there on), longest first
DISTANCE_BY_LENGTH = ((5, 2), (3, 1), (0, 0))
PREFIX_LENGTH = 10       # deletes are taken of the first 10 characters only (see above)
_LOW = 0xFFFFFFFF        # low half of a key: [8 bits: positions of a far delete] [24: id]
_ID_BITS = 24            # (indexes of 2**24 entries or more keep no positions: 32-bit ids)
_CHUNK_WORDS = 4096      # words hashed per numpy batch during the build
DISTANCE_CACHE_SIZE = 1 << 16   # distinct tokens whose distance each index remembers

_MASK = (1 << 64) - 1
_BASE = 0x100000001B3                 # odd, so it has an inverse modulo 2**64
_BASE_INV = pow(_BASE, -1, 1 << 64)
_LENGTH_SALT = 0x9E3779B97F4A7C15     # mixes the delete's length into its hash
_MIX = 0xBF58476D1CE4E5B9             # splitmix64 finaliser constant

assert PREFIX_LENGTH <= 16   # a far delete's positions (i, j) are coded as i << 4 | j


def _close_positions() -> np.ndarray:
    """CLOSE[a << 8 | b]: the positions coded ``a`` and ``b`` differ by at most 1 each."""
    codes = np.arange(256)
    i, j = codes >> 4, codes & 15
    return ((np.abs(i[:, None] - i[None, :]) <= 1)
            & (np.abs(j[:, None] - j[None, :]) <= 1)).ravel()


_CLOSE = _close_positions()


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(token: str) -> str:
    """Lone surrogates (from ``\\ud800`` JSON escapes) become U+FFFD: jellyfish, rightly,
    refuses strings that are not valid Unicode text, and no list entry contains either."""
    return _SURROGATE.sub("\ufffd", token) if not token.isascii() else token


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


def _query_hashes(token: str, max_deletes: int) -> list[int]:
    """Hashes of every string made by deleting 0..max_deletes characters of ``token``.

    Python-int twin of ``_group_hashes`` (same values), fast for a single short token.
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


def _deletes_per_word(length: int, max_deletes: int) -> int:
    """How many delete hashes ``_group_hashes`` makes for one word of this length."""
    count = 1
    if max_deletes >= 1 and length >= 2:
        count += length
    if max_deletes >= 2 and length >= 3:
        count += length * (length - 1) // 2
    return count


def _group_hashes(codes: np.ndarray, max_deletes: int) -> list[np.ndarray]:
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


def _pair_codes(length: int) -> np.ndarray:
    """The deleted positions (i, j) of the 2-character deletes of ``_group_hashes``, in its
    column order, coded ``i << 4 | j`` (uint64)."""
    i, j = np.triu_indices(length, k=1)
    return ((i << 4) | j).astype(np.uint64)


def _pack(needles: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Needles (uint32 delete hashes), each with a low half (the position of its token in
    the batch, and for far deletes their positions), as the sorted uint64 values that
    ``_DeleteTable.lookup`` takes."""
    return np.sort((needles.astype(np.uint64) << np.uint64(32)) | low.astype(np.uint64))


class _DeleteTable:
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
        key's low half (two uint32 arrays). ``packed`` as made by ``_pack``: sorted needles,
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
        counts = np.searchsorted(keys, starts[hit] | np.uint64(_LOW), side="right") - lo
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
        hi = np.searchsorted(keys, query | np.uint64(_LOW), side="right").tolist()
        for a, b in zip(lo, hi):
            if a < b:  # few runs are non-empty: a Python loop beats numpy gathering here
                found.update(keys[a:b].tolist())
        return {key & id_mask for key in found}


class FuzzyIndex:
    """Which entries of a word list lie within Damerau-Levenshtein distance ``max_distance``.

    ``tags`` (optional): a bit mask (below 2**63) per entry, for ``near_masks``; for
    ``MultiListIndex``, the lists the entry belongs to.

    >>> FuzzyIndex(["mary", "grace"]).distance("mray")
    1
    """

    def __init__(self, words: Iterable[str], max_distance: int = 2,
                 tags: Optional[Mapping[str, int]] = None) -> None:
        if max_distance not in (0, 1, 2):
            raise ValueError("max_distance must be 0, 1 or 2")
        self.max_distance = max_distance
        self._words = sorted({w for w in words if w})
        self._exact = frozenset(self._words)
        self._lengths = np.array([len(word) for word in self._words], dtype=np.int32)
        self._word_array = np.array(self._words, dtype=object)
        # Ids (and positions of tokens in a batch) take the low 24 bits of a key's low
        # half, the positions of a far delete the 8 above (see _LOW); only an index of
        # 2**24 entries or more would need all 32 bits for ids, and keeps no positions.
        self._id_mask = (1 << _ID_BITS) - 1 if len(self._words) < 1 << _ID_BITS else _LOW
        # the tags in the narrowest unsigned type (smaller arrays gather faster)
        tag_list = [tags.get(word, 0) for word in self._words] if tags else [0] * len(self)
        bits = functools.reduce(int.__or__, tag_list, 0).bit_length()
        self._tags = np.array(tag_list, dtype=np.uint8 if bits <= 8 else np.uint16 if bits <= 16
                              else np.uint32 if bits <= 32 else np.uint64)
        # near: the deletes of 0 or 1 characters of the entries; far: of 2 characters
        self._near, self._far = self._build()
        # Text is Zipfian: most lookups repeat, so remember recent answers per index.
        self.distance = functools.lru_cache(maxsize=DISTANCE_CACHE_SIZE)(self._distance)

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, token: str) -> bool:
        return token in self._exact

    @property
    def _positions(self) -> bool:
        """Whether far keys (and far needles) carry the positions of their deletes."""
        return self._id_mask != _LOW

    def _build(self) -> tuple[_DeleteTable, _DeleteTable]:
        # Entries are indexed by their first PREFIX_LENGTH characters (see module doc).
        by_length: dict[int, list[int]] = {}
        for word_id, word in enumerate(self._words):
            by_length.setdefault(min(len(word), PREFIX_LENGTH), []).append(word_id)
        near_deletes = min(self.max_distance, 1)
        sizes = [0, 0]
        for length, ids in by_length.items():
            near = _deletes_per_word(length, near_deletes)
            sizes[0] += len(ids) * near
            sizes[1] += len(ids) * (_deletes_per_word(length, self.max_distance) - near)
        # One uint64 key per delete: hash in the high half, word id in the low half, so a
        # single in-place sort orders a table by hash; filled group by group.
        keys = [np.empty(size, dtype=np.uint64) for size in sizes]
        filled = [0, 0]
        chunks = [(length, ids[k:k + _CHUNK_WORDS]) for length, ids in by_length.items()
                  for k in range(0, len(ids), _CHUNK_WORDS)]
        for length, ids in chunks:  # chunked: bounds the numpy temporaries
            prefixes = "".join(self._words[i][:length] for i in ids).encode("utf-32-le")
            codes = np.frombuffer(prefixes, dtype=np.uint32).reshape(len(ids), length).astype(np.uint64)
            id_column = np.array(ids, dtype=np.uint64)[:, None]
            for deleted, hashes in enumerate(_group_hashes(codes, self.max_distance)):
                table = int(deleted == 2)
                block = keys[table][filled[table]:filled[table] + hashes.size].reshape(hashes.shape)
                np.left_shift(hashes, np.uint64(32), out=block, dtype=np.uint64)
                block |= id_column
                if table and self._positions:
                    block |= _pair_codes(length) << np.uint64(_ID_BITS)
                filled[table] += hashes.size
        # Repeated deletes of one word ("anna" minus either n) are left in: a dedupe pass
        # would double the peak memory to save a few per cent of the index.
        return _DeleteTable(keys[0]), _DeleteTable(keys[1])

    def allowed_distance(self, token: str) -> int:
        """Largest distance checked for this token (see ``DISTANCE_BY_LENGTH``)."""
        n = len(token)
        for shortest, distance in DISTANCE_BY_LENGTH:
            if n >= shortest:
                return min(self.max_distance, distance)
        return 0

    def _allowed_distances(self, lengths: np.ndarray) -> np.ndarray:
        """``allowed_distance`` of many tokens, from their lengths (the first rule that
        applies wins: the rules are applied last to first)."""
        limits = np.zeros(lengths.size, dtype=np.int64)
        for shortest, distance in reversed(DISTANCE_BY_LENGTH):
            limits[lengths >= shortest] = min(self.max_distance, distance)
        return limits

    def _candidate_ids(self, token: str, limit: int) -> list[int]:
        """Ids of entries sharing a delete with ``token`` and within ``limit`` in length."""
        hashes = _query_hashes(token[:PREFIX_LENGTH], limit)
        found = self._near.ids_of(hashes, self._id_mask) | self._far.ids_of(hashes, self._id_mask)
        n, words = len(token), self._words
        # Entries whose length differs by more than the limit cannot be within it.
        return [i for i in found if abs(len(words[i]) - n) <= limit]

    def distance(self, token: str) -> Optional[int]:
        """Smallest distance (0 if an entry) to an entry, or None beyond the allowed distance.

        Memoised per index (LRU, ``DISTANCE_CACHE_SIZE`` tokens); see ``_distance``.
        """
        return self._distance(token)  # replaced by the memoised version in __init__

    def _distance(self, token: str) -> Optional[int]:
        token = _without_surrogates(token)
        if token in self._exact:
            return 0
        limit = self.allowed_distance(token)
        if limit == 0 or not token:
            return None
        best = None
        words = self._words
        for i in self._candidate_ids(token, limit):
            d = jellyfish.damerau_levenshtein_distance(token, words[i])
            if d <= limit and (best is None or d < best):
                best = d
                if d == 1:
                    break
        return best

    def _needles(self, tokens: list[str]) -> tuple[np.ndarray, ...]:
        """The delete hashes of a batch of tokens (at most ``_batch_limit``), packed
        (``_pack``) with the positions of their tokens in the batch: near (0 or 1
        characters deleted) and far (2; with the deleted positions, as in the far keys);
        and the tokens' limits and lengths."""
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        limits = self._allowed_distances(lengths)
        # the tokens of one indexed length and limit are hashed together
        groups = np.where(limits > 0, np.minimum(lengths, PREFIX_LENGTH) * 3 + limits, 0)
        order = np.argsort(groups, kind="stable")
        bounds = np.flatnonzero(np.diff(groups[order], prepend=-1, append=-1))
        near, near_low, far, far_low = [], [], [], []
        for start, end in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            members = order[start:end]
            length, limit = divmod(int(groups[members[0]]), 3)
            if not limit:
                continue
            text = "".join([tokens[k][:length] for k in members.tolist()])
            codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
            hashes = _group_hashes(codes.reshape(len(members), length).astype(np.uint64), limit)
            block = np.concatenate(hashes[:2], axis=1) if len(hashes) > 1 else hashes[0]
            near.append(block.ravel())
            near_low.append(np.repeat(members, block.shape[1]))
            if len(hashes) > 2:
                low = np.broadcast_to(members.astype(np.uint64)[:, None], hashes[2].shape)
                if self._positions:
                    low = low | _pair_codes(length) << np.uint64(_ID_BITS)
                far.append(hashes[2].ravel())
                far_low.append(low.ravel())
        packed = [_pack(np.concatenate(hashes), np.concatenate(low)) if hashes else
                  np.zeros(0, dtype=np.uint64)
                  for hashes, low in ((near, near_low), (far, far_low))]
        return packed[0], packed[1], limits, lengths

    @property
    def _batch_limit(self) -> int:
        """Most tokens per batch: their positions must fit in the id bits."""
        return 1 << 20 if self._positions else 1 << 31

    def _verify(self, tokens: np.ndarray, found: list[tuple[np.ndarray, np.ndarray]],
                lengths: np.ndarray, limits: np.ndarray,
                cutoff: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The distinct (token position, id) pairs found within the token's limit in
        length, with their distances (``cutoff + 1`` when beyond ``cutoff``), all verified
        in one rapidfuzz call (C++)."""
        n_words = len(self._words)
        pairs = np.concatenate([owners.astype(np.int64) * n_words + ids
                                for owners, ids in found]) if found else np.zeros(0, np.int64)
        # distinct pairs (np.unique would take a hash-table path here, many times slower)
        pairs.sort()
        first = np.ones(pairs.size, dtype=bool)
        np.not_equal(pairs[1:], pairs[:-1], out=first[1:])
        pairs = pairs[first]
        owners, ids = pairs // n_words, pairs % n_words
        # Entries whose length differs by more than the limit cannot be within it (a shared
        # delete bounds the difference, except past the indexed prefix).
        keep = np.abs(self._lengths[ids] - lengths[owners]) <= limits[owners]
        owners, ids = owners[keep], ids[keep]
        distances = cpdist(tokens[owners], self._word_array[ids],
                           scorer=DamerauLevenshtein.distance, score_cutoff=cutoff,
                           dtype=np.int64)
        return owners, ids, distances

    def near_matches(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The entries within the allowed distance (but not equal) of each token, as three
        arrays: token position, entry id, distance (in no particular order). Batched, in
        the two rounds of ``near_masks`` (see the module doc): the near deletes first,
        which find every entry at distance 1; then, for tokens allowed distance 2, the
        other pairs of tables, far-far candidates of short tokens only through deletes at
        close positions."""
        tokens = [_without_surrogates(t) for t in tokens]
        step = self._batch_limit
        if len(tokens) > step:
            parts = [self.near_matches(tokens[k:k + step]) for k in range(0, len(tokens), step)]
            parts = [(rows + k * step, ids, distances)
                     for k, (rows, ids, distances) in enumerate(parts)]
            return tuple(np.concatenate(arrays) for arrays in zip(*parts))
        near, far, limits, lengths = self._needles(tokens)
        token_array = np.array(tokens, dtype=object)
        positional = lengths < PREFIX_LENGTH
        rounds = [[(self._near, near, False)]]
        if self.max_distance >= 2 and far.size:
            wide = limits == 2
            near = near[wide[(near & np.uint64(self._id_mask)).astype(np.int64)]]
            rounds.append([(self._far, near, False), (self._near, far, True),
                           (self._far, far, True)])
        verified = [self._verify(token_array, self._candidate_pairs(lookups, positional),
                                 lengths, limits, self.max_distance) for lookups in rounds]
        owners, ids, distances = (np.concatenate(parts) for parts in zip(*verified))
        # a pair found in both rounds once (the same distance both times)
        keys = owners * len(self._words) + ids
        order = np.argsort(keys, kind="stable")
        first = np.ones(keys.size, dtype=bool)
        np.not_equal(keys[order[1:]], keys[order[:-1]], out=first[1:])
        owners, ids, distances = (array[order[first]] for array in (owners, ids, distances))
        near = (distances > 0) & (distances <= limits[owners])
        return owners[near], ids[near], distances[near]

    def _candidate_pairs(self, lookups: list[tuple[_DeleteTable, np.ndarray, bool]],
                         positional: np.ndarray, keep=None) -> list[tuple[np.ndarray, ...]]:
        """The (token position, entry id) pairs sharing a delete, per lookup (table,
        packed needles, whether they are far needles). ``keep(owners, ids)``: which pairs
        to keep (a bool array), or all; far-far pairs of ``positional`` tokens only through
        deletes at close positions (the position test: module doc)."""
        mask, coded = np.uint32(self._id_mask), self._positions
        found = []
        for table, packed, far_needles in lookups:
            low, key_low = table.lookup(packed)
            # (only far needles and far keys carry positions above the id)
            far_needles, far_keys = far_needles and coded, table is self._far and coded
            owners = low & mask if far_needles else low
            ids = key_low & mask if far_keys else key_low
            kept = np.flatnonzero(keep(owners, ids)) if keep else np.arange(owners.size)
            if far_needles and far_keys:
                close = _CLOSE[((low[kept] >> _ID_BITS) << 8) | (key_low[kept] >> _ID_BITS)]
                kept = kept[close | ~positional[owners[kept]]]
            found.append((owners[kept], ids[kept]))
        return found

    def near_masks(self, tokens: list[str], exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which tags each token is near: (``one``, ``two``), int64 masks per token, such
        that the smallest distance from token ``k`` to an entry whose tag has bit ``b`` is
        0 if ``exact[k]`` has bit ``b`` (exact membership, as the caller knows it), else 1
        if ``one[k]`` has it, else 2 if ``two[k]`` has it, else beyond the allowed
        distance. ``tokens`` must be free of lone surrogates (``_without_surrogates``).

        The same answers as the smallest distances in ``near_matches`` per token and bit,
        with far fewer candidates verified: two rounds, see the module doc."""
        step = self._batch_limit
        if len(tokens) > step:
            parts = [self.near_masks(tokens[k:k + step], exact[k:k + step])
                     for k in range(0, len(tokens), step)]
            return tuple(np.concatenate(arrays) for arrays in zip(*parts))
        tags = self._tags
        exact = np.asarray(exact, dtype=np.int64).astype(tags.dtype)
        one = np.zeros(len(tokens), dtype=tags.dtype)
        two = np.zeros(len(tokens), dtype=tags.dtype)
        near, far, limits, lengths = self._needles(tokens)
        token_array = np.array(tokens, dtype=object)
        # tokens whose far-far candidates get the position test (module doc)
        positional = lengths < PREFIX_LENGTH

        def round_(lookups: list[tuple[_DeleteTable, np.ndarray, bool]],
                   answered: np.ndarray) -> None:
            unanswered = ~answered
            # entries whose bits are all answered cannot improve on the answers
            found = self._candidate_pairs(
                lookups, positional, lambda owners, ids: (tags[ids] & unanswered[owners]) != 0)
            owners, ids, distances = self._verify(token_array, found, lengths, limits,
                                                  self.max_distance)
            for distance, into in ((1, one), (2, two)):
                match = (distances == distance) & (limits[owners] >= distance)
                np.bitwise_or.at(into, owners[match], tags[ids[match]])

        round_([(self._near, near, False)], exact)
        if self.max_distance >= 2 and far.size:
            answered = exact | one | two
            every = np.bitwise_or.reduce(tags, initial=0)
            # near deletes of tokens allowed distance 2, far deletes, of tokens with a bit
            # still unanswered
            open_ = (limits == 2) & ((answered & every) != every)
            near = near[open_[(near & np.uint64(self._id_mask)).astype(np.int64)]]
            far = far[open_[(far & np.uint64(self._id_mask)).astype(np.int64)]]
            round_([(self._far, near, False), (self._near, far, True), (self._far, far, True)],
                   answered)
        return one.astype(np.int64), two.astype(np.int64)

    @property
    def words(self) -> list[str]:
        """The entries, sorted; an entry's id (as in ``near_matches``) is its position."""
        return self._words


class MultiListIndex:
    """Nearest distance to each of several word lists with ONE index query per token.

    A feature extractor asks every list about every new token type; querying one index
    over the union of the lists, each entry tagged with the bit mask of its lists, is
    several times faster than one query per list, with the same answers (verification is
    exact), and lets the index skip the candidates of lists already answered
    (``FuzzyIndex.near_masks``). A mask holds ``MASK_LISTS`` lists; past that (the
    usernames of a dump with many boards, one list per board) the index's entries keep
    their lists in a ``ListMembership`` instead, with the same answers.
    """

    def __init__(self, lists: dict[str, Iterable[str]], max_distance: int = 2) -> None:
        self.names = list(lists)
        self._membership: Optional[ListMembership] = None
        if len(self.names) <= MASK_LISTS:
            masks: dict[str, int] = {}
            for bit, name in enumerate(self.names):
                for word in lists[name]:
                    if word:
                        masks[word] = masks.get(word, 0) | (1 << bit)
            self.index = FuzzyIndex(masks, max_distance, tags=masks)
            self._word_masks = masks
        else:
            lists_of: dict[str, list[int]] = {}
            for number, name in enumerate(self.names):
                for word in filter(None, lists[name]):
                    numbers = lists_of.setdefault(word, [])
                    if not numbers or numbers[-1] != number:   # (a list may repeat a word)
                        numbers.append(number)
            self.index = FuzzyIndex(lists_of, max_distance)
            self._membership = ListMembership(self.index.words, lists_of)
        self._cache: dict[str, dict[str, int]] = {}

    def nearest(self, token: str) -> dict[str, int]:
        """List name -> smallest distance (0, 1 or 2) for the lists within reach."""
        found = self._cache.get(token)
        if found is None:
            self.prefetch([token])
            found = self._cache[token]
        return found

    def prefetch(self, tokens: Iterable[str]) -> None:
        """Answer many tokens in one batched index query (see ``FuzzyIndex.near_masks``,
        or ``ListMembership`` past ``MASK_LISTS`` lists)."""
        new = [t for t in dict.fromkeys(tokens) if t not in self._cache]
        if not new:
            return
        if len(self._cache) + len(new) > DISTANCE_CACHE_SIZE:
            self._cache.clear()   # bounded memory; text is Zipfian, the cache refills fast
        clean = [_without_surrogates(t) for t in new]
        if self._membership is not None:
            for token, answer in zip(new, self._membership.nearest(self.index, clean,
                                                                   self.names)):
                self._cache[token] = answer
            return
        exact = np.array([self._word_masks.get(t, 0) for t in clean], dtype=np.int64)
        one, two = self.index.near_masks(clean, exact)
        # best[k, bit]: smallest distance from token k to an entry of list ``bit`` (3: none)
        bits = np.arange(len(self.names), dtype=np.int64)
        best = np.where((exact[:, None] >> bits) & 1 == 1, 0,
                        np.where((one[:, None] >> bits) & 1 == 1, 1,
                                 np.where((two[:, None] >> bits) & 1 == 1, 2, 3)))
        names = self.names
        # In list order, whatever order the matches came in: features (and so trained
        # models) must not depend on how the index was queried. Few distinct answers: each
        # is built once (keyed by its row of ``best``, packed into an int) and copied.
        if len(names) <= 31:
            keys = (best << (2 * bits)).sum(axis=1).tolist()
        else:
            keys = [tuple(row) for row in best.tolist()]
        built: dict[object, dict[str, int]] = {}
        for k, (token, key) in enumerate(zip(new, keys)):
            answer = built.get(key)
            if answer is None:
                answer = built[key] = {name: distance for name, distance
                                       in zip(names, best[k].tolist()) if distance < 3}
            self._cache[token] = answer.copy()


@functools.lru_cache(maxsize=None)
def word_lists_index(names: tuple, max_distance: int = 2) -> MultiListIndex:
    """The (cached) MultiListIndex of shipped word lists."""
    from .wordlists import load_wordlist

    return MultiListIndex({name: load_wordlist(name) for name in names}, max_distance)
