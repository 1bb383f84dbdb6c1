"""Variants of a board username, as they may appear in post text.

``username_variants("KayGirl96")`` gives the lower-cased forms a poster may be called by:

- the username itself (``kaygirl96``) and without digits (``kaygirl``);
- its parts, split at delimiters (``_ - .`` space, any non-alphanumeric), at digits and at
  camelCase (``KayGirl`` -> ``kay``, ``girl``), and, when there were delimiters, the
  parts glued together (``mary_jane`` -> ``maryjane``);
- a segmentation of each glued lower-case part into known words (``kaygirl`` -> ``kay``,
  ``girl``), see ``segment``.

Parts shorter than ``MIN_PART`` (2) characters are dropped.
"""
from __future__ import annotations

import functools
import re
from typing import AbstractSet, Optional

MIN_PART = 2             # shorter parts are dropped ("j" of "j_smith")
MIN_SEGMENT = 3          # pieces found by segmentation are at least this long
MAX_SEGMENT = 20         # longest piece tried by segmentation
MIN_COVERAGE = 0.75      # segmentation is kept only if its pieces cover this much of the part

# camelCase pieces: "ABCSmith" -> ABC, Smith; "KayGirl" -> Kay, Girl; digits apart.
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_DELIMITER_RE = re.compile(r"[\W_]+")


@functools.lru_cache(maxsize=1)
def default_vocabulary() -> frozenset[str]:
    """First names, nicknames and common words of at least ``MIN_SEGMENT`` letters."""
    from .wordlists import load_wordlist

    words = (load_wordlist("first_names") | load_wordlist("nicknames")
             | load_wordlist("common_words"))
    return frozenset(w for w in words if len(w) >= MIN_SEGMENT and w.isalpha())


def segment(text: str, vocabulary: AbstractSet[str]) -> list[str]:
    """Known words (each >= MIN_SEGMENT letters) that best cover ``text``, in order.

    Dynamic programming over prefixes: maximise the number of characters covered by
    vocabulary words, then prefer fewer pieces (so ``hippie`` beats ``hip`` + ``pie``).
    Uncovered characters are skipped. ``kaygirl`` -> [kay, girl]; ``mjb`` -> [].
    """
    n = len(text)
    # best[i] = (covered, -pieces, pieces) for text[:i]
    best: list[tuple[int, int, tuple[str, ...]]] = [(0, 0, ())] + [(-1, 0, ())] * n
    for i in range(n):
        covered, neg_pieces, pieces = best[i]
        skip = (covered, neg_pieces, pieces)
        if skip[:2] > best[i + 1][:2]:
            best[i + 1] = skip
        for j in range(i + MIN_SEGMENT, min(n, i + MAX_SEGMENT) + 1):
            word = text[i:j]
            if word in vocabulary:
                take = (covered + len(word), neg_pieces - 1, pieces + (word,))
                if take[:2] > best[j][:2]:
                    best[j] = take
    return list(best[n][2])


def _split_parts(username: str) -> list[str]:
    """Delimiter, digit and camelCase parts of a username, lower-cased, in order."""
    parts = []
    for chunk in _DELIMITER_RE.split(username):
        parts += [p.lower() for p in _CAMEL_RE.findall(chunk) if not p.isdigit()]
    return parts


def username_variants(username: str,
                      vocabulary: Optional[AbstractSet[str]] = None) -> frozenset[str]:
    """All lower-case variants of ``username`` (see module doc).

    ``vocabulary`` is the set of known words for segmentation (lower-case); by default
    first names, nicknames and common words (``default_vocabulary``).
    """
    if vocabulary is None:
        vocabulary = default_vocabulary()
    whole = username.strip().lower()
    variants = {whole, re.sub(r"\d+", "", whole)}
    parts = _split_parts(username.strip())
    variants.update(parts)
    if len(parts) > 1:
        variants.add("".join(parts))  # "mary_jane" may be written "maryjane"
    for part in parts:
        if part in vocabulary or not part.isalpha():
            continue
        pieces = segment(part, vocabulary)
        # A poor cover ("tamoxifen" -> "tam", "fen") is noise, not a reading of the name.
        if sum(map(len, pieces)) >= MIN_COVERAGE * len(part):
            variants.update(pieces)
    return frozenset(v for v in variants if len(v) >= MIN_PART)


@functools.lru_cache(maxsize=65536)
def author_name_parts(author: str) -> frozenset[str]:
    """The parts of an author field that may be written in a post (``Judy_K`` -> judy,
    ``David A. Foti`` -> david, foti): its variants of two characters or more. Cached:
    the feature extractor asks for every post, and a board has far fewer authors."""
    return frozenset(part for part in username_variants(author) if len(part) >= MIN_PART)
