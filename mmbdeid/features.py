"""Features per token (paper, Table 2), as crfsuite feature dicts.

Each ``*_features`` function is pure: it maps a token (and, for context features, its
context) to a dict of feature name -> 1.0 (binary) or str (categorical). ``Featurizer``
puts them together for a whole document as crfsuite attribute lists: context-free features
are cached per token type, and the non-positional features of the two previous and two
next tokens are added under ``-2:``, ``-1:``, ``+1:``, ``+2:`` prefixes.

Features beyond the paper (they help on real noisy text): word shape, 4-character affixes,
wordfreq Zipf level, census name frequency crossed with the Zipf level (a frequent first name
that is a rare word, like ``kevin``, is a name even in lower case; ``will`` is not), and the
position of a token within its paragraph (line).
"""
import re
from typing import Dict, FrozenSet, List, Optional

from .lexicon import (WORDLISTS, load_first_name_shares, load_last_name_ranks, load_wordlist,
                      load_zipf)
from .fuzzy import FuzzyIndex, fuzzy_index
from .stats import term_of
from .usernames import username_variants

Features = Dict[str, object]

WINDOW = 2
POSITION_LIMITS = (1, 2, 3, 5, 10)          # "within 1, 2, ... tokens" of message start/end
PARAGRAPH_LIMITS = (1, 2, 3)
RANK_LIMITS = (("top5", 5, None), ("top10", 10, None), ("top50", 50, None), ("top100", 100, None),
               ("top1%", None, 0.01), ("top5%", None, 0.05), ("top10%", None, 0.10),
               ("top25%", None, 0.25))
FUZZY_LISTS = WORDLISTS                      # the paper: possible membership in every list


def case_class(token: str) -> str:
    letters = [ch for ch in token if ch.isalpha()]
    if not letters:
        return "none"
    if all(ch.islower() for ch in letters):
        return "lower"
    if all(ch.isupper() for ch in letters):
        return "upper" if len(letters) > 1 else "title"
    if letters[0].isupper() and all(ch.islower() for ch in letters[1:]):
        return "title"
    return "mixed"


_SHAPE_RUNS = re.compile(r"(.)\1+")


def word_shape(token: str) -> str:
    """Short shape: ``Kay`` -> ``Xx``, ``hippie96321`` -> ``xd``, ``@kay`` -> ``@x``."""
    shape = "".join("X" if ch.isupper() else "x" if ch.isalpha() else "d" if ch.isdigit()
                    else ch for ch in token[:20])
    return _SHAPE_RUNS.sub(r"\1", shape)


def length_bucket(token: str) -> str:
    n = len(token)
    return str(n) if n <= 4 else "5-6" if n <= 6 else "7-9" if n <= 9 else "10+"


def zipf_level(zipf: Optional[float]) -> str:
    if zipf is None:
        return "unseen"
    return "<2" if zipf < 2 else "<3" if zipf < 3 else "<4" if zipf < 4 else "<5" \
        if zipf < 5 else "5+"


def surface_features(token: str) -> Features:
    """The token as written and lower-cased, its length, case class, shape and affixes."""
    lower = token.lower()
    features: Features = {
        "tok": token,
        "w": lower,
        "len": length_bucket(token),
        "case": case_class(token),
        "shape": word_shape(token),
        "p2": lower[:2], "p3": lower[:3], "p4": lower[:4],
        "s2": lower[-2:], "s3": lower[-3:], "s4": lower[-4:],
    }
    if any(ch.isdigit() for ch in token):
        features["has_digit"] = 1.0
    if not any(ch.isalnum() for ch in token):
        features["punct"] = 1.0
    return features


def lexicon_features(lower: str, wordlists: Dict[str, FrozenSet[str]],
                     indexes: Dict[str, FuzzyIndex]) -> Features:
    """Membership in each word list; otherwise possible membership at distance 1 or 2."""
    features: Features = {}
    for name, words in wordlists.items():
        if lower in words:
            features["in:" + name] = 1.0
        elif name in indexes:
            distance = indexes[name].distance(lower)
            if distance:
                features["near%d:%s" % (distance, name)] = 1.0
    return features


def first_name_level(share: Optional[float]) -> Optional[str]:
    """Census share of people with this first name, as a level."""
    if share is None:
        return None
    return ">=0.1%" if share >= 0.1 else ">=0.01%" if share >= 0.01 else ">=0.001%" \
        if share >= 0.001 else "rare"


