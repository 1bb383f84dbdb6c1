"""The second stage's evidence: what the first stage said about the same word elsewhere.

A name is usually written several times: in a thread, by the same author, across a board.
The first CRF sees one post at a time; the second (Krishnan & Manning 2006, "An effective
two-stage model for exploiting non-local dependencies in named entity recognition") sees,
for each token, the first stage's marginals of the same token type in the post, the
thread, the author's posts and the board, and whether the token continues a likely name.

``ContextTable`` aggregates first-stage scores by (scope, key, type); ``context_items``
turns a document, its first-stage scores and a table into crfsuite attribute lists. Both
are pure functions of their inputs: the same table gives the same features in training,
evaluation and scrubbing. Only occurrences scored at least ``MIN_EVIDENCE`` enter the
table (most tokens are ordinary words scored near 0; leaving them out keeps the table
small enough for a dump of millions of posts), so "count" means "count of occurrences
the first stage found at all plausible".
"""
from typing import Dict, List, Optional, Sequence, Tuple

from ..lexicon.usernames import author_name_parts
from ..lexicon.wordlists import load_first_name_shares, load_wordlist
from .token_features import case_class

MIN_EVIDENCE = 0.001
SCOPES = ("post", "thread", "author", "board")
# Upper bounds of the probability buckets (log-spaced where the threshold lives).
P_BUCKETS = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97, 0.995)
COUNT_BUCKETS = (1, 2, 4, 9, 24)
SHARE_BUCKETS = (0.0, 0.25, 0.5, 0.75, 0.999)
Scores = Sequence[Tuple[float, float]]        # (P(NAME), P(USER)) per token

# A token type's aggregate in one scope: occurrences, sum of scores, the two highest
# scores (so a token's own score can be left out of "the others"), occurrences above 0.5,
# occurrences capitalised.
_COUNT, _SUM, _TOP1, _TOP2, _HIGH, _CAPITAL = range(6)


def bucket(value: float, bounds: Sequence[float]) -> str:
    for bound in bounds:
        if value <= bound:
            return "%g" % bound
    return "max"


def type_key(token: str) -> Optional[str]:
    """The type a token's evidence is pooled under, or None for tokens without a letter
    and single letters (pooling ``.`` or ``I`` across a board says nothing)."""
    if len(token) < 2 or not any(ch.isalpha() for ch in token):
        return None
    return token.lower()


def scope_keys(document, index: int) -> Tuple:
    """The key of each scope for a document (None where the field is empty); ``index``
    identifies the post within the table's documents."""
    board = document.board
    return (("post", index),
            ("thread", board, document.thread) if document.thread else None,
            ("author", board, document.author) if document.author else None,
            ("board", board))


class ContextTable:
    """First-stage scores pooled by (scope key, token type)."""

    def __init__(self):
        self.entries: Dict[tuple, list] = {}

    def add(self, document, scores: Scores, index: int) -> None:
        entries = self.entries
        keys = [k for k in scope_keys(document, index) if k is not None]
        for token, (p_name, p_user) in zip(document.tokens, scores):
            p = p_name + p_user
            if p < MIN_EVIDENCE:
                continue
            kind = type_key(token)
            if kind is None:
                continue
            capital = token[:1].isupper()
            for key in keys:
                entry = entries.get((key, kind))
                if entry is None:
                    entries[(key, kind)] = [1, p, p, 0.0, p > 0.5, capital]
                    continue
                entry[_COUNT] += 1
                entry[_SUM] += p
                if p > entry[_TOP1]:
                    entry[_TOP1], entry[_TOP2] = p, entry[_TOP1]
                elif p > entry[_TOP2]:
                    entry[_TOP2] = p
                entry[_HIGH] += p > 0.5
                entry[_CAPITAL] += capital

    def merge(self, other: "ContextTable") -> None:
        """Adds another table's entries (partial tables of chunks of a dump)."""
        for key, theirs in other.entries.items():
            ours = self.entries.get(key)
            if ours is None:
                self.entries[key] = list(theirs)
                continue
            ours[_COUNT] += theirs[_COUNT]
            ours[_SUM] += theirs[_SUM]
            top = sorted((ours[_TOP1], ours[_TOP2], theirs[_TOP1], theirs[_TOP2]),
                         reverse=True)
            ours[_TOP1], ours[_TOP2] = top[0], top[1]
            ours[_HIGH] += theirs[_HIGH]
            ours[_CAPITAL] += theirs[_CAPITAL]

    @classmethod
    def of(cls, documents: Sequence, scores: Sequence[Scores]) -> "ContextTable":
        table = cls()
        for index, (document, document_scores) in enumerate(zip(documents, scores)):
            table.add(document, document_scores, index)
        return table


