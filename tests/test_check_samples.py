"""The fictional check samples of issue 31: ``corpora_samples/technical.annotated.jsonl`` (the
development sample of code-aware detection), ``message_structure.annotated.jsonl`` (that of
the message-structure steps) and, kept aside for the final figures,
``corpora_samples/blind/medical_check_blind.annotated.jsonl`` and ``general_blind.annotated.jsonl``.

All four are what ``tools/build_check_samples.py`` builds from their marked-up sources and hold
together: offsets read back, spans and kept words sorted and apart, replies point to earlier
posts of their thread, and corpora_samples/README.md gives their counts. The blind files are
checked by machine only: what a failure prints about them is post ids and reasons, never text.
"""
import re
from pathlib import Path

import pytest

import paths
from sample_builds import build_script, digest, load, thread_problems

SAMPLES = Path(paths.SAMPLES)
TECHNICAL = SAMPLES / "technical.annotated.jsonl"
STRUCTURE = SAMPLES / "message_structure.annotated.jsonl"
MEDICAL = SAMPLES / "blind" / "medical_check_blind.annotated.jsonl"
GENERAL = SAMPLES / "blind" / "general_blind.annotated.jsonl"
FILES = [pytest.param(TECHNICAL, id="technical"), pytest.param(STRUCTURE, id="structure"),
         pytest.param(MEDICAL, id="medical-blind"),
         pytest.param(GENERAL, id="general-blind")]
FIELDS = ["id", "board", "thread", "author", "parent", "time", "text", "spans", "keep"]


@pytest.fixture(scope="module")
def builder():
    return build_script("build_check_samples")


@pytest.mark.parametrize("path", FILES)
def test_the_shipped_file_is_what_the_script_builds(builder, path):
    built = builder.build_all()
    # digests, so that a stale blind file does not print its text
    assert digest(built[path]) == digest(path.read_text(encoding="utf-8")), (
        "%s is stale: run python3 tools/build_check_samples.py" % path.name)


@pytest.mark.parametrize("path", FILES)
def test_offsets_read_back_and_spans_and_kept_words_are_apart(builder, path):
    problems = []
    for record in load(path):
        text = record["text"]
        if list(record) != FIELDS:
            problems.append((record["id"], "fields"))
        for number, span in enumerate(record["spans"]):
            piece = text[span["start"]:span["end"]]
            if set(span) != {"start", "end", "label"} or span["label"] not in ("NAME", "USER"):
                problems.append((record["id"], "span", number, "keys or label"))
            if not piece or piece != piece.strip() or "@" in piece:
                problems.append((record["id"], "span", number, "empty, outer space or @"))
        for number, keep in enumerate(record["keep"]):
            if text[keep["start"]:keep["end"]] != keep["text"]:
                problems.append((record["id"], "keep", number, "does not read back"))
            if keep["what"] not in builder.KEEP_KINDS:
                problems.append((record["id"], "keep", number, "kind"))
        items = sorted(record["spans"] + record["keep"], key=lambda item: item["start"])
        previous = 0
        for item in items:
            if not previous <= item["start"] < item["end"] <= len(text):
                problems.append((record["id"], item["start"], "overlapping or outside"))
            previous = item["end"]
        if [s["start"] for s in record["spans"]] != sorted(s["start"] for s in record["spans"]):
            problems.append((record["id"], "spans unsorted"))
    assert problems == []


@pytest.mark.parametrize("path", FILES)
def test_replies_point_to_earlier_posts_of_their_thread(path):
    assert thread_problems(load(path)) == []


def test_sizes_the_issue_asks_for(builder):
    medical = builder.stats(load(MEDICAL))
    assert medical["posts"] >= 100 and medical["boards"] >= 6
    assert medical["medical keep"] >= 400 and medical["NAME"] + medical["USER"] >= 150
    assert all(medical["keep " + kind] > 0 for kind in builder.MEDICAL_KINDS)
    general = builder.stats(load(GENERAL))
    assert 60 <= general["posts"] <= 80 and general["boards"] >= 4
    technical = builder.stats(load(TECHNICAL))
    assert 40 <= technical["posts"] <= 60
    assert all(technical["keep " + kind] > 0 for kind in ("code", "product", "emoji"))
    assert technical["NAME"] > 0 and technical["USER"] > 0
    structure = builder.stats(load(STRUCTURE))
    assert structure["posts"] >= 30 and structure["medical keep"] > 0
    blind = load(MEDICAL) + load(GENERAL)
    assert not {r["board"] for r in blind} & {r["board"] for r in load(TECHNICAL) + load(STRUCTURE)}


