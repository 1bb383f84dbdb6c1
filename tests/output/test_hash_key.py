"""The key of --mode hash and the digest (issue 21): one normal form per identifier, the same
digest for the same key, another for another key, and the key in no message or repr."""
import os
import pickle

import pytest

from mmbdeid.errors import InputError
from mmbdeid.output.hash_key import (ENVIRONMENT_VARIABLE, HashKey, find_key, key_from_file,
                                     normal_form)
from mmbdeid.text.placeholders import HASH_DIGITS

KEY = b"fictional key 0123456789"
OTHER_KEY = b"another fictional key 42"


@pytest.mark.parametrize("first, second", [
    (("NAME", "Maren"), ("NAME", "MAREN")),
    (("NAME", "Mary  Jane"), ("NAME", " mary\tjane ")),
    (("NAME", "\uff2d\uff41\uff52\uff45\uff4e"), ("NAME", "maren")),      # full-width: NFKC
    (("NAME", "Stra\u00dfe"), ("NAME", "STRASSE")),                      # case folding
    (("USER", "@kaygirl"), ("AUTHOR", "kaygirl")),
    (("USER", "u/KayGirl"), ("USER", "/u/kaygirl")),
    (("PHONE", "(212) 555-0123"), ("PHONE", "212.555.0123")),
    (("NAME", "Maren"), ("USER", "maren")),         # the label is not hashed
])
def test_one_normal_form_one_digest(first, second):
    assert normal_form(*first) == normal_form(*second)
    assert HashKey(KEY).digest(*first) == HashKey(KEY).digest(*second)


@pytest.mark.parametrize("first, second", [
    (("NAME", "Maren"), ("NAME", "Marin")),
    (("NAME", "Mary Jane"), ("NAME", "MaryJane")),
    (("EMAIL", "kay@example.org"), ("EMAIL", "kay@example.com")),
])
def test_other_identifiers_other_digests(first, second):
    assert HashKey(KEY).digest(*first) != HashKey(KEY).digest(*second)


def test_the_same_key_gives_the_same_digest_and_another_key_another():
    digest = HashKey(KEY).digest("NAME", "Maren")
    assert len(digest) == HASH_DIGITS and set(digest) <= set("0123456789abcdef")
    assert HashKey(bytearray(KEY)).digest("NAME", "Maren") == digest
    assert HashKey(KEY.decode()).digest("NAME", "Maren") == digest      # a string: UTF-8
    assert HashKey(OTHER_KEY).digest("NAME", "Maren") != digest


def test_the_key_is_never_shown():
    key = HashKey(KEY)
    for shown in (repr(key), str(key), "%s %r" % (key, key), repr([key])):
        assert "fictional" not in shown and shown.count("HashKey(<hidden>)") >= 1
    copy = pickle.loads(pickle.dumps(key))      # how it reaches worker processes
    assert copy == key and hash(copy) == hash(key) and copy != HashKey(OTHER_KEY)


@pytest.mark.parametrize("key, error, fragment", [
    (b"too short", ValueError, "shorter than 16 bytes"),
    (b"", ValueError, "shorter than 16 bytes"),
    (12345678901234567890, TypeError, "must be bytes or a string, not int"),
    (None, TypeError, "not NoneType"),
])
def test_bad_keys_are_refused_without_showing_them(key, error, fragment):
    with pytest.raises(error) as raised:
        HashKey(key)
    assert fragment in str(raised.value)
    assert "too short" not in str(raised.value) and "1234567" not in str(raised.value)


@pytest.mark.parametrize("content, fragment", [
    (None, "cannot read the hash key file"),
    (b"", "the hash key file is empty"),
    (b"\n", "the hash key file is empty"),
    (b"short secret\n", "shorter than 16 bytes"),
])
def test_a_bad_key_file_is_an_error_naming_the_file(tmp_path, content, fragment):
    path = tmp_path / "hash.key"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as raised:
        key_from_file(str(path))
    message = str(raised.value)
    assert message.startswith(str(path) + ": ") and fragment in message
    assert "secret" not in message


@pytest.mark.parametrize("content", [KEY, KEY + b"\n", KEY + b"\r\n"])
def test_one_final_line_break_of_a_key_file_is_not_the_key(tmp_path, content):
    path = tmp_path / "hash.key"
    path.write_bytes(content)
    assert key_from_file(str(path)) == HashKey(KEY)


@pytest.mark.parametrize("file_key, environment, expected", [
    (KEY, {ENVIRONMENT_VARIABLE: OTHER_KEY.decode()}, KEY),     # the file wins
    (None, {ENVIRONMENT_VARIABLE: OTHER_KEY.decode()}, OTHER_KEY),
    (KEY, {}, KEY),
])
def test_the_key_file_wins_over_the_environment(tmp_path, file_key, environment, expected):
    path = None
    if file_key is not None:
        path = str(tmp_path / "hash.key")
        with open(path, "wb") as handle:
            handle.write(file_key)
    assert find_key(path, environment) == HashKey(expected)


@pytest.mark.parametrize("environment, fragment", [
    ({}, "--mode hash needs a key of at least 16 bytes: --hash-key-file FILE or the "
         "environment variable MMBDEID_HASH_KEY"),
    ({ENVIRONMENT_VARIABLE: ""}, "the environment variable MMBDEID_HASH_KEY is empty"),
    ({ENVIRONMENT_VARIABLE: "tiny secret"}, "MMBDEID_HASH_KEY: the hash key is shorter"),
])
def test_no_key_is_an_error_never_a_default_key(environment, fragment):
    with pytest.raises(InputError) as raised:
        find_key(None, environment)
    assert fragment in str(raised.value) and "secret" not in str(raised.value)


def test_the_environment_is_read_when_none_is_given(monkeypatch):
    monkeypatch.setitem(os.environ, ENVIRONMENT_VARIABLE, KEY.decode())
    assert find_key() == HashKey(KEY)
