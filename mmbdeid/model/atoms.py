"""Post-dependent attribute groups ("atoms"): what a token's features gain from its post
beyond its type. A token in a post is its type's attributes followed by a few atoms, each
named by a hashable key so that the featurizer (and :mod:`mmbdeid.crf.emissions`) can
cache it: its pattern label, its likeness to the board's and thread's usernames, its being
part of the post's own author field, and the board and user rank buckets of its term.
"""
from typing import FrozenSet, Optional

from ..lexicon.wordlists import load_first_name_shares
from .token_features import Features, author_features, username_features


def atom_features(key: tuple) -> Features:
    """The features of the atom named by ``key``."""
    if key[0] == "pattern":
        return {"pattern": key[1]}
    if key[0] == "usernames":
        return username_features(key[1], key[2])
    if key[0] == "author":
        return author_features(key[1])
    kind, buckets = key                 # board or user rank buckets
    return {"%s:%s" % (kind, name): 1.0 for name in buckets}


def person_atom_keys(lower: str, board_distance: Optional[int],
                     thread_variants: FrozenSet[str], author_parts: FrozenSet[str]) -> list:
    """The keys of a token's username-likeness and own-author atoms, from its lower-case
    form and its distance to the board's usernames."""
    keys = []
    in_thread = lower in thread_variants
    if board_distance is not None or in_thread:
        keys.append(("usernames", board_distance, in_thread))
    if lower in author_parts:
        keys.append(("author", lower in load_first_name_shares()))
    return keys