def last_name_level(rank: Optional[int]) -> Optional[str]:
    if rank is None:
        return None
    return "top100" if rank <= 100 else "top1k" if rank <= 1000 else "top10k" \
        if rank <= 10000 else "rare"


def name_frequency_features(first_level: Optional[str], last_level: Optional[str],
                            zipf: str) -> Features:
    """How common the token is as a first name and as a surname, alone and crossed with how
    common it is as a word: the CRF is linear, so it needs the crossing spelled out."""
    features: Features = {}
    if first_level:
        features["first_level"] = first_level
    if last_level:
        features["last_level"] = last_level
    features["name|zipf"] = "%s|%s|%s" % (first_level or "-", last_level or "-", zipf)
    return features


def capitalisation_features(capitalised: int, occurrences: int) -> Features:
    """How often the term is title-case mid-sentence in the dump, as a level with a rough
    count level (one capitalised use says less than fifty)."""
    if occurrences == 0:
        return {"dump_caps": "unseen"}
    ratio = capitalised / occurrences
    level = ">=90%" if ratio >= 0.9 else ">=50%" if ratio >= 0.5 else ">=10%" \
        if ratio >= 0.1 else ">0" if capitalised else "0"
    count = "1" if occurrences == 1 else "2-4" if occurrences < 5 else "5+"
    return {"dump_caps": level, "dump_caps|n": level + "|" + count}


def position_features(index: int, length: int, paragraph_index: int,
                      paragraph_length: int) -> Features:
    """Distance from the start and end of the message and of the paragraph (line)."""
    features: Features = {}
    for limit in POSITION_LIMITS:
        if index < limit:
            features["start<=%d" % limit] = 1.0
        if length - 1 - index < limit:
            features["end<=%d" % limit] = 1.0
    for limit in PARAGRAPH_LIMITS:
        if paragraph_index < limit:
            features["pstart<=%d" % limit] = 1.0
        if paragraph_length - 1 - paragraph_index < limit:
            features["pend<=%d" % limit] = 1.0
    return features


def rank_features(prefix: str, rank: Optional[int], size: int) -> Features:
    """Cumulative rank buckets, e.g. ``board:top10`` and ``board:top1%`` both set."""
    if rank is None:
        return {}
    features: Features = {}
    for name, absolute, share in RANK_LIMITS:
        if (absolute is not None and rank < absolute) or \
                (share is not None and rank < max(1, size * share)):
            features["%s:%s" % (prefix, name)] = 1.0
    return features


def username_features(lower: str, board_users: FrozenSet[str],
                      thread_variants: FrozenSet[str],
                      board_index: Optional[FuzzyIndex]) -> Features:
    """Membership in the board's usernames and the thread's usernames with variants."""
    features: Features = {}
    if lower in board_users:
        features["in:board_users"] = 1.0
    elif board_index is not None:
        distance = board_index.distance(lower)
        if distance:
            features["near%d:board_users" % distance] = 1.0
    if lower in thread_variants:
        features["in:thread_users"] = 1.0
    return features


Attributes = List[str]
# Positional features describe the token's own place; they are not repeated for neighbours.
_POSITIONAL_PREFIXES = ("start<", "end<", "pstart<", "pend<")
_CACHE_LIMIT = 500_000     # token types; the cache is emptied when full, so memory stays flat


def to_attributes(features: Features) -> Attributes:
    """crfsuite attribute names: ``{"w": "kay", "in:x": 1.0}`` -> ``["w:kay", "in:x"]``
    (what python-crfsuite makes of such a dict; every numeric feature here is binary)."""
    return [key + ":" + value if isinstance(value, str) else key
            for key, value in features.items()]


