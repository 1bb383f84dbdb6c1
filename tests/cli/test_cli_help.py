"""Every command has a description and examples, every option a help text, and every
example in the help parses as written."""
import argparse
import contextlib
import io
import json
import shlex
from pathlib import Path

import pytest

from mmbdeid.cli.parser import build_parser

from paths import FIXTURES


def commands():
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


@pytest.mark.parametrize("name", sorted(commands()))
def test_command_has_description_examples_and_option_help(name):
    parser = commands()[name]
    assert parser.description and len(parser.description) > 40
    assert parser.epilog.startswith("examples:\n  mmbdeid ")
    undocumented = [a.option_strings or [a.dest] for a in parser._actions
                    if not isinstance(a, argparse._HelpAction) and not a.help]
    assert undocumented == []
    assert "examples:" in parser.format_help()


@pytest.mark.parametrize("example", [
    line.strip() for parser in commands().values()
    for line in parser.epilog.splitlines()[1:]])
def test_every_example_parses(example):
    words = shlex.split(example.split("|")[-1].split(">")[0])
    assert words[0] == "mmbdeid"
    build_parser().parse_args(words[1:])


HELP_TEXTS = json.loads(Path(FIXTURES, "cli_help.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", sorted(HELP_TEXTS))
def test_help_is_byte_identical_to_before_the_parser_was_split(monkeypatch, command):
    """``mmbdeid --help`` and each ``mmbdeid COMMAND --help`` at 100 columns, as the parser
    built by one long function printed them (tests/fixtures/cli_help.json, written from
    the code before issue 32; a change of a help text updates it)."""
    monkeypatch.setenv("COLUMNS", "100")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.raises(SystemExit):
        build_parser().parse_args(command.split() + ["--help"])
    assert printed.getvalue() == HELP_TEXTS[command]


def test_the_help_fixture_covers_every_command():
    assert set(HELP_TEXTS) >= {""} | set(commands()) | {"estimate draw", "estimate report"}
