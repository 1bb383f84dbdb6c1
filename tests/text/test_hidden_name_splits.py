"""Names split by invisible characters, inline markup or character references (issue 18):
detection reads the visible text, and the name's whole original extent is replaced, in
every output mode, keeping the markup inside it in place (issue 29); the spans file points
into the original text. The texts are fictional."""
import pytest

import mmbdeid
from slow_cases import slow_except
from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.files.corpora import load_labelled

# zero-width space, non-joiner, joiner, word joiner, BOM, soft hyphen
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
# Each way of writing the name, and what of it stays around the placeholder.
SPLIT_NAMES = [("Li%snda" % character, "[NAME]") for character in INVISIBLE] + [
    ("<b>Lin</b>da", "<b>[NAME]</b>"),         # every tag stays, in place
    ("Lin<i>da</i>", "[NAME]<i></i>"),
    ("<strong>Li</strong>nda", "<strong>[NAME]</strong>"),
    ('Li<span class="x">nda</span>', '[NAME]<span class="x"></span>'),
    ("[b]Lin[/b]da", "[b][NAME][/b]"),
    ("[u]Li[/u]nda", "[u][NAME][/u]"),
    ("<b>Linda</b>", "<b>[NAME]</b>"),           # markup around the name stays
    ("&#76;inda", "[NAME]"),
    ("&#x4c;inda", "[NAME]"),
    ("Lind&#97;", "[NAME]"),
    ("Li&#8203;nda", "[NAME]"),
    ("&#76;i\u00ad<i>nda</i>", "[NAME]<i></i>"),
]
# One of each way in the default run: an invisible character, markup, BBCode, a character
# reference, all three at once.
DEFAULT_RUN_NAMES = [("Li\u200bnda", "[NAME]"), ("<b>Lin</b>da", "<b>[NAME]</b>"),
                     ("[b]Lin[/b]da", "[b][NAME][/b]"), ("&#76;inda", "[NAME]"),
                     ("&#76;i\u00ad<i>nda</i>", "[NAME]<i></i>")]
LETTER = "Thanks %s, my TSH is fine now."
FRAGMENTS = ("Li", "Lin", "nda", "da>", " da", "inda", "&#")


@pytest.mark.parametrize("name, replaced", slow_except(SPLIT_NAMES, DEFAULT_RUN_NAMES))
def test_no_fragment_of_a_split_name_is_left_and_scrubbing_again_changes_nothing(name,
                                                                                replaced):
    scrubbed = mmbdeid.scrub(LETTER % name)
    assert scrubbed == LETTER % replaced
    assert not any(fragment in scrubbed for fragment in FRAGMENTS)
    assert mmbdeid.scrub(scrubbed) == scrubbed


def test_a_split_name_is_found_by_the_deny_list_too():
    text = "Dr. Kowal\u200bczyk and Dr. Kowal<i>czyk</i> agree"
    assert mmbdeid.scrub(text, deny=["Kowalczyk"]) == "Dr. [NAME] and Dr. [NAME]<i></i> agree"


POSTS = [
    {"id": "p1", "board": "thyroid", "thread": "t1", "author": "lindab",
     "text": "My TSH came back at 2.1 today, feeling better.\nLinda"},
    {"id": "p2", "board": "thyroid", "thread": "t1", "author": "kaygirl",
     "text": "Thanks Li\u200bnda, so glad the TSH is fine now."},
    {"id": "p3", "board": "thyroid", "thread": "t1", "author": "boo",
     "text": "Thanks <b>Lin</b>da, and hugs to &#76;inda too."},
]
# the original extent of each removed name, per post
REMOVED = {"p1": ["Linda"], "p2": ["Li\u200bnda"], "p3": ["Lin</b>da", "&#76;inda"]}


@pytest.mark.parametrize("mode, name", [
    ("placeholder", "[NAME]"), pytest.param("pseudonym", "[U1]", marks=pytest.mark.slow),
    pytest.param("surrogate", None, marks=pytest.mark.slow)])
def test_spans_file_points_into_the_original_text_in_every_mode(tmp_path, mode, name):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out, spans = str(tmp_path / "out.jsonl"), str(tmp_path / "spans.jsonl")
    assert main(["scrub", dump, "-o", out, "--spans", spans, "--mode", mode,
                 "--jobs", "1", "--quiet"]) == 0
    texts = {post["id"]: post["text"] for post in POSTS}
    listed = {record["id"]: [texts[record["id"]][s["start"]:s["end"]]
                             for s in record["spans"]] for record in read_jsonl(spans)}
    assert listed == REMOVED
    scrubbed = [record["text"] for record in read_jsonl(out)]
    assert not any(fragment in text for text in scrubbed for fragment in FRAGMENTS)
    if name is not None:            # one person: the same pseudonym for every spelling
        assert [text.count(name) for text in scrubbed] == [1, 1, 2]


def test_a_board_members_name_split_by_a_hidden_character_is_found_in_the_map(tmp_path):
    # a threshold the model's score for the name (0.998) does not pass: the map finds it
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS[1:2])
    people = tmp_path / "people.map"
    people.write_text("U1 | @lindab | Linda (4)\n", encoding="utf-8")
    out = str(tmp_path / "out.jsonl")
    assert main(["scrub", dump, "-o", out, "--mode", "pseudonym", "--map", str(people),
                 "--threshold", "0.9999", "--jobs", "1", "--quiet"]) == 0
    assert read_jsonl(out)[0]["text"] == "Thanks [U1], so glad the TSH is fine now."


@pytest.mark.parametrize("text, name", [
    ("Thanks Li\u200bnda, bye", "Li\u200bnda"),
    ("Thanks <b>Lin</b>da, bye", "Lin</b>da"),
    ("Thanks &#76;inda, bye", "&#76;inda"),
])
def test_gold_spans_in_original_offsets_label_the_visible_token(tmp_path, text, name):
    start = text.index(name)
    gold = write_jsonl(tmp_path / "gold.jsonl", [
        {"id": "g1", "text": text,
         "spans": [{"start": start, "end": start + len(name), "label": "NAME"}]}])
    [(document, labels)] = load_labelled(gold)
    assert dict(zip(document.tokens, labels)) == {
        "Thanks": "O", "Linda": "NAME", ",": "O", "bye": "O"}
