"""An index of a few usernames (one post's author) screens tokens by length and letters
before its query (mmbdeid/lexicon/many_lists.py, issue 21): the same answers as the query
of every token. The usernames and texts are fictional; the tokens are the demo dump's."""
import pytest

from mmbdeid.lexicon import many_lists
from mmbdeid.lexicon.many_lists import MultiListIndex

LISTS = [{}, {"b": ["kaygirl"]}, {"b": ["rose66151", "mary_j"], "c": ["tiger"]},
         {"b1": ["firewood", "bluebird"], "b2": ["bluebirds", "kay"], "b3": ["x"]}]


def _variants(word):
    """Strings at distance 1 and 2 of ``word``: deletions, transpositions, substitutions,
    insertions."""
    one = {word[:k] + word[k + 1:] for k in range(len(word))}
    one |= {word[:k] + word[k + 1] + word[k] + word[k + 2:] for k in range(len(word) - 1)}
    one |= {word[:k] + "z" + word[k + 1:] for k in range(len(word))}
    one |= {word[:k] + "q" + word[k:] for k in range(len(word) + 1)}
    return one | {w[:k] + w[k + 1:] for w in list(one) for k in range(len(w))}


@pytest.mark.parametrize("lists", LISTS)
def test_screened_answers_are_the_querys(monkeypatch, lists, demo_documents):
    tokens = sorted({t.lower() for d in demo_documents for t in d.tokens}
                    | {v for words in lists.values() for w in words for v in _variants(w)}
                    | {"kaygirl", "KAYGIRL".lower(), "\ud800kay", ""})
    screened = MultiListIndex(lists)
    screened.prefetch(tokens)
    monkeypatch.setattr(many_lists, "FEW_WORDS", -1)
    queried = MultiListIndex(lists)
    queried.prefetch(tokens)
    answers = [screened.nearest(t) for t in tokens]
    assert answers == [queried.nearest(t) for t in tokens]
    if lists:
        assert sum(bool(a) for a in answers) > len(lists)     # (some are near)
