"""Scrubber(mode=...) in the Python API (issue 21): mask, hash and a function of one's own,
on texts, records and DataFrames; the key in no repr. Fictional texts; the default model."""
import pytest

import mmbdeid
from mmbdeid import Scrubber
from mmbdeid.output.hash_key import HashKey

KEY = b"fictional hash key 0123456789"
TEXT = "Thanks Linda, ask @kaygirl or write to kay.b@example.org"
RECORDS = [{"id": 1, "text": TEXT, "author": "kaygirl", "thread": "t1"},
           {"id": 2, "text": "LINDA, my TSH is 2.1", "author": "lindab", "thread": "t1"}]


@pytest.fixture(scope="module")
def hashed(default_tagger):
    return Scrubber(model=default_tagger, mode="hash", hash_key=KEY)


def value(label, original):
    return "[%s:%s]" % (label, HashKey(KEY).digest(label, original))


@pytest.mark.parametrize("mode, expected", [
    ("placeholder", "Thanks [NAME], ask [USER] or write to [EMAIL]"),
    ("mask", "Thanks *****, ask ******** or write to *****************"),
    (lambda label, original: label.lower(), "Thanks name, ask user or write to email"),
])
def test_each_mode_on_a_text(default_tagger, mode, expected):
    assert Scrubber(model=default_tagger, mode=mode).scrub(TEXT) == expected


def test_hash_on_a_text_records_and_a_dataframe(hashed):
    expected = "Thanks %s, ask %s or write to %s" % (
        value("NAME", "Linda"), value("USER", "@kaygirl"), value("EMAIL", "kay.b@example.org"))
    assert hashed.scrub(TEXT) == expected
    records = list(hashed.scrub_records(RECORDS))
    assert records[0] == dict(RECORDS[0], text=expected, author=value("USER", "kaygirl"))
    assert records[1]["text"].startswith(value("NAME", "Linda") + ", my TSH")    # LINDA
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(RECORDS).set_index("id", drop=False)
    scrubbed = hashed.scrub_dataframe(frame)
    assert scrubbed["text"].tolist() == [r["text"] for r in records]
    assert scrubbed["author"].tolist() == [r["author"] for r in records]
    assert frame["author"].tolist() == ["kaygirl", "lindab"]          # a copy was changed


def test_scrubbing_hashed_output_again_changes_nothing(hashed):
    once = list(hashed.scrub_records(RECORDS))
    assert list(hashed.scrub_records(once)) == once


def test_placeholder_mode_keeps_the_author(default_tagger):
    assert [r["author"] for r in Scrubber(model=default_tagger).scrub_records(RECORDS)] == [
        "kaygirl", "lindab"]


def test_the_functions_take_the_mode(monkeypatch):
    monkeypatch.setenv("MMBDEID_HASH_KEY", KEY.decode())
    assert mmbdeid.scrub("Hugs to Linda", mode="mask") == "Hugs to *****"
    assert mmbdeid.scrub("Hugs to Linda", mode="hash") == "Hugs to " + value("NAME", "Linda")


@pytest.mark.parametrize("options, error, fragment", [
    ({"mode": "hash"}, ValueError, "mode 'hash' needs a key"),
    ({"mode": "hash", "hash_key": b"short secret"}, ValueError, "shorter than 16 bytes"),
    ({"mode": "pseudonym"}, ValueError, "use the command line's 'mmbdeid scrub --mode "
                                        "pseudonym'"),
    ({"mode": "surrogate"}, ValueError, "^mode 'surrogate' links the people of a whole "
                                        "dump: use the command line's 'mmbdeid scrub "
                                        "--mode surrogate'$"),
    ({"mode": "placeholder", "hash_key": KEY}, ValueError, "hash_key goes with mode='hash'"),
    ({"mode": None}, TypeError, "not None"),
])
def test_bad_modes_are_refused_at_once(monkeypatch, options, error, fragment):
    monkeypatch.delenv("MMBDEID_HASH_KEY", raising=False)
    with pytest.raises(error, match=fragment):
        Scrubber(**options)


@pytest.mark.parametrize("function, data", [
    (mmbdeid.scrub, "Hugs to Linda"),
    (mmbdeid.scrub_records, [{"id": 1, "text": "Hugs to Linda"}]),
])
@pytest.mark.parametrize("mode", ["pseudonym", "surrogate"])
def test_the_functions_refuse_the_person_modes_before_any_work(function, data, mode):
    """Documented in python-api.md: the person modes are the command line's."""
    with pytest.raises(ValueError, match="use the command line's 'mmbdeid scrub --mode %s'"
                       % mode):
        function(data, mode=mode)


def test_a_function_returning_no_string_is_refused(default_tagger):
    scrubber = Scrubber(model=default_tagger, mode=lambda label, original: None)
    with pytest.raises(TypeError, match="returned None for a NAME; it must return a str"):
        scrubber.scrub(TEXT)


def test_the_key_is_not_shown(hashed):
    assert "fictional" not in repr(vars(hashed)) and "fictional" not in repr(hashed.operator)