def scope_features(scope: str, entry: Optional[list], p: float, counted: bool) -> List[str]:
    """Attributes of one scope for a token scored ``p`` (``counted``: the token itself is
    in the entry, so "the others" leave it out)."""
    if entry is None:
        return [scope + ":none"]
    count = entry[_COUNT] - counted
    if count <= 0:
        return [scope + ":alone"]
    total = entry[_SUM] - (p if counted else 0.0)
    highest = entry[_TOP2] if counted and p >= entry[_TOP1] else entry[_TOP1]
    high = entry[_HIGH] - (counted and p > 0.5)
    return [scope + ":n=" + bucket(count, COUNT_BUCKETS),
            scope + ":max=" + bucket(highest, P_BUCKETS),
            scope + ":mean=" + bucket(total / count, P_BUCKETS),
            scope + ":high=" + bucket(high / count, SHARE_BUCKETS),
            scope + ":cap=" + bucket(entry[_CAPITAL] / (count + counted), SHARE_BUCKETS)]


def _continues_name(tokens: Sequence[str], scores: Sequence[float], i: int) -> List[str]:
    """Whether token i continues a likely name: after a title (``Dr. Okonkwo``), after a
    likely name (``Mary Jane``), after an initial (``David A. Foti``), or before one."""
    token = tokens[i]
    if not token[:1].isupper():
        return []
    found = []
    j = i - 1
    if j >= 0 and tokens[j] == ".":
        j -= 1
    if j >= 0 and tokens[j].lower() in load_wordlist("honorifics"):     # Dr, Nurse, Aunt
        found.append("after_title")
    if i >= 1 and scores[i - 1] > 0.5 and tokens[i - 1][:1].isupper():
        found.append("after_name")
    if (i >= 3 and tokens[i - 1] == "." and len(tokens[i - 2]) == 1 and tokens[i - 2].isupper()
            and scores[i - 3] > 0.5):
        found.append("after_initial")
    if len(token) == 1 and i >= 1 and scores[i - 1] > 0.5:
        found.append("initial_after_name")
    if i + 1 < len(tokens) and scores[i + 1] > 0.5 and tokens[i + 1][:1].isupper():
        found.append("before_name")
    return found


def context_items(document, scores: Scores, table: ContextTable, index: int,
                  post_table: Optional[ContextTable] = None) -> List[List[str]]:
    """The second stage's crfsuite items for one document.

    ``scores``: the first stage's (P(NAME), P(USER)) per token; ``table``: the pooled
    scores of the document's corpus; ``index``: the document's index in that table (its
    post scope), or, with ``post_table``, the table holding the post scope alone."""
    p = [n + u for n, u in scores]
    n = len(p)
    keys = scope_keys(document, index)
    posts = table if post_table is None else post_table
    first_names = load_first_name_shares()
    author_parts = author_name_parts(document.author) if document.author else frozenset()
    author_is_a_name = any(part in first_names for part in author_parts)
    items = []
    tokens = document.tokens
    entries = table.entries
    for i, token in enumerate(tokens):
        p_i = p[i]
        attributes = ["bias", "p=" + bucket(p_i, P_BUCKETS), "case=" + case_class(token)]
        if p_i > 0.01 and scores[i][1] > scores[i][0]:
            attributes.append("user>name")
        for offset in (-2, -1, 1, 2):
            j = i + offset
            if 0 <= j < n:
                attributes.append("p%+d=%s" % (offset, bucket(p[j], P_BUCKETS)))
            else:
                attributes.append("p%+d=edge" % offset)
        kind = type_key(token)
        if kind is not None:
            counted = p_i >= MIN_EVIDENCE
            for scope, key in zip(SCOPES, keys):
                if key is None:
                    continue
                source = posts.entries if scope == "post" else entries
                features = scope_features(scope, source.get((key, kind)), p_i, counted)
                attributes.extend(features)
                # The first stage's own score against the scope's best other score.
                attributes.append("p=%s|%s" % (bucket(p_i, P_BUCKETS),
                                                features[1 if len(features) > 1 else 0]))
            if kind in author_parts:
                attributes.append("author_part")
                if author_is_a_name:
                    attributes.append("author_name_part")
        attributes.extend(_continues_name(tokens, p, i))
        items.append(attributes)
    return items
