"""The per-post operators (issue 21): mask, hash and a function, beside placeholder; the
registry the command line's --mode and the API's mode take them from. Spans are given by
hand: no model runs here."""
import pytest

from mmbdeid.output import operators
from mmbdeid.output.hash_key import HashKey
from mmbdeid.output.modes import operator_for
from mmbdeid.output.operators import (OPERATORS, CallableOperator, HashOperator, MaskOperator,
                                      Operator, PlaceholderOperator, PostOperator,
                                      post_operator, register_operator)
from mmbdeid.spans import Span

KEY = HashKey(b"fictional key 0123456789")
TEXT = "Thanks Mary Jane, ask @kaygirl or mail kay@example.org"
SPANS = [Span("NAME", 7, 11, 0.9, "crf"), Span("NAME", 12, 16, 0.6, "crf"),
         Span("USER", 22, 30, 1.0, "pattern"), Span("EMAIL", 39, 54, 1.0, "pattern")]
POST = {"id": 1, "text": TEXT, "author": "kaygirl", "thread": "t1"}


def digest(label, original):
    return "[%s:%s]" % (label, KEY.digest(label, original))


@pytest.mark.parametrize("operator, text, author", [
    (PlaceholderOperator(), "Thanks [NAME], ask [USER] or mail [EMAIL]", "kaygirl"),
    (MaskOperator(), "Thanks *********, ask ******** or mail ***************", "*******"),
    (HashOperator(KEY), "Thanks %s, ask %s or mail %s" % (
        digest("NAME", "Mary Jane"), digest("USER", "@kaygirl"),
        digest("EMAIL", "kay@example.org")), digest("USER", "kaygirl")),
    (CallableOperator(lambda label, original: "<%s %d>" % (label, len(original))),
     "Thanks <NAME 9>, ask <USER 8> or mail <EMAIL 15>", "kaygirl"),
    (CallableOperator(lambda label, original: label.lower(), author=True),
     "Thanks name, ask user or mail email", "author"),
])
def test_each_per_post_operator(operator, text, author):
    record, replaced = operator.rewrite(POST, SPANS)
    assert record == dict(POST, text=text, author=author)
    # every mode says what it replaced: one entry per mention, its tokens as parts
    assert [(r.span.label, r.span.start, r.span.end, len(r.parts)) for r in replaced] == [
        ("NAME", 7, 16, 2), ("USER", 22, 30, 1), ("EMAIL", 39, 54, 1)]


def test_a_mask_keeps_the_length_and_every_offset():
    record, _ = MaskOperator().rewrite(POST, SPANS)
    assert len(record["text"]) == len(TEXT)
    mentions = [(7, 16), (22, 30), (39, 54)]
    kept = [i for i in range(len(TEXT)) if not any(a <= i < b for a, b in mentions)]
    assert all(record["text"][i] == TEXT[i] for i in kept)
    assert set(record["text"][7:16]) == {"*"}           # the space inside the name too


def test_the_author_is_hashed_as_the_users_handle_and_kept_once_hashed():
    record, _ = HashOperator(KEY).rewrite(POST, SPANS)
    assert record["author"] in record["text"]           # [USER:...] of @kaygirl
    again, _ = HashOperator(KEY).rewrite(record, [])
    assert again == record


@pytest.mark.parametrize("author", [None, "", 7])
def test_an_empty_author_stays_and_another_is_read_as_text(author):
    record, _ = MaskOperator().rewrite(dict(POST, author=author), SPANS)
    assert record["author"] == ("*" if author == 7 else author)


def test_another_key_another_value():
    ours, _ = HashOperator(KEY).rewrite(POST, SPANS)
    theirs, _ = HashOperator(HashKey(b"another fictional key 42")).rewrite(POST, SPANS)
    assert ours["text"] != theirs["text"] and ours["author"] != theirs["author"]
    assert HashOperator(KEY).rewrite(POST, SPANS)[0] == ours


