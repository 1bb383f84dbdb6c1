"""Markup kept where a name is replaced (mmbdeid/text/markup.py, issue 29): the replacement
covers the name's characters only; every inline tag inside it stays in place, balanced as in
the input, and so do emphasis underscores around a name. The texts are fictional."""
import re

import pytest

import mmbdeid
from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.spans import Span
from mmbdeid.text.markup import stitch_keeping_markup, without_markup


@pytest.mark.parametrize("text, replaced, label, expected, letters", [
    ("Hi <b>Lin</b>da!", "Lin</b>da", "NAME", "Hi <b>[X]</b>!", "Linda"),
    ('Hi Lin<span class="x">da</span>!', 'Lin<span class="x">da', "NAME",
     'Hi [X]<span class="x"></span>!', "Linda"),
    ("Hi Li<i>n</i>da!", "Li<i>n</i>da", "NAME", "Hi [X]<i></i>!", "Linda"),
    ("Hi [b]Lin[/b]da!", "Lin[/b]da", "NAME", "Hi [b][X][/b]!", "Linda"),
    ("Hi _Linda_!", "_Linda_", "NAME", "Hi _[X]_!", "Linda"),
    ("Hi __Linda__!", "__Linda__", "NAME", "Hi __[X]__!", "Linda"),
    ('Hi Lin<span class="a_b_">da_!', 'Lin<span class="a_b_">da_', "NAME",
     'Hi [X]<span class="a_b_">_!', "Linda"),           # an underscore in a tag is the tag's
    ("Hi _kay_!", "_kay_", "USER", "Hi [X]!", "_kay_"),   # a username's underscores are its
    ("Hi ___!", "___", "NAME", "Hi [X]!", "___"),         # nothing but underscores: all of it
    ("Hi Lin__da_!", "Lin__da_", "NAME", "Hi [X]_!", "Lin__da"),   # inside, part of it
    ("Hi Linda!", "Linda", "NAME", "Hi [X]!", "Linda"),
])
def test_the_replacement_covers_the_letters_and_the_markup_stays(text, replaced, label,
                                                                 expected, letters):
    start = text.index(replaced)
    span = Span(label, start, start + len(replaced), 0.9, "crf")
    assert stitch_keeping_markup(text, [(span, "[X]")]) == expected
    assert without_markup(text, span) == letters


LETTER = "Thanks %s, my TSH is fine now."
# each way of writing the name, and what of it stays around the replacement
MARKED_NAMES = [
    ("<b>Lin</b>da", "<b>%s</b>"),
    ('Lin<span class="x">da</span>', '%s<span class="x"></span>'),
    ("_Linda_", "_%s_"),
    ("*Linda*", "*%s*"),
    ("**Linda**", "**%s**"),
    ("<i>Linda</i>", "<i>%s</i>"),
    ("[b]Lin[/b]da", "[b]%s[/b]"),
    ("<em>Li</em><strong>nda</strong>", "<em>%s</em><strong></strong>"),
]
_MARKUP = re.compile(r"</?\w+[^>]*>|\[/?\w\]|_")


@pytest.mark.parametrize("name, kept", MARKED_NAMES)
def test_the_api_keeps_the_markup_and_scrubbing_again_changes_nothing(name, kept):
    scrubbed = mmbdeid.scrub(LETTER % name)
    assert scrubbed == LETTER % (kept % "[NAME]")
    assert _MARKUP.findall(scrubbed) == _MARKUP.findall(LETTER % name)
    assert mmbdeid.scrub(scrubbed) == scrubbed
    masked = mmbdeid.scrub(LETTER % name, mode="mask")      # the name's letters masked
    assert len(masked) == len(LETTER % name) and "Li" not in masked and "da" not in masked


@pytest.mark.parametrize("mode", ["placeholder", "pseudonym"])
def test_the_dump_path_keeps_the_markup_as_the_api_does(tmp_path, mode):
    posts = [{"id": str(number), "board": "thyroid", "thread": "t1",
              "author": "member%d" % number, "text": LETTER % name}
             for number, (name, _) in enumerate(MARKED_NAMES)]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    out = str(tmp_path / "out.jsonl")
    assert main(["scrub", dump, "-o", out, "--mode", mode, "--jobs", "1", "--quiet"]) == 0
    scrubbed = [record["text"] for record in read_jsonl(out)]
    # one value for the one person, wherever the markup lies
    (value,) = {re.search(r"\[[A-Z]+\d*\]", text).group() for text in scrubbed}
    assert scrubbed == [LETTER % (kept % value) for _, kept in MARKED_NAMES]
    if mode == "placeholder":
        assert scrubbed == [mmbdeid.scrub(post["text"]) for post in posts]
    else:
        assert re.fullmatch(r"\[[UP]\d+\]", value)
    # the output scrubbed again is the same text
    again = str(tmp_path / "again.jsonl")
    assert main(["scrub", out, "-o", again, "--mode", mode, "--jobs", "1", "--quiet"]) == 0
    assert [record["text"] for record in read_jsonl(again)] == scrubbed


def test_a_name_split_by_markup_hashes_as_the_name():
    scrubber = mmbdeid.Scrubber(mode="hash", hash_key=b"an example key, not a secret one")
    plain = scrubber.scrub(LETTER % "Linda")
    assert re.fullmatch(re.escape(LETTER) % r"\[NAME:[0-9a-f]{12}\]", plain)
    assert scrubber.scrub(LETTER % "<b>Lin</b>da") == plain.replace("[NAME", "<b>[NAME", 1) \
        .replace("],", "]</b>,", 1)
