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

The deletes are kept as hashed keys in sorted numpy tables, near (deletes of 0 or 1
characters) and far (2), with the deleted positions in the far keys: see
:mod:`mmbdeid.lexicon.deletes`.

Batches (``FuzzyIndex.near_matches``): the delete hashes of all tokens are computed by
numpy, sorted, screened by the bitmaps and looked up with one ``searchsorted`` pass per
table, the candidates gathered with array operations, deduplicated, and verified in one
rapidfuzz call (C++).

Several lists (``FuzzyIndex.near_masks``, for
:class:`~mmbdeid.lexicon.many_lists.MultiListIndex`): one index over their union, each entry
tagged with the bit mask of its lists; what is wanted is the smallest distance per token and
list, which allows skipping most candidates, in two rounds:

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

from ..errors import MmbdeidValueError
from .deletes import (CLOSE_POSITIONS, CODED_POSITIONS, ID_BITS, LOW_HALF, DeleteTable,
                      deletes_per_word, group_hashes, pack, pair_codes, query_hashes)

# (shortest length, distance allowed from there on), longest first
DISTANCE_BY_LENGTH = ((5, 2), (3, 1), (0, 0))
PREFIX_LENGTH = 10       # deletes are taken of the first 10 characters only (see above)
_CHUNK_WORDS = 4096      # words hashed per numpy batch during the build
DISTANCE_CACHE_SIZE = 1 << 16   # distinct tokens whose distance each index remembers

assert PREFIX_LENGTH <= CODED_POSITIONS   # far deletes carry their positions in the prefix


_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(token: str) -> str:
    """Lone surrogates (from ``\\ud800`` JSON escapes) become U+FFFD: jellyfish, rightly,
    refuses strings that are not valid Unicode text, and no list entry contains either."""
    return _SURROGATE.sub("\ufffd", token) if not token.isascii() else token


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
            raise MmbdeidValueError("max_distance must be 0, 1 or 2")
        self.max_distance = max_distance
        self._words = sorted({w for w in words if w})
        self._exact = frozenset(self._words)
        self._lengths = np.array([len(word) for word in self._words], dtype=np.int32)
        self._word_array = np.array(self._words, dtype=object)
        # Ids (and positions of tokens in a batch) take the low 24 bits of a key's low
        # half, the positions of a far delete the 8 above (see LOW_HALF); only an index of
        # 2**24 entries or more would need all 32 bits for ids, and keeps no positions.
        self._id_mask = (1 << ID_BITS) - 1 if len(self._words) < 1 << ID_BITS else LOW_HALF
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
        return self._id_mask != LOW_HALF

    def _build(self) -> tuple[DeleteTable, DeleteTable]:
        # Entries are indexed by their first PREFIX_LENGTH characters (see module doc).
        by_length: dict[int, list[int]] = {}
        for word_id, word in enumerate(self._words):
            by_length.setdefault(min(len(word), PREFIX_LENGTH), []).append(word_id)
        near_deletes = min(self.max_distance, 1)
        sizes = [0, 0]
        for length, ids in by_length.items():
            near = deletes_per_word(length, near_deletes)
            sizes[0] += len(ids) * near
            sizes[1] += len(ids) * (deletes_per_word(length, self.max_distance) - near)
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
            for deleted, hashes in enumerate(group_hashes(codes, self.max_distance)):
                table = int(deleted == 2)
                block = keys[table][filled[table]:filled[table] + hashes.size].reshape(hashes.shape)
                np.left_shift(hashes, np.uint64(32), out=block, dtype=np.uint64)
                block |= id_column
                if table and self._positions:
                    block |= pair_codes(length) << np.uint64(ID_BITS)
                filled[table] += hashes.size
        # Repeated deletes of one word ("anna" minus either n) are left in: a dedupe pass
        # would double the peak memory to save a few per cent of the index.
        return DeleteTable(keys[0]), DeleteTable(keys[1])

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
        hashes = query_hashes(token[:PREFIX_LENGTH], limit)
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
        token = without_surrogates(token)
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
        (``pack``) with the positions of their tokens in the batch: near (0 or 1
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
            hashes = group_hashes(codes.reshape(len(members), length).astype(np.uint64), limit)
            block = np.concatenate(hashes[:2], axis=1) if len(hashes) > 1 else hashes[0]
            near.append(block.ravel())
            near_low.append(np.repeat(members, block.shape[1]))
            if len(hashes) > 2:
                low = np.broadcast_to(members.astype(np.uint64)[:, None], hashes[2].shape)
                if self._positions:
                    low = low | pair_codes(length) << np.uint64(ID_BITS)
                far.append(hashes[2].ravel())
                far_low.append(low.ravel())
        packed = [pack(np.concatenate(hashes), np.concatenate(low)) if hashes else
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
        tokens = [without_surrogates(t) for t in tokens]
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

    def _candidate_pairs(self, lookups: list[tuple[DeleteTable, np.ndarray, bool]],
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
                close = CLOSE_POSITIONS[((low[kept] >> ID_BITS) << 8) | (key_low[kept] >> ID_BITS)]
                kept = kept[close | ~positional[owners[kept]]]
            found.append((owners[kept], ids[kept]))
        return found

    def near_masks(self, tokens: list[str], exact: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which tags each token is near: (``one``, ``two``), int64 masks per token, such
        that the smallest distance from token ``k`` to an entry whose tag has bit ``b`` is
        0 if ``exact[k]`` has bit ``b`` (exact membership, as the caller knows it), else 1
        if ``one[k]`` has it, else 2 if ``two[k]`` has it, else beyond the allowed
        distance. ``tokens`` must be free of lone surrogates (``without_surrogates``).

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

        def round_(lookups: list[tuple[DeleteTable, np.ndarray, bool]],
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
