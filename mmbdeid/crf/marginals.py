"""CRF marginals of a post of any length in bounded memory, bit for bit those of crfsuite.

python-crfsuite's ``Tagger.set`` copies every attribute of every token into a C++
``std::string`` (twice while it runs) before tagging: about 100 bytes per attribute, and a
token has some 70, so one 1 MB post (240,000 tokens) took 1.6-2.3 GB and a 5 MB post 11 GB.
Here the model's weights are read from the model file once, the featurizer hands over each
token's attributes as row numbers of a weight table (:class:`~mmbdeid.model.features.
Featurizer` with ``attribute_index``), a block of tokens at a time, and the marginals are
computed as crfsuite computes them, keeping per token only its exponentiated state scores
and scale factor (the forward scores are worked out again, block by block, on the way
back) and the marginals asked for: about 50 bytes a token.

The same double operations in the same order (crfsuite 0.12 as built in python-crfsuite:
``crf1dt_state_score``, ``crf1dc_exp_state``, ``crf1dc_alpha_score``, ``crf1dc_beta_score``,
``crf1dc_marginal_point``), so the results are identical, not merely close:

* a token's state score for a label is 0.0 plus the weights of its attributes, added one
  by one in item order (an attribute without a feature for the label adds 0.0, which
  changes no sum that is not -0.0, and none is: they start at +0.0);
* exponentials by the C library's ``exp`` (``math.exp`` calls the same function);
* forward scores scaled to sum to one at each token, backward scores scaled by the same
  factors, and P(label at t) = alpha[t][label] * beta[t][label] / scale[t].

:func:`chain_model` checks this on a probe sequence against python-crfsuite before it is
used, and answers None (tag with python-crfsuite) for anything it cannot read or match.
"""
import itertools
import math
import struct
from array import array
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import MmbdeidValueError
from ..kinds import PERSON_LABELS
from ..model.crfsuite_format import CrfsuiteFormatError, read_weights
from ..model.features import Featurizer

# Tokens whose state scores are summed in one numpy pass: bounds the id matrix of a block.
BLOCK_TOKENS = 4096


