"""Term lists (plain, and review lists as CSV, TSV or JSON Lines), whole-word matching, allow and deny steps."""
import gzip
import random
import re

import pytest

from mmbdeid.errors import InputError
from mmbdeid.files.termlists import load_terms
from mmbdeid.text.terms import TermMatcher


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(path)


# --- load_terms -------------------------------------------------------------------------

@pytest.mark.parametrize("name, content, expected", [
    ("allow.txt", "# drugs the model keeps tagging\nHumira\n\n  Arthur C. Clarke  \nHumira\n",
     ["Humira", "Arthur C. Clarke"]),
    ("deny.txt", "\ufeffkaygirl96\r\nMary \t Jane\n   # indented comment\nMary Jane\n",
     ["kaygirl96", "Mary Jane"]),                  # BOM, CRLF, inner spaces normalised
    ("empty.txt", "", []),
    ("only-comments.txt", "# nothing yet\n\n", []),
    ("review.csv", "string,count,mean_prob,label\nLindqvist,3,0.91,NAME\n"
                   '"Clarke, Arthur",1,0.55,O\n,2,0.5,O\nLindqvist,1,0.9,NAME\n',
     ["Lindqvist", "Clarke, Arthur"]),             # empty cell skipped, duplicate dropped
    ("reordered.csv", "count,label,string\n2,NAME,hope\n1,O,Mary  Jane\n",
     ["hope", "Mary Jane"]),
    ("empty.csv", "", []),
    ("header-only.csv", "string,count\n", []),
    ("review.tsv", "string\tcount\nLindqvist\t3\nClarke, Arthur\t1\n",
     ["Lindqvist", "Clarke, Arthur"]),             # review -o review.tsv
    ("review.jsonl", '{"string": "Lindqvist", "count": 3}\n\n{"string": "hope"}\n',
     ["Lindqvist", "hope"]),                       # review -o review.jsonl
])
def test_load_terms(tmp_path, name, content, expected):
    assert load_terms(write(tmp_path, name, content)) == expected


@pytest.mark.parametrize("name, content, where, message", [
    ("bad.txt", b"Humira\nok\nAnn\xe9e\n", ":3: ", "not UTF-8"),
    ("bad.csv", "term,count\nhope,2\n", ":1: ", "no 'string' column"),
    ("blank-first.csv", "\nterm\nhope\n", ":2: ", "no 'string' column"),
    ("short.csv", "count,string\n2,hope\n3\n", ":3: ", "row has 1 fields"),
    ("open-quote.csv", 'string\n"hope\n', ":2: ", "malformed CSV"),
    ("bad.jsonl", '{"string": "hope"}\n{"count": 3}\n', ":2: ", "no 'string' string"),
    ("broken.jsonl", '{"string": "hope"\n', ":1: ", "invalid JSON"),
    ("review.parquet", b"PAR1", ": ", "not Parquet"),
    ("contexts.txt", "Hope | name\n=Grace\nGrace | nme\n", ":3: ", "unknown context 'nme'"),
])
def test_load_terms_errors_name_file_and_line(tmp_path, name, content, where, message):
    path = write(tmp_path, name, content)
    with pytest.raises(InputError) as raised:
        load_terms(path)
    assert str(raised.value).startswith(path + where)
    assert message in str(raised.value)


@pytest.mark.parametrize("name, content", [
    ("review.csv.gz", "string,count\nLindqvist,3\n"),
    ("review.jsonl.gz", '{"string": "Lindqvist"}\n'),
    ("allow.txt.gz", "# kept\nLindqvist\n"),
])
def test_load_terms_reads_gzip_compressed_lists(tmp_path, name, content):
    assert load_terms(write(tmp_path, name, gzip.compress(content.encode()))) == ["Lindqvist"]


def test_load_terms_missing_file(tmp_path):
    path = str(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="cannot read file") as raised:
        load_terms(path)
    assert str(raised.value).startswith(path + ": ")


# --- TermMatcher ------------------------------------------------------------------------

@pytest.mark.parametrize("terms, case_sensitive, text, expected", [
    # whole words only
    (["Kay"], False, "Okay, Kay said", [(6, 9, "Kay")]),
    (["Kay"], False, "Kay's mom, kay_b, Kay2", [(0, 3, "Kay")]),
    # case: the term comes back as given
    (["Kay"], False, "KAY and kay", [(0, 3, "Kay"), (8, 11, "Kay")]),
    (["Hope"], True, "I hope. Hope!", [(8, 12, "Hope")]),
    # longest term wins at a position, falling back when the longer one is not a word
    (["Mary", "Mary Jane"], False, "Mary Jane and Mary", [(0, 9, "Mary Jane"), (14, 18, "Mary")]),
    (["Mary", "Mary Jane"], False, "Mary Janet", [(0, 4, "Mary")]),
    (["Mar", "Mary", "Marcy"], False, "Marcy Mary Mar Mart", [(0, 5, "Marcy"), (6, 10, "Mary"),
                                                           (11, 14, "Mar")]),
    # inner white space matches any run of white space
    (["Mary Jane"], False, "Mary  Jane / Mary\nJane / Mary\t \nJane / MaryJane",
     [(0, 10, "Mary Jane"), (13, 22, "Mary Jane"), (25, 36, "Mary Jane")]),
    # punctuation inside and at the edges of a term
    (["kay.girl-96"], False, "thanks kay.girl-96! kay.girl-967 xkay.girl-96",
     [(7, 18, "kay.girl-96")]),
    (["Arthur C. Clarke"], False, "by Arthur C. Clarke.", [(3, 19, "Arthur C. Clarke")]),
    (["@kay", "Dr."], False, "ask @kay or Dr. Lee; email@kay.com",
     [(4, 8, "@kay"), (12, 15, "Dr.")]),
    # regex metacharacters are literal
    (["a+b (c)"], False, "x a+b (c) y aab c", [(2, 9, "a+b (c)")]),
    # occurrences do not overlap: the earlier one wins
    (["ab cd", "cd ef"], False, "ab cd ef", [(0, 5, "ab cd")]),
    # nothing to find
    ([], False, "anything at all", []),
    (["", "   "], False, "anything", []),
])
def test_matcher(terms, case_sensitive, text, expected):
    assert list(TermMatcher(terms, case_sensitive).finditer(text)) == expected


def test_matcher_first_spelling_wins_when_case_is_ignored():
    matcher = TermMatcher(["Hope", "hope", "HOPE"])
    assert matcher.terms == ["Hope"]
    assert list(matcher.finditer("hope")) == [(0, 4, "Hope")]


@pytest.mark.parametrize("seed", range(5))
def test_matcher_agrees_with_a_flat_alternation(seed):
    """The trie-shaped regex finds what the textbook longest-first alternation finds."""
    rng = random.Random(seed)
    pieces = ["ka", "y", "g", "irl", "96", " ", ".", "-", "Ma", "ry"]
    terms = {"".join(rng.choice(pieces) for _ in range(rng.randint(1, 4))).strip()
             for _ in range(60)} - {""}
    terms = {" ".join(t.split()) for t in terms}
    text = "".join(rng.choice(pieces + ["  ", "\n", "x", ","]) for _ in range(3000))
    flat = re.compile(r"(?<!\w)(?:%s)(?!\w)" % "|".join(
        r"\s+".join(re.escape(w) for w in t.split(" "))
        for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)
    expected = [(m.start(), m.end()) for m in flat.finditer(text)]
    assert expected  # the test means something
    assert [(s, e) for s, e, _ in TermMatcher(terms).finditer(text)] == expected


# --- allow and deny ---------------------------------------------------------------------
