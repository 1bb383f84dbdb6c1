"""Any number of boards, threads and authors (issue 18): the username index past the 63
lists a tag mask holds, and every command that runs the model on dumps of many boards and
many authors. The posts are fictional, generated here."""
import random

import pytest

from mmbdeid.lexicon.fuzzy import FuzzyIndex
from mmbdeid.lexicon.many_lists import MASK_LISTS, ListMembership, MultiListIndex

from slow_cases import slow_except


def _username_lists(n_lists, seed):
    """Fictional usernames over ``n_lists`` boards, close to one another (a small
    alphabet), some on several boards."""
    rng = random.Random(seed)
    alphabet = "aeiklmnr"
    pool = ["".join(rng.choice(alphabet) for _ in range(rng.randint(2, 11)))
            for _ in range(40 * n_lists)]
    return {"board%03d" % k: set(rng.sample(pool, rng.randint(1, 30))) for k in range(n_lists)}


def _tokens(lists, seed):
    """Entries, entries with one or two edits, and strings unlike any entry."""
    rng = random.Random(seed)
    words = sorted(set().union(*lists.values()))
    tokens = []
    for word in rng.sample(words, min(60, len(words))):
        chars = list(word)
        for _ in range(rng.randint(0, 2)):
            p = rng.randrange(len(chars))
            chars[p] = rng.choice("aeiklmnrz")
        tokens += [word, "".join(chars), word + "z", word[1:]]
    return list(dict.fromkeys(tokens + ["", "q", "zzzzzzz", "\ud800mar"]))


@pytest.mark.parametrize("n_lists", slow_except([5, MASK_LISTS, MASK_LISTS + 1, 70, 200],
                                                fast=[5]))
def test_each_lists_distance_is_that_of_its_own_index(n_lists):
    lists = _username_lists(n_lists, seed=n_lists)
    index = MultiListIndex(lists)
    own = {name: FuzzyIndex(words) for name, words in lists.items()}
    tokens = _tokens(lists, seed=n_lists + 1)
    index.prefetch(tokens)
    found = 0
    for token in tokens:
        expected = {name: own[name].distance(token) for name in lists}
        expected = {name: d for name, d in expected.items() if d is not None}
        answer = index.nearest(token)
        assert answer == expected, token
        assert list(answer) == [name for name in lists if name in answer]   # list order
        found += len(answer)
    assert found > len(tokens)          # the lists share entries and near entries


@pytest.mark.parametrize("n_lists", [3, MASK_LISTS])
def test_membership_answers_equal_the_mask_answers(n_lists):
    """The two ways of answering agree where both can (what keeps outputs the same)."""
    lists = _username_lists(n_lists, seed=7 * n_lists)
    index = MultiListIndex(lists)
    names = list(lists)
    lists_of = {}
    for number, name in enumerate(names):
        for word in lists[name]:
            lists_of.setdefault(word, []).append(number)
    tokens = [t.replace("\ud800", "\ufffd") for t in _tokens(lists, seed=3)]
    membership = ListMembership(index.index.words, lists_of)
    index.prefetch(tokens)
    assert membership.nearest(index.index, tokens, names) == [index.nearest(t) for t in tokens]


def test_a_word_repeated_in_a_list_counts_once():
    lists = {"board%03d" % k: ["kimmie", "kimmie"] if k == 80 else ["x%d" % k]
             for k in range(100)}
    assert MultiListIndex(lists).nearest("kimmie") == {"board080": 0}
    assert MultiListIndex(lists).nearest("kimie") == {"board080": 1}


def test_variant_index_with_thousands_of_people_sharing_a_prefix():
    """Every ``mary...`` username has the prefix ``mary``: the people come back once each,
    in the order they were added, the one called exactly so left out."""
    from mmbdeid.people.personmap import Person, PersonMap
    from mmbdeid.people.variants import VariantIndex

    people = PersonMap()
    for k in range(3000):
        people.add(Person(people.next_id("U"), ["mary%04d" % k]))
    people.add(Person(people.next_id("U"), ["mary"]))
    index = VariantIndex(people)
    ids = [person.id for person in people]
    index.add_usernames(people[ids[5]])             # added again: keeps its place
    assert index.exact_people("mary") == [ids[-1]]
    assert index.variant_people("mary") == ids[:3000]


