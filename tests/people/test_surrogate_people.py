"""``--mode surrogate`` end to end (issue 30, item 5): no fake name is given to two people,
the gender the text gives a person is kept, and ``--mark-surrogates`` shows every changed
word between marks that a later scrub keeps. Fictional posts and the bundled demo dump."""
import re
from collections import defaultdict

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.lexicon.wordlists import load_wordlist
from mmbdeid.people.gender import name_gender
from mmbdeid.text.placeholders import MARKED_SURROGATE
from paths import DEMO_DUMP as DEMO


def mmbdeid(*args):
    return main([str(a) for a in args] + ["--quiet", "--jobs", "1"])


def scrub_marked(tmp_path, dump, *options, name="out"):
    out, spans = tmp_path / ("%s.jsonl" % name), tmp_path / ("%s.spans.jsonl" % name)
    assert mmbdeid("scrub", dump, "-o", out, "--mode", "surrogate", "--mark-surrogates",
                   "--spans", spans, *options) == 0
    return read_jsonl(out), read_jsonl(spans)


def fake_words_by_person(records, spans):
    """Each word of two or more letters of a fake name -> the people given it (read from
    the marks, in text order, against the spans file's replacements, in text order)."""
    given = defaultdict(set)
    for record, line in zip(records, spans):
        marked = MARKED_SURROGATE.findall(record["text"])
        assert len(marked) == len(line["spans"])        # every surrogate is marked
        for value, entry in zip(marked, line["spans"]):
            if entry["label"] != "NAME":
                continue
            for word in re.findall(r"[^\W\d_]+", value[1:-1]):
                if len(word) > 1 and not (len(word) <= 3 and word.isupper()):  # initials
                    given[word.lower()].add(entry["person"])
    return given


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return scrub_marked(tmp_path_factory.mktemp("demo"), DEMO)


def test_no_fake_name_is_given_to_two_people_on_the_demo_dump(demo):
    given = fake_words_by_person(*demo)
    assert given
    assert {word: people for word, people in given.items() if len(people) > 1} == {}


def test_no_fake_name_is_given_to_two_people_of_a_small_name_list(tmp_path):
    # 48 people, three names: every member signs with one of them and names a sister
    names, sisters = ["Megan", "Mary", "Linda"], ["Hope", "Grace", "Summer"]
    posts = []
    for number in range(48):
        posts.append({"id": str(number), "board": "b", "thread": "t%d" % number,
                      "author": "member%02d" % number,
                      "text": "My sister %s drove me to the clinic again today.\n%s"
                              % (sisters[number % 3], names[number % 3])})
    given = fake_words_by_person(*scrub_marked(tmp_path, write_jsonl(
        tmp_path / "many.jsonl", posts), "--scope", "thread"))
    assert len({p for people in given.values() for p in people}) > 3
    assert {word: people for word, people in given.items() if len(people) > 1} == {}


GENDERED = [
    {"id": "1", "board": "b", "thread": "t1", "author": "tired_parent",
     "text": "I saw Mr. Adebayo at the clinic. Adebayo was patient with us."},
    {"id": "2", "board": "b", "thread": "t1", "author": "tired_parent",
     "text": "I yelled at my son Jamie last night. This morning Jamie hugged me and "
             "said he forgives me."},
    {"id": "3", "board": "b", "thread": "t2", "author": "night_owl",
     "text": "Dr. Vasquez-Hall came in at six. Honestly he was firm but kind."},
]


def test_the_gender_and_the_surname_the_text_gives_are_kept(tmp_path):
    from faker import Faker
    from mmbdeid.output.surrogates import _person_provider
    surnames = ({n.lower() for n in _person_provider(Faker("en_US")).last_names}
                | load_wordlist("last_names"))
    records, _ = scrub_marked(tmp_path, write_jsonl(tmp_path / "g.jsonl", GENDERED))
    titled = re.search(r"Mr\. \u27e6(\w+)\u27e7", records[0]["text"]).group(1)
    alone = re.search(r"clinic\. \u27e6(\w+)\u27e7", records[0]["text"]).group(1)
    assert titled.lower() in surnames and alone == titled     # Mr. Adebayo: a surname
    son = MARKED_SURROGATE.findall(records[1]["text"])
    assert len(set(son)) == 1 and name_gender(son[0][1:-1]) == "male"
    assert re.search(r"Dr\. \u27e6[\w-]+\u27e7 came", records[2]["text"])


def test_marked_surrogates_survive_a_second_scrub(tmp_path, demo):
    records, _ = demo
    dump = write_jsonl(tmp_path / "again.in.jsonl", records)
    marked = [MARKED_SURROGATE.findall(r["text"]) for r in records]
    assert sum(map(len, marked)) > 40
    for mode in ("placeholder", "surrogate"):
        out = tmp_path / ("again.%s.jsonl" % mode)
        assert mmbdeid("scrub", dump, "-o", out, "--mode", mode) == 0
        again = read_jsonl(out)
        for before, after in zip(marked, again):
            assert [m for m in before if m in after["text"]] == before


def test_mark_surrogates_needs_the_surrogate_mode(tmp_path, capsys):
    dump = write_jsonl(tmp_path / "in.jsonl", GENDERED)
    assert main(["scrub", str(dump), "-o", str(tmp_path / "o.jsonl"), "--mode",
                 "pseudonym", "--mark-surrogates", "--quiet"]) == 2
    assert "--mark-surrogates needs --mode surrogate" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()
