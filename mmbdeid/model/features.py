"""The featurizer: a document's tokens as crfsuite attribute lists, from the per-token
features of :mod:`mmbdeid.model.token_features`, the position and rank buckets of
:mod:`mmbdeid.model.feature_buckets` and the post-dependent groups of
:mod:`mmbdeid.model.atoms`.

``Featurizer`` looks up what each feature function takes (word lists, their edit-distance
index, frequencies, corpus statistics) and puts the features together for a whole document:
context-free features are cached per token type, and the non-positional features of the two
previous and two next tokens are added under ``-2:``, ``-1:``, ``+1:``, ``+2:`` prefixes.
"""
import itertools
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..lexicon.many_lists import MultiListIndex, word_lists_index
from ..lexicon.usernames import author_name_parts, username_variants
from ..lexicon.wordlists import (WORDLISTS, load_clusters, load_first_name_shares, load_gazetteer,
                      load_last_name_ranks, load_zipf)
from .atoms import atom_features, person_atom_keys
from .counting import term_of
from .feature_buckets import (PARAGRAPH_LIMITS, POSITION_LIMITS, position_features, rank_buckets,
                              rank_features)
from .token_features import (Features, capitalisation_features, cluster_features,
                             first_name_level, gazetteer_features, last_name_level,
                             lexicon_features, name_frequency_features, surface_features,
                             zipf_level)

WINDOW = 2
FUZZY_LISTS = WORDLISTS                      # the paper: possible membership in every list

Attributes = List[str]
# What caches hold: tuples, which the garbage collector stops tracking (so its full
# collections stay cheap however large the caches grow), of str or, encoded, bytes.
CachedAttributes = Tuple
_CACHE_LIMIT = 100_000     # entries per cache; emptied when full, so memory stays flat
# A cached token type holds its attributes and their window copies: about 8 KB with every
# attribute, 3 KB for a fitted model's (encoded) subset. 30,000 types bound a worker's
# cache at 100-250 MB; when full, the newest half is forgotten (see _forget_newest_half).
_TYPE_CACHE_LIMIT = 30_000
# A post is featurized this many tokens at a time (``Featurizer.iter_items``), and new token
# types are looked up at most this many per batch: bounds what one long post holds.
_BLOCK_TOKENS = 4096
_PREFETCH_TYPES = 20_000
_PREFETCH_AHEAD = 40_000    # types looked up for many posts at once (lookup caches: 65,536)


def to_attributes(features: Features) -> Attributes:
    """crfsuite attribute names: ``{"w": "kay", "in:x": 1.0}`` -> ``["w:kay", "in:x"]``
    (what python-crfsuite makes of such a dict; every numeric feature here is binary)."""
    return [key + ":" + value if isinstance(value, str) else key
            for key, value in features.items()]


class _TypeEntry:
    """What a token type contributes wherever it occurs: its attributes for itself
    (``by_offset[0]``) and as each neighbour, its lower-case form, statistics term, and
    distance to the usernames of each board within reach."""
    __slots__ = ("by_offset", "lower", "term", "board_user_distances")

    def __init__(self, by_offset: Dict[int, CachedAttributes], lower: str, term: Optional[str],
                 board_user_distances: Dict[str, int]):
        self.by_offset = by_offset
        self.lower = lower
        self.term = term
        self.board_user_distances = board_user_distances


