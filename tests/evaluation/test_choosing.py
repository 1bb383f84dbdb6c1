"""Which posts to tag (issue 33): the random, stratified and uncertainty rules of
``mmbdeid sample``: repeatable per seed, proportional by board, capped per thread, the
most uncertain first."""
from collections import Counter

import pytest

from mmbdeid.evaluation.choosing import (PostKey, choose, choose_random, choose_stratified,
                                         choose_uncertain, token_uncertainty)


@pytest.mark.parametrize("probability, expected", [
    (0.05, 1.0), (0.5, 0.0), (0.005, 0.0), (0.9, 0.0), (0.0, 0.0),
    (0.05 * 10 ** 0.5, 0.5), (0.05 / 10 ** 0.5, 0.5)])
def test_token_uncertainty(probability, expected):
    assert token_uncertainty(probability, 0.05) == pytest.approx(expected)


def _keys(*threads):
    """(board, thread, posts) triples as post keys, in order."""
    return [PostKey(board, thread) for board, thread, count in threads
            for _ in range(count)]


def test_random_is_repeatable_per_seed():
    first = choose_random(1000, 30, seed=4)
    assert first == choose_random(1000, 30, seed=4) == sorted(first)
    assert len(set(first)) == 30
    assert first != choose_random(1000, 30, seed=5)
    assert choose_random(5, 30, seed=4) == [0, 1, 2, 3, 4]


def test_stratified_caps_a_long_thread_and_follows_boards():
    # board a: one thread of 100 posts and 30 one-post threads; board b: 10 threads of 5
    keys = _keys(("a", "long", 100), *[("a", "s%d" % i, 1) for i in range(30)],
                 *[("b", "t%d" % i, 5) for i in range(10)])
    chosen = choose_stratified(keys, 36, seed=1, per_thread=2)
    assert chosen == choose_stratified(keys, 36, seed=1, per_thread=2) == sorted(chosen)
    threads = Counter(keys[i] for i in chosen)
    assert max(threads.values()) <= 2
    assert threads[PostKey("a", "long")] <= 2
    boards = Counter(keys[i].board for i in chosen)
    assert boards == {"a": 26, "b": 10}         # 130 : 50 posts, largest remainders


def test_stratified_gives_a_capped_boards_share_to_the_others():
    keys = _keys(("a", "only", 50), *[("b", "t%d" % i, 2) for i in range(20)])
    chosen = choose_stratified(keys, 20, seed=0, per_thread=3)
    boards = Counter(keys[i].board for i in chosen)
    assert boards == {"a": 3, "b": 17}          # a's share (11) is capped at one thread's 3


def test_posts_without_a_thread_are_threads_of_their_own():
    keys = [PostKey("", "")] * 10
    assert len(choose_stratified(keys, 10, seed=0, per_thread=1)) == 10
    assert len(choose_uncertain(keys, [1.0] * 10, 10, seed=0, per_thread=1)) == 10


def test_uncertainty_takes_the_most_uncertain_capped_per_thread():
    keys = _keys(("b", "t1", 4), ("b", "t2", 2), ("b", "t3", 2))
    scores = [3.0, 2.9, 2.8, 2.7, 0.0, 0.1, 0.0, 0.0]
    assert choose_uncertain(keys, scores, 3, seed=0, per_thread=2) == [0, 1, 5]
    assert choose_uncertain(keys, scores, 3, seed=0, per_thread=4) == [0, 1, 2]
    # ties among the rest in a seeded order
    tied = choose_uncertain(keys, scores, 5, seed=3, per_thread=2)
    assert tied == choose_uncertain(keys, scores, 5, seed=3, per_thread=2)
    assert {0, 1, 5} <= set(tied)


def test_choose_dispatches():
    keys = _keys(("b", "t1", 6))
    assert choose("random", keys, 2, 0, 1) == choose_random(6, 2, 0)
    assert choose("stratified", keys, 2, 0, 1) == choose_stratified(keys, 2, 0, 1)
    assert len(choose("stratified", keys, 2, 0, 1)) == 1
