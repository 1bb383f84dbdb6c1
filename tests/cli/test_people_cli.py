"""Person modes, the person map round trip, review lists, allow/deny lists and the audit,
through the command line (the default model, tiny dumps written by each test)."""
import csv
import re

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main

# Papers 003/004, Figure 1 (a fictionalised thread), with the post it replies to first.
FIGURE_1 = [
    {"id": "10", "board": "course", "thread": "t1", "author": "U43", "parent": None,
     "text": "Here are my slides for this week's presentation. Comments welcome."},
    {"id": "12", "board": "course", "thread": "t1", "author": "U12", "parent": "10",
     "text": "Hi Mary Interesting presentation. I have to disagree with one of the "
             "statements you made though: [...] In fact, I was reminded of a science "
             "fiction novel by Arthur C. Clarke! What do you think? Arthur"},
    {"id": "14", "board": "course", "thread": "t1", "author": "U43", "parent": "12",
     "text": "Hi Arhtur I am not sure if I understand what you mean. Can you explain a "
             "bit more? Thanks Mary Jane"},
    {"id": "15", "board": "course", "thread": "t1", "author": "U01", "parent": "14",
     "text": "Hello MJ - I think I understand what our friend Arthr was trying to say. "
             "[...] Hope that helps! R o b e r t"},
]
FIGURE_1_AFTER = {
    "12": "Hi [U43] Interesting presentation. I have to disagree with one of the "
          "statements you made though: [...] In fact, I was reminded of a science fiction "
          "novel by Arthur C. Clarke! What do you think? [U12]",
    "14": "Hi [U12] I am not sure if I understand what you mean. Can you explain a bit "
          "more? Thanks [U43]",
    "15": "Hello [U43] - I think I understand what our friend [U12] was trying to say. "
          "[...] Hope that helps! [U01]",
}
# The public figure, and the word a review of this thread shows the model removes.
ALLOW = "Arthur C. Clarke\nHope\n"


def mmbdeid(*args):
    return main([str(a) for a in args] + ["--quiet"] * (args[0] != "audit"))


@pytest.fixture
def figure_1(tmp_path):
    (tmp_path / "allow.txt").write_text(ALLOW, encoding="utf-8")
    return write_jsonl(tmp_path / "thread.jsonl", FIGURE_1), str(tmp_path / "allow.txt")


def test_figure_1_thread_with_the_edited_map_comes_out_as_the_figure(tmp_path, figure_1):
    dump, allow = figure_1
    people = tmp_path / "people.map"
    assert mmbdeid("link", dump, "-o", people, "--allow", allow, "-j", 1) == 0
    # The researcher renames the identifiers to the course's participant ids.
    edited = re.sub(r"^U\d+ \| @(\w+)", r"\1 | @\1", people.read_text(encoding="utf-8"),
                    flags=re.M)
    people.write_text(edited, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "pseudonym", "--map", people,
                   "--allow", allow, "-j", 1) == 0
    after = {r["id"]: r for r in read_jsonl(out)}
    for post_id, text in FIGURE_1_AFTER.items():
        assert after[post_id]["text"] == text
        assert after[post_id]["author"] == dict((p["id"], p["author"]) for p in FIGURE_1)[post_id]


@pytest.mark.slow
def test_figure_1_without_a_map_links_the_same_way(tmp_path, figure_1):
    dump, allow = figure_1
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "pseudonym", "--allow", allow,
                   "-j", 1) == 0
    after = {r["id"]: r for r in read_jsonl(out)}
    ids = {p["author"]: after[p["id"]]["author"] for p in FIGURE_1}    # U43 -> U1, ...
    for post_id, text in FIGURE_1_AFTER.items():
        expected = re.sub(r"\[(U\d+)\]", lambda m: "[%s]" % ids[m.group(1)], text)
        assert after[post_id]["text"] == expected


