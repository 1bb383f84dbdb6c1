"""Features of one token (Table 2 of Benton et al. 2011, "A System for De-Identifying Medical
Message Board Text", here "the paper"), as crfsuite feature dicts.

Each ``*_features`` function is pure: it maps a token, or what is known of it (its
distances to the word lists, frequencies, username membership), to a dict of feature name ->
1.0 (binary) or str (categorical). ``mmbdeid.model.features.Featurizer`` looks up what they
take and puts them together per document.

Features beyond the paper (they help on real noisy text): word shape, 4-character affixes,
wordfreq Zipf level, census name frequency crossed with the Zipf level (a frequent first name
that is a rare word, like ``kevin``, is a name even in lower case; ``will`` is not), and the
token's Brown word cluster (Owoputi et al. 2013's tweet clusters) as prefixes of its cluster
path, which groups words used alike (names written in lower case among them).
"""
import functools
import re
from typing import Dict, Optional, Tuple

Features = Dict[str, object]

# Brown-cluster path prefixes: shorter ones are coarser clusters (names vs other nouns);
# the whole path (up to 16 bits), the finest, is a feature of its own
CLUSTER_PREFIXES = (2, 4, 6, 8, 10, 12)


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


def lexicon_features(nearest: Dict[str, int]) -> Features:
    """Membership in each word list; otherwise possible membership at distance 1 or 2.

    ``nearest`` maps list names to the token's smallest distance to an entry of that list
    (``MultiListIndex.nearest``), lists out of reach absent."""
    return {("in:" if distance == 0 else "near%d:" % distance) + name: 1.0
            for name, distance in nearest.items()}


@functools.lru_cache(maxsize=2048)   # 1,000 paths
def cluster_features(path: Optional[str]) -> Tuple[Tuple[str, str], ...]:
    """A word's Brown-cluster path as prefix features: ``bc2`` .. ``bc12`` for the prefixes
    shorter than the path, and ``bc`` the whole path (a prefix as long as the path or
    longer would only repeat it). No path, no features.
    Pairs, for ``dict.update``: the result is shared by every word of the cluster."""
    if not path:
        return ()
    return tuple(("bc%d" % n, path[:n]) for n in CLUSTER_PREFIXES if n < len(path)) + \
        (("bc", path),)


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


def gazetteer_features(place_kind: Optional[str], population: Optional[str],
                       organisation: bool) -> Features:
    """Negative evidence: the token is a place (by kind, cities by size) or a listed
    organisation (``Calgary``, ``Madrid``, ``Chase``)."""
    features: Features = {}
    if place_kind:
        features["place"] = place_kind
        if place_kind == "city" and population and population.isdigit():
            people = int(population)
            features["place_size"] = ("1M+" if people >= 1_000_000 else "100k+"
                                      if people >= 100_000 else "small")
    if organisation:
        features["organisation"] = 1.0
    return features


def author_features(is_first_name: bool) -> Features:
    """The token is a part of the post's own author field (``David`` signing a post by
    ``David A. Foti``); ``is_first_name``: that part is a census first name."""
    features: Features = {"own_author": 1.0}
    if is_first_name:
        features["own_author_name"] = 1.0
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


def username_features(board_distance: Optional[int], in_thread: bool) -> Features:
    """Membership (distance 0) or possible membership (1, 2) in the board's usernames, and
    membership in the thread's usernames with their variants."""
    features: Features = {}
    if board_distance == 0:
        features["in:board_users"] = 1.0
    elif board_distance:
        features["near%d:board_users" % board_distance] = 1.0
    if in_thread:
        features["in:thread_users"] = 1.0
    return features


# The feature groups of the Featurizer (these functions, the buckets, the window) in words,
# saved in a trained model's metadata ("features"): change it with them.
FEATURE_GROUPS = [
    "token as written and lower-cased", "length bucket", "case class", "word shape",
    "2/3/4-char prefixes and suffixes", "has a digit, punctuation only",
    "word-list membership", "Damerau-Levenshtein distance 1/2 membership",
    "wordfreq Zipf level", "census first-name share and surname rank crossed with Zipf level",
    "place (by kind, cities by size) and organisation gazetteers",
    "Brown cluster path and its prefixes", "mid-sentence capitalisation share in the dump",
    "paragraph-border likelihood rank bucket", "board and thread username membership",
    "part of the post's own author field", "tf-idf rank buckets per board and per user",
    "pattern label (username, e-mail, URL, phone) of a token a pattern found",
    "distance from message and paragraph start/end",
    "all non-positional features of tokens -2..+2",
]