class Featurizer:
    """Turns a :class:`~mmbdeid.document.Document` into crfsuite items, one attribute list
    per token.

    ``stats`` (a :class:`~mmbdeid.stats.CorpusStats`) supplies the structure features and
    username lists; without it those features are simply absent. What depends only on the
    token type (surface, word lists, edit distance, frequencies, corpus-wide term
    statistics) is computed once per type and cached, together with its ``-2:`` .. ``+2:``
    prefixed copies for the window, so a token costs a few list concatenations.
    """

    def __init__(self, stats=None, window: int = WINDOW):
        self.stats = stats
        self.window = window
        self._type_cache: Dict[str, Attributes] = {}
        self._window_cache: Dict[tuple, Attributes] = {}
        self._board_cache: Dict[str, tuple] = {}
        self._thread_cache: Dict[tuple, FrozenSet[str]] = {}
        self._offsets = [o for o in range(-window, window + 1) if o != 0]
        self._prefixes = {o: "%+d:" % o for o in self._offsets}

    def __getstate__(self):
        # Caches and corpus statistics belong to one run, not to a saved model.
        return {"stats": None, "window": self.window}

    def __setstate__(self, state):
        self.__init__(**state)

    # -- per token type -------------------------------------------------------------
    def type_features(self, token: str) -> Features:
        """Every feature of a token that does not depend on its post."""
        lower = token.lower()
        features = surface_features(token)
        features.update(lexicon_features(lower, _wordlists(), _indexes()))
        features["zipf"] = zipf_level(load_zipf().get(lower))
        features.update(name_frequency_features(
            first_name_level(load_first_name_shares().get(lower)),
            last_name_level(load_last_name_ranks().get(lower)), features["zipf"]))
        term = term_of(lower)
        if self.stats is not None and term is not None:
            features.update(capitalisation_features(*self.stats.capitalisation(term)))
            features.update(rank_features("border", *self.stats.border_rank(term)))
        return features

    def _type_attributes(self, token: str) -> Attributes:
        cached = self._type_cache.get(token)
        if cached is None:
            if len(self._type_cache) >= _CACHE_LIMIT:
                self._type_cache.clear()
                self._window_cache.clear()
            cached = self._type_cache[token] = to_attributes(self.type_features(token))
        return cached

    def _window_attributes(self, token: str, offset: int) -> Attributes:
        key = (token, offset)
        cached = self._window_cache.get(key)
        if cached is None:
            prefix = self._prefixes[offset]
            cached = self._window_cache[key] = [prefix + a for a in self._type_attributes(token)]
        return cached

    # -- per document ---------------------------------------------------------------
    def document_items(self, document) -> List[Attributes]:
        """One crfsuite attribute list per token."""
        board_users, board_index = self._board_users(document.board)
        thread_variants = self._thread_variants(document)
        paragraph_sizes: Dict[int, int] = {}
        for pid in document.paragraph_ids:
            paragraph_sizes[pid] = paragraph_sizes.get(pid, 0) + 1

        # per token: the type-level key (None for pattern tokens) and post-level attributes
        type_keys: List[Optional[str]] = []
        context: List[Attributes] = []
        for token, pattern in zip(document.tokens, document.pattern_labels):
            if pattern:
                type_keys.append(None)
                context.append(["pattern:" + pattern])
                continue
            type_keys.append(token)
            lower = token.lower()
            attributes = to_attributes(username_features(lower, board_users, thread_variants,
                                                         board_index))
            attributes += self._post_structure_attributes(document, lower)
            context.append(attributes)

        items: List[Attributes] = []
        paragraph_position: Dict[int, int] = {}
        n = len(document.tokens)
        for i, pid in enumerate(document.paragraph_ids):
            p_index = paragraph_position.get(pid, 0)
            paragraph_position[pid] = p_index + 1
            item = ["bias"]
            if type_keys[i] is not None:
                item += self._type_attributes(type_keys[i])
            item += context[i]
            item += to_attributes(position_features(i, n, p_index, paragraph_sizes[pid]))
            for offset in self._offsets:
                j = i + offset
                if 0 <= j < n:
                    if type_keys[j] is not None:
                        item += self._window_attributes(type_keys[j], offset)
                    prefix = self._prefixes[offset]
                    item += [prefix + a for a in context[j]]
                else:
                    item.append("%+d:pad" % offset)
            items.append(item)
        return items

    def _post_structure_attributes(self, document, lower: str) -> Attributes:
        """tf-idf rank buckets of the term in the post's board and in its author's posts."""
        if self.stats is None:
            return []
        term = term_of(lower)
        if term is None:
            return []
        features: Features = {}
        if document.board:
            features.update(rank_features("board", *self.stats.rank("board", document.board, term)))
        if document.author:
            features.update(rank_features("user", *self.stats.rank("user", document.author, term)))
        return to_attributes(features)

    def _board_users(self, board: str):
        if self.stats is None:
            return frozenset(), None
        if board not in self._board_cache:
            users = frozenset(u.lower() for u in self.stats.board_users(board))
            self._board_cache[board] = (users, FuzzyIndex(users) if users else None)
        return self._board_cache[board]

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


def _wordlists() -> Dict[str, FrozenSet[str]]:
    return {name: load_wordlist(name) for name in WORDLISTS}


def _indexes() -> Dict[str, FuzzyIndex]:
    return {name: fuzzy_index(name) for name in FUZZY_LISTS}
