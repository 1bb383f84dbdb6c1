"""Every command has a description and examples, every option a help text, and every
example in the help parses as written."""
import argparse
import shlex

import pytest

from mmbdeid.cli.parser import build_parser


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