class ChainModel:
    """A linear-chain CRF read from crfsuite model bytes, for exact marginals.

    ``attribute_index`` maps each attribute (as the featurizer names it) to its row in the
    weight table; row 0 is all zeros (padding). Only attributes with a state feature are
    indexed, and, given ``known``, only those in it (so that exactly the attributes the
    python-crfsuite path emits are counted). Bytes that are not a crfsuite model it can
    read raise ``CrfsuiteFormatError`` (:mod:`mmbdeid.model.crfsuite_format`)."""

    def __init__(self, model_bytes: bytes, known: Optional[FrozenSet[str]] = None):
        weights = read_weights(bytes(model_bytes), known)
        self.labels: List[str] = weights.labels
        self.exp_transitions: List[List[float]] = [[_exp(w) for w in row]
                                                    for row in weights.transitions]
        self.attribute_index: Dict[str, int] = weights.attribute_index
        # three labels (NAME, USER, O): the forward-backward loops written out (faster)
        self._specialised = True
        self.weights = weights.state_weights

    # -- marginals -----------------------------------------------------------------
    def marginals(self, items: Iterable[Sequence[int]], length: int,
                  labels: Sequence[str]) -> List[array]:
        """P(label) at each token for each of ``labels`` (0.0 throughout for a label the
        model does not have), from ``items``: per token, the rows of its attributes in
        item order (``length`` of them)."""
        size = len(self.labels)
        wanted = [self.labels.index(label) if label in self.labels else None
                  for label in labels]
        results = [array("d", bytes(8 * length)) for _ in labels]
        if length == 0:
            return results
        exp_state, scale, checkpoints = self._forward(items, length)
        # crf1dc_beta_score: beta[T-1] = scale[T-1]; beta[t] = (trans . (beta[t+1] *
        # exp_state[t+1])) * scale[t]; the marginals are taken on the way down, with each
        # block's forward scores worked out again from its checkpoint.
        beta = [scale[length - 1]] * size
        for block in range(len(checkpoints) - 1, -1, -1):
            lo = block * BLOCK_TOKENS
            hi = min(length, lo + BLOCK_TOKENS)
            alpha, _, _ = self._alpha_run(checkpoints[block], exp_state, lo, hi)
            beta = self._backward_run(beta, alpha, exp_state, scale, lo, hi,
                                      list(zip(results, wanted)))
        return results

    def _backward_run(self, beta: List[float], alpha: List[float], exp_state: array,
                      scale: array, lo: int, hi: int, outputs: list) -> List[float]:
        """Tokens hi-1 down to lo: each one's marginals into ``outputs`` ((result,
        label) pairs) from its forward scores (``alpha``, flat, from lo) and backward
        scores, then the backward scores of the token before it; returns the last."""
        if len(self.labels) == 3 and self._specialised:
            return self._backward_run3(beta, alpha, exp_state, scale, lo, hi, outputs)
        size = len(self.labels)
        trans = self.exp_transitions
        rng = range(size)
        for t in range(hi - 1, lo - 1, -1):
            base, factor = (t - lo) * size, scale[t]
            for result, label in outputs:
                if label is not None:
                    result[t] = alpha[base + label] * beta[label] / factor
            if t:
                state = t * size
                row = [beta[j] * exp_state[state + j] for j in rng]
                previous = scale[t - 1]
                next_beta = []
                for i in rng:
                    weights, s = trans[i], 0.0
                    for j in rng:
                        s += weights[j] * row[j]
                    next_beta.append(s * previous)
                beta = next_beta
        return beta

    def _backward_run3(self, beta: List[float], alpha: List[float], exp_state: array,
                       scale: array, lo: int, hi: int, outputs: list) -> List[float]:
        """``_backward_run`` written out for three labels: the same operations in the same
        order (each sum starts from 0.0 as crfsuite's loops do)."""
        (t00, t01, t02), (t10, t11, t12), (t20, t21, t22) = self.exp_transitions
        b0, b1, b2 = beta
        outputs = [(result, label) for result, label in outputs if label is not None]
        for t in range(hi - 1, lo - 1, -1):
            base, factor = (t - lo) * 3, scale[t]
            betas = (b0, b1, b2)
            for result, label in outputs:
                result[t] = alpha[base + label] * betas[label] / factor
            if t:
                state = t * 3
                r0 = b0 * exp_state[state]
                r1 = b1 * exp_state[state + 1]
                r2 = b2 * exp_state[state + 2]
                previous = scale[t - 1]
                b0 = (0.0 + t00 * r0 + t01 * r1 + t02 * r2) * previous
                b1 = (0.0 + t10 * r0 + t11 * r1 + t12 * r2) * previous
                b2 = (0.0 + t20 * r0 + t21 * r1 + t22 * r2) * previous
        return [b0, b1, b2]

    def _forward(self, items: Iterable[Sequence[int]], length: int
                 ) -> Tuple[array, array, List[Optional[List[float]]]]:
        """Exponentiated state scores (token-major) and scale factors of the whole
        sequence, and per block the forward scores of the token before it (None for the
        first): the forward scores themselves are not kept (see ``marginals``)."""
        exp_state, scale = array("d"), array("d")
        checkpoints: List[Optional[List[float]]] = []
        previous: Optional[List[float]] = None
        count = 0
        items = iter(items)
        while True:
            block = list(itertools.islice(items, BLOCK_TOKENS))
            if not block:
                break
            exp_state.extend(_exp_all(self._state_scores(block).ravel().tolist()))
            checkpoints.append(previous)
            _, factors, previous = self._alpha_run(previous, exp_state, count,
                                                   count + len(block))
            scale.extend(factors)
            count += len(block)
        if count != length:
            raise MmbdeidValueError("%d items for %d tokens" % (count, length))
        return exp_state, scale, checkpoints

    def _alpha_run(self, previous: Optional[List[float]], exp_state: array, lo: int,
                   hi: int) -> Tuple[List[float], List[float], List[float]]:
        """crf1dc_alpha_score for tokens lo..hi-1 after forward scores ``previous`` (None
        at the first token): their scaled forward scores (flat), scale factors, and the
        last token's forward scores."""
        if len(self.labels) == 3 and self._specialised:
            return self._alpha_run3(previous, exp_state, lo, hi)
        size = len(self.labels)
        rng = range(size)
        trans = self.exp_transitions
        alpha: List[float] = []
        factors: List[float] = []
        for t in range(lo, hi):
            state = exp_state[t * size:(t + 1) * size]
            if previous is None:
                current = list(state)                     # alpha[0] = exp_state[0]
            else:
                current = [0.0] * size
                for i in rng:
                    p, weights = previous[i], trans[i]
                    for j in rng:
                        current[j] += p * weights[j]
                for j in rng:
                    current[j] *= state[j]
            s = 0.0
            for value in current:
                s += value
            factor = 1.0 / s if s != 0.0 else 1.0
            current = [value * factor for value in current]
            alpha.extend(current)
            factors.append(factor)
            previous = current
        return alpha, factors, previous

    def _alpha_run3(self, previous: Optional[List[float]], exp_state: array, lo: int,
                    hi: int) -> Tuple[List[float], List[float], List[float]]:
        """``_alpha_run`` written out for three labels: the same operations in the same
        order (each sum starts from 0.0 as crfsuite's loops do)."""
        (t00, t01, t02), (t10, t11, t12), (t20, t21, t22) = self.exp_transitions
        alpha: List[float] = []
        factors: List[float] = []
        extend, append = alpha.extend, factors.append
        states = iter(exp_state[lo * 3:hi * 3])
        triples = zip(states, states, states)
        if previous is None:
            e0, e1, e2 = next(triples)
            s = 0.0 + e0 + e1 + e2
            factor = 1.0 / s if s != 0.0 else 1.0
            a0, a1, a2 = e0 * factor, e1 * factor, e2 * factor
            extend((a0, a1, a2))
            append(factor)
        else:
            a0, a1, a2 = previous
        for e0, e1, e2 in triples:
            c0 = (0.0 + a0 * t00 + a1 * t10 + a2 * t20) * e0
            c1 = (0.0 + a0 * t01 + a1 * t11 + a2 * t21) * e1
            c2 = (0.0 + a0 * t02 + a1 * t12 + a2 * t22) * e2
            s = 0.0 + c0 + c1 + c2
            factor = 1.0 / s if s != 0.0 else 1.0
            a0, a1, a2 = c0 * factor, c1 * factor, c2 * factor
            extend((a0, a1, a2))
            append(factor)
        return alpha, factors, [a0, a1, a2]

    def _state_scores(self, block: List[Sequence[int]]) -> np.ndarray:
        """Per token and label, 0.0 plus its attributes' weights one by one in item order:
        column k of the padded row matrix is every token's k-th attribute (row 0, zero
        weights, past a token's last one)."""
        lengths = np.fromiter(map(len, block), dtype=np.intp, count=len(block))
        width = int(lengths.max()) if len(block) else 0
        rows = np.zeros((len(block), width), dtype=np.intp)
        if width:
            rows[np.arange(width) < lengths[:, None]] = np.fromiter(
                itertools.chain.from_iterable(block), dtype=np.intp, count=int(lengths.sum()))
        state = np.zeros((len(block), len(self.labels)), dtype=np.float64)
        weights = self.weights
        for k in range(width):
            state += weights[rows[:, k]]
        return state

    # -- checking against python-crfsuite -------------------------------------------
    def probe_items(self, tokens: int = 40, per_token: int = 25) -> List[List[str]]:
        """A deterministic sequence of items drawn from the model's own attributes."""
        names = sorted(self.attribute_index)
        if not names:
            return [[] for _ in range(3)]
        step = max(1, len(names) // (tokens * per_token))
        pool = names[::step]
        return [[pool[(t * 7 + k * 13) % len(pool)] for k in range(1 + (t * 5) % per_token)]
                for t in range(tokens)]

    def agrees_with(self, tagger) -> bool:
        """Whether the marginals of a probe sequence equal python-crfsuite's, bit for bit."""
        items = self.probe_items()
        expected = tagger.marginals_from_items(items, labels=self.labels)
        rows = [[self.attribute_index[name] for name in item] for item in items]
        got = self.marginals(rows, len(rows), self.labels)
        return all(_same(got[k][t], marginal.get(label, 0.0))
                   for t, marginal in enumerate(expected)
                   for k, label in enumerate(self.labels))


class ExactTagger:
    """P(NAME), P(USER) of a model's first stage by :class:`ChainModel`, one post at a
    time (a :class:`~.backends.MarginalsBackend` with the model's ``tagger`` for the
    second stage): crfsuite's arithmetic in bounded memory."""

    def __init__(self, chain: ChainModel, window: int, stats=None, tagger=None):
        self.chain = chain
        self.tagger = tagger
        self.featurizer = Featurizer(stats, window=window, attribute_index=chain.attribute_index)

    def first_stage(self, documents: Sequence) -> List[np.ndarray]:
        if len(documents) > 1:    # one post's token types are looked up as it is featurized
            self.featurizer.prefetch(documents)
        return [self.name_marginals(document) for document in documents]

    def second_stage(self, items: Sequence[List[List[str]]]) -> List[List[tuple]]:
        return [self.tagger.context_marginals(document_items) for document_items in items]

    def name_marginals(self, document) -> np.ndarray:
        """(tokens x 2): P(NAME), P(USER), its items a block of tokens at a time."""
        if not len(document):
            return np.zeros((0, 2))
        names, users = self.chain.marginals(self.featurizer.iter_items(document),
                                            len(document), PERSON_LABELS)
        return np.column_stack([np.frombuffer(names), np.frombuffer(users)])


def _same(a: float, b: float) -> bool:
    return struct.pack("<d", a) == struct.pack("<d", b)


def _exp(value: float) -> float:
    """The C library's exp (inf where ``math.exp`` would raise OverflowError)."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def _exp_all(values: List[float]) -> List[float]:
    try:
        return list(map(math.exp, values))
    except OverflowError:
        return [_exp(value) for value in values]


# (model bytes, known attributes) -> checked model or None; a few models per process at most
_CHECKED: Dict[tuple, Optional[ChainModel]] = {}
_CHECKED_LIMIT = 8


def chain_model(tagger) -> Optional[ChainModel]:
    """The exact bounded-memory model of a fitted ``NameTagger``, or None where its model
    cannot be read or a probe disagrees with python-crfsuite (then tag with that)."""
    model_bytes = getattr(tagger, "model_bytes_", None)
    if not isinstance(model_bytes, bytes) or not hasattr(tagger, "known_attributes") \
            or not hasattr(tagger, "marginals_from_items"):
        return None
    try:
        known = tagger.known_attributes()
    except Exception:        # an unfitted or foreign tagger: leave it to its own path
        return None
    key = (model_bytes, known)
    if key not in _CHECKED:
        if len(_CHECKED) >= _CHECKED_LIMIT:
            _CHECKED.clear()
        try:
            model: Optional[ChainModel] = ChainModel(model_bytes, known)
        except (CrfsuiteFormatError, struct.error, IndexError):
            model = None
        if model is not None and not model.agrees_with(tagger):
            model = None
        _CHECKED[key] = model
    return _CHECKED[key]
