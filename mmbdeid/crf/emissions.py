"""A first-stage CRF's state scores per token, summed from cached vectors instead of built
attribute by attribute.

A token's state score for a label is the sum of the weights of its attributes, and those
are (see :class:`~mmbdeid.model.features.Featurizer`): ``bias``; its own type's
attributes and each neighbour's (``-2:`` .. ``+2:``, padding beyond the post); a few
post-dependent groups ("atoms": username membership, board and user rank buckets, own
author, pattern label) of itself and its neighbours; and its position in the post and
paragraph. Sums are linear, so each part is summed once into a vector over the labels,
per window offset:

* per token type: a (window offsets x labels) block, cached (bounded, like the
  featurizer's type cache);
* per atom combination: the same, cached (there are few);
* per position key (distances to the post's and the paragraph's ends, capped where the
  features stop changing): a vector, all of them worked out at the start;

and a post's scores are a handful of numpy gathers and shifted additions. The attributes
and weights are exactly the featurizer's and the model's, so the scores are those
python-crfsuite computes, up to the order of the floating-point additions.
"""
import itertools
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from ..model.atoms import atom_features, person_atom_keys
from ..model.counting import term_of
from ..model.feature_buckets import PARAGRAPH_LIMITS, POSITION_LIMITS, RANK_LIMITS
from ..model.features import Featurizer, to_attributes

# Token types whose vectors are kept. A type costs some 120 bytes of vector and 300-400 of
# Python objects; when the table is full the newest half is forgotten (text is Zipfian:
# the types seen first are the frequent ones).
TYPE_ROWS = 100_000
FIRST_TYPE_ROWS = 512
# Token types whose plain feature rows, and (type, statistics features) pairs whose summed
# weights, are kept across scorers (some 300 bytes each).
PLAIN_TYPES = 50_000
_TOP, _PARAGRAPH_TOP = POSITION_LIMITS[-1], PARAGRAPH_LIMITS[-1]


class _ScoredType:
    """What a token type brings wherever it occurs: its row in the vector table, and what
    its post-dependent groups are worked out from."""
    __slots__ = ("row", "lower", "term", "board_user_distances")

    def __init__(self, row: int, lower: str, term: Optional[str],
                 board_user_distances: Dict[str, int]):
        self.row = row
        self.lower = lower
        self.term = term
        self.board_user_distances = board_user_distances


# A rank no document has: no bucket.
_UNRANKED = 1 << 62
_ABSOLUTE = [absolute for _, absolute, _ in RANK_LIMITS if absolute is not None]
_SHARES = [share for _, _, share in RANK_LIMITS if share is not None]
_ABSOLUTE_LIMITS = np.array(_ABSOLUTE, dtype=np.float64)


def rank_bucket_ids(ranks: np.ndarray, size: int) -> np.ndarray:
    """Each rank's set of cumulative buckets (``feature_buckets.rank_buckets``) as a
    number: the limits are nested, so the set is fixed by how many absolute limits and how
    many share limits the rank is under, ``absolute_count * (len(_SHARES) + 1) +
    share_count``."""
    shares = np.array([max(1, size * share) for share in _SHARES], dtype=np.float64)
    # limits above a rank = all limits - those at or below it
    under_absolute = len(_ABSOLUTE) - np.searchsorted(_ABSOLUTE_LIMITS, ranks, side="right")
    under_share = len(_SHARES) - np.searchsorted(shares, ranks, side="right")
    return under_absolute * (len(_SHARES) + 1) + under_share


def _bucket_names(bucket_id: int) -> tuple:
    """The bucket names of a ``rank_bucket_ids`` number, in ``RANK_LIMITS`` order."""
    absolute_count, share_count = divmod(bucket_id, len(_SHARES) + 1)
    names = [name for name, absolute, _ in RANK_LIMITS if absolute is not None]
    shares = [name for name, absolute, _ in RANK_LIMITS if absolute is None]
    return tuple(names[len(names) - absolute_count:] + shares[len(shares) - share_count:])


