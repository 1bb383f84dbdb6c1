"""Which posts to hand-tag (``mmbdeid sample``): a seeded random sample, a sample
stratified by board and thread, or the posts the model is least sure about.

Every rule returns post numbers (0-based, in the dump's order) sorted, so the chosen
records are written in the dump's order; the same seed gives the same choice.

- **random**: a simple random sample of ``n`` posts.
- **stratified**: each board gets a share of ``n`` in proportion to its posts (largest
  remainders), filled round-robin over its threads in a random order (one random post from
  each thread, then a second, ...), at most ``per_thread`` posts from a thread; a board
  that cannot fill its share under the cap leaves the rest to the boards that can.
- **uncertainty**: posts ranked by their uncertainty (:func:`token_uncertainty` summed
  over the post's tokens), ties in a random order, taken from the top with at most
  ``per_thread`` posts from a thread, so one thread's repeated near-misses do not fill the
  sample.
"""
import math
import random
from collections import defaultdict
from typing import Dict, List, NamedTuple, Optional, Sequence

UNKNOWN_WORD_WEIGHT = 0.5     # a capitalised word no step decided (detect/leftovers.py)
BAND = 10.0                   # a token counts when within this factor of the threshold


class PostKey(NamedTuple):
    board: str
    thread: str


def token_uncertainty(probability: float, threshold: float) -> float:
    """1 for a token whose P(name) is the threshold, falling linearly in log-odds-like
    scale to 0 at a factor of :data:`BAND` above or below it: ``max(0, 1 - |log10(p /
    threshold)|)``."""
    if probability <= 0 or threshold <= 0:
        return 0.0
    return max(0.0, 1.0 - abs(math.log(probability / threshold, BAND)))


def thread_of(key: PostKey, number: int) -> tuple:
    """A post's thread, within its board; a post with no thread is a thread of its own."""
    return (key.board, key.thread) if key.thread else (key.board, "#%d" % number)


def choose_random(count: int, n: int, seed: int) -> List[int]:
    return sorted(random.Random(seed).sample(range(count), min(n, count)))


def choose_stratified(keys: Sequence[PostKey], n: int, seed: int,
                      per_thread: int) -> List[int]:
    rng = random.Random(seed)
    boards: Dict[str, Dict[tuple, List[int]]] = defaultdict(lambda: defaultdict(list))
    for number, key in enumerate(keys):
        boards[key.board][thread_of(key, number)].append(number)
    queues = {board: _round_robin(threads, per_thread, rng)
              for board, threads in sorted(boards.items())}
    quotas = _proportional({board: sum(map(len, threads.values()))
                            for board, threads in boards.items()}, min(n, len(keys)))
    chosen: List[int] = []
    spare = 0
    for board, queue in queues.items():
        chosen.extend(queue[:quotas[board]])
        spare += max(0, quotas[board] - len(queue))
    while spare:                # shares a capped board could not fill, to the others
        left = {board: queue[quotas[board]:] for board, queue in queues.items()
                if len(queue) > quotas[board]}
        if not left:
            break
        for board in sorted(left, key=lambda b: (-len(left[b]), b)):
            if spare:
                chosen.append(left[board][0])
                quotas[board] += 1
                spare -= 1
    return sorted(chosen)


def _round_robin(threads: Dict[tuple, List[int]], per_thread: int,
                 rng: random.Random) -> List[int]:
    """A board's posts in the order they are taken: one from each thread (threads in a
    random order, posts shuffled), then a second, ..., at most ``per_thread`` each."""
    order = [list(posts) for _, posts in sorted(threads.items())]
    rng.shuffle(order)
    for posts in order:
        rng.shuffle(posts)
    return [posts[depth] for depth in range(per_thread) for posts in order
            if depth < len(posts)]


def _proportional(sizes: Dict[str, int], n: int) -> Dict[str, int]:
    """``n`` shared in proportion to ``sizes``, by largest remainders (ties by name)."""
    total = sum(sizes.values())
    exact = {name: n * size / total if total else 0 for name, size in sizes.items()}
    shares = {name: int(value) for name, value in exact.items()}
    rest = n - sum(shares.values())
    for name in sorted(exact, key=lambda k: (-(exact[k] - shares[k]), k))[:rest]:
        shares[name] += 1
    return shares


def choose_uncertain(keys: Sequence[PostKey], scores: Sequence[float], n: int, seed: int,
                     per_thread: int) -> List[int]:
    rng = random.Random(seed)
    tiebreak = list(range(len(keys)))
    rng.shuffle(tiebreak)
    ranked = sorted(range(len(keys)), key=lambda i: (-scores[i], tiebreak[i]))
    taken: Dict[tuple, int] = defaultdict(int)
    chosen: List[int] = []
    for number in ranked:
        if len(chosen) >= n:
            break
        thread = thread_of(keys[number], number)
        if taken[thread] < per_thread:
            taken[thread] += 1
            chosen.append(number)
    return sorted(chosen)


def choose(by: str, keys: Sequence[PostKey], n: int, seed: int, per_thread: int,
           scores: Optional[Sequence[float]] = None) -> List[int]:
    """The post numbers ``by`` (``random``, ``stratified``, ``uncertainty``) chooses."""
    if by == "random":
        return choose_random(len(keys), n, seed)
    if by == "stratified":
        return choose_stratified(keys, n, seed, per_thread)
    return choose_uncertain(keys, scores or [0.0] * len(keys), n, seed, per_thread)


SAMPLING_RULES = ("uncertainty", "random", "stratified")