# -- every command that runs the model, on dumps of many boards and many authors ----------
from jsonl_files import read_jsonl, write_jsonl  # noqa: E402
from mmbdeid.cli import main  # noqa: E402

FIRST_NAMES = ("Dolores", "Tobias", "Fern", "Ingrid", "Matteo", "Wren", "Odile", "Caspar")
USER_WORDS = ("lark", "moss", "quill", "tern", "birch", "pebble", "clove", "sorrel")


SYLLABLES = ("ka", "lo", "mir", "tes", "vu", "ran", "bel", "dor", "qui", "sen", "ho", "zat",
             "pel", "nim", "gro", "fia", "wen", "cub", "ash", "tor")


def _usernames(n):
    """``n`` distinct fictional usernames (``koramir47``, ``Belsen_wren``), spread out as
    real ones are: few are within two edits of another (numbered series such as
    ``user0001``, ``user0002``... are the index's worst case, not this test's subject)."""
    rng = random.Random(n)
    names = {}
    while len(names) < n:
        stem = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        style = rng.random()
        name = (stem + str(rng.randint(1, 99)) if style < 0.5 else
                stem.capitalize() + "_" + rng.choice(USER_WORDS) if style < 0.7 else stem)
        names.setdefault(name.lower(), name)
    return list(names.values())


USERS = _usernames(100_000)


def _username(k):
    return USERS[k]


def _many_boards_posts(n_boards, posts_per_board):
    """Threads of two posts, one per board: a question, and a reply that thanks its
    author by username and signs off with a first name."""
    posts = []
    for board in range(n_boards):
        asker, helper = _username(2 * board), _username(2 * board + 1)
        name = FIRST_NAMES[board % len(FIRST_NAMES)]
        texts = ["Any tips for the scan?", "Thanks %s, ask the nurse. %s" % (asker, name)]
        for k in range(posts_per_board):
            posts.append({"id": "b%d-%d" % (board, k), "board": "board%04d" % board,
                          "thread": "t%d" % board, "author": (asker, helper)[k % 2],
                          "text": texts[k % 2], "extra": k})
    return posts


def _annotated(posts):
    """The replies, with their name spans (the username and the signed first name)."""
    out = []
    for post in posts:
        if post["text"].startswith("Thanks "):
            user_start = len("Thanks ")
            user_end = post["text"].index(",")
            name_start = post["text"].rindex(" ") + 1
            out.append(dict(post, spans=[
                {"start": user_start, "end": user_end, "label": "USER"},
                {"start": name_start, "end": len(post["text"]), "label": "NAME"}]))
    return out


def cli(*args):
    return main([str(a) for a in args] + ["--quiet"])


def _assert_every_record_out(posts, out_path, rewritten=("text",)):
    """Every post comes out, in order, with its fields, only ``rewritten`` ones changed."""
    out = read_jsonl(out_path)
    assert [r["id"] for r in out] == [p["id"] for p in posts]
    for post, record in zip(posts, out):
        assert set(record) == set(post)
        assert {k: v for k, v in record.items() if k not in rewritten} == \
            {k: v for k, v in post.items() if k not in rewritten}
    return out


@pytest.fixture(scope="module")
def boards_1000(tmp_path_factory):
    base = tmp_path_factory.mktemp("boards")
    posts = _many_boards_posts(1000, 2)
    dump = write_jsonl(base / "dump.jsonl", posts)
    stats = base / "dump.stats"
    assert cli("stats", dump, "-o", stats, "--jobs", "1") == 0
    return posts, dump, str(stats)


