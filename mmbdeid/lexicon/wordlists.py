"""Word lists shipped as package data (``mmbdeid.lexicons``), loaded by name.

Each list is a UTF-8 text file ``lexicons/<name>.txt``: ``#`` header lines, then one
lower-cased entry per line, optionally followed by a TAB and a second column.
Sources, licences and the rebuild command are in ``lexicons/README.md``.

Installed, the files are read through ``importlib.resources`` from the package
``mmbdeid.lexicons``. In a source checkout that package does not exist (setup.cfg maps it
onto the top-level ``lexicons/`` directory only when installing), so we fall back to the
``lexicons`` directory next to the ``mmbdeid`` package directory.
"""
from __future__ import annotations

import functools
import gzip
import importlib.resources
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Union

from ..errors import MmbdeidValueError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

# The membership lists (medical_words already includes the hand-made board slang).
WORDLISTS = ("first_names", "last_names", "nicknames", "common_words", "stop_words",
             "medical_words", "drugs", "honorifics")

# Lists of words to keep whatever the model says (mmbdeid.detect.keep.medical_terms,
# detect.names.titles, detect.keep.not_names): medical eponyms (one entry may be a
# hyphenated compound or several words: "epstein-barr", "lou gehrig"), the nouns after
# them, medical abbreviations, kinship words, greetings. Not in WORDLISTS on purpose: that tuple drives the CRF
# features and the fuzzy index.
KEEP_LISTS = ("eponyms", "medical_heads", "medical_abbreviations", "kinship", "greetings",
              "organisations_extra", "institution_heads", "medical_devices", "demonyms")
# Keep lists matched case-exactly (``Travis`` the CI service, not ``TRAVIS``): entries in
# their own case (detect/keep/code_text.py).
CASED_LISTS = ("software_products",)

# Lists of the rule steps that complete a name or find initials (mmbdeid.detect.names.completion,
# detect.names.sign_offs): name particles (``de``, ``van``, ``al``), generational suffixes (``Jr``),
# abbreviations and interjections that are no one's initials (``TIA``, ``xoxo``, ``Hmm``),
# closing words (``Love``). Not in WORDLISTS either.
RULE_LISTS = ("name_particles", "name_suffixes", "not_initials", "closings", "word_names")

_PACKAGE = "mmbdeid.lexicons"


@functools.lru_cache(maxsize=1)
def _lexicon_dir() -> Union["Traversable", Path]:
    # Source checkout first: <repo>/lexicons beside <repo>/mmbdeid (a git worktree run
    # with PYTHONPATH reads its own lists, not those of the tree the package was
    # installed in editable mode from).
    source = Path(__file__).resolve().parents[2] / "lexicons"
    if (source / "first_names.txt").is_file() and (source / "__init__.py").is_file():
        return source
    try:
        return importlib.resources.files(_PACKAGE)
    except ModuleNotFoundError:
        # Source checkout: the data lives in <repo>/lexicons, beside <repo>/mmbdeid.
        return Path(__file__).resolve().parents[2] / "lexicons"


def _rows(filename: str) -> Iterator[list[str]]:
    """TAB-separated fields of every entry line (headers and blank lines skipped)."""
    text = _lexicon_dir().joinpath(filename).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


def _nickname_rows() -> Iterator[tuple[str, list[str]]]:
    for fields in _rows("nicknames.txt"):
        nicks = fields[1].split(",") if len(fields) > 1 and fields[1] else []
        yield fields[0], nicks


@functools.lru_cache(maxsize=None)
def load_wordlist(name: str) -> frozenset[str]:
    """The entries of a named membership list (see ``WORDLISTS``, ``KEEP_LISTS``,
    ``RULE_LISTS`` and ``CASED_LISTS``) as a frozenset.

    ``nicknames`` gives every name of the nickname file, canonical names included.
    """
    known = WORDLISTS + KEEP_LISTS + RULE_LISTS + CASED_LISTS
    if name not in known:
        raise MmbdeidValueError(f"unknown word list {name!r}; available: {', '.join(known)}")
    if name == "nicknames":
        return frozenset(n for canonical, nicks in _nickname_rows() for n in (canonical, *nicks))
    return frozenset(fields[0] for fields in _rows(f"{name}.txt"))


@functools.lru_cache(maxsize=1)
def load_zipf() -> dict[str, float]:
    """Word -> Zipf frequency (log10 per billion words) for the top English words."""
    return {fields[0]: float(fields[1]) for fields in _rows("word_zipf.txt")}


@functools.lru_cache(maxsize=1)
def load_first_name_shares() -> dict[str, float]:
    """First name -> percent of the US population with that name (census 1990)."""
    return {fields[0]: float(fields[1]) for fields in _rows("first_names.txt")}


@functools.lru_cache(maxsize=1)
def load_first_name_female_shares() -> dict[str, float]:
    """First name -> share of its bearers who are women (``first_names_gender``; read by
    :mod:`mmbdeid.people.gender`)."""
    return {fields[0]: float(fields[1]) for fields in _rows("first_names_gender.txt")}


@functools.lru_cache(maxsize=1)
def load_last_name_ranks() -> dict[str, int]:
    """Surname -> census frequency rank (1 = most frequent)."""
    return {fields[0]: int(fields[1]) for fields in _rows("last_names.txt")}


@functools.lru_cache(maxsize=1)
def load_nickname_groups() -> dict[str, frozenset[str]]:
    """Canonical name -> its nicknames (``robert`` -> ``bob``, ``rob``, ...)."""
    return {canonical: frozenset(nicks) for canonical, nicks in _nickname_rows()}


# Gazetteers: negative evidence for the name tagger (places, organisations). Not in
# WORDLISTS on purpose: that tuple drives the CRF features and the fuzzy index.
# Rows are ``entry<TAB>kind<TAB>extra`` (places: population; organisations: stock indices).
GAZETTEERS = ("places", "organisations")


@functools.lru_cache(maxsize=None)
def load_gazetteer(name: str, column: int = 1) -> dict[str, str]:
    """Entry -> a column of a named gazetteer (see ``GAZETTEERS``); column 1 is the kind.

    ``load_gazetteer("places")["calgary"] == "city"``; ``load_gazetteer("places", 2)`` gives
    the population. Multi-word entries are whole names (``new york``).
    """
    if name not in GAZETTEERS:
        raise MmbdeidValueError(f"unknown gazetteer {name!r}; available: {', '.join(GAZETTEERS)}")
    return {fields[0]: fields[column] if len(fields) > column else ""
            for fields in _rows(f"{name}.txt")}


# Word clusters (Brown clusters of tweets): a CRF feature, not a membership list.
CLUSTERS = "twitter_clusters"


@functools.lru_cache(maxsize=1)
def load_clusters() -> dict[str, str]:
    """Lower-cased word -> its Brown-cluster path (a bit string; any prefix names an
    ancestor cluster): ``load_clusters()["kevin"] == "111001110"``.

    The file (gzip, ``lexicons/twitter_clusters.txt.gz``) has one line per cluster,
    ``path<TAB>word word ...``, and each path is one shared string here, not one per word
    (216,852 words, 1,000 paths: about 31 MB and 0.2 s of CPU per process).
    """
    data = gzip.decompress(_lexicon_dir().joinpath(CLUSTERS + ".txt.gz").read_bytes())
    clusters: dict[str, str] = {}
    # split on newlines only: some words hold characters that str.splitlines breaks at
    for line in data.decode("utf-8").split("\n"):
        if line and not line.startswith("#"):
            path, words = line.split("\t")
            clusters.update(dict.fromkeys(words.split(" "), path))
    return clusters
