"""The gender a first name reads as (surrogates keep it), and the list it comes from."""
import importlib.util
import os

import pytest

from mmbdeid.lexicon.wordlists import load_first_name_female_shares
from mmbdeid.people.gender import gender_of_share, name_gender, username_gender_name

from paths import TOOLS


@pytest.mark.parametrize("name, gender", [
    ("Marge", "female"), ("Linda", "female"), ("Christopher", "male"),
    ("Babs", "female"),          # not listed itself: read via Barbara (nicknames)
    ("Ariel", "either"), ("Jordan", "male"),   # listed, borne by both (census 0.50, 0.18)
    ("Dolores", "female"), ("Arjun", "male"),     # census; Faker (the census lacks it)
    ("Tenzin", ""), ("", ""),    # unknown
])
def test_name_gender(name, gender):
    assert name_gender(name) == gender


@pytest.mark.parametrize("username, name", [
    ("levo_lisa", "lisa"), ("arthur_k", "arthur"),
    ("hashimama", ""),           # no first name in it
    ("linda_and_bob", ""),       # two genders: no telling
])
def test_username_gender_name(username, name):
    assert username_gender_name(username) == name


@pytest.mark.parametrize("share, gender", [
    (1.0, "female"), (0.7, "female"), (0.69, "either"), (0.31, "either"), (0.3, "male"),
    (0.0, "male"),
])
def test_share_thresholds(share, gender):
    assert gender_of_share(share) == gender


def test_shipped_list_loads():
    shares = load_first_name_female_shares()
    assert shares["linda"] == 1.0 and shares["christopher"] == 0.0
    assert all(0.0 <= share <= 1.0 and name == name.lower() for name, share in shares.items())


def build_lexicons():
    spec = importlib.util.spec_from_file_location(
        "build_lexicons", os.path.join(TOOLS, "build_lexicons.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_census_shares_from_the_names_package_files(tmp_path):
    # Tiny fictional dist.*.first files in the census layout: name, percent, cumulative, rank.
    (tmp_path / "dist.female.first").write_text(
        "MARGE          0.030  0.030      1\nJORDAN         0.010  0.040      2\n", "ascii")
    (tmp_path / "dist.male.first").write_text(
        "CHRISTOPHER    0.050  0.050      1\nJORDAN         0.030  0.080      2\n", "ascii")
    shares = build_lexicons().census_female_shares(tmp_path)
    assert shares == {"marge": 1.0, "christopher": 0.0, "jordan": 0.25}