def test_surrogate_mode_is_consistent_shaped_and_reproducible(tmp_path, figure_1):
    dump, allow = figure_1
    runs = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        assert mmbdeid("scrub", dump, "-o", out, "--mode", "surrogate", "--allow", allow,
                       "--seed", 7, "-j", 1) == 0
        runs.append(read_jsonl(out))
    assert runs[0] == runs[1]
    texts = {r["id"]: r["text"] for r in runs[0]}
    arthur = texts["12"].rsplit("? ", 1)[1]                 # U12's sign-off
    assert arthur.istitle() and arthur != "Arthur"
    assert texts["14"].startswith("Hi %s " % arthur)          # Arhtur -> the same surrogate
    assert " friend %s was" % arthur in texts["15"]          # Arthr too
    assert "Arthur C. Clarke" in texts["12"]
    spaced = texts["15"].rsplit("! ", 1)[1]
    assert re.fullmatch(r"(?:[A-Za-z] )+[A-Za-z]", spaced) and spaced != "R o b e r t"
    authors = {r["id"]: r["author"] for r in runs[0]}
    assert authors["10"] == authors["14"] != authors["12"]
    assert all(" " not in a and a not in ("U43", "U12", "U01") for a in authors.values())


@pytest.mark.slow
def test_placeholder_mode_keeps_the_author_and_placeholders(tmp_path, figure_1):
    dump, _ = figure_1
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "-j", 1) == 0
    after = {r["id"]: r for r in read_jsonl(out)}
    assert after["14"]["author"] == "U43" and "[NAME]" in after["14"]["text"]
    assert after["15"]["text"].endswith("[NAME]")            # R o b e r t, one span


def test_map_edit_moves_a_name_to_another_person(tmp_path, figure_1):
    dump, allow = figure_1
    people = tmp_path / "people.map"
    assert mmbdeid("link", dump, "-o", people, "--allow", allow, "-j", 1) == 0
    text = people.read_text(encoding="utf-8")
    assert "SECRET" in text
    lines = {line.split(" | ")[1]: line for line in text.splitlines() if " | @" in line}
    assert "Mary Jane" in lines["@U43"] and "MJ" in lines["@U43"]
    assert "Arhtur" in lines["@U12"] and "Arthr" in lines["@U12"]
    # Say "Arthr" is someone else: a new person line, the name removed from U12's line.
    edited = text.replace(" | Arthr (1)", "") + "P9 | Arthr\n"
    people.write_text(edited, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "pseudonym", "--map", people,
                   "--allow", allow, "-j", 1) == 0
    assert "our friend [P9] was" in read_jsonl(out)[3]["text"]
    assert "SECRET" not in out.read_text(encoding="utf-8")


