"""scrub, link and review count the same things the same way (issue 21): their summaries
agree on the posts, tokens and mentions found in the same dump, with the default model."""
import json
import re


from mmbdeid.cli import main

# Fictional posts: a two-word name (one mention, two tokens), a username, an e-mail, a URL
# and a phone number (found by pattern: counted by all three), a name said twice in a
# thread.
POSTS = [
    ("t1", "kaygirl", "Thanks Mary Jane, see you Tuesday.\nKay"),
    ("t1", "Cindy_Lou", "Ask kaygirl, she knows. Mail me at cindy@example.com\nCindy"),
    ("t1", "kaygirl", "Call the Y at (555) 480-1123 or see www.example.org/help, Cindy."),
    ("t2", "fitafter50", "Day 5 of chemo. My brother Ray drove me.\nJoanne"),
    ("t2", "pinkwarrior72", "Joanne, hang in there. Ray sounds like a keeper!"),
]


def write_dump(path):
    path.write_text("".join(json.dumps({"id": "p%d" % i, "thread": thread, "author": author,
                                        "board": "b", "text": text}) + "\n"
                            for i, (thread, author, text) in enumerate(POSTS)),
                    encoding="utf-8")
    return str(path)


def summary(capsys, argv):
    assert main(argv + ["--jobs", "1"]) == 0
    lines = [line[len("mmbdeid: "):] for line in capsys.readouterr().err.splitlines()
             if line.startswith("mmbdeid: ") and not line.startswith("mmbdeid: pass ")]
    figures = {}
    for line in lines:
        posts = re.match(r"\D+ (\d+) posts, (\d+) tokens in", line)
        if posts:
            figures["posts"], figures["tokens"] = posts.groups()
        elif ":" in line and not line.startswith("warning"):
            key, value = line.split(":", 1)
            figures[key] = value.strip()
        elif line.endswith("people linked"):
            figures["people"] = line.split()[0]
    return figures


def test_scrub_link_and_review_count_alike(tmp_path, capsys):
    dump = write_dump(tmp_path / "dump.jsonl")
    out = tmp_path / "out.jsonl"
    scrub = summary(capsys, ["scrub", dump, "-o", str(out)])
    pseudonyms = summary(capsys, ["scrub", dump, "-o", str(tmp_path / "p.jsonl"),
                                  "--mode", "pseudonym"])
    link = summary(capsys, ["link", dump, "-o", str(tmp_path / "people.map")])
    review = summary(capsys, ["review", dump, "-o", str(tmp_path / "review.csv")])
    for figure in ("posts", "tokens", "found"):
        assert scrub[figure] == pseudonyms[figure] == link[figure] == review[figure], figure
    assert pseudonyms["people"] == link["people"]
    # every pattern kind counted alike: the dump has one of each
    assert re.search(r"EMAIL 1, URL 1, PHONE 1", review["found"])
    # what scrub says it removed is what it wrote: one placeholder per mention
    written = out.read_text(encoding="utf-8")
    for label, count in re.findall(r"([A-Z]+) (\d+)", scrub["removed"]):
        assert written.count("[%s]" % label) == int(count), label
