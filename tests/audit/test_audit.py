"""Leak audit: planted leaks of each kind are found, placeholders and ordinary words not."""
import collections
import glob
import json
import os
import re

import pytest

from mmbdeid.audit import Leak, LeakAuditor, audit_file, format_leak, names_from_person_map
from mmbdeid.lexicon.word_policy import search_mode
from mmbdeid.errors import InputError
from mmbdeid.files.corpora import read_annotated
from mmbdeid.text.terms import TermMatcher
from mmbdeid.lexicon.usernames import username_variants

from documents import replace_spans

from paths import SAMPLES


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def found(auditor, text, author=None):
    return [leak.text for leak in auditor.scan("p", text, author)]


# --- the ambiguity policy ---------------------------------------------------------------

@pytest.mark.parametrize("term, kind, mode", [
    ("kaygirl96", "username", "any-case"),    # distinctive
    ("Lindqvist", "name", "any-case"),
    ("Mary Jane", "name", "any-case"),        # several words: never a common word
    ("hope", "username", "capitalised"),      # Zipf 5.4
    ("tiger", "username", "capitalised"),
    ("Mary", "name", "capitalised"),          # frequent names count as common (Zipf 4.8)
    ("sugar", "variant", "capitalised"),      # common, 5 letters
    ("girl", "variant", "unchecked"),         # common, short
    ("levo", "variant", "unchecked"),         # a drug: ordinary on a health board
    ("and", "variant", "unchecked"),          # stop word
    ("kay", "variant", "capitalised"),        # short but a given name
    ("day", "variant", "unchecked"),          # on the nickname list only: not a given name
    ("hippie", "variant", "capitalised"), ("sk8rdad", "variant", "any-case"),        # Zipf 3.4
])
def test_search_mode(term, kind, mode):
    assert search_mode(term, kind) == mode


@pytest.mark.parametrize("text, leaks", [
    ("I hope you feel better", []),
    ("Hope that helps", []),                   # start of the text
    ("Great news. Hope that helps", []),       # start of a sentence
    ("Great news!\n\nHope you're well", []),   # start of a line
    ("Thanks Hope!", ["Hope"]),
    ("Thanks Hope and everyone", ["Hope"]),
    ("> Hope that helps\n:) Hope you're well", []),   # nothing but marks before it
    ("Great news.\nHope", ["Hope"]),           # a sign-off alone on its line
    ("Great news.\n- Hope", ["Hope"]),
    ("Great news. Hope :)", ["Hope"]),
    ("Hope, I walked every day", ["Hope"]),    # the person addressed
    ("thanks hope", []),                       # lower case: taken for the word
    ("thanks @hope and @Hope", ["@hope", "@Hope"]),   # a mention is a username
    ("Hopeful, hopes, Hopes", []),             # whole words only
])
def test_common_username(text, leaks):
    assert found(LeakAuditor(["hope"]), text) == leaks


@pytest.mark.parametrize("text, leaks", [
    ("thanks KAYGIRL96!", ["KAYGIRL96"]),
    ("Kaygirl96 said so", ["Kaygirl96"]),      # distinctive: even at a sentence start
    ("ask Kaygirl about it", ["Kaygirl"]),     # variant without digits
    ("ask Kay about it", ["Kay"]),             # short given-name variant
    ("my girl, Girl power", []),               # unchecked variant
    ("okay", []),
])
def test_distinctive_username_and_variants(text, leaks):
    assert found(LeakAuditor(["kaygirl96"]), text) == leaks


def test_unchecked_and_capitalised_lists():
    auditor = LeakAuditor(["kaygirl96", "bumpanddiabetes", "levo_lisa"])
    assert {"girl", "and", "levo", "bump"} <= set(auditor.unchecked)
    assert "kay" not in auditor.unchecked and "lisa" not in auditor.unchecked
    # common variants (not unchecked) are searched capitalised only
    assert found(auditor, "ask Kay, Lisa or Diabetes") == ["Kay", "Lisa", "Diabetes"]
    assert found(auditor, "ask kay, lisa or diabetes") == []
    assert auditor.unchecked == sorted(auditor.unchecked)


# --- accents and eponyms (issue 21) ----------------------------------------------------

@pytest.mark.parametrize("usernames, text, leaks", [
    (["ines_lupus"], "Thanks Inés!", ["Inés"]),            # accent in the text only
    (["ines_lupus"], "INÉS said so", ["INÉS"]),
    (["ines_lupus"], "Ine\u0301s said so", ["Ine\u0301s"]),  # decomposed: e + combining acute
    (["Inés_k"], "thanks ines", ["ines"]),                 # accent in the username only
    (["Inés_k"], "thanks Inés and INES", ["Inés", "INES"]),
    (["weissberg_k"], "ask Weißberg", ["Weißberg"]),       # case folding: ß is ss
    (["ines_lupus"], "Inesita, Lines", []),                # still whole words only
])
def test_accents_do_not_hide_a_leak(usernames, text, leaks):
    assert found(LeakAuditor(usernames), text) == leaks