# The shapes issue 31 lists for technical text (item 5), as written in the development sample.
@pytest.mark.parametrize("word, what", [
    ("std::random_device", "code"), ("AKVideoImageView", "code"), ("Lex.DB", "product"),
    ("USBPollerThread", "code"), ("user_profile_id", "code"), (":zap:", "emoji"),
    (":palm_tree:", "emoji"), ("Symfony", "product"), ("Kafka", "product"),
    ("Babel", "product"), ("Travis", "product"), ("Greenkeeper", "product"),
    ("Hope.Core", "code"),
])
def test_technical_words_that_stay(word, what):
    found = {keep["what"] for record in load(TECHNICAL) for keep in record["keep"]
             if keep["text"] == word}
    assert found == {what}


@pytest.mark.parametrize("post_id, written, label", [
    ("gh02-06", "Mirela Dragomir", "NAME"),          # Signed-off-by: ... <mail>
    ("gh06-05", "Maria", "NAME"),                    # Thanks, Maria.
    ("gh06-01", "jdoe", "USER"),                     # cc @jdoe
    ("gh05-03", "Faith Mensah", "NAME"),             # a word-name beside will/Hope.Core
])
def test_technical_people(post_id, written, label):
    record = next(record for record in load(TECHNICAL) if record["id"] == post_id)
    assert label in [span["label"] for span in record["spans"]
                     if record["text"][span["start"]:span["end"]] == written]


def test_marks_become_offsets(builder):
    text, spans, keep = builder.parse_text(
        "cc @[[jdoe|USER]]: `{{std::mt19937|code}}` hangs, [[Ana Ruiz]]'s {{ANA|lab}} too", "t")
    assert text == "cc @jdoe: `std::mt19937` hangs, Ana Ruiz's ANA too"
    assert spans == [{"start": 4, "end": 8, "label": "USER"},
                     {"start": 32, "end": 40, "label": "NAME"}]
    assert keep == [{"start": 11, "end": 23, "text": "std::mt19937", "what": "code"},
                    {"start": 43, "end": 46, "text": "ANA", "what": "lab"}]


def source(post):
    """A thread of four posts, the last one ``post``."""
    return ("=== b t1 2026-01-01 title\n### ann\nfirst\n### bob\nsecond\n### ann > 2\n"
            "third\n### bob\n" + post + "\n")


@pytest.mark.parametrize("post, error", [
    ("hi [[Bob]", "unbalanced"),
    ("hi [[Bob]] {{hope|maybe}}", "keep kind"),
    ("hi [[ Bob]]", "outer spaces"),
    ("hi [[@ann|USER]]", "without @"),
    ("hi [[Bo]]b", "word boundaries"),
    ("hi {{Lupr|drug}}on", "word boundaries"),
])
def test_slips_in_the_markup_are_refused_with_their_line(builder, post, error):
    with pytest.raises(builder.SampleError, match=r"^t\.txt:8\b.*" + re.escape(error)):
        builder.build(source(post), "t.txt")


def test_the_readmes_give_each_files_counts(builder):
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    for path in (TECHNICAL, MEDICAL, GENERAL):
        name = path.relative_to(SAMPLES).as_posix()
        row = next(line for line in readme.splitlines() if line.startswith("| `%s` |" % name))
        shape = builder.stats(load(path))
        counts = ["%d fictional posts in %d threads" % (shape["posts"], shape["threads"]),
                  "%d `NAME`, %d `USER`" % (shape["NAME"], shape["USER"]),
                  "%d spans" % (shape["NAME"] + shape["USER"])]
        if path == MEDICAL:
            counts += ["%d medical words" % shape["medical keep"]]
            counts += ["`%s` %d" % (kind, shape["keep " + kind])
                       for kind in builder.MEDICAL_KINDS]
        else:
            counts += ["%d kept words" % shape["keep"]]
        for count in counts:
            assert count in row, (name, count)
    blind_readme = (SAMPLES / "blind" / "README.md").read_text(encoding="utf-8")
    for name in (MEDICAL.name, GENERAL.name):
        assert "`%s`" % name in blind_readme
    assert blind_readme.count("Do not read these files") == 2
    flat = " ".join(blind_readme.split())
    assert "blind on 2026-11-29, before the detection rules" in flat and "read once" in flat
