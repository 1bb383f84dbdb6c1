"""The leak share of a scrubbed dump from a marked random sample: a binomial proportion
with its 95% interval, and the sample sizes that reach a stated precision.

The intervals are Clopper-Pearson's (exact: the binomial tail itself is inverted, by
bisection on its sum computed in logarithms, so no normal approximation and no
dependency) and Wilson's (the score interval, closer to the nominal 95% on average but not
guaranteed). The one-sided upper bound is Clopper-Pearson's: with no leak in ``n`` posts
it is ``1 - alpha ** (1 / n)``, the exact form of the "rule of three" (3/n)."""
import math
from typing import NamedTuple, Optional

from ..errors import MmbdeidValueError

CONFIDENCE = 0.95
# the two-sided 95% normal quantile, Phi^-1(0.975)
Z_95 = 1.959963984540054


class Interval(NamedTuple):
    low: float
    high: float


def binomial_cdf(successes: int, n: int, p: float) -> float:
    """P(X <= successes) for X ~ Binomial(n, p), summed exactly in logarithms."""
    if successes >= n or p <= 0.0:
        return 1.0
    if successes < 0 or p >= 1.0:
        return 0.0
    # log C(n, k) p^k (1-p)^(n-k), each term from the one before
    odds = math.log(p) - math.log1p(-p)
    logs = [n * math.log1p(-p)]
    for k in range(successes):
        logs.append(logs[-1] + math.log((n - k) / (k + 1)) + odds)
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(value - top) for value in logs))


def _decreasing_root(function, target: float) -> float:
    """The p in [0, 1] where the decreasing ``function`` crosses ``target``, to the last
    bit of a double (bisection until the midpoint is an end)."""
    low, high = 0.0, 1.0
    while True:
        middle = (low + high) / 2
        if middle in (low, high):
            return middle
        if function(middle) > target:
            low = middle
        else:
            high = middle


def upper_bound(leaks: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The one-sided Clopper-Pearson upper bound: the p at which ``leaks`` or fewer in
    ``n`` has probability ``1 - confidence``."""
    _check_counts(leaks, n)
    if leaks == n:
        return 1.0
    return _decreasing_root(lambda p: binomial_cdf(leaks, n, p), 1.0 - confidence)


def lower_bound(leaks: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The one-sided Clopper-Pearson lower bound: the p at which ``leaks`` or more in
    ``n`` has probability ``1 - confidence``."""
    _check_counts(leaks, n)
    if leaks == 0:
        return 0.0
    # P(X >= leaks) rises with p, so its complement P(X <= leaks - 1) falls
    return _decreasing_root(lambda p: binomial_cdf(leaks - 1, n, p), confidence)


def clopper_pearson(leaks: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """The exact two-sided interval: each end a one-sided bound at half the error."""
    half = 1.0 - (1.0 - confidence) / 2
    return Interval(lower_bound(leaks, n, half), upper_bound(leaks, n, half))


def wilson(leaks: int, n: int, z: float = Z_95) -> Interval:
    """Wilson's score interval."""
    _check_counts(leaks, n)
    share = leaks / n
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denominator
    # the ends at 0 and n are exactly 0 and 1 (rounding would leave 1e-19)
    return Interval(0.0 if leaks == 0 else max(0.0, centre - half),
                    1.0 if leaks == n else min(1.0, centre + half))


def posts_for_bound(bound: float, leaks: int = 0, confidence: float = CONFIDENCE) -> int:
    """The fewest posts for which ``leaks`` leaks give a one-sided upper bound strictly
    below ``bound`` (0 leaks, 1%: 299, where the rule of three says 300)."""
    if not 0.0 < bound < 1.0:
        raise MmbdeidValueError("the bound must be between 0 and 1, got %r" % bound)
    if leaks == 0:       # 1 - alpha^(1/n) < bound  <=>  n > log(alpha) / log(1 - bound)
        guess = max(1, math.floor(math.log(1 - confidence) / math.log1p(-bound)))
        while guess > 1 and upper_bound(0, guess - 1, confidence) < bound:
            guess -= 1
        while upper_bound(0, guess, confidence) >= bound:
            guess += 1
        return guess
    low, high = leaks, max(leaks + 1, 2 * leaks)  # the bound falls as n grows
    while upper_bound(leaks, high, confidence) >= bound:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if upper_bound(leaks, middle, confidence) < bound:
            high = middle
        else:
            low = middle
    return high


def more_posts_for_bound(leaks: int, n: int, bound: float,
                         confidence: float = CONFIDENCE) -> int:
    """How many more posts, none of them leaking, would bring the one-sided upper bound of
    ``leaks`` in ``n`` below ``bound`` (0: it is below already)."""
    _check_counts(leaks, n)
    return max(0, posts_for_bound(bound, leaks, confidence) - n)


def posts_for_margin(margin: float, expected: Optional[float] = None,
                     z: float = Z_95) -> int:
    """The sample size whose 95% interval has half-width ``margin`` at the share
    ``expected`` (None: 0.5, the worst case), by the normal approximation
    z^2 p (1 - p) / margin^2, rounded up."""
    if not 0.0 < margin < 1.0:
        raise MmbdeidValueError("the margin must be between 0 and 1, got %r" % margin)
    share = 0.5 if expected is None else expected
    if not 0.0 < share < 1.0:
        raise MmbdeidValueError("the expected share must be between 0 and 1, got %r" % share)
    # the product is rounded first, so 1.96^2 * 0.25 / 0.05^2 does not become 385.00001
    return max(1, math.ceil(round(z * z * share * (1 - share) / (margin * margin), 9)))


def _check_counts(leaks: int, n: int) -> None:
    if n < 1 or not 0 <= leaks <= n:
        raise MmbdeidValueError("need 0 <= leaks <= n and n >= 1, got %d of %d" % (leaks, n))
