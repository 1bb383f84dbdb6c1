"""MultiListIndex answers through FuzzyIndex.near_masks (two rounds, skipping candidates of
lists already answered, position test on far-far candidates) equal a brute-force scan."""
import random

import jellyfish
import numpy as np
import pytest

from mmbdeid.lexicon.fuzzy import FuzzyIndex
from mmbdeid.lexicon.many_lists import MultiListIndex


def _edit(word, rng, alphabet):
    chars = list(word)
    for _ in range(rng.randint(0, 3)):
        op = rng.randrange(4)
        p = rng.randrange(len(chars)) if chars else 0
        if op == 0 and chars:
            chars.pop(p)
        elif op == 1:
            chars.insert(p, rng.choice(alphabet))
        elif op == 2 and chars:
            chars[p] = rng.choice(alphabet)
        elif op == 3 and p + 1 < len(chars):
            chars[p], chars[p + 1] = chars[p + 1], chars[p]
    return "".join(chars)


def _brute(lists, token, index):
    """List name -> smallest distance within the allowed one, by scanning every entry."""
    limit = index.allowed_distance(token)
    out = {}
    for name, words in lists.items():
        best = 0 if token in words else min(
            (d for d in (jellyfish.damerau_levenshtein_distance(token, w) for w in words)
             if d <= limit), default=None)
        if best is not None:
            out[name] = best
    return out


@pytest.mark.parametrize("max_distance", [2, pytest.param(1, marks=pytest.mark.slow)])
def test_nearest_equals_brute_force(max_distance):
    rng = random.Random(5)
    alphabet = "abcdeé"   # small: many close pairs, long shared deletes
    vocabulary = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 13)))
                  for _ in range(900)]
    lists = {name: set(rng.sample(vocabulary, 300)) for name in ("b", "a", "c", "d")}
    lists["d"] |= {"mary", "tamoxifen", "katherine"}
    index = MultiListIndex(lists, max_distance)
    tokens = [_edit(rng.choice(vocabulary), rng, alphabet) for _ in range(700)]
    tokens += ["", "a", "ab", "mray", "tamoxifne", "katharin", "katherien", "\ud800ab",
               "abcdeabcdeabcde", "ebcdaebcdaebcda"]
    tokens = list(dict.fromkeys(tokens))
    index.prefetch(tokens)
    for token in tokens:
        answer = index.nearest(token)
        clean = token.replace("\ud800", "\ufffd")
        assert answer == _brute(lists, clean, index.index), token
        assert list(answer) == [name for name in index.names if name in answer]


def test_near_masks_agree_with_near_matches():
    rng = random.Random(9)
    alphabet = "abcd"
    words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(3, 12))): 1 << rng.randrange(3)
             for _ in range(600)}
    index = FuzzyIndex(words, tags=words)
    tokens = list(dict.fromkeys(_edit(rng.choice(list(words)), rng, alphabet)
                                for _ in range(500)))
    exact = np.array([words.get(t, 0) for t in tokens], dtype=np.int64)
    one, two = index.near_masks(tokens, exact)
    rows, ids, distances = index.near_matches(tokens)
    expected = {}
    for row, i, d in zip(rows.tolist(), ids.tolist(), distances.tolist()):
        for bit in range(3):
            if words[index.words[i]] >> bit & 1:
                key = (row, bit)
                expected[key] = min(expected.get(key, 3), d)
    for k in range(len(tokens)):
        for bit in range(3):
            got = 0 if exact[k] >> bit & 1 else 1 if one[k] >> bit & 1 else \
                2 if two[k] >> bit & 1 else 3
            want = 0 if exact[k] >> bit & 1 else expected.get((k, bit), 3)
            assert got == want, (tokens[k], bit)
