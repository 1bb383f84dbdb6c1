"""Mentions, not tokens, in the output: adjacent name tokens become one span, one
placeholder and one person (``mmbdeid.spans.merge_mentions``), while the analyzer and the
evaluation stay per token and the spans file keeps every token's probability."""
import csv
import re

import pytest

from jsonl_files import (expected_token_probabilities, listed_token_probabilities, read_jsonl,
                         unexpected_probabilities, write_jsonl)
from mmbdeid.cli import main
from mmbdeid.people.mentions import mentions_of, name_groups
from mmbdeid.spans import Span, merge_mentions

from documents import name_spans, replace_spans


def spans_over(text, *items):
    """Spans over the first occurrence of each item after the previous one; an item is
    ``"word"`` (NAME) or ``("word", LABEL)``; probabilities 0.1, 0.2, ..."""
    spans, position = [], 0
    for number, item in enumerate(items, 1):
        word, label = (item, "NAME") if isinstance(item, str) else item
        start = text.index(word, position)
        spans.append(Span(label, start, start + len(word), number / 10, "crf"))
        position = start + len(word)
    return spans


@pytest.mark.parametrize("text, items, mentions", [
    ("Thanks Mary Jane", ["Mary", "Jane"], ["Mary Jane"]),
    ("My doctor David A. Foti said", ["David", "A", "Foti"], ["David A. Foti"]),
    ("My doctor David A. Foti said", ["David", "A", ".", "Foti"], ["David A. Foti"]),
    ("ask J. R. Smith", ["J", "R", "Smith"], ["J. R. Smith"]),
    ("ask J.R. Smith", ["J", "R", "Smith"], ["J.R. Smith"]),
    ("called Dr. Osei", ["Dr", "Osei"], ["Dr. Osei"]),             # a title's dot
    ("Thanks Jo. Mary wrote", ["Jo", "Mary"], ["Jo", "Mary"]),    # a sentence's dot
    ("Mary-Jane here", ["Mary", "Jane"], ["Mary-Jane"]),
    ("Kay's mum", ["Kay", "'s"], ["Kay's"]),                        # touching
    ("Mary\tJane and Mary\u00a0Jane", ["Mary", "Jane", "Mary", "Jane"],
     ["Mary\tJane", "Mary\u00a0Jane"]),
    ("Mary\nJane", ["Mary", "Jane"], ["Mary", "Jane"]),             # a line apart
    ("Thanks Kay\nMary wrote", ["Kay", "Mary"], ["Kay", "Mary"]),
    ("Thanks Kay, Mary", ["Kay", "Mary"], ["Kay", "Mary"]),         # a comma apart
    ("Mary     Jane", ["Mary", "Jane"], ["Mary", "Jane"]),          # a column apart
    ("Hi Kay kaygirl", ["Kay", ("kaygirl", "USER")], ["Kay", "kaygirl"]),   # NAME + USER
    ("thanks @kay @mary", [("@kay", "USER"), ("@mary", "USER")], ["@kay", "@mary"]),
    ("see mj.poe", [("mj", "USER"), ("poe", "USER")], ["mj.poe"]),  # a username in pieces
    ("Kay www.kay.com Mary", ["Kay", ("www.kay.com", "URL"), "Mary"],
     ["Kay", "www.kay.com", "Mary"]),
    ("Kay kay@example.com", ["Kay", ("kay@example.com", "EMAIL")], ["Kay", "kay@example.com"]),
])
def test_merge_mentions(text, items, mentions):
    merged = merge_mentions(text, spans_over(text, *items))
    assert [text[s.start:s.end] for s in merged] == mentions


def test_a_mention_has_its_best_part_probability_and_source():
    text = "Thanks Mary Jane"
    parts = [Span("NAME", 7, 11, 0.4, "crf"), Span("NAME", 12, 16, 1.0, "deny")]
    assert merge_mentions(text, parts) == [Span("NAME", 7, 16, 1.0, "deny")]
    assert merge_mentions(text, parts[:1]) == parts[:1]          # a lone span is itself


def test_placeholders_are_per_mention():
    text = "Thanks Mary Jane, David A. Foti and Kay\nMary"
    spans = spans_over(text, "Mary", "Jane", "David", "A", "Foti", "Kay", "Mary")
    assert replace_spans(text, spans) == "Thanks [NAME], [NAME] and [NAME]\n[NAME]"


