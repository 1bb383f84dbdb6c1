"""Mentions, their roles, name variants, and linking names to people."""
import pytest

from mmbdeid.people.linker import Linker
from mmbdeid.people.mentions import Mention, mention_role, mentions_of, name_groups
from mmbdeid.people.personmap import name_key
from mmbdeid.people.resolver import Resolver
from mmbdeid.people.variants import is_misspelling
from mmbdeid.spans import Span, join


def name_spans(text, *words):
    """NAME spans over the first occurrence of each word, in order."""
    spans, position = [], 0
    for word in words:
        start = text.index(word, position)
        spans.append(Span("NAME", start, start + len(word), 0.9, "crf"))
        position = start + len(word)
    return spans


@pytest.mark.parametrize("text, words, merged", [
    ("Thanks Mary Jane", ["Mary", "Jane"], ["Mary Jane"]),
    ("by Arthur C. Clarke!", ["Arthur", "C", "Clarke"], ["Arthur C. Clarke"]),
    ("Jess and Ron", ["Jess", "Ron"], ["Jess", "Ron"]),
    ("Mary\nJane", ["Mary", "Jane"], ["Mary", "Jane"]),       # a line apart: two names
])
def test_adjacent_name_tokens_are_one_mention(text, words, merged):
    spans = [join(group) for group in name_groups(text, name_spans(text, *words))]
    assert [text[s.start:s.end] for s in spans] == merged


@pytest.mark.parametrize("text, name, role", [
    ("Hi Arhtur I am not sure", "Arhtur", "addressee"),
    ("Jess, welcome. I've been on MTX", "Jess", "addressee"),
    ("Hello MJ - I think", "MJ", "addressee"),
    ("Can you explain? Thanks Mary Jane", "Mary Jane", "closing"),   # sign-off or thanks
    ("Great info.\nThanks so much, Linda", "Linda", "closing"),
    ("Thanks Linda for the tip", "Linda", "addressee"),
    ("Big hugs to Linda", "Linda", "addressee"),
    ("I agree with @Linda here", "Linda", "addressee"),
    ("Hope this helps.\n- Linda", "Linda", "author"),              # a signature
    ("Thanks all,\nLinda", "Linda", "author"),
    ("Hope that helps! R o b e r t", "R o b e r t", "author"),
    ("Labs are fine.\n\nHugs,\nBarb", "Barb", "author"),
    ("I asked Ron about it", "Ron", ""),
    ("Thank you Jo.", "Jo", "addressee"),          # thanking someone, even at the end
    ("Good luck Monique! My mother", "Monique", "addressee"),
    ("Good idea Hank. Walt says", "Hank", "addressee"),   # a vocative
    ("I talked to Helen. She said", "Helen", ""),        # an object, not a vocative
    ("I'm Kristen btw", "Kristen", "author"),
    ("Hi all, Dawn here. On prednisone", "Dawn", "author"),
    ("I asked Ron about it.\nHi Jess", "Jess", "addressee"),  # a greeting on any line
    ("our friend Arthr was trying to say", "Arthr", ""),
    # a bare name opening a post is addressed only when set apart (issue 30)
    ("Jess! So glad", "Jess", "addressee"),
    ("helen you've been through so much", "helen", "addressee"),
    ("Teddy had a bad night.", "Teddy", ""),
    # a carer or clinician after a possessive is a third party, never the author
    ("My OT, also Priya, says rest", "Priya", "titled"),
    ("our nurse Odile came", "Odile", "titled"),
])
def test_mention_role(text, name, role):
    start = text.index(name)
    assert mention_role(text, start, start + len(name)) == role


@pytest.mark.parametrize("text, words, roles", [
    ("Thanks Cindy, Maggie, Kay.", ["Cindy", "Maggie", "Kay"], ["", "", ""]),
    ("Thanks gardengal, and thanks Roxy.", ["gardengal", "Roxy"], ["", ""]),
    ("Thanks Cindy. Kay", ["Cindy", "Kay"], ["addressee", "author"]),
])
def test_names_in_a_list_get_no_role(text, words, roles):
    assert [m.role for m in mentions_of(text, name_spans(text, *words))] == roles


@pytest.mark.parametrize("text, words, mentions", [
    ("Hello MJ - I think", ["Hello", "MJ"], ["MJ"]),            # greeting words are not names
    ("I'm Kristen btw", ["Kristen", "btw"], ["Kristen", "btw"]),  # case differs
    ("Ouch Hank, that hurts", ["Ouch", "Hank"], ["Ouch", "Hank"]),  # ordinary word
    ("Good idea Hank. Walt says", ["Hank", "Walt"], ["Hank", "Walt"]),  # a sentence apart
])
def test_what_is_one_mention(text, words, mentions):
    assert [m.text for m in mentions_of(text, name_spans(text, *words))] == mentions


@pytest.mark.parametrize("key, name, expected", [
    ("arhtur", "arthur", True), ("arthr", "arthur", True), ("artuhr", "arthur", True),
    ("mark", "mary", False),          # two real names, not a typo
    ("jo", "joe", False),             # too short to tell
    ("arthur", "arthur", False),
    ("margaet", "margaret", True), ("jessicca", "jessica", True),
    ("elisabeth", "elizabeth", False),     # a name of its own: linked only if seen so
])
def test_is_misspelling(key, name, expected):
    assert is_misspelling(key, name) is expected


@pytest.mark.parametrize("text, key", [
    ("R o b e r t", "robert"), ("Arthur C. Clarke", "arthur c clarke"), ("MARY  jane", "mary jane"),
    ("-RG-", "rg"), ("Jess!", "jess"),
])
def test_name_key(text, key):
    assert name_key(text) == key


