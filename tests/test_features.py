import pytest

from mmbdeid.document import Document
from mmbdeid.features import (Featurizer, case_class, length_bucket, position_features,
                              rank_features, username_features, word_shape, zipf_level)


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


def test_username_features():
    features = username_features("kay", frozenset({"kaygirl"}), frozenset({"kay", "girl"}), None)
    assert features == {"in:thread_users": 1.0}
    assert "in:board_users" in username_features("kaygirl", frozenset({"kaygirl"}),
                                                 frozenset(), None)


def test_document_features_have_window_and_lexicons():
    document = Document.from_text("Hi Kay, call me.\nBarb", author="kaygirl")
    features = Featurizer().document_features(document)
    assert len(features) == len(document.tokens)
    kay = features[1]
    assert kay["w"] == "kay" and kay["case"] == "title" and kay["in:first_names"] == 1.0
    assert kay["-1:w"] == "hi" and kay["+1:w"] == ","
    assert "in:thread_users" in kay          # `kay` is a variant of the author `kaygirl`
    assert features[0]["-1:pad"] == 1.0
    barb = features[-1]
    assert barb["pstart<=1"] == 1.0 and barb["end<=1"] == 1.0


def test_pattern_tokens_get_only_the_pattern_feature():
    document = Document.from_text("ask @kaygirl")
    features = Featurizer().document_features(document)
    assert features[1]["pattern"] == "USER" and "w" not in features[1]


@pytest.mark.parametrize("capitalised, occurrences, expected", [
    (0, 0, {"dump_caps": "unseen"}),
    (9, 10, {"dump_caps": ">=90%", "dump_caps|n": ">=90%|5+"}),
    (1, 3, {"dump_caps": ">=10%", "dump_caps|n": ">=10%|2-4"}),
    (0, 1, {"dump_caps": "0", "dump_caps|n": "0|1"}),
])
def test_capitalisation_features(capitalised, occurrences, expected):
    from mmbdeid.features import capitalisation_features
    assert capitalisation_features(capitalised, occurrences) == expected
