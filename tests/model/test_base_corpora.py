"""The base corpora of ``train --base``: shipped in the package (not read from a checkout of
the data), the files the default model is trained on, and the repeat count that stands in
for the user's posts' weight."""
import configparser
import fnmatch
import os
import subprocess
import sys

import pytest

from mmbdeid.model.base_corpora import (BASES, MAX_REPEATS, base_paths, load_base,
                                        repeat_count, repeated)
from paths import PACKAGE, REPO, TOOLS

BASE_FOLDER = os.path.join(PACKAGE, "bundled", "base_corpora")


@pytest.mark.parametrize("user, base, share, expected", [
    (10_000, 200_000, 1 / 3, 10),       # 10,000 x 10 = 100,000: a third of 300,000
    (4_000, 200_000, 1 / 3, 25),
    (4_000, 200_000, 1 / 2, 50),
    (100_000, 200_000, 1 / 3, 1),
    (300_000, 200_000, 1 / 3, 1),       # more than the base already: never less than once
    (10, 200_000, 1 / 3, MAX_REPEATS),  # a handful of tokens is not copied 10,000 times
    (0, 200_000, 1 / 3, 1),
])
def test_repeat_count_makes_the_user_tokens_the_share(user, base, share, expected):
    assert repeat_count(user, base, share) == expected


def test_repeated_keeps_each_copy_in_order():
    assert repeated(["a", "b"], 3) == ["a", "b", "a", "b", "a", "b"]


def test_the_default_base_is_shipped_in_the_package():
    paths = base_paths("default")
    assert [os.path.basename(p) for p in paths] == list(BASES["default"])
    for path in paths:
        assert os.path.realpath(path).startswith(os.path.realpath(BASE_FOLDER) + os.sep)
        assert os.path.getsize(path) > 10_000
    assert os.path.isfile(os.path.join(BASE_FOLDER, "README.md"))
    assert os.path.isfile(os.path.join(BASE_FOLDER, "LICENSE"))


def package_data_patterns(value: str):
    """The patterns setuptools reads from a package_data value: one a line when the value
    has line breaks (commas and all), else comma-separated."""
    entries = value.splitlines() if "\n" in value else value.split(",")
    return [entry.strip() for entry in entries if entry.strip()]


def test_setup_ships_the_bundled_files():
    config = configparser.ConfigParser()
    config.read(os.path.join(REPO, "setup.cfg"))
    patterns = package_data_patterns(config["options.package_data"]["mmbdeid.bundled"])
    bundled = os.path.join(PACKAGE, "bundled")
    wanted = ["default.mmbdeid", "reference_stats.sqlite"] + [
        "base_corpora/" + name for name in os.listdir(BASE_FOLDER)]
    for name in wanted:
        assert os.path.isfile(os.path.join(bundled, name))
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


@pytest.mark.slow
def test_a_build_carries_the_bundled_files(tmp_path):
    """What ``pip install .`` copies: setuptools' build_py into a temporary folder."""
    result = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
         "--build-lib", str(tmp_path)], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    built = tmp_path / "mmbdeid" / "bundled"
    for name in ["default.mmbdeid", "reference_stats.sqlite"] + [
            "base_corpora/" + name for name in os.listdir(BASE_FOLDER)]:
        assert (built / name).is_file(), name


def test_the_build_script_trains_on_the_shipped_files():
    with open(os.path.join(TOOLS, "build_default_model.sh"), encoding="utf-8") as handle:
        script = handle.read()
    for name in BASES["default"]:
        assert "mmbdeid/bundled/base_corpora/" + name in script or (
            "$base/" + name in script), name


def test_an_unknown_base_is_refused():
    with pytest.raises(ValueError, match="unknown base 'mine' \\(known: default\\)"):
        base_paths("mine")


@pytest.mark.slow
def test_the_default_base_loads_the_documented_counts():
    counts = {name: len(documents) for name, documents in load_base("default")}
    assert counts["wnut17train.conll.gz"] == 3394
    assert counts["emerging.dev.conll.gz"] == 1009
    assert counts["btc.train.conll.gz"] == 6338
    assert counts["btc.dev.conll.gz"] == 1000     # its README counts 1,001 tweets
    assert sum(counts.values()) == 12098            # as docs/training.md says