@pytest.mark.parametrize("returned, kind", [(None, "None"), (3, "an int"), (b"x", "bytes")])
def test_a_function_must_return_a_string(returned, kind):
    def secretive(label, original):
        return returned
    with pytest.raises(TypeError) as raised:
        CallableOperator(secretive).rewrite(POST, SPANS)
    message = str(raised.value)
    assert message == ("the operator test_a_function_must_return_a_string.<locals>.secretive "
                       "returned %s for a NAME; it must return a str" % kind)
    assert "Mary" not in message                # no identifier in a message


@pytest.fixture
def registry():
    """OPERATORS as it was, after the test."""
    before = dict(OPERATORS)
    yield OPERATORS
    OPERATORS.clear()
    OPERATORS.update(before)


def test_a_registered_operator_is_a_mode(registry):
    @register_operator
    class Initials(PostOperator):
        name = "initials"

        def value(self, label, original):
            return "".join(word[0] for word in original.split())

    assert registry["initials"] is Initials and register_operator(Initials) is Initials
    assert post_operator("initials").rewrite(POST, SPANS[:2])[0]["text"].startswith(
        "Thanks MJ, ask")
    assert isinstance(operator_for("initials"), Initials)


class Unnamed(Operator):
    pass


class Placeholder(PlaceholderOperator):     # another class under a name taken
    pass


@pytest.mark.parametrize("operator, error, fragment", [
    (PlaceholderOperator(), TypeError, "a subclass of Operator, not a PlaceholderOperator"),
    (len, TypeError, "a subclass of Operator"),
    (Unnamed, ValueError, "a lower-case word (letters, digits, - and _), got ''"),
    (type("Shouting", (PostOperator,), {"name": "LOUD"}), ValueError, "got 'LOUD'"),
    (Placeholder, ValueError, "an operator named 'placeholder' is registered already"),
])
def test_what_cannot_be_registered(registry, operator, error, fragment):
    with pytest.raises(error, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        register_operator(operator)
    assert registry == operators.OPERATORS and "LOUD" not in registry


@pytest.mark.parametrize("mode, hash_key, expected", [
    ("placeholder", None, PlaceholderOperator),
    ("mask", None, MaskOperator),
    ("hash", b"fictional key 0123456789", HashOperator),
    ("hash", KEY, HashOperator),
    (MaskOperator(), None, MaskOperator),
    (lambda label, original: "x", None, CallableOperator),
])
def test_what_a_mode_names(mode, hash_key, expected):
    assert type(operator_for(mode, hash_key)) is expected


@pytest.mark.parametrize("mode, hash_key, error, fragment", [
    ("hash", None, ValueError, "mode 'hash' needs a key of at least 16 bytes: hash_key=... "
                               "or the environment variable MMBDEID_HASH_KEY"),
    ("hash", b"short secret", ValueError, "the hash key is shorter than 16 bytes"),
    ("mask", b"fictional key 0123456789", ValueError, "hash_key goes with mode='hash'"),
    ("pseudonym", None, ValueError, "mode 'pseudonym' links the people of a whole dump"),
    ("nope", None, ValueError, "mode must be one of placeholder, mask, hash, pseudonym"),
    (42, None, TypeError, "mode must be a mode's name, an Operator or a function, not an int"),
    (MaskOperator, None, TypeError, "not a type"),
])
def test_what_a_mode_cannot_name(monkeypatch, mode, hash_key, error, fragment):
    monkeypatch.delenv("MMBDEID_HASH_KEY", raising=False)
    with pytest.raises(error) as raised:
        operator_for(mode, hash_key)
    assert fragment in str(raised.value) and "secret" not in str(raised.value)


def test_the_hash_mode_reads_the_environment(monkeypatch):
    monkeypatch.setenv("MMBDEID_HASH_KEY", "fictional key 0123456789")
    assert operator_for("hash").hash_key == KEY


def test_the_person_modes_are_not_per_post():
    with pytest.raises(ValueError, match="links people across the dump"):
        post_operator("surrogate")
    assert [name for name, op in OPERATORS.items() if not op.needs_people][:3] == [
        "placeholder", "mask", "hash"]
