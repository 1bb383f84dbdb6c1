"""The Python examples of the README and of the pages in docs/ run as written, and print what
the page says they print.

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

README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
# module a block imports -> the optional extra it needs
OPTIONAL = {"pandas": "pandas", "spacy": "spacy", "presidio_analyzer": "presidio_analyzer",
            "mmbdeid.adapters.presidio": "presidio_analyzer",
            "mmbdeid.adapters.spacy_component": "spacy"}


def documents():
    """The README and every page of docs/, as paths."""
    return [README] + sorted(DOCS.glob("*.md"))


def python_blocks(paths=None):
    blocks = []
    for path in documents() if paths is None else paths:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(README.parent).as_posix()
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            where = "%s:%d" % (name, line)
            blocks.append(pytest.param(match.group(1), where, id=where))
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
    assert len(python_blocks([README])) >= 1
    # the README's examples before it was cut to a summary live on in docs/python-api.md
    assert len(python_blocks(sorted(DOCS.glob("*.md")))) >= 5


@pytest.mark.parametrize("code, where", python_blocks())
def test_readme_python_example(code, where, tmp_path):
    for module in needed_extras(code):
        pytest.importorskip(module)
    printed = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(code, where, "exec"), {"__name__": "readme_example"})
    finally:
        os.chdir(cwd)
    expected = expected_output(code)
    if expected:
        assert printed.getvalue().splitlines() == expected
