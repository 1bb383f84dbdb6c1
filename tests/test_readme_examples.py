"""The README's Python examples run as written, and print what the README says they print.

Each ```python block runs in a fresh namespace, in a temporary directory; the comment lines
starting with ``# `` at the left margin are the expected output, in order. A block that
needs an optional extra (pandas, spaCy, Presidio) is skipped when it is not installed.
"""
import contextlib
import io
import os
import re
from pathlib import Path

import pytest

import paths

README = Path(paths.README)
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
# module a block imports -> the optional extra it needs
OPTIONAL = {"pandas": "pandas", "spacy": "spacy", "presidio_analyzer": "presidio_analyzer",
            "mmbdeid.adapters.presidio": "presidio_analyzer",
            "mmbdeid.adapters.spacy_component": "spacy"}


def python_blocks():
    text = README.read_text(encoding="utf-8")
    blocks = []
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        blocks.append(pytest.param(match.group(1), id="README.md:%d" % line))
    return blocks


def expected_output(code: str):
    return [line[2:] for line in code.splitlines() if line.startswith("# ")]


def needed_extras(code: str):
    return {extra for module, extra in OPTIONAL.items()
            if re.search(r"^\s*(?:import|from) %s(?![\w.])" % re.escape(module), code,
                         re.MULTILINE)}


@pytest.mark.parametrize("code, extras", [
    ("import pandas as pd\n", {"pandas"}),
    ("from mmbdeid.adapters.presidio import blank_analyzer_engine\n", {"presidio_analyzer"}),
    ("import mmbdeid.adapters.spacy_component  # registers\n", {"spacy"}),
    ("import spacy\n", {"spacy"}),
    ("import mmbdeid\nfrom mmbdeid import Scrubber\n", set()),
])
def test_blocks_that_need_an_extra_are_recognised(code, extras):
    assert needed_extras(code) == extras


def test_the_readme_has_python_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("code", python_blocks())
def test_readme_python_example(code, tmp_path):
    for module in needed_extras(code):
        pytest.importorskip(module)
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    finally:
        os.chdir(cwd)
    expected = expected_output(code)
    if expected:
        assert printed.getvalue().splitlines() == expected