def post(post_id, author, text, parent=None, thread="t1", board="b"):
    return {"id": post_id, "author": author, "text": text, "parent": parent,
            "thread": thread, "board": board}


def link(posts_and_names, scope="board"):
    """Observe posts (each with the words the 'model' found), return (people, warnings)."""
    linker, warnings = Linker(scope), []
    for fields, words in posts_and_names:
        linker.observe(fields, name_spans(fields["text"], *words))
    return linker, linker.person_map(warn=warnings.append), warnings


def names_of(people, username):
    return set(people.by_username(username).names)


def test_greetings_link_to_the_parent_author_and_signoffs_to_the_author():
    _, people, _ = link([
        (post("1", "kay_p", "My scan is clear!\nKay"), ["Kay"]),
        (post("2", "ron77", "Hi Kay, great news.\nRon", parent="1"), ["Kay", "Ron"]),
    ])
    assert names_of(people, "kay_p") == {"kay"}
    assert names_of(people, "ron77") == {"ron"}
    assert people.by_username("kay_p").names["kay"] == 2      # counted in two posts


def test_variants_join_the_person_they_are_variants_of():
    _, people, _ = link([
        (post("1", "u12", "What do you think? Arthur"), ["Arthur"]),
        (post("2", "u43", "Thanks for asking. Mary Jane", parent="1"), ["Mary", "Jane"]),
        (post("3", "u01", "Hello there. Our friend Arthr and Bob and MJ and Mary agree",
              parent="2"), ["Arthr", "Bob", "MJ", "Mary"]),
        (post("4", "u04", "Yes\nRobert", parent="3"), ["Robert"]),
    ])
    assert names_of(people, "u12") == {"arthur", "arthr"}
    assert names_of(people, "u43") == {"mary jane", "mj", "mary"}
    assert "bob" in names_of(people, "u04")                   # nickname of Robert


def test_unknown_names_become_people_of_their_own():
    _, people, _ = link([
        (post("1", "kay_p", "Dr. Lindqvist says my labs are fine"), ["Lindqvist"]),
        (post("2", "kay_p", "Saw Dr. Lindqvist again"), ["Lindqvist"]),
    ])
    outsiders = [p for p in people if not p.usernames]
    assert [(p.id, dict(p.names)) for p in outsiders] == [("P1", {"lindqvist": 2})]


def test_two_people_sharing_a_name_in_scope_give_a_warning():
    posts = [
        (post("1", "rob_a", "First post\nRobert"), ["Robert"]),
        (post("2", "rob_b", "Second post\nRobert"), ["Robert"]),
        (post("3", "kay", "I agree with Robert on this one"), ["Robert"]),
    ]
    _, people, warnings = link(posts)
    assert len(warnings) == 1
    assert set(warnings[0].people) == {"U1", "U2"} and warnings[0].name == "robert"


def test_scope_thread_separates_people_who_never_meet():
    posts = [
        (post("1", "rob_a", "First post\nRobert", thread="t1"), ["Robert"]),
        (post("2", "rob_b", "Second post\nRobert", thread="t2"), ["Robert"]),
        (post("3", "kay", "I agree with Robert on this", thread="t2"), ["Robert"]),
    ]
    linker, people, warnings = link(posts, scope="thread")
    assert warnings == []
    resolver = Resolver(people, linker.scopes, "thread")
    mention = Mention(12, 18, "Robert", "NAME", "")
    assert resolver.resolve(mention, posts[2][0]) == people.by_username("rob_b").id
    _, _, dump_warnings = link(posts, scope="dump")
    assert len(dump_warnings) == 1


def test_username_mentions_resolve_to_their_user():
    linker = Linker()
    linker.observe(post("1", "KayGirl96", "hello"), [])
    text = "thanks kaygirl96 and kaygirl"
    linker.observe(post("2", "ron", text), [Span("USER", 7, 16, 0.9, "crf"), Span("USER", 21, 28, 0.9, "crf")])
    people = linker.person_map()
    assert len(people) == 2 and names_of(people, "KayGirl96") <= {"kaygirl"}


@pytest.mark.parametrize("text, words, mentions", [
    ("Thanks Dr Weiss", ["Dr", "Weiss"], ["Weiss"]),
    ("Sue I agree", ["Sue", "I"], ["Sue"]),
    ("so will I, Will", ["will", "Will"], ["Will"]),     # lower-case stop word dropped
])
def test_honorifics_pronouns_and_stop_words_are_not_mentions(text, words, mentions):
    assert [m.text for m in mentions_of(text, name_spans(text, *words))] == mentions


def test_linking_reports_its_progress():
    """The names addressed, then the others, each step from 0 to its total (issue 22)."""
    import io

    from mmbdeid.jobs.progress import StepProgress
    linker = Linker()
    for fields, words in [
            (post("1", "kay_p", "My scan is clear!\nKay"), ["Kay"]),
            (post("2", "ron77", "Hi Kay, great news.\nRon", parent="1"), ["Kay", "Ron"]),
            (post("3", "ron77", "Dr. Lindqvist and Dr. Osei say so", parent="1"),
             ["Lindqvist", "Osei"])]:
        linker.observe(fields, name_spans(fields["text"], *words))
    calls = []
    linker.person_map(progress=lambda *call: calls.append(call))
    assert calls == [("addressed", 0, 1), ("addressed", 1, 1),
                     ("by name", 0, 2), ("by name", 2, 2)]
    stream = io.StringIO()
    with StepProgress("linking", stream=stream, interval=0.0, terminal=False) as progress:
        linker.person_map(progress=progress)
    assert "linking: by name: 2/2 names" in stream.getvalue()
