import pytest

from mmbdeid.text.document import Document
from mmbdeid.model.feature_buckets import position_features, rank_features
from mmbdeid.model.features import Featurizer
from mmbdeid.model.token_features import (case_class, length_bucket, username_features, word_shape,
                                          zipf_level)


@pytest.mark.parametrize("token, expected", [
    ("kay", "lower"), ("KAY", "upper"), ("Kay", "title"), ("K", "title"),
    ("McDonald", "mixed"), ("iDubbbz", "mixed"), ("123", "none"), ("!", "none"),
])
def test_case_class(token, expected):
    assert case_class(token) == expected


@pytest.mark.parametrize("token, expected", [
    ("Kay", "Xx"), ("hippie96321", "xd"), ("@kay", "@x"), ("A1C", "XdX"), ("ok", "x"),
])
def test_word_shape(token, expected):
    assert word_shape(token) == expected


@pytest.mark.parametrize("token, expected", [
    ("a", "1"), ("abcd", "4"), ("abcde", "5-6"), ("abcdefg", "7-9"), ("a" * 12, "10+"),
])
def test_length_bucket(token, expected):
    assert length_bucket(token) == expected


@pytest.mark.parametrize("zipf, expected", [
    (None, "unseen"), (1.5, "<2"), (3.2, "<4"), (7.0, "5+"),
])
def test_zipf_level(zipf, expected):
    assert zipf_level(zipf) == expected


def test_position_features_mark_message_and_paragraph_borders():
    first = position_features(0, 10, 0, 3)
    assert first["start<=1"] == 1.0 and "end<=1" not in first
    last = position_features(9, 10, 2, 3)
    assert last["end<=1"] == 1.0 and last["pend<=1"] == 1.0 and "start<=5" not in last


@pytest.mark.parametrize("rank, size, present, absent", [
    (0, 1000, ["b:top10", "b:top1%", "b:top25%"], []),
    (60, 1000, ["b:top100", "b:top10%"], ["b:top50", "b:top5%"]),
    (5000, 10000, [], ["b:top25%"]),
    (None, 100, [], ["b:top10"]),
])
def test_rank_features_are_cumulative_buckets(rank, size, present, absent):
    features = rank_features("b", rank, size)
    assert all(name in features for name in present)
    assert not any(name in features for name in absent)


@pytest.mark.parametrize("features, expected", [
    ({"w": "kay", "in:x": 1.0}, ["w:kay", "in:x"]),
    ({}, []),
])
def test_to_attributes_matches_crfsuite_naming(features, expected):
    import pycrfsuite
    from mmbdeid.model.features import to_attributes
    assert to_attributes(features) == expected
    assert pycrfsuite.ItemSequence([features]).items() == \
        pycrfsuite.ItemSequence([to_attributes(features)]).items()


@pytest.mark.parametrize("board_distance, in_thread, expected", [
    (None, True, {"in:thread_users": 1.0}),
    (0, False, {"in:board_users": 1.0}),
    (2, True, {"near2:board_users": 1.0, "in:thread_users": 1.0}),
    (None, False, {}),
])
def test_username_features(board_distance, in_thread, expected):
    assert username_features(board_distance, in_thread) == expected


def test_board_usernames_and_their_misspellings_are_found():
    from mmbdeid.model.stats import CorpusStats
    posts = [("bc", "t1", "kaygirl", "hello all"), ("ra", "t2", "hippie96321", "hi")]
    stats = CorpusStats.build(Document.from_text(text, board=b, thread=t, author=a)
                              for b, t, a, text in posts)
    document = Document.from_text("kaygirl and kaygril and hippie96321", board="bc",
                                  thread="t9", author="someone")
    items = [set(item) for item in Featurizer(stats).document_items(document)]
    assert "in:board_users" in items[0]
    assert "near1:board_users" in items[2]
    assert not any("board_users" in a for a in items[4] if not a[0] in "+-")  # other board


def test_document_items_have_window_and_lexicons():
    document = Document.from_text("Hi Kay, call me.\nBarb", author="kaygirl")
    items = Featurizer().document_items(document)
    assert len(items) == len(document.tokens)
    kay = set(items[1])
    assert {"w:kay", "tok:Kay", "case:title", "in:first_names", "-1:w:hi", "+1:w:,"} <= kay
    assert "in:thread_users" in kay          # `kay` is a variant of the author `kaygirl`
    assert "-1:pad" in items[0] and "-2:pad" in items[1] and "-2:pad" not in items[2]
    barb = set(items[-1])
    assert {"pstart<=1", "end<=1"} <= barb
    assert not any(a.startswith(("-1:pstart", "+1:end", "-1:start")) for a in barb)


def test_pattern_tokens_get_only_the_pattern_feature():
    document = Document.from_text("ask @kaygirl")
    items = Featurizer().document_items(document)
    assert "pattern:USER" in items[1] and not any(a.startswith("w:") for a in items[1])
    assert "+1:pattern:USER" in items[0]


@pytest.mark.parametrize("capitalised, occurrences, expected", [
    (0, 0, {"dump_caps": "unseen"}),
    (9, 10, {"dump_caps": ">=90%", "dump_caps|n": ">=90%|5+"}),
    (1, 3, {"dump_caps": ">=10%", "dump_caps|n": ">=10%|2-4"}),
    (0, 1, {"dump_caps": "0", "dump_caps|n": "0|1"}),
])
def test_capitalisation_features(capitalised, occurrences, expected):
    from mmbdeid.model.token_features import capitalisation_features
    assert capitalisation_features(capitalised, occurrences) == expected


def test_known_and_encoded_items_are_the_full_items_filtered_in_order():
    from mmbdeid.model.stats import CorpusStats
    posts = [("bc", "t1", "kaygirl", "Hi all,\nchemo today with Kay's help\nBarb"),
             ("bc", "t1", "boo", "Hi @kaygirl, call 555-123-4567\nBarb")]
    stats = CorpusStats.build(Document.from_text(text, board=b, thread=t, author=a)
                              for b, t, a, text in posts)
    documents = [Document.from_text(text, board=b, thread=t, author=a)
                 for b, t, a, text in posts]
    full = [Featurizer(stats).document_items(d) for d in documents]
    known = frozenset(a for items in full for item in items for a in item[::3])
    encoded = Featurizer(stats, known_attributes=known, encoded=True)
    checked = 0
    for document, items in zip(documents, full):
        expected = [[a.encode() for a in item if a in known] for item in items]
        assert encoded.document_items(document) == expected
        assert encoded.document_items(document) == expected      # from the caches
        assert expected and all(expected)        # every token keeps some attributes
        checked += 1
    assert checked == len(posts)


def test_a_full_type_cache_keeps_its_oldest_half():
    from mmbdeid.model.features import _forget_newest_half
    cache = {str(i): i for i in range(10)}
    _forget_newest_half(cache)
    assert list(cache) == ["0", "1", "2", "3", "4"]
