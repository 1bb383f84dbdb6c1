"""Approximate word-list membership: edit distance 0, 1 or 2 via a deletion index.

The distance is the (unrestricted) Damerau-Levenshtein distance computed by
``jellyfish.damerau_levenshtein_distance``: insertions, deletions, substitutions and
transpositions of adjacent characters each cost 1.

Method (symmetric delete, as in SymSpell): two strings within distance ``d`` share a
string reached by deleting at most ``d`` characters from each (their longest common
subsequence: every edit removes at most one character of it on either side). So the
index stores every string obtained by deleting 0..``max_distance`` characters from each
entry, the query generates its own deletes, and entries sharing a delete are the
candidates, which are then verified with jellyfish. No scan of the list.

Long words: as in SymSpell, deletes are taken of the first ``PREFIX_LENGTH`` (10)
characters of entries and queries only. This keeps the candidate property (if two words
are within d, so are their prefixes in the delete-neighbourhood sense: each prefix needs
at most d deletions to reach a common string) while bounding the deletes per word at
1 + 10 + 45; the verification uses the full words.

Memory: the deletes are not kept as strings. Each is one uint64 key, a 32-bit hash of
the delete in the high half and the id of its word in the low half, in one sorted numpy
array (8 bytes per delete; looked up with ``np.searchsorted``). Hash collisions only add
candidates, which the verification removes, so they cost time, never correctness. The
delete hashes of all entries of one length are computed at once with numpy from prefix
sums of a polynomial hash modulo 2**64 (deleting character ``i`` gives
``P[i] + (h - P[i+1]) * B**-1``), which makes the build fast: about 0.2 s and 15-20 MB
for a 50k-word list, 0.6 s for 150k words.

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
from typing import Iterable, Optional

import jellyfish
import numpy as np
from rapidfuzz.distance import DamerauLevenshtein
from rapidfuzz.process import cpdist

# (shortest length, distance allowed from there on), longest first
DISTANCE_BY_LENGTH = ((5, 2), (3, 1), (0, 0))
PREFIX_LENGTH = 10       # deletes are taken of the first 10 characters only (see above)
_ID_MASK = 0xFFFFFFFF
_CHUNK_WORDS = 4096      # words hashed per numpy batch during the build
DISTANCE_CACHE_SIZE = 1 << 16   # distinct tokens whose distance each index remembers

_MASK = (1 << 64) - 1
_BASE = 0x100000001B3                 # odd, so it has an inverse modulo 2**64
_BASE_INV = pow(_BASE, -1, 1 << 64)
_LENGTH_SALT = 0x9E3779B97F4A7C15     # mixes the delete's length into its hash
_MIX = 0xBF58476D1CE4E5B9             # splitmix64 finaliser constant


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


class FuzzyIndex:
    """Which entries of a word list lie within Damerau-Levenshtein distance ``max_distance``.

    >>> FuzzyIndex(["mary", "grace"]).distance("mray")
    1
    """

    def __init__(self, words: Iterable[str], max_distance: int = 2) -> None:
        if max_distance not in (0, 1, 2):
            raise ValueError("max_distance must be 0, 1 or 2")
        self.max_distance = max_distance
        self._words = sorted({w for w in words if w})
        self._exact = frozenset(self._words)
        self._lengths = np.array([len(word) for word in self._words], dtype=np.int64)
        self._word_array = np.array(self._words, dtype=object)
        self._keys = self._build()
        # Text is Zipfian: most lookups repeat, so remember recent answers per index.
        self.distance = functools.lru_cache(maxsize=DISTANCE_CACHE_SIZE)(self._distance)

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, token: str) -> bool:
        return token in self._exact

    def _build(self) -> np.ndarray:
        # Entries are indexed by their first PREFIX_LENGTH characters (see module doc).
        by_length: dict[int, list[int]] = {}
        for word_id, word in enumerate(self._words):
            by_length.setdefault(min(len(word), PREFIX_LENGTH), []).append(word_id)
        sizes = {length: len(ids) * _deletes_per_word(length, self.max_distance)
                 for length, ids in by_length.items()}
        # One uint64 key per delete: hash in the high half, word id in the low half, so a
        # single in-place sort orders the index by hash; filled group by group.
        keys = np.empty(sum(sizes.values()), dtype=np.uint64)
        start = 0
        chunks = [(length, ids[k:k + _CHUNK_WORDS]) for length, ids in by_length.items()
                  for k in range(0, len(ids), _CHUNK_WORDS)]
        for length, ids in chunks:  # chunked: bounds the numpy temporaries
            prefixes = "".join(self._words[i][:length] for i in ids).encode("utf-32-le")
            codes = np.frombuffer(prefixes, dtype=np.uint32).reshape(len(ids), length).astype(np.uint64)
            id_column = np.array(ids, dtype=np.uint64)[:, None]
            for hashes in _group_hashes(codes, self.max_distance):
                block = keys[start:start + hashes.size].reshape(hashes.shape)
                np.left_shift(hashes, np.uint64(32), out=block, dtype=np.uint64)
                block |= id_column
                start += hashes.size
        # Repeated deletes of one word ("anna" minus either n) are left in: a dedupe pass
        # would double the peak memory to save a few per cent of the index.
        keys.sort()
        return keys

    def allowed_distance(self, token: str) -> int:
        """Largest distance checked for this token (see ``DISTANCE_BY_LENGTH``)."""
        n = len(token)
        for shortest, distance in DISTANCE_BY_LENGTH:
            if n >= shortest:
                return min(self.max_distance, distance)
        return 0

    def _candidate_ids(self, token: str, limit: int) -> list[int]:
        """Ids of entries sharing a delete with ``token`` and within ``limit`` in length."""
        query = np.array(_query_hashes(token[:PREFIX_LENGTH], limit), dtype=np.uint64) << np.uint64(32)
        lo = np.searchsorted(self._keys, query, side="left").tolist()
        hi = np.searchsorted(self._keys, query | np.uint64(_ID_MASK), side="right").tolist()
        keys, found = self._keys, set()
        for a, b in zip(lo, hi):
            if a < b:  # few ranges are non-empty: a Python loop beats numpy gathering here
                found.update(keys[a:b].tolist())
        n, words = len(token), self._words
        # Entries whose length differs by more than the limit cannot be within it.
        return [i for i in {key & _ID_MASK for key in found} if abs(len(words[i]) - n) <= limit]

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

    def near_matches(self, tokens: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The entries within the allowed distance (but not equal) of each token, as three
        arrays: token position, entry id, distance. Batched: the delete hashes of all tokens
        are computed by numpy and looked up with ``searchsorted``, the candidates gathered
        with array operations, and all of them verified in one rapidfuzz call (C++)."""
        tokens = [_without_surrogates(t) for t in tokens]
        groups: dict[tuple[int, int], list[int]] = {}
        for k, token in enumerate(tokens):
            limit = self.allowed_distance(token)
            if limit and token:
                groups.setdefault((min(len(token), PREFIX_LENGTH), limit), []).append(k)
        found = [self._verify_group(members, [tokens[k] for k in members], length, limit)
                 for (length, limit), members in groups.items()]
        if not found:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        return tuple(np.concatenate(parts) for parts in zip(*found))

    def _verify_group(self, members: list[int], group: list[str], length: int,
                      limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(token position, entry id, distance) of the matches of tokens of one indexed
        length and limit; ``members`` are the positions of the tokens of ``group``."""
        keys, words = self._keys, self._words
        text = "".join(token[:length] for token in group)
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        codes = codes.reshape(len(group), length).astype(np.uint64)
        query = np.concatenate([h.reshape(len(group), -1).astype(np.uint64)
                                for h in _group_hashes(codes, limit)], axis=1) << np.uint64(32)
        # Sorted, distinct needles: searchsorted then walks the index forwards (several
        # times faster than random probes), and deletes shared by tokens are looked up once.
        needles, needle_of = np.unique(query.ravel(), return_inverse=True)
        lo = np.searchsorted(keys, needles, side="left")[needle_of]
        hi = np.searchsorted(keys, needles | np.uint64(_ID_MASK), side="right")[needle_of]
        hit = np.nonzero(hi > lo)[0]
        if hit.size == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        starts, counts = lo[hit], (hi - lo)[hit]
        owners = np.repeat(hit // query.shape[1], counts)
        # every index position of every hit range, without a Python loop
        positions = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) \
            + np.repeat(starts, counts)
        ids = (keys[positions] & np.uint64(_ID_MASK)).astype(np.int64)
        pairs = np.sort(owners * len(words) + ids)
        # distinct pairs (np.unique would take a hash-table path here, many times slower)
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
        owners, ids = pairs // len(words), pairs % len(words)
        token_lengths = np.array([len(token) for token in group])
        keep = np.abs(self._lengths[ids] - token_lengths[owners]) <= limit
        owners, ids = owners[keep], ids[keep]
        # one C++ call for every (token, candidate) pair
        distances = cpdist(np.array(group, dtype=object)[owners], self._word_array[ids],
                           scorer=DamerauLevenshtein.distance, score_cutoff=limit,
                           dtype=np.int64)
        near = (distances > 0) & (distances <= limit)
        return np.array(members)[owners[near]], ids[near], distances[near]

    @property
    def words(self) -> list[str]:
        """The entries, sorted; an entry's id (as in ``near_matches``) is its position."""
        return self._words


class MultiListIndex:
    """Nearest distance to each of several word lists with ONE index query per token.

    A feature extractor asks every list about every new token type; querying one index
    over the union of the lists and sorting the verified matches by list is several times
    faster than one query per list, with the same answers (verification is exact).
    """

    def __init__(self, lists: dict[str, Iterable[str]], max_distance: int = 2) -> None:
        self.names = list(lists)
        masks: dict[str, int] = {}
        for bit, name in enumerate(self.names):
            for word in lists[name]:
                if word:
                    masks[word] = masks.get(word, 0) | (1 << bit)
        self.index = FuzzyIndex(masks, max_distance)
        self._word_masks = masks
        self._mask_array = np.array([masks[word] for word in self.index.words], dtype=np.int64)
        self._cache: dict[str, dict[str, int]] = {}

    def nearest(self, token: str) -> dict[str, int]:
        """List name -> smallest distance (0, 1 or 2) for the lists within reach."""
        found = self._cache.get(token)
        if found is None:
            self.prefetch([token])
            found = self._cache[token]
        return found

    def prefetch(self, tokens: Iterable[str]) -> None:
        """Answer many tokens in one batched index query (see ``FuzzyIndex.near_matches``)."""
        new = [t for t in dict.fromkeys(tokens) if t not in self._cache]
        if not new:
            return
        if len(self._cache) + len(new) > DISTANCE_CACHE_SIZE:
            self._cache.clear()   # bounded memory; text is Zipfian, the cache refills fast
        # best[k, bit]: smallest distance from token k to an entry of list ``bit`` (3: none)
        best = np.full((len(new), len(self.names)), 3, dtype=np.int64)
        rows, ids, distances = self.index.near_matches(new)
        masks = self._mask_array[ids]
        for bit in range(len(self.names)):
            member = (masks >> bit) & 1 == 1
            np.minimum.at(best[:, bit], rows[member], distances[member])
        exact = np.array([self._word_masks.get(_without_surrogates(t), 0) for t in new],
                         dtype=np.int64)
        best[(exact[:, None] >> np.arange(len(self.names))) & 1 == 1] = 0
        names = self.names
        # in list order, whatever order the matches came in: features (and so trained
        # models) must not depend on how the index was queried
        for token, row in zip(new, best.tolist()):
            self._cache[token] = {name: distance for name, distance in zip(names, row)
                                  if distance < 3}


@functools.lru_cache(maxsize=None)
def word_lists_index(names: tuple, max_distance: int = 2) -> MultiListIndex:
    """The (cached) MultiListIndex of shipped word lists."""
    from .lexicon import load_wordlist

    return MultiListIndex({name: load_wordlist(name) for name in names}, max_distance)