@pytest.mark.parametrize("text, items, mentions", [
    ("Thanks Mary-Jane", ["Mary", "Jane"], ["Mary-Jane"]),
    ("by David A. Foti", ["David", "A", ".", "Foti"], ["David A. Foti"]),
    ("Thanks Linda.", ["Linda", "."], ["Linda"]),       # not the sentence's full stop
    ("called Dr. Osei", ["Dr", "Osei"], ["Osei"]),       # a title is not the name
])
def test_person_mentions_use_the_same_gaps(text, items, mentions):
    assert [m.text for m in mentions_of(text, spans_over(text, *items))] == mentions


def test_a_person_mention_keeps_its_parts():
    text = "Thanks Mary Jane"
    (mention,) = mentions_of(text, spans_over(text, "Mary", "Jane"))
    assert [(p.start, p.end, p.score) for p in mention.parts] == [(7, 11, 0.1), (12, 16, 0.2)]


def test_review_strings_keep_non_name_words_apart():
    text = "Ouch Hank, and Dr. Osei and Mary Jane"
    spans = spans_over(text, "Ouch", "Hank", "Dr", "Osei", "Mary", "Jane")
    assert [" ".join(text[p.start:p.end] for p in group)
            for group in name_groups(text, spans)] == ["Ouch", "Hank", "Dr", "Osei",
                                                       "Mary Jane"]


class CountedText(str):
    """A post that counts the characters sliced out of it or searched for a line break."""
    sliced = 0

    def __getitem__(self, index):
        part = str.__getitem__(self, index)
        CountedText.sliced += len(part)
        return part

    def rfind(self, sub, start=0, end=None):
        CountedText.sliced += len(str.__getitem__(self, slice(start, end)))
        return str.rfind(self, sub, start, len(self) if end is None else end)


def characters_sliced_to_group(names, gap):
    text = CountedText(gap.join(["Linda"] * names))
    spans = [Span("NAME", i * (5 + len(gap)), i * (5 + len(gap)) + 5, 0.9, "crf")
             for i in range(names)]
    CountedText.sliced = 0
    (group,) = name_groups(text, spans)
    assert len(group) == names
    return CountedText.sliced


@pytest.mark.parametrize("gap", [" ", "\u200b", ""])
def test_grouping_adjacent_names_is_linear(gap):
    # the mention's last word read as the mention grows, not the mention split anew at
    # each name ("Linda Linda ..." 100,000 times took over 500 s); names a zero-width
    # space apart, or touching, make one word that grows with them
    assert characters_sliced_to_group(800, gap) <= 2.2 * characters_sliced_to_group(400, gap)


def characters_read_for_mentions(names, gap):
    text = CountedText(gap.join(["Linda"] * names))
    spans = [Span("NAME", i * (5 + len(gap)), i * (5 + len(gap)) + 5, 0.9, "crf")
             for i in range(names)]
    CountedText.sliced = 0
    assert len(mentions_of(text, spans)) == names
    return CountedText.sliced


@pytest.mark.parametrize("gap", [", ", "\n", ". "])
def test_many_mentions_are_read_in_linear_time(gap):
    # each mention's role read from its line in place, not the line before it copied (and
    # the post before it stripped) for each ("Linda, Linda, ...": 100,000 names, 20 s)
    assert characters_read_for_mentions(800, gap) <= 2.2 * characters_read_for_mentions(400,
                                                                                         gap)


def test_long_words_are_in_no_list_keep_apart_reads():
    from mmbdeid.lexicon.wordlists import load_wordlist
    from mmbdeid.people.mentions import LONG_WORD, _common_words
    for words in (load_wordlist("greetings"), load_wordlist("honorifics"), _common_words()):
        assert max(map(len, words)) < LONG_WORD


@pytest.mark.parametrize("text, apart", [
    ("Linda Linda", False),
    ("Ouch Hank", True),
    ("Kristen btw", True),
    ("Dr Osei", True),
    ("David A", False),
    ("A.A Foti", False),
    ("x" * 70 + "\u200bLinda", True),                   # the case differs
    ("X" * 70 + "\u200bLinda", False),
    ("X" * 70 + "\u200bA", False),
    ("A" + "." * 70 + " Linda", False),              # an initial with many dots
    ("a" + "." * 70 + " Linda", True),               # "a" is never a name
])
def test_keep_apart_reads_the_last_word(text, apart):
    from mmbdeid.people.mentions import keep_apart
    cut = max(text.rfind(" "), text.rfind("\u200b"))
    previous = Span("NAME", 0, cut, 0.5, "crf")
    span = Span("NAME", cut + 1, len(text), 0.5, "crf")
    assert keep_apart(text, previous, span) is apart


