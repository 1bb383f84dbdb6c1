"""The JSON depth pre-scan (mmbdeid/files/jsondepth.py): the same depth as a scan trying
each quote in turn, in time linear in the line."""
import random
import re

import pytest

from mmbdeid.files import jsondepth
from mmbdeid.files.jsondepth import TooDeep, check_depth

# A scan trying each quote in turn for a string (the pre-scan before issue 29): the brackets
# it counts, for comparison.
_EACH_QUOTE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def brackets_trying_each_quote(text):
    return [m.group() for m in _EACH_QUOTE.finditer(text) if m.group()[0] != '"']


@pytest.mark.parametrize("text, deep", [
    ("[" * 101 + "]" * 101, True),
    ("[" * 100 + "]" * 100, False),
    ('["' + "[" * 200 + '"]', False),                  # brackets in a string do not nest
    ('["\\"' + "[" * 200 + '"]', False),               # nor after an escaped quote
    ('\\"' * 50 + "[" * 101, True),                    # quotes that open no string
    ('"' + "[" * 101 + "\\\n" + '"]', True),           # a string broken by a line break
    ('"' + "{" * 60 + '\\"' + "[" * 60, True),         # a quote left open, escaped quotes
])
def test_depth(text, deep):
    if deep:
        with pytest.raises(TooDeep):
            check_depth(text)
    else:
        check_depth(text)


def test_the_brackets_are_those_of_a_scan_trying_each_quote():
    shuffle = random.Random(29)
    for _ in range(20000):
        text = "".join(shuffle.choice('"\\[]{}a\n') for _ in range(shuffle.randrange(17)))
        assert list(jsondepth.brackets(text)) == brackets_trying_each_quote(text), repr(text)


# What a regular expression engine reads to find a token: an attempt at a quote reads on as
# far as a string could go from there (to its closing quote, or where it fails), any other
# attempt a character.
_STRING_REACH = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')


class ReadCounting:
    """A compiled pattern whose ``finditer`` (the same matches, found one position at a
    time) counts the characters its attempts read."""
    read = 0

    def __init__(self, pattern):
        self.pattern = pattern
        self.reads_strings = pattern.match('""') is not None

    def finditer(self, text, pos=0, endpos=None):
        endpos = len(text) if endpos is None else endpos
        position = pos
        while position < endpos:
            match = self.pattern.match(text, position, endpos)
            reach = _STRING_REACH.match(text, position, endpos) if self.reads_strings else None
            ReadCounting.read += len(reach.group()) if reach else 1
            if match:
                yield match
                position = match.end()
            else:
                position += 1


def characters_read(monkeypatch, text):
    for name, value in vars(jsondepth).items():
        if isinstance(value, re.Pattern):
            monkeypatch.setattr(jsondepth, name, ReadCounting(value))
    ReadCounting.read = 0
    with pytest.raises(TooDeep):
        check_depth(text)
    return ReadCounting.read


def test_a_line_of_escaped_quotes_is_scanned_in_linear_time(monkeypatch):
    # no quote reads the rest of the line again (a 40 KB line took 5.6 s)
    def line(quotes):
        return '\\"' * quotes + "[" * 101
    assert characters_read(monkeypatch, line(2000)) <= 2.2 * characters_read(monkeypatch,
                                                                          line(1000))
    assert characters_read(monkeypatch, line(1000)) <= 2 * len(line(1000))   # twice at most
