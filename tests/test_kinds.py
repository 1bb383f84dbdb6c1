"""The kinds of identifier (mmbdeid/kinds.py): the table, the default set, the presets and
the lists --kinds and kinds= take."""
import pytest

from mmbdeid.kinds import (BY_LABEL, DEFAULT_KINDS, KINDS, LABELS, NON_PERSON_LABELS, PRESETS,
                           parse_kinds)


def test_the_default_kinds_are_those_removed_before_issue_21():
    assert DEFAULT_KINDS == ("NAME", "USER", "EMAIL", "URL", "PHONE")
    assert PRESETS["safe-harbor"] == LABELS
    assert {"ADDRESS", "POSTCODE", "ID", "IP", "DATE", "PLACE", "ORG"} <= set(NON_PERSON_LABELS)


def test_every_kind_has_a_placeholder_a_surrogate_and_a_presidio_name():
    for kind in KINDS:
        assert kind.placeholder == "[%s]" % kind.label
        assert kind.surrogate and kind.presidio


@pytest.mark.parametrize("text, chosen", [
    ("safe-harbor", LABELS),
    ("default", DEFAULT_KINDS),
    ("default,DATE", DEFAULT_KINDS + ("DATE",)),
    ("date, name", ("NAME", "DATE")),                    # any case, table order
    ("IP,ip,Safe-Harbor", LABELS),
    ("ADDRESS", ("ADDRESS",)),
])
def test_parse_kinds_takes_labels_and_presets_in_table_order(text, chosen):
    assert parse_kinds(text) == chosen


@pytest.mark.parametrize("text, message", [
    ("DATES", "unknown kind 'DATES' (kinds: NAME, USER, EMAIL"),
    ("default,zip", "presets: default, safe-harbor"),
    (" , ", "no kind given"),
])
def test_an_unknown_kind_is_refused_naming_the_known_ones(text, message):
    with pytest.raises(ValueError) as raised:
        parse_kinds(text)
    assert message in str(raised.value)


def test_labels_are_unique():
    assert len(BY_LABEL) == len(KINDS)