def _forget_newest_half(cache: dict) -> None:
    """Make room in a full cache of token types. Text is Zipfian, so the types seen first
    are the frequent ones: they stay, and the newest (mostly rare) half goes."""
    for key in list(itertools.islice(reversed(cache), len(cache) // 2)):
        del cache[key]


def _joined(unit: Dict[int, CachedAttributes],
            atom: Dict[int, CachedAttributes]) -> Dict[int, CachedAttributes]:
    """A unit followed by atoms, offset by offset."""
    return {offset: attributes + atom[offset] for offset, attributes in unit.items()}


class Featurizer:
    """Turns a :class:`~mmbdeid.text.document.Document` into crfsuite items, one attribute list
    per token.

    ``stats`` (a :class:`~mmbdeid.model.stats.CorpusStats`) supplies the structure features and
    username lists; without it those features are simply absent. What depends only on the
    token type (surface, word lists, edit distance, frequencies, corpus-wide term
    statistics) is computed once per type and cached with its ``-2:`` .. ``+2:`` prefixed
    copies for the window; the few post-dependent attribute groups (username membership,
    tf-idf rank buckets, pattern labels) are cached the same way as "atoms", and so is
    each combination of them. A token's "unit" is its type's attributes followed by its
    atoms, for each offset; an item is
    bias, the token's own unit, its position and its neighbours' units: a token costs a few
    sequence concatenations.

    ``known_attributes`` (when tagging with a fitted model): only attributes the model has
    weights for are emitted. The others add nothing to the marginals, so leaving them out
    makes tagging cheaper with identical results. ``encoded``: attributes as UTF-8
    ``bytes``, which python-crfsuite takes as they are; it would otherwise encode every
    ``str`` attribute of every token again (a good part of the tagging time).
    ``attribute_index`` (attribute -> row number, see :mod:`mmbdeid.crf.marginals`):
    attributes as their row numbers, only those it has (it then is the known attributes).
    """

    def __init__(self, stats=None, window: int = WINDOW,
                 known_attributes: Optional[FrozenSet[str]] = None, encoded: bool = False,
                 attribute_index: Optional[Dict[str, int]] = None):
        if attribute_index is not None and known_attributes is None:
            known_attributes = frozenset(attribute_index)
        self.window = window
        self.known_attributes = known_attributes
        self.encoded = encoded
        self.attribute_index = attribute_index
        self._offsets = [o for o in range(-window, window + 1) if o != 0]
        self._prefixes = {o: "%+d:" % o for o in self._offsets}
        # offset -> the known attributes seen there, without their offset prefix, so that
        # only those are prefixed
        self._known_unprefixed = None if known_attributes is None else {
            offset: {a[len(prefix):] for a in known_attributes if a.startswith(prefix)}
            for offset, prefix in self._prefixes.items()}
        self._bias = self._emitted(["bias"])
        # beyond either end of the post, each offset sees its padding attribute
        self._pad_unit = {o: self._emitted(["%+d:pad" % o]) for o in self._offsets}
        self._start_run(stats)

    def _start_run(self, stats) -> None:
        """Take ``stats``, with empty caches: what they hold may depend on the statistics."""
        self.stats = stats
        self._type_cache: Dict[str, _TypeEntry] = {}
        self._atom_cache: Dict[tuple, Dict[int, CachedAttributes]] = {}
        self._position_cache: Dict[tuple, CachedAttributes] = {}
        self._thread_cache: Dict[tuple, FrozenSet[str]] = {}
        self._users_index = None

    def with_stats(self, stats) -> "Featurizer":
        """A featurizer like this one for other corpus statistics, sharing what depends on
        the model alone (its attribute tables), which is slow to build; the caches are the
        new one's own."""
        twin = object.__new__(type(self))     # (not copy.copy: pickling drops the tables)
        twin.__dict__.update(self.__dict__)
        twin._start_run(stats)
        return twin

    def __getstate__(self):
        # Caches and corpus statistics belong to one run, not to a saved model.
        return {"stats": None, "window": self.window, "known_attributes": self.known_attributes,
                "encoded": self.encoded, "attribute_index": self.attribute_index}

    def __setstate__(self, state):
        self.__init__(**state)

    def _emitted(self, attributes: Attributes) -> CachedAttributes:
        """The attributes as items carry them: only known ones, encoded (or as row
        numbers) if asked."""
        known = self.known_attributes
        if known is not None:
            attributes = [a for a in attributes if a in known]
        if self.attribute_index is not None:
            index = self.attribute_index
            return tuple([index[a] for a in attributes if a in index])
        if self.encoded:
            return tuple([a.encode() for a in attributes])
        return tuple(attributes)

    # -- per token type -------------------------------------------------------------
    def type_features(self, token: str) -> Features:
        """Every feature of a token that does not depend on its post."""
        features = self.plain_type_features(token)
        features.update(self.stats_type_features(token))
        return features

    @staticmethod
    def plain_type_features(token: str) -> Features:
        """The features of a token that depend on it alone (not on the statistics)."""
        lower = token.lower()
        features = surface_features(token)
        features.update(lexicon_features(word_lists_index(FUZZY_LISTS).nearest(lower)))
        features["zipf"] = zipf_level(load_zipf().get(lower))
        features.update(name_frequency_features(
            first_name_level(load_first_name_shares().get(lower)),
            last_name_level(load_last_name_ranks().get(lower)), features["zipf"]))
        features.update(gazetteer_features(load_gazetteer("places").get(lower),
                                           load_gazetteer("places", 2).get(lower),
                                           lower in load_gazetteer("organisations")))
        features.update(cluster_features(load_clusters().get(lower)))
        return features

    def stats_type_features(self, token: str) -> Features:
        """The features of a token type that the corpus statistics give (their names are
        not among the plain features')."""
        term = term_of(token.lower())
        if self.stats is None or term is None:
            return {}
        features = capitalisation_features(*self.stats.capitalisation(term))
        features.update(rank_features("border", *self.stats.border_rank(term)))
        return features

    def _type_entry(self, token: str) -> _TypeEntry:
        entry = self._type_cache.get(token)
        if entry is None:
            if len(self._type_cache) >= _TYPE_CACHE_LIMIT:
                _forget_newest_half(self._type_cache)
            lower = token.lower()
            entry = self._type_cache[token] = _TypeEntry(
                self._by_offset(to_attributes(self.type_features(token))), lower, term_of(lower),
                self._board_user_distances(lower))
        return entry

    def _by_offset(self, attributes: Attributes) -> Dict[int, CachedAttributes]:
        by_offset = {0: self._emitted(attributes)}
        known = self._known_unprefixed
        for offset, prefix in self._prefixes.items():
            if known is not None:
                known_here = known[offset]
                attributes_seen = [a for a in attributes if a in known_here]
            else:
                attributes_seen = attributes
            if self.attribute_index is not None:
                index = self.attribute_index
                by_offset[offset] = tuple([index[prefix + a] for a in attributes_seen
                                           if prefix + a in index])
            else:
                by_offset[offset] = tuple([(prefix + a).encode() for a in attributes_seen]) \
                    if self.encoded else tuple([prefix + a for a in attributes_seen])
        return by_offset

    def _atoms(self, keys: tuple) -> Dict[int, CachedAttributes]:
        """Cached post-dependent attribute groups, one after the other, with their window
        copies; ``keys`` name the groups (see :func:`~mmbdeid.model.atoms.atom_features`)."""
        atoms = self._atom_cache.get(keys)
        if atoms is None:
            if len(self._atom_cache) >= _CACHE_LIMIT:
                self._atom_cache.clear()
            features: Features = {}
            for key in keys:
                features.update(atom_features(key))
            atoms = self._atom_cache[keys] = self._by_offset(to_attributes(features))
        return atoms

    def _position_attributes(self, i: int, n: int, p_index: int,
                             p_size: int) -> CachedAttributes:
        # Only distances up to the largest limit matter, so few distinct keys exist.
        top, ptop = POSITION_LIMITS[-1], PARAGRAPH_LIMITS[-1]
        to_end, to_p_end = n - 1 - i, p_size - 1 - p_index
        key = (i if i < top else top, to_end if to_end < top else top,
               p_index if p_index < ptop else ptop, to_p_end if to_p_end < ptop else ptop)
        cached = self._position_cache.get(key)
        if cached is None:
            cached = self._position_cache[key] = self._emitted(to_attributes(position_features(
                key[0], key[0] + key[1] + 1, key[2], key[2] + key[3] + 1)))
        return cached

    # -- per document ---------------------------------------------------------------
    def document_items(self, document) -> List[Attributes]:
        """One crfsuite attribute list per token: bias, the token's own unit, its position,
        then each neighbour's unit under its offset (padding beyond the post)."""
        return list(self.iter_items(document))

    def iter_items(self, document) -> Iterator[Attributes]:
        """The items of ``document_items`` one by one, worked out a block of tokens at a
        time (new token types looked up, units built), so that memory does not grow with
        the post beyond what the caller keeps: a 5 MB post is over a million tokens."""
        tokens, patterns = document.tokens, document.pattern_labels
        n = len(tokens)
        if not n:
            return
        context = self._post_context(document)
        positions = self._iter_positions(document.paragraph_ids)
        window, offsets, bias, pad = self.window, self._offsets, self._bias, self._pad_unit
        for lo in range(0, n, _BLOCK_TOKENS):
            hi = min(n, lo + _BLOCK_TOKENS)
            first, last = max(0, lo - window), min(n, hi + window)
            self._prefetch_tokens(tokens[first:last], patterns[first:last])
            # the block's units with its neighbours' on either side (padding at the ends)
            padded = [pad] * (window - (lo - first)) + \
                self._units(tokens[first:last], patterns[first:last], context) + \
                [pad] * (window - (last - hi))
            for k in range(window, window + hi - lo):
                item = [*bias, *padded[k][0], *next(positions)]
                for offset in offsets:
                    item += padded[k + offset][offset]
                yield item

    def _post_context(self, document) -> tuple:
        """What a post's units depend on besides their tokens: its board, the usernames of
        its thread with their variants, and term -> rank (with the number of terms) of its
        board and of its author."""
        ranked = tuple((kind, self.stats.ranks(kind, key)) for kind, key
                       in (("board", document.board), ("user", document.author))
                       if key and self.stats is not None)
        author_parts = author_name_parts(document.author) if document.author else frozenset()
        return document.board, self._thread_variants(document), ranked, author_parts

    def _units(self, tokens: Sequence[str], patterns: Sequence[Optional[str]],
               context: tuple) -> List[Dict[int, CachedAttributes]]:
        """Per token, its attributes by offset: its type's followed by its atoms (username
        membership, board and user rank buckets), or its pattern atom alone. Within a post
        a token's unit depends only on the token (and its pattern), so each is built once
        per call and shared by the token's occurrences."""
        board, thread_variants, ranked, author_parts = context
        built: Dict[tuple, Dict[int, CachedAttributes]] = {}
        units: List[Dict[int, CachedAttributes]] = []
        for token, pattern in zip(tokens, patterns):
            unit = built.get((token, pattern))
            if unit is None:
                unit = built[token, pattern] = self._unit(token, pattern, board,
                                                          thread_variants, ranked,
                                                          author_parts)
            units.append(unit)
        return units

    def _unit(self, token: str, pattern: Optional[str], board: str,
              thread_variants: FrozenSet[str], ranked: tuple,
              author_parts: FrozenSet[str] = frozenset()) -> Dict[int, CachedAttributes]:
        if pattern:
            return self._atoms((("pattern", pattern),))
        entry = self._type_entry(token)
        keys = person_atom_keys(entry.lower, entry.board_user_distances.get(board),
                                thread_variants, author_parts)
        if entry.term is not None:
            for kind, (ranks, size) in ranked:
                buckets = rank_buckets(ranks.get(entry.term), size)
                if buckets:
                    keys.append((kind, buckets))
        return _joined(entry.by_offset, self._atoms(tuple(keys))) if keys else entry.by_offset

    def _iter_positions(self, paragraph_ids: Sequence[int]) -> Iterator[CachedAttributes]:
        """Each token's position attributes within its post and its paragraph. A
        paragraph's tokens are one run when the ids never decrease (as ``Document`` numbers
        them), so its size is its run's length; otherwise they are counted first."""
        n = len(paragraph_ids)
        if all(a <= b for a, b in zip(paragraph_ids, itertools.islice(paragraph_ids, 1, None))):
            i = 0
            while i < n:
                end = i + 1
                while end < n and paragraph_ids[end] == paragraph_ids[i]:
                    end += 1
                for p_index in range(end - i):
                    yield self._position_attributes(i + p_index, n, p_index, end - i)
                i = end
            return
        paragraph_sizes: Dict[int, int] = {}
        for pid in paragraph_ids:
            paragraph_sizes[pid] = paragraph_sizes.get(pid, 0) + 1
        paragraph_position: Dict[int, int] = {}
        for i, pid in enumerate(paragraph_ids):
            p_index = paragraph_position.get(pid, 0)
            paragraph_position[pid] = p_index + 1
            yield self._position_attributes(i, n, p_index, paragraph_sizes[pid])

    def prefetch(self, documents) -> None:
        """Edit-distance and term-statistics lookups for the new token types of many
        documents in one batch (the batched index query and the statistics queries have a
        fixed cost per call, so larger batches are cheaper)."""
        self._prefetch_tokens(
            (token for document in documents for token in document.tokens),
            (pattern for document in documents for pattern in document.pattern_labels),
            limit=_PREFETCH_AHEAD)

    def _prefetch_tokens(self, tokens: Iterable[str], patterns: Iterable[Optional[str]],
                         limit: Optional[int] = None) -> None:
        # each new type once, and at most _PREFETCH_TYPES per query: the index query's
        # arrays grow with its batch, and one long post can hold a million new types
        new = list(dict.fromkeys(token.lower() for token, pattern in zip(tokens, patterns)
                                 if not pattern and token not in self._type_cache))
        # (ahead of featurizing, no more than the lookup caches keep: ``iter_items`` looks
        # up the rest block by block)
        stop = len(new) if limit is None else min(len(new), limit)
        for start in range(0, stop, _PREFETCH_TYPES):
            batch = new[start:min(stop, start + _PREFETCH_TYPES)]
            word_lists_index(FUZZY_LISTS).prefetch(batch)
            if self.stats is not None:
                self._username_index().prefetch(batch)
                self.stats.prefetch_terms(term for term in map(term_of, batch) if term)

    def _username_index(self) -> MultiListIndex:
        if self._users_index is None:
            # One index over every username of the dump, boards as its lists: one query
            # per token type, whatever the number of boards.
            self._users_index = MultiListIndex(
                {b: {u.lower() for u in users} for b, users in self.stats.users_by_board().items()})
        return self._users_index

    def _board_user_distances(self, lower: str) -> Dict[str, int]:
        """Board -> distance (0, 1, 2) from the token to a username of that board."""
        if self.stats is None:
            return {}
        return self._username_index().nearest(lower)

    def _thread_variants(self, document) -> FrozenSet[str]:
        authors = set()
        if self.stats is not None:
            authors |= self.stats.thread_users(document.board, document.thread)
        if document.author:
            authors.add(document.author)
        key = frozenset(authors)
        if key not in self._thread_cache:
            if len(self._thread_cache) >= _CACHE_LIMIT:
                self._thread_cache.clear()
            variants = set()
            for author in key:
                variants |= username_variants(author)
            self._thread_cache[key] = frozenset(variants)
        return self._thread_cache[key]