class EmissionScorer(Featurizer):
    """State scores of documents for a model given as ``attribute_index`` (attribute ->
    row of ``weights``, one column per label; row 0 all zeros).

    A :class:`Featurizer` (same statistics, window and attributes) whose caches hold
    summed weight vectors instead of attribute lists: use ``scores``, not ``iter_items``.
    A token's atoms are added as separate groups (their attributes never overlap, so the
    sum is the same): its board rank buckets, its author's rank buckets, and the rare
    ones (username membership, own author, pattern label) together."""

    def __init__(self, stats, window: int, attribute_index: Dict[str, int],
                 weights: np.ndarray, type_rows: Optional[int] = None):
        # (set first: the featurizer's _start_run, which makes the tables, needs them)
        self.weights = np.asarray(weights, dtype=np.float64)
        self._type_rows = max(2, TYPE_ROWS if type_rows is None else type_rows)
        super().__init__(stats, window=window, attribute_index=attribute_index)
        self._attribute_ids, self._attribute_blocks = self._blocks_by_attribute()
        # Shared by the scorers ``with_stats`` makes, from the first (a scorer used alone,
        # as in a dump's worker, sums each type once and needs neither): token -> the rows
        # of its plain features (``plain_type_features``, the token's alone), and see
        # _type_vector
        self._plain_rows: Optional[Dict[str, np.ndarray]] = None
        self._vectors: Optional[Dict[tuple, np.ndarray]] = None
        n_buckets = (len(_ABSOLUTE) + 1) * (len(_SHARES) + 1)
        self._rank_vectors = {kind: np.array([self._block(to_attributes(
            {"%s:%s" % (kind, name): 1.0 for name in _bucket_names(k)}))
            for k in range(n_buckets)]) for kind in ("board", "user")}
        self._bias_vector = self._sum(self._bias)
        self._pad_vectors = {offset: self._sum(unit) for offset, unit in self._pad_unit.items()}
        self._position_vectors = self._all_positions()

    def with_stats(self, stats) -> "EmissionScorer":
        if self._vectors is None:
            self._plain_rows, self._vectors = {}, {}
        return super().with_stats(stats)

    def _start_run(self, stats) -> None:
        super()._start_run(stats)
        shape = (2 * self.window + 1, self.weights.shape[1])
        # row 0: no type (a pattern token has only its pattern atom); the table grows to
        # ``_type_rows`` as types come (a post has a few dozen: its pages are touched anew)
        self._type_vectors = np.zeros((min(self._type_rows, FIRST_TYPE_ROWS),) + shape)
        self._next_type_row = 1
        self._atom_rows: Dict[tuple, int] = {(): 0}
        self._atom_vectors = np.zeros((16,) + shape)

    @property
    def max_tokens(self) -> int:
        """The longest post ``scores`` takes: its types must fit in the table at once."""
        return self._type_rows // 2 - 1

    def iter_items(self, document):
        raise NotImplementedError("EmissionScorer sums weights: use scores()")

    def prefetch(self, documents) -> None:
        """Look up the new token types of many documents at once (only those: most types
        are known after the first posts)."""
        seen = set()
        for document in documents:
            seen.update(document.tokens)
        cache = self._type_cache
        new = [token for token in seen if token not in cache]
        if new:
            self._prefetch_tokens(new, [None] * len(new))

    def _sum(self, rows) -> np.ndarray:
        """The summed weights of attribute rows (repeats counted, as crfsuite does)."""
        if not rows:
            return np.zeros(self.weights.shape[1])
        return self.weights[list(rows)].sum(axis=0)

    def _blocks_by_attribute(self) -> Tuple[Dict[str, int], np.ndarray]:
        """Every attribute as a type or atom has it (unprefixed), with its weights at each
        window offset (under ``-2:`` .. ``+2:`` as a neighbour's, bare as the token's own):
        (attribute -> row, rows of window offsets x labels; row 0 zeros)."""
        window = self.window
        offsets = {prefix[:-1]: offset for offset, prefix in self._prefixes.items()}
        ids: Dict[str, int] = {}
        placed = []                         # (attribute row, offset, weight row)
        for name, row in self.attribute_index.items():
            head, _, rest = name.partition(":")
            offset = offsets.get(head, 0) if rest else 0
            base = rest if offset else name
            placed.append((ids.setdefault(base, len(ids) + 1), offset + window, row))
        blocks = np.zeros((len(ids) + 1, 2 * window + 1, self.weights.shape[1]))
        if placed:
            rows, offsets, weight_rows = (np.array(column) for column in zip(*placed))
            np.add.at(blocks, (rows, offsets), self.weights[weight_rows])
        return ids, blocks

    def _block(self, attributes: List[str]) -> np.ndarray:
        """(window offsets x labels): the summed weights of unprefixed attributes at every
        offset (only the model's attributes have any)."""
        return self._attribute_blocks[self._rows(attributes)].sum(axis=0)

    def _rows(self, attributes: Sequence[str]) -> np.ndarray:
        """The rows of ``_attribute_blocks`` of the model's unprefixed ``attributes``."""
        get = self._attribute_ids.get
        return np.array([row for row in map(get, attributes) if row], dtype=np.intp)

    def _type_vector(self, token: str, stats_attributes: tuple) -> np.ndarray:
        """The summed weights of ``type_features(token)``, whose statistics part is
        ``stats_attributes``: summed once per pair, in the features' order, and kept
        across the scorers ``with_stats`` makes (a frequent word's pair recurs)."""
        key = (token, stats_attributes)
        vector = self._vectors.get(key)
        if vector is None:
            if len(self._vectors) >= PLAIN_TYPES:
                self._vectors.clear()           # bounded; text is Zipfian, it refills fast
            vector = self._vectors[key] = self._attribute_blocks[np.concatenate((
                self._plain_rows_of(token), self._rows(stats_attributes)))].sum(axis=0)
        return vector

    def _plain_rows_of(self, token: str) -> np.ndarray:
        rows = self._plain_rows.get(token)
        if rows is None:
            if len(self._plain_rows) >= PLAIN_TYPES:
                self._plain_rows.clear()        # bounded; text is Zipfian, it refills fast
            rows = self._plain_rows[token] = self._rows(to_attributes(
                self.plain_type_features(token)))
        return rows

    # -- positions ------------------------------------------------------------------
    def _all_positions(self) -> np.ndarray:
        """Vectors of every position key (capped distances to the start and end of the
        post, to the start and end of the paragraph), flattened in ``_position_keys``'s
        order."""
        vectors = []
        for start, end, p_start, p_end in itertools.product(
                range(_TOP + 1), range(_TOP + 1), range(_PARAGRAPH_TOP + 1),
                range(_PARAGRAPH_TOP + 1)):
            # the key's own position and sizes (as Featurizer._position_attributes)
            vectors.append(self._sum(self._position_attributes(
                start, start + end + 1, p_start, p_start + p_end + 1)))
        return np.array(vectors)

    @staticmethod
    def _position_keys(paragraph_ids) -> np.ndarray:
        """Each token's row in ``_position_vectors``."""
        n = len(paragraph_ids)
        index = np.arange(n)
        ids = np.asarray(paragraph_ids)
        changes = np.flatnonzero(ids[1:] != ids[:-1]) + 1
        if n < 2 or bool((ids[changes] > ids[changes - 1]).all()):
            # runs: a paragraph's tokens are consecutive
            starts = np.concatenate(([0], changes))
            sizes = np.diff(np.concatenate((starts, [n])))
            run = np.repeat(np.arange(len(starts)), sizes)
            p_index = index - starts[run]
            p_size = sizes[run]
        else:
            p_index, p_size = np.zeros(n, dtype=np.intp), np.zeros(n, dtype=np.intp)
            seen: Dict[int, int] = {}
            for i, pid in enumerate(paragraph_ids):
                p_index[i] = seen.get(pid, 0)
                seen[pid] = p_index[i] + 1
            for i, pid in enumerate(paragraph_ids):
                p_size[i] = seen[pid]
        start = np.minimum(index, _TOP)
        end = np.minimum(n - 1 - index, _TOP)
        p_start = np.minimum(p_index, _PARAGRAPH_TOP)
        p_end = np.minimum(p_size - 1 - p_index, _PARAGRAPH_TOP)
        side = _PARAGRAPH_TOP + 1
        return ((start * (_TOP + 1) + end) * side + p_start) * side + p_end

    # -- token types and atoms -------------------------------------------------------
    def _scored_type(self, token: str) -> _ScoredType:
        entry = self._type_cache.get(token)
        if entry is None:
            if self._next_type_row >= self._type_rows:
                self._forget_newest_types()
            lower = token.lower()
            row = self._next_type_row
            self._next_type_row += 1
            if row >= len(self._type_vectors):
                grown = np.zeros((min(self._type_rows, 2 * len(self._type_vectors)),)
                                 + self._type_vectors.shape[1:])
                grown[:row] = self._type_vectors
                self._type_vectors = grown
            if self._vectors is None:
                self._type_vectors[row] = self._block(to_attributes(self.type_features(token)))
            else:
                self._type_vectors[row] = self._type_vector(token, tuple(to_attributes(
                    self.stats_type_features(token))))
            entry = self._type_cache[token] = _ScoredType(
                row, lower, term_of(lower), self._board_user_distances(lower))
        return entry

    def _forget_newest_types(self) -> None:
        keep = self._type_rows // 2
        for token in list(itertools.islice(reversed(self._type_cache),
                                           len(self._type_cache) - keep + 1)):
            del self._type_cache[token]
        self._next_type_row = len(self._type_cache) + 1

    def _atom_row(self, keys: tuple) -> int:
        row = self._atom_rows.get(keys)
        if row is None:
            row = len(self._atom_rows)
            if row >= len(self._atom_vectors):
                grown = np.zeros((2 * len(self._atom_vectors),) + self._atom_vectors.shape[1:])
                grown[:row] = self._atom_vectors
                self._atom_vectors = grown
            features: dict = {}
            for key in keys:
                features.update(atom_features(key))
            self._atom_vectors[row] = self._block(to_attributes(features))
            self._atom_rows[keys] = row
        return row

    def _rare_atom_row(self, entry: Optional[_ScoredType], pattern: Optional[str],
                       board: str, thread_variants, author_parts) -> int:
        """The row of a token's pattern atom, or of its username and own-author atoms."""
        if pattern:
            return self._atom_row((("pattern", pattern),))
        keys = person_atom_keys(entry.lower, entry.board_user_distances.get(board),
                                thread_variants, author_parts)
        return self._atom_row(tuple(keys)) if keys else 0

    # -- per document -----------------------------------------------------------------
    def scores(self, document) -> np.ndarray:
        """(tokens x labels) state scores of one document."""
        tokens, patterns = document.tokens, document.pattern_labels
        n = len(tokens)
        n_labels = self.weights.shape[1]
        if not n:
            return np.zeros((0, n_labels))
        if n > self.max_tokens:
            raise MmbdeidValueError("a post of %d tokens: score posts of at most %d" % (
                n, self.max_tokens))
        if self._next_type_row + n > self._type_rows:
            # the table must hold every type of the post while its rows are gathered
            self._forget_newest_types()
        board, thread_variants, ranked, author_parts = self._post_context(document)
        # a token is its own key; one with a pattern label is keyed with it (it is scored
        # by its pattern alone)
        keys = [token if not pattern else (token, pattern)
                for token, pattern in zip(tokens, patterns)] if any(patterns) else tokens
        position = {key: k for k, key in enumerate(dict.fromkeys(keys))}
        distinct = list(position)
        cache = self._type_cache
        new = [key for key in distinct if key.__class__ is str and key not in cache]
        if new:
            self._prefetch_tokens(new, [None] * len(new))
            for token in new:
                self._scored_type(token)
        entries = [cache[key] if key.__class__ is str else None for key in distinct]
        type_rows = [0 if entry is None else entry.row for entry in entries]
        terms = [None if entry is None else entry.term for entry in entries]
        # the few tokens with a pattern, a username likeness or the author's name
        special = thread_variants | author_parts
        rare = np.zeros(len(distinct), dtype=np.intp)
        for k in [k for k, entry in enumerate(entries) if entry is None
                  or entry.board_user_distances or entry.lower in special]:
            entry = entries[k]
            rare[k] = self._rare_atom_row(entry, None if entry else distinct[k][1], board,
                                          thread_variants, author_parts)
        units = self._type_vectors[type_rows] + self._atom_vectors[rare]
        for kind, (ranks, size) in ranked:
            # (a term of None is in no document: unranked)
            rank = np.array(list(map(ranks.get, terms, itertools.repeat(_UNRANKED))),
                            dtype=np.float64)
            units += self._rank_vectors[kind][rank_bucket_ids(rank, size)]
        token_units = units[[position[key] for key in keys]]
        window = self.window
        scores = token_units[:, window] + self._bias_vector
        scores += self._position_vectors[self._position_keys(document.paragraph_ids)]
        for offset in self._offsets:
            column = token_units[:, window + offset]
            if offset > 0:
                covered = max(0, n - offset)
                scores[:covered] += column[offset:]
                scores[covered:] += self._pad_vectors[offset]
            else:
                covered = min(n, -offset)
                scores[covered:] += column[:n - covered]
                scores[:covered] += self._pad_vectors[offset]
        return scores


def scored_rows(items: List[List[int]], weights: np.ndarray) -> np.ndarray:
    """State scores of items given as attribute rows of ``weights`` (a stage with no
    cached parts: the second stage's items are worked out per token)."""
    n = len(items)
    lengths = np.fromiter(map(len, items), dtype=np.intp, count=n)
    rows = np.fromiter(itertools.chain.from_iterable(items), dtype=np.intp,
                       count=int(lengths.sum()))
    owner = np.repeat(np.arange(n), lengths)
    scores = np.empty((n, weights.shape[1]))
    for label in range(weights.shape[1]):
        scores[:, label] = np.bincount(owner, weights=weights[rows, label], minlength=n)
    return scores