# -- through the command line (the bundled default model) -----------------------------
POSTS = [
    {"id": "1", "board": "b", "thread": "t", "author": "mjpoe", "parent": None,
     "text": "New here, diagnosed last month. Any tips?\nMary Jane"},
    {"id": "2", "board": "b", "thread": "t", "author": "kaygirl", "parent": "1",
     "text": "Hi Mary Jane, welcome! Ask me anything."},
]


def run(*args):
    return main([str(a) for a in args] + ["--quiet", "-j", "1"])


def test_scrub_writes_one_placeholder_and_one_span_per_mention(tmp_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out, spans = tmp_path / "out.jsonl", tmp_path / "spans.jsonl"
    assert run("scrub", dump, "-o", out, "--spans", spans) == 0
    texts = [r["text"] for r in read_jsonl(out)]
    assert texts == ["New here, diagnosed last month. Any tips?\n[NAME]",
                     "Hi [NAME], welcome! Ask me anything."]
    for record, post in zip(read_jsonl(spans), POSTS):
        (entry,) = [s for s in record["spans"]
                    if post["text"][s["start"]:s["end"]] == "Mary Jane"]
        assert len(record["spans"]) == 1
        parts = entry["tokens"]
        assert [post["text"][p["start"]:p["end"]] for p in parts] == ["Mary", "Jane"]
        best = max(parts, key=lambda p: p["prob"])
        assert entry["prob"] == best["prob"] and entry["source"] == best["source"]
        # the model's, or raised by the same word removed elsewhere in the thread
        assert all(p["source"] in ("crf", "consistency") for p in parts)


def test_low_threshold_spans_still_give_every_token_its_own_probability(tmp_path,
                                                                        tiny_model_path):
    """The DESIGN contract (``--threshold 0.001 --spans``: every token at or above the
    threshold with its own probability), read through each entry's ``tokens``."""
    posts = POSTS + [{"id": "3", "board": "b", "thread": "t", "author": "boo",
                      "text": "Hi Kay! @kaygirl mail me at boo@example.com.\nBarb"}]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    spans = tmp_path / "spans.jsonl"
    assert run("scrub", dump, "-o", tmp_path / "o.jsonl", "--model", tiny_model_path,
               "--threshold", "0.001", "--spans", spans) == 0
    records = read_jsonl(spans)
    assert any("tokens" in s for r in records for s in r["spans"])    # some were merged
    listed = listed_token_probabilities(spans)
    expected = expected_token_probabilities(posts, tiny_model_path, 0.001)
    assert set(listed) == set(expected)
    assert unexpected_probabilities(listed, expected, 0.001) == {}


@pytest.mark.parametrize("mode", ["pseudonym", "surrogate"])
def test_person_modes_give_a_mention_one_value(tmp_path, mode):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    out, spans = tmp_path / "out.jsonl", tmp_path / "spans.jsonl"
    assert run("scrub", dump, "-o", out, "--mode", mode, "--spans", spans) == 0
    records = read_jsonl(out)
    person = records[0]["author"]
    if mode == "pseudonym":
        assert [r["text"] for r in records] == [
            "New here, diagnosed last month. Any tips?\n[%s]" % person,
            "Hi [%s], welcome! Ask me anything." % person]
    else:                       # one fake full name, the same in both posts
        first = records[0]["text"].rsplit("\n", 1)[1]
        assert re.fullmatch(r"[A-Z][a-z'-]+ [A-Z][a-z'-]+", first), first
        assert records[1]["text"] == "Hi %s, welcome! Ask me anything." % first
    for record in read_jsonl(spans):
        assert len(record["spans"]) == 1 and record["spans"][0]["person"] == "U1"


def test_review_lists_a_full_name_once(tmp_path):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    review = tmp_path / "review.csv"
    assert run("review", dump, "-o", review) == 0
    with open(review, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["string"], r["count"]) for r in rows] == [("Mary Jane", "2")]


@pytest.mark.parametrize("text, names, expected", [
    ("Re: Kowalczyk, Jan P. today", ["Kowalczyk", "Jan P"], ["Kowalczyk, Jan P"]),
    ("the band says NOWAK, ANNA.", ["NOWAK", "ANNA"], ["NOWAK, ANNA"]),
    # a list of names, and names addressed, stay apart
    ("Thank you Dez, Mari and Sue", ["Dez", "Mari", "Sue"], ["Dez", "Mari", "Sue"]),
    ("Thanks Grant, Marcus", ["Grant", "Marcus"], ["Grant", "Marcus"]),
    ("Rose, Colm is right.", ["Rose", "Colm"], ["Rose", "Colm"]),
])
def test_a_surname_first_form_is_one_mention(text, names, expected):
    assert [m.text for m in mentions_of(text, name_spans(text, names))] == expected
