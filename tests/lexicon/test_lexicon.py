"""Shipped word lists load by name from package data."""
import pytest

from mmbdeid.lexicon.wordlists import WORDLISTS, load_nickname_groups, load_wordlist, load_zipf


@pytest.mark.parametrize("name", WORDLISTS)
def test_every_list_loads_non_empty_lower_case(name):
    words = load_wordlist(name)
    assert isinstance(words, frozenset) and len(words) > 50
    assert all(w == w.lower() and w.strip() == w and w for w in words)
    assert not any(w.startswith("#") for w in words)


@pytest.mark.parametrize("name, word", [
    ("first_names", "mary"), ("first_names", "kay"), ("last_names", "smith"),
    ("nicknames", "bob"), ("nicknames", "robert"), ("common_words", "house"),
    ("stop_words", "the"), ("medical_words", "chemo"), ("medical_words", "carcinoma"),
    ("drugs", "tamoxifen"), ("drugs", "herceptin"), ("drugs", "tamox"), ("honorifics", "dr"),
])
def test_list_contains(name, word):
    assert word in load_wordlist(name)


@pytest.mark.parametrize("name", ["grace", "mary", "kay", "hope", "alice", "the"])
def test_drug_list_keeps_common_names_and_stop_words_out(name):
    assert name not in load_wordlist("drugs")


def test_unknown_list_names_the_available_ones():
    with pytest.raises(ValueError, match="first_names"):
        load_wordlist("pokemon")


def test_zipf_and_nickname_groups():
    zipf = load_zipf()
    assert zipf["the"] > 7 > zipf["chemotherapy"] > 0
    assert {"bob", "rob"} <= load_nickname_groups()["robert"]
