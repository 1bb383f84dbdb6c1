"""FuzzyIndex: Damerau-Levenshtein distance 0-2 through a deletion index."""
import jellyfish
import pytest

from mmbdeid.lexicon.fuzzy import FuzzyIndex
from mmbdeid.lexicon.many_lists import MultiListIndex, word_lists_index

WORDS = ["mary", "grace", "katherine", "jo", "tamoxifen"]


@pytest.fixture(scope="module")
def index():
    return FuzzyIndex(WORDS)


@pytest.mark.parametrize("token, expected", [
    ("mary", 0),            # exact
    ("marry", 1),           # insertion
    ("mar", 1),             # deletion
    ("gracy", 1),           # substitution
    ("mray", 1),            # transposition
    ("katharin", 2),        # substitution + deletion
    ("tamoxifne", 1),       # transposition past the indexed prefix
    ("tamoxxifenn", 2),     # two insertions
    ("mxrqy", 2),           # mary with a substitution and an insertion, 5 characters
    ("grxxe", 2),           # two substitutions, 5 characters: distance 2 checked
    ("mxrq", None),         # two substitutions, but 4 characters: only distance 1 checked
    ("joe", 1),             # 3 characters: distance 1 checked
    ("xo", None),           # 2 characters: only exact membership
    ("ja", None),
    ("john", None),         # jo + two insertions, 4 characters
    ("peter", None),        # farther than 2
    ("elizabeth", None),
    ("", None),
])
def test_distance(index, token, expected):
    assert index.distance(token) == expected


def test_max_distance_one_stops_at_one():
    index = FuzzyIndex(WORDS, max_distance=1)
    assert index.distance("mray") == 1
    assert index.distance("katharin") is None


def test_candidates_are_found_by_index_not_scan(index):
    candidates = {index.words[i] for i in index._candidate_ids("marry", 2)}
    assert "mary" in candidates
    assert "tamoxifen" not in candidates


def test_shipped_lists_index():
    lists = word_lists_index(("first_names", "drugs"))
    assert lists is word_lists_index(("first_names", "drugs"))   # cached
    assert lists.nearest("mary") == {"first_names": 0}
    assert lists.nearest("maryy")["first_names"] == 1
    assert lists.nearest("tamoxifem")["drugs"] == 1


def test_multi_list_index_gives_each_lists_nearest_distance():
    lists = MultiListIndex({"names": ["mary", "grace"], "drugs": ["marinol", "mary"]})
    assert lists.nearest("mary") == {"names": 0, "drugs": 0}
    assert lists.nearest("grcae") == {"names": 1}
    assert lists.nearest("marinoll") == {"drugs": 1}
    assert lists.nearest("zzzzzz") == {}


@pytest.mark.parametrize("token", ["\ud800ab", "ma\udfffry", "\ud83d"])
def test_lone_surrogates_do_not_crash(index, token):
    assert index.distance(token) in (None, 1, 2)
    rows, ids, distances = index.near_matches([token])
    assert len(rows) == len(ids) == len(distances)
    assert min(distances.tolist(), default=None) == index.distance(token)


def test_batched_queries_answer_like_single_ones():
    import random
    random.seed(1)
    words = ["mary", "grace", "katherine", "jo", "tamoxifen", "elizabeth", "robert", "hope"]
    tokens = []
    for word in words * 20:
        chars = list(word)
        for _ in range(random.randint(0, 3)):
            position = random.randrange(len(chars))
            random.choice([lambda: chars.pop(position),
                           lambda: chars.insert(position, random.choice("aeixyz")),
                           lambda: chars.__setitem__(position, random.choice("xyzq"))])()
        tokens.append("".join(chars))
    tokens += ["", "a", "ab", "José", "maryjane"]
    index = FuzzyIndex(words)
    rows, ids, distances = index.near_matches(tokens)
    batched = {(k, index.words[i], d) for k, i, d in zip(rows.tolist(), ids.tolist(),
                                                         distances.tolist())}
    # the reference: every word, no index (near_matches leaves out exact entries)
    expected = {(k, word, jellyfish.damerau_levenshtein_distance(token, word))
                for k, token in enumerate(tokens) for word in words
                if 0 < jellyfish.damerau_levenshtein_distance(token, word)
                <= index.allowed_distance(token)}
    assert len(batched) == len(rows) and batched == expected
    assert {d for _, _, d in expected} == {1, 2}
    # the single-token path agrees: its distance is the smallest of the batched ones
    for k, token in enumerate(tokens):
        nearest = [d for row, _, d in expected if row == k]
        assert index.distance(token) == (0 if token in words else min(nearest, default=None))
    assert len(tokens) > 100


def test_nearest_lists_come_in_list_order():
    lists = MultiListIndex({"b": ["maryy"], "a": ["mary"], "c": ["marry"]})
    assert list(lists.nearest("mary")) == ["b", "a", "c"]