@pytest.mark.parametrize("mode, jobs", [("placeholder", 2), ("pseudonym", 1)])
@pytest.mark.slow
def test_scrub_of_1000_boards(tmp_path, boards_1000, mode, jobs):
    posts, dump, stats = boards_1000
    out, spans = tmp_path / "out.jsonl", tmp_path / "spans.jsonl"
    assert cli("scrub", dump, "-o", out, "--stats", stats, "--mode", mode, "--jobs", jobs,
               "--spans", spans) == 0
    scrubbed = _assert_every_record_out(
        posts, out, ("text", "author") if mode == "pseudonym" else ("text",))
    replies = [r["text"] for r in scrubbed if r["text"].startswith("Thanks ")]
    assert len(replies) == 1000
    # each board's own usernames are known to the model: the thanked user goes
    assert not any(_username(2 * board) in text for board, text in enumerate(replies))
    assert len(read_jsonl(spans)) == len(posts)


@pytest.mark.slow
def test_link_and_review_of_1000_boards(tmp_path, boards_1000):
    import csv

    posts, dump, stats = boards_1000
    assert cli("link", dump, "-o", tmp_path / "people.map", "--stats", stats,
               "--jobs", "1") == 0
    people = [line for line in (tmp_path / "people.map").read_text(encoding="utf-8")
              .splitlines() if line.startswith("U")]
    assert len(people) == 2000                          # every author is a person
    assert cli("review", dump, "-o", tmp_path / "review.csv", "--stats", stats,
               "--jobs", "1") == 0
    with open(tmp_path / "review.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {_username(0), "Dolores"} <= {row["string"] for row in rows}


@pytest.mark.slow
def test_stats_evaluate_and_sweep_on_an_annotated_file_of_1000_boards(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", _annotated(_many_boards_posts(1000, 2)))
    assert len({r["board"] for r in read_jsonl(gold)}) == 1000
    assert cli("evaluate", gold) == 0
    assert cli("sweep", gold, "-o", tmp_path / "curve.csv") == 0
    assert (tmp_path / "curve.csv").read_text(encoding="utf-8").count("\n") > 5


def _many_authors_posts(n_authors, n_boards):
    """One post per author, threads of four on ``n_boards`` boards. The posts are short:
    most are empty (a like, an image), every fourth thanks the one before it by username
    and signs off with a first name."""
    posts = []
    for k in range(n_authors):
        text = "Thanks %s, hugs. %s" % (_username(k - 1), FIRST_NAMES[k % 8]) if k % 4 == 1 \
            else ""
        posts.append({"id": "p%d" % k, "board": "board%04d" % (k // 4 % n_boards),
                      "thread": "t%d" % (k // 4), "author": _username(k), "text": text})
    return posts


@pytest.mark.slow
def test_100000_authors_statistics_username_index_and_name_index(tmp_path):
    """The statistics of a dump of 100,000 authors on 1,000 boards, the username index the
    model asks (boards as lists) and the person modes' name index over all of them."""
    from mmbdeid.model.stats import CorpusStats
    from mmbdeid.people.personmap import Person, PersonMap, name_key
    from mmbdeid.people.variants import VariantIndex

    posts = _many_authors_posts(100_000, 1000)
    assert len({p["author"] for p in posts}) == 100_000
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    assert cli("stats", dump, "-o", tmp_path / "dump.stats", "--jobs", "1") == 0
    stats = CorpusStats.load(str(tmp_path / "dump.stats"))
    by_board = stats.users_by_board()
    assert len(by_board) == 1000 and sum(map(len, by_board.values())) == 100_000
    assert stats.thread_users("board0007", "t7") == frozenset(USERS[28:32])
    index = MultiListIndex({b: {u.lower() for u in users} for b, users in by_board.items()})
    for k in (0, 4321, 99_999):
        assert index.nearest(USERS[k].lower()).get("board%04d" % (k // 4 % 1000)) == 0
    people = PersonMap()
    for username in USERS:
        people.add(Person(people.next_id("U"), [username]))
    names = VariantIndex(people)
    assert names.exact_people(name_key(USERS[-1])) == ["U100000"]
