"""Username variants: digits stripped, delimiter/camelCase parts, known-word segmentation."""
import pytest

from mmbdeid.lexicon.usernames import segment, username_variants

VOCAB = frozenset({"kay", "girl", "mary", "jane", "hippie", "hip", "pie", "boo"})


@pytest.mark.parametrize("username, expected", [
    ("kaygirl", {"kaygirl", "kay", "girl"}),
    ("hippie96321", {"hippie96321", "hippie"}),
    ("KayGirl", {"kaygirl", "kay", "girl"}),
    ("mary_jane", {"mary_jane", "mary", "jane", "maryjane"}),
    ("mjb", {"mjb"}),
    ("boo", {"boo"}),
    ("j_boo", {"j_boo", "jboo", "boo"}),      # one-letter part dropped
])
def test_variants_with_small_vocabulary(username, expected):
    assert username_variants(username, VOCAB) == expected


@pytest.mark.parametrize("username, must_contain", [
    ("kaygirl", {"kay", "girl"}),
    ("hippie96321", {"hippie"}),
    ("PinkRibbon2009", {"pink", "ribbon"}),
])
def test_variants_with_default_vocabulary(username, must_contain):
    assert must_contain <= username_variants(username)


@pytest.mark.parametrize("text, pieces", [
    ("kaygirl", ["kay", "girl"]),
    ("hippie", ["hippie"]),         # fewer pieces win at equal coverage
    ("mjb", []),
])
def test_segment(text, pieces):
    assert segment(text, VOCAB) == pieces