def test_accented_leak_offsets_are_the_posts_own():
    text = "Merci Ine\u0301s, et Inés!"
    assert [(l.start, l.end) for l in LeakAuditor(["ines_lupus"]).scan("p", text)] == [
        (6, 11), (16, 20)]


@pytest.mark.parametrize("text, leaks", [
    ("I have Graves disease", []),             # eponym before a medical head word
    ("my Graves\u2019 disease flared", []),
    ("and Bell's palsy too", []),
    ("thanks Ménière's disease", []),
    ("Thanks Graves!", ["Graves"]),            # no head word: maybe the person
    ("we met the Graves family", ["Graves"]),
    ("ask Bell about palsy", ["Bell"]),
    ("Love, Bell", ["Bell"]),                  # a name of the author's
    ("thanks Ménière", ["Ménière"]),
])
def test_eponyms_before_a_medical_head_word_are_not_leaks(text, leaks):
    auditor = LeakAuditor(["graves_fan", "meniere_m", "bell22"], {"bell22": ["Bell"]})
    assert found(auditor, text, author="bell22") == leaks


# --- kinds, placeholders, overlaps ------------------------------------------------------

def test_kinds_offsets_and_people():
    auditor = LeakAuditor(["kaygirl96", "RAwarrior"], {"RAwarrior": ["Jess", "MJ"]})
    text = "Ask kaygirl96 or RAwarrior's sister. KAY knows.\nJess"
    assert auditor.scan("ar001-02", text, author="RAwarrior") == [
        Leak("ar001-02", 4, 13, "kaygirl96", "username", "kaygirl96"),
        Leak("ar001-02", 17, 26, "RAwarrior", "username", "RAwarrior"),
        Leak("ar001-02", 48, 52, "Jess", "name", "RAwarrior"),
    ]   # "KAY": a common variant is searched capitalised only


def test_names_are_searched_in_the_authors_own_posts_only():
    auditor = LeakAuditor(["RAwarrior", "tiger"], {"rawarrior": ["Jess"]})
    assert found(auditor, "Love, Jess", author="RAwarrior") == ["Jess"]   # any case
    assert found(auditor, "Jess, welcome!", author="tiger") == []
    assert found(auditor, "Love, Jess") == []


def test_longest_hit_wins_and_names_beat_variants():
    auditor = LeakAuditor(["mary_jane77"], {"mary_jane77": ["Mary Jane"]})
    assert auditor.scan("p", "Love, Mary Jane", "mary_jane77") == [
        Leak("p", 6, 15, "Mary Jane", "name", "mary_jane77")]
    assert [(l.text, l.kind) for l in auditor.scan("p", "Love, Mary Jane")] == [
        ("Mary", "variant"), ("Jane", "variant")]


def test_a_variant_shared_by_two_users_names_both():
    leak, = LeakAuditor(["kaygirl", "Kay_B"]).scan("p", "ask Kay")
    assert (leak.kind, leak.person) == ("variant", "Kay_B, kaygirl")


def test_placeholders_and_pseudonyms_are_never_leaks():
    auditor = LeakAuditor(["kaygirl96", "U12", "hope"], {"kaygirl96": ["Kay"]})
    text = "Thanks [USER] and [U12], [NAME] here. Ask [P3]!\n[NAME]"
    assert auditor.scan("p", text, "kaygirl96") == []
    assert found(auditor, "Thanks U12 and [U12]") == ["U12"]


# --- files ------------------------------------------------------------------------------

ORIGINAL = [
    {"id": "ar001-01", "author": "RAwarrior", "text": "How bad is MTX?\nJess"},
    {"id": "ar001-02", "author": "kaygirl96", "text": "Jess, welcome. Ask kaygirl96's onc."},
    {"id": "ar001-03", "author": "hope", "text": "Ask Kay about it. Hope that helps"},
    {"id": "ar001-04", "author": "RAwarrior", "text": "Thanks hope and Kay, I hope so"},
]
# Scrubbed in pseudonym mode, with one leak of each kind planted (left unscrubbed).
SCRUBBED = [
    {"id": "ar001-01", "author": "U1", "text": "How bad is MTX?\nJess"},
    {"id": "ar001-02", "author": "U2", "text": "[U1], welcome. Ask kaygirl96's onc."},
    {"id": "ar001-03", "author": "U3", "text": "Ask Kay about it. Hope that helps"},
    {"id": "ar001-04", "author": "U1", "text": "Thanks [U3] and [U2], I hope so"},
]
NAMES = {"RAwarrior": ["Jess"], "kaygirl96": ["Kay"]}
EXPECTED = [
    Leak("ar001-01", 16, 20, "Jess", "name", "RAwarrior"),
    Leak("ar001-02", 19, 28, "kaygirl96", "username", "kaygirl96"),
    Leak("ar001-03", 4, 7, "Kay", "variant", "kaygirl96"),
]


