"""The leak share's intervals and sample sizes (mmbdeid.evaluation.leak_estimate): the exact
Clopper-Pearson interval of known binomial cases, Wilson's against the formula and
published values, and the posts a target bound or margin needs."""
import math

import pytest

from mmbdeid.evaluation.leak_estimate import (binomial_cdf, clopper_pearson,
                                              more_posts_for_bound, posts_for_bound,
                                              posts_for_margin, upper_bound, wilson)

Z = 1.959963984540054

# (leaks, n, Clopper-Pearson 95% low, high): scipy.stats.beta.ppf(0.025, x, n-x+1) and
# beta.ppf(0.975, x+1, n-x), to 12 digits
EXACT = [
    (0, 300, 0.0, 0.0122209746943),
    (1, 100, 0.000253146032977, 0.0544593853921),
    (5, 50, 0.0332750935890, 0.218135366434),
    (50, 100, 0.398321129503, 0.601678870497),
    (3, 1000, 0.000619099931650, 0.00874202323848),
    (1, 1, 0.025, 1.0),
    (0, 1, 0.0, 0.975),
]

# Newcombe (1998), Statistics in Medicine 17:857-872, Table I: methods 3 (Wilson) and 5
# (Clopper-Pearson), to 4 decimals
NEWCOMBE = [  # leaks, n, Wilson low, high, Clopper-Pearson low, high
    (81, 263, 0.2553, 0.3662, 0.2527, 0.3676),
    (15, 148, 0.0624, 0.1605, 0.0578, 0.1617),
    (0, 20, 0.0000, 0.1611, 0.0000, 0.1684),
    (1, 29, 0.0061, 0.1718, 0.0009, 0.1776),
]


@pytest.mark.parametrize("leaks, n, low, high", EXACT)
def test_clopper_pearson_of_known_cases(leaks, n, low, high):
    interval = clopper_pearson(leaks, n)
    assert interval.low == pytest.approx(low, rel=1e-9, abs=1e-15)
    assert interval.high == pytest.approx(high, rel=1e-9)


def test_one_sided_bound_of_no_leak_in_300_is_below_one_percent():
    assert upper_bound(0, 300) == pytest.approx(0.00993608194446, rel=1e-9)
    assert upper_bound(0, 300) == pytest.approx(1 - 0.05 ** (1 / 300), rel=1e-12)


@pytest.mark.parametrize("leaks, n, wilson_low, wilson_high, exact_low, exact_high",
                         NEWCOMBE)
def test_published_intervals(leaks, n, wilson_low, wilson_high, exact_low, exact_high):
    assert [round(v, 4) for v in wilson(leaks, n)] == [wilson_low, wilson_high]
    assert [round(v, 4) for v in clopper_pearson(leaks, n)] == [exact_low, exact_high]


@pytest.mark.parametrize("leaks, n", [(0, 10), (1, 10), (7, 31), (150, 300), (299, 300),
                                      (300, 300), (2, 5000)])
def test_wilson_is_the_score_formula(leaks, n):
    p = leaks / n
    centre = (leaks + Z * Z / 2) / (n + Z * Z)
    half = Z / (n + Z * Z) * math.sqrt(n * p * (1 - p) + Z * Z / 4)
    low, high = wilson(leaks, n)
    assert low == pytest.approx(max(0.0, centre - half), abs=1e-12)
    assert high == pytest.approx(min(1.0, centre + half), abs=1e-12)
    assert (low == 0.0) == (leaks == 0) and (high == 1.0) == (leaks == n)


def test_clopper_pearson_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    for n in (1, 2, 17, 100, 999):
        for leaks in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            low, high = clopper_pearson(leaks, n)
            assert low == pytest.approx(stats.beta.ppf(0.025, leaks, n - leaks + 1)
                                        if leaks else 0.0, rel=1e-9, abs=1e-15)
            assert high == pytest.approx(stats.beta.ppf(0.975, leaks + 1, n - leaks)
                                         if leaks < n else 1.0, rel=1e-9)
            assert upper_bound(leaks, n) == pytest.approx(
                stats.beta.ppf(0.95, leaks + 1, n - leaks) if leaks < n else 1.0, rel=1e-9)


def test_the_bounds_invert_the_binomial_tail():
    high = upper_bound(4, 250)
    assert binomial_cdf(4, 250, high) == pytest.approx(0.05, rel=1e-9)
    low = clopper_pearson(4, 250).low
    assert 1 - binomial_cdf(3, 250, low) == pytest.approx(0.025, rel=1e-9)


@pytest.mark.parametrize("bound, leaks, posts", [
    (0.01, 0, 299),       # the rule of three says 300; 299 is the exact smallest
    (0.05, 0, 59),
    (0.001, 0, 2995),
    (0.01, 1, 473),
    (0.01, 5, 1049),
])
def test_posts_for_a_bound_are_the_fewest_strictly_below_it(bound, leaks, posts):
    assert posts_for_bound(bound, leaks) == posts
    assert upper_bound(leaks, posts) < bound <= upper_bound(leaks, posts - 1)


def test_a_bound_reached_exactly_is_not_below_it():
    bound = upper_bound(0, 100)                 # 100 posts give exactly this bound
    assert posts_for_bound(bound) == 101
    assert posts_for_bound(upper_bound(2, 400), 2) == 401


@pytest.mark.parametrize("leaks, n, bound, more", [
    (0, 300, 0.01, 0), (0, 299, 0.01, 0), (0, 298, 0.01, 1), (0, 100, 0.01, 199),
    (2, 299, 0.01, 329), (1, 473, 0.01, 0),
])
def test_more_posts_for_a_bound(leaks, n, bound, more):
    assert more_posts_for_bound(leaks, n, bound) == more
    assert upper_bound(leaks, n + more) < bound


@pytest.mark.parametrize("margin, expected, posts", [
    (0.05, None, 385), (0.03, None, 1068), (0.1, None, 97), (0.02, 0.05, 457),
    (0.01, 0.01, 381),
])
def test_posts_for_a_margin(margin, expected, posts):
    assert posts_for_margin(margin, expected) == posts
    share = 0.5 if expected is None else expected
    assert Z * math.sqrt(share * (1 - share) / posts) <= margin
    assert Z * math.sqrt(share * (1 - share) / (posts - 1)) > margin


@pytest.mark.parametrize("call", [
    lambda: clopper_pearson(3, 2), lambda: clopper_pearson(0, 0),
    lambda: wilson(-1, 5), lambda: posts_for_bound(0.0), lambda: posts_for_bound(1.0),
    lambda: posts_for_margin(0.0), lambda: posts_for_margin(0.05, 1.0),
])
def test_impossible_counts_and_shares_are_refused(call):
    with pytest.raises(ValueError):
        call()
