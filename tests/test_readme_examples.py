"""The Python examples of the README and of the pages in docs/ run as written, and print what
the page says they print.

Each ```python block runs in a fresh namespace, in a temporary directory; the comment lines
starting with ``# `` at the left margin are the expected output, in order. A block that
needs an optional extra (pandas, spaCy, Presidio, Dask, pyarrow, matplotlib) is skipped when
it is not installed.
"""
import ast
import contextlib
import io
import os
import re
from pathlib import Path

import pytest

import paths

README = Path(paths.README)
DOCS = README.parent / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
# module a block imports (or a package of it) -> the module of the optional extra it needs
OPTIONAL = {"pandas": "pandas", "spacy": "spacy", "presidio_analyzer": "presidio_analyzer",
            "dask": "dask", "dask.distributed": "distributed", "distributed": "distributed",
            "pyarrow": "pyarrow", "matplotlib": "matplotlib",
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


def imported_modules(code: str):
    """Every module ``code`` imports anywhere (in a function or a ``try`` too), with the
    packages above it: ``import a.b`` gives a and a.b; ``from a.b import c`` gives a, a.b
    and a.b.c (``c`` may be a module: ``from mmbdeid.adapters import presidio``)."""
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + ["%s.%s" % (node.module, alias.name)
                                     for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            found.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return found


def needed_extras(code: str):
    return {OPTIONAL[module] for module in imported_modules(code) if module in OPTIONAL}


@pytest.mark.parametrize("code, extras", [
    ("import pandas as pd\n", {"pandas"}),
    ("from mmbdeid.adapters.presidio import blank_analyzer_engine\n", {"presidio_analyzer"}),
    ("import mmbdeid.adapters.spacy_component  # registers\n", {"spacy"}),
    ("import spacy\n", {"spacy"}),
    ("import mmbdeid\nfrom mmbdeid import Scrubber\n", set()),
    ("from mmbdeid.adapters import presidio\n", {"presidio_analyzer"}),
    ("from mmbdeid.adapters import spacy_component as component\n", {"spacy"}),
    ("import mmbdeid.adapters.presidio as adapter\n", {"presidio_analyzer"}),
    ("from presidio_analyzer import AnalyzerEngine\n", {"presidio_analyzer"}),
    ("import spacy.tokens\nfrom spacy.language import Language\n", {"spacy"}),
    ("import os, pandas\n", {"pandas"}),
    ("import pandas.api.types as types\n", {"pandas"}),
    ("from pandas import DataFrame\n", {"pandas"}),
    ("import dask\n", {"dask"}),
    ("import dask.dataframe as dd\n", {"dask"}),
    ("from dask.distributed import Client\n", {"dask", "distributed"}),
    ("import pyarrow\n", {"pyarrow"}),
    ("import pyarrow.parquet as pq\n", {"pyarrow"}),
    ("def frame():\n    import pandas\n    return pandas.DataFrame()\n", {"pandas"}),
    ("try:\n    import pyarrow\nexcept ImportError:\n    pass\n", {"pyarrow"}),
    ("import pandasql\nimport spacyx\n", set()),
    ("text = 'import pandas'\n# import spacy\n", set()),
    ("from mmbdeid.adapters.entities import PERSON_ENTITIES\n", set()),
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
