"""Marginals of linear-chain CRF sequences from their state scores, many sequences at once.

P(label at t) of a linear-chain CRF is alpha[t] * beta[t], normalised over the labels,
where alpha (forward) and beta (backward) run over the sequence with the exponentiated
transition matrix. Here every short sequence of a batch advances together: a Python step
per position, numpy over the sequences (padded to the longest, shortest last so that only
a leading slice of the batch is still running at each position). Long sequences, which
would leave the batch waiting, run alone in a scalar loop.

Scaled, not in log space: a token's scores are shifted by their maximum before ``exp``
(the same factor for every label of the token cancels out), so each exponentiated score
is in (0, 1] with at least one 1.0, and the running vectors are rescaled every
``RESCALE_EVERY`` positions, well before they could under- or overflow. The results equal
crfsuite's to about 1e-15 (crfsuite rescales at every position).
"""
from typing import List, Sequence

import numpy as np

from ..errors import MmbdeidValueError

# Sequences up to this long advance together; longer ones run alone.
BATCH_LIMIT = 1024
# Steps between rescalings: with every exponentiated transition weight in [e^-30, e^30]
# (crfsuite's are within a few units of 0) the vectors stay within 1e-250..1e250.
RESCALE_EVERY = 8


def exp_scores(state_scores: np.ndarray) -> np.ndarray:
    """exp of each token's scores after subtracting their maximum (rows in (0, 1])."""
    shifted = state_scores - state_scores.max(axis=1, keepdims=True)
    return np.exp(shifted, out=shifted)


def marginals(state_scores: np.ndarray, lengths: Sequence[int],
              exp_transitions: np.ndarray) -> np.ndarray:
    """P(label) per token (rows of ``state_scores``: the sequences one after another,
    ``lengths`` long) given the exponentiated transition matrix ``exp_transitions[i, j]``
    (from label i to label j)."""
    n_tokens, n_labels = state_scores.shape
    if sum(lengths) != n_tokens:
        raise MmbdeidValueError("%d state score rows for %d tokens" % (n_tokens, sum(lengths)))
    result = np.empty((n_tokens, n_labels))
    if not n_tokens:
        return result
    emitted = exp_scores(state_scores)
    starts = np.zeros(len(lengths), dtype=np.intp)
    np.cumsum(lengths[:-1], out=starts[1:])
    short = [k for k, length in enumerate(lengths) if 0 < length <= BATCH_LIMIT]
    if len(short) == 1:             # one post (the Python API's single call)
        lo, length = int(starts[short[0]]), lengths[short[0]]
        result[lo:lo + length] = scanned_marginals(emitted[lo:lo + length], exp_transitions)
    elif short:
        _batch(emitted, starts[short], np.asarray(lengths, dtype=np.intp)[short],
               exp_transitions, result)
    for k, length in enumerate(lengths):
        if length > BATCH_LIMIT:
            lo = int(starts[k])
            result[lo:lo + length] = sequence_marginals(emitted[lo:lo + length],
                                                        exp_transitions)
    return result