@pytest.mark.slow
def test_people_sharing_a_name_in_scope_are_warned_about(tmp_path, capsys):
    posts = [
        {"id": "1", "board": "b", "thread": "t1", "author": "rob_a", "text": "Scan clear!\nRobert"},
        {"id": "2", "board": "b", "thread": "t2", "author": "rob_b", "text": "Me too.\nRobert"},
        {"id": "3", "board": "b", "thread": "t2", "author": "kay", "text": "Glad for you Robert and everyone"},
    ]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    people = tmp_path / "people.map"
    assert main(["link", dump, "-o", str(people), "-j", "1", "--scope", "board"]) == 0
    err = capsys.readouterr().err
    # the candidates, and where each takes part (issue 30: it named a board neither was on)
    assert re.search(r'warning: a name in thread t2 \(scope: board b\) could be '
                     r'U2 \(posts in thread t2\) or U1 \(posts in board b, not in this '
                     r'thread\); used U2', err)
    assert "robert" not in err.lower()                   # names stay out of stderr
    assert re.search(r'# warning: "robert" in thread t2 \(scope: board b\) could be U2',
                     people.read_text(encoding="utf-8"))  # the map is where they belong
    assert main(["link", dump, "-o", str(people), "-j", "1", "--scope", "thread"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_review_list_counts_distinct_strings_and_allow_deny_reapply_it(tmp_path):
    posts = [{"id": str(i), "board": "b", "thread": "t", "author": "kay",
              "text": "Thanks Ron, my onc Dr. Weiss says hi.\nKay"} for i in range(3)]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    review = tmp_path / "review.csv"
    assert mmbdeid("review", dump, "-o", review, "-j", 1) == 0
    with open(review, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["string", "count", "mean_prob", "label", "example", "post_ids"]
    strings = {row["string"]: row for row in rows}
    assert {"Ron", "Weiss", "Kay"} <= set(strings)
    assert strings["Ron"]["count"] == "3" and 0 < float(strings["Ron"]["mean_prob"]) <= 1
    assert strings["Ron"]["example"] == "Thanks [Ron], my onc Dr. Weiss says hi. Kay"
    assert strings["Ron"]["post_ids"] == "0;1;2"
    counts = [int(row["count"]) for row in rows]
    assert counts == sorted(counts, reverse=True)
    (tmp_path / "allow.txt").write_text("Weiss\n", encoding="utf-8")
    (tmp_path / "deny.txt").write_text("onc\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--allow", tmp_path / "allow.txt",
                   "--deny", tmp_path / "deny.txt", "-j", 1) == 0
    text = read_jsonl(out)[0]["text"]
    assert "Weiss says" in text and "my [NAME]" in text and "Ron" not in text


def test_audit_passes_clean_output_and_fails_on_a_planted_leak(tmp_path, figure_1, capsys):
    dump, allow = figure_1
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "pseudonym", "--allow", allow,
                   "-j", 1) == 0
    people = tmp_path / "people.map"
    assert mmbdeid("link", dump, "-o", people, "--allow", allow, "-j", 1) == 0
    audit = ["--original", dump, "--map", str(people), "--allow", allow]
    assert main(["audit", str(out)] + audit) == 0
    records = read_jsonl(out)
    records[2]["text"] += " (Mary Jane)"
    records[3]["text"] = records[3]["text"].replace("our friend", "our friend U12")
    leaky = write_jsonl(tmp_path / "leaky.jsonl", records)
    capsys.readouterr()
    assert main(["audit", leaky] + audit) == 1
    report = capsys.readouterr().out
    assert re.search(r"post 14 chars \d+-\d+: \"Mary Jane\" \(name of U43\)", report)
    assert re.search(r'post 15 chars \d+-\d+: "U12" \(username of U12\)', report)


@pytest.mark.parametrize("args, message", [
    (["--map", "people.map"], "--map needs --mode pseudonym or --mode surrogate"),
    (["--mode", "pseudonym", "--map", "missing.map"], "cannot read the person map"),
    (["--allow", "missing.txt"], "missing.txt"),
])
def test_bad_person_options_are_one_line_errors(tmp_path, figure_1, capsys, args, message):
    dump, _ = figure_1
    (tmp_path / "people.map").write_text("U1 | Arthur\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    argv = ["scrub", dump, "-o", str(out), "-j", "1"] + [
        str(tmp_path / a) if a.endswith((".map", ".txt")) else a for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.slow
def test_thanks_in_a_reply_is_the_person_thanked_not_the_author(tmp_path):
    posts = [
        {"id": "1", "board": "b", "thread": "t1", "author": "linda_k", "parent": None,
         "text": "Any tips for the fatigue?\nLinda"},
        {"id": "2", "board": "b", "thread": "t1", "author": "ron77", "parent": "1",
         "text": "Short naps help me.\nThanks Linda"},
    ]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    out = tmp_path / "out.jsonl"
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "pseudonym", "-j", 1) == 0
    first, reply = read_jsonl(out)
    assert reply["text"] == "Short naps help me.\nThanks [%s]" % first["author"]
    assert reply["author"] != first["author"]