def test_audit_file_maps_authors_through_the_original(tmp_path):
    scrubbed = write_jsonl(tmp_path / "scrubbed.jsonl", SCRUBBED)
    original = write_jsonl(tmp_path / "original.jsonl", ORIGINAL)
    leaks, auditor = audit_file(scrubbed, original, NAMES)
    assert leaks == EXPECTED
    assert all(leak.text == SCRUBBED[int(leak.post_id[-1]) - 1]["text"][leak.start:leak.end]
               for leak in leaks)
    assert auditor.usernames == ["RAwarrior", "kaygirl96", "hope"]


def test_audit_file_without_original_uses_the_scrubbed_authors(tmp_path):
    # Placeholder mode keeps the author field: the scrubbed file is enough.
    records = [dict(r, text=s["text"]) for r, s in zip(ORIGINAL, SCRUBBED)]
    leaks, _ = audit_file(write_jsonl(tmp_path / "scrubbed.jsonl", records), None, NAMES)
    assert leaks == EXPECTED
    # Pseudonymised authors hide who wrote what: the author's name is not searched.
    leaks, auditor = audit_file(write_jsonl(tmp_path / "pseudo.jsonl", SCRUBBED), None, NAMES)
    assert auditor.usernames == ["U1", "U2", "U3"]
    assert leaks == []


def test_audit_file_reads_csv(tmp_path):
    path = tmp_path / "scrubbed.csv"
    path.write_text('id,author,text\nar001-01,U1,"How bad is MTX?\nJess"\n', encoding="utf-8")
    original = write_jsonl(tmp_path / "original.jsonl", ORIGINAL)
    leaks, _ = audit_file(str(path), original, NAMES)
    assert leaks == EXPECTED[:1]


def test_audit_file_post_missing_from_the_original(tmp_path):
    scrubbed = write_jsonl(tmp_path / "scrubbed.jsonl",
                           SCRUBBED + [{"id": "zz9", "author": "U9", "text": "hi"}])
    original = write_jsonl(tmp_path / "original.jsonl", ORIGINAL)
    with pytest.raises(InputError, match="'zz9' is not in the original") as raised:
        audit_file(scrubbed, original, NAMES)
    assert str(raised.value).startswith(scrubbed + ":5: ")


def test_names_from_person_map(tmp_path):
    from mmbdeid.people.personmap import PersonMap
    path = tmp_path / "people.map"
    path.write_text("U12 | @arthur_k | @ak2 | Arthur (5) | Art (1)\nP3 | Lindqvist (2)\n",
                    encoding="utf-8")
    names = names_from_person_map(PersonMap.read(str(path)))
    assert names == {"arthur_k": ["Arthur", "Art"], "ak2": ["Arthur", "Art"]}
    auditor = LeakAuditor(["arthur_k", "ak2"], names)
    assert found(auditor, "Cheers, Art", author="ak2") == ["Art"]


def test_format_leak():
    leak = Leak("ar001-02", 0, 4, "Jess", "name", "RAwarrior")
    assert format_leak(leak) == 'post ar001-02 chars 0-4: "Jess" (name of RAwarrior)'
    assert format_leak(leak._replace(text="Mary\nJane")).count("\n") == 0


# --- the measurement behind the policy (audit module doc) -------------------------------

def test_sample_corpus_false_alarms_and_recall():
    """Perfectly scrubbed sample posts give few hits; raw ones give most gold spans a
    plain case-insensitive search of the same terms finds.  Numbers as in the table of
    the audit module doc (12 false alarms, 178 of 200); bounds leave a little room."""
    names = collections.defaultdict(set)
    for path in glob.glob(os.path.join(SAMPLES, "source", "annotated", "*.txt")):
        with open(path, encoding="utf-8") as handle:
            for name, user in re.findall(r"\{N:([^=}]+)=([^}]+)\}", handle.read()):
                names[user].add(name)
    posts = list(read_annotated(os.path.join(SAMPLES, "health_boards.annotated.jsonl")))
    users = [post.record.get("author") for post in posts]
    auditor = LeakAuditor(users, names)
    board_terms = set(users) | {v for u in users for v in username_variants(u) if len(v) >= 3}
    false_alarms, findable, found_count = [], 0, 0
    for post in posts:
        record, author = post.record, post.record.get("author")
        clean = replace_spans(record.text, post.spans)
        false_alarms += auditor.scan(record.id, clean, author)
        plain = TermMatcher(board_terms | names.get(author, set()))
        reachable = [(s, e) for s, e, _ in plain.finditer(record.text)]
        leaks = auditor.scan(record.id, record.text, author)
        for span in post.spans:
            if any(s <= span.start and span.end <= e for s, e in reachable):
                findable += 1
                found_count += any(l.start <= span.start and span.end <= l.end for l in leaks)
    assert findable >= 190
    assert len(false_alarms) <= 3, [format_leak(leak) for leak in false_alarms]
    assert found_count >= 0.80 * findable