def _batch(emitted: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
           exp_transitions: np.ndarray, result: np.ndarray) -> None:
    """Forward-backward over sequences at ``starts`` (rows of ``emitted``), all at once:
    time-major padded arrays, longest sequence first; marginals written into ``result``."""
    order = np.argsort(-lengths, kind="stable")
    starts, lengths = starts[order], lengths[order]
    n_labels = emitted.shape[1]
    longest, batch = int(lengths[0]), len(lengths)
    positions = np.arange(longest)[:, None]
    inside = positions < lengths[None, :]                       # (longest, batch)
    rows = (starts[None, :] + positions)[inside]
    padded = np.ones((longest, batch, n_labels))
    padded[inside] = emitted[rows]
    # at position t only the first running[t] sequences (the longest) have a token
    running = (lengths[None, :] > np.arange(longest + 1)[:, None]).sum(axis=1)

    alpha = np.empty_like(padded)
    previous = alpha[0] = padded[0]
    for t in range(1, longest):
        live = running[t]
        current = alpha[t, :live]
        np.matmul(previous[:live], exp_transitions, out=current)
        current *= padded[t, :live]
        if t % RESCALE_EVERY == 0:
            current /= current.sum(axis=1, keepdims=True)
        previous = current
    # beta is 1 at each sequence's last token (and, unused, beyond it)
    beta = np.ones_like(padded)
    transposed = exp_transitions.T
    following = beta[longest - 1]
    for t in range(longest - 2, -1, -1):
        live = running[t + 1]      # sequences with a token after t
        current = beta[t, :live]
        np.matmul(following[:live] * padded[t + 1, :live], transposed, out=current)
        if t % RESCALE_EVERY == 0:
            current /= current.sum(axis=1, keepdims=True)
        following = beta[t]
    product = alpha[inside] * beta[inside]
    product /= product.sum(axis=1, keepdims=True)
    result[rows] = product


def scanned_marginals(emitted: np.ndarray, exp_transitions: np.ndarray) -> np.ndarray:
    """Forward-backward over one short sequence as prefix and suffix products of its
    step matrices (``M_t[i, j] = T[i, j] * e_t[j]``), doubling the span each round
    (Hillis-Steele): log2(length) numpy calls instead of two per position, which for one
    sequence cost more than the arithmetic. Each product is rescaled to sum 1: a factor
    common to a token's labels cancels in its marginals. Equal to :func:`_batch`'s to
    about 1e-16."""
    length = len(emitted)
    if length == 1:
        return emitted / emitted.sum(axis=1, keepdims=True)
    steps = exp_transitions[None, :, :] * emitted[1:, None, :]
    prefix = steps.copy()           # prefix[k]: M_1 ... M_(k+1)
    suffix = steps                  # suffix[k]: M_(k+1) ... M_(length-1)
    span = 1
    while span < length - 1:
        prefix[span:] = prefix[:-span] @ prefix[span:]
        prefix[span:] /= prefix[span:].sum(axis=(1, 2), keepdims=True)
        suffix[:-span] = suffix[:-span] @ suffix[span:]
        suffix[:-span] /= suffix[:-span].sum(axis=(1, 2), keepdims=True)
        span *= 2
    alpha = np.empty_like(emitted)
    alpha[0] = emitted[0]
    alpha[1:] = np.einsum("i,tij->tj", emitted[0], prefix)
    product = alpha
    product[:-1] *= suffix.sum(axis=2)      # beta: the suffix products times ones
    product /= product.sum(axis=1, keepdims=True)
    return product


def sequence_marginals(emitted: np.ndarray, exp_transitions: np.ndarray) -> np.ndarray:
    """Forward-backward over one sequence (exponentiated scores ``emitted``), a token at a
    time in Python floats: for a long sequence, cheaper than numpy calls on one row."""
    n_labels = emitted.shape[1]
    rows = emitted.tolist()
    trans = exp_transitions.tolist()
    labels = range(n_labels)
    alpha: List[List[float]] = [rows[0]]
    previous = rows[0]
    for t in range(1, len(rows)):
        state = rows[t]
        current = [sum(previous[i] * trans[i][j] for i in labels) * state[j] for j in labels]
        total = sum(current)
        previous = [value / total for value in current]
        alpha.append(previous)
    out = np.empty_like(emitted)
    following = [1.0] * n_labels
    for t in range(len(rows) - 1, -1, -1):
        product = [a * b for a, b in zip(alpha[t], following)]
        total = sum(product)
        out[t] = [value / total for value in product]
        if t:
            weighted = [following[j] * rows[t][j] for j in labels]
            current = [sum(trans[i][j] * weighted[j] for j in labels) for i in labels]
            total = sum(current)
            following = [value / total for value in current]
    return out
