"""Paths of the repository that the tests read, in one place: a test file may sit at any
depth under ``tests/``, so none computes them from its own ``__file__``. Imported as a
top-level module (``tests/`` is on ``sys.path`` under pytest, through the root conftest.py)."""
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
PACKAGE = os.path.join(REPO, "mmbdeid")
FIXTURES = os.path.join(TESTS, "fixtures")
OUTSIDE_STEP = os.path.join(FIXTURES, "outside_step")
GOLDEN = os.path.join(FIXTURES, "golden")
TINY = os.path.join(FIXTURES, "tiny_board.annotated.jsonl")
WNUT_STYLE = os.path.join(FIXTURES, "wnut_style.conll")
SAMPLES = os.path.join(REPO, "corpora_samples")
DEMO_DUMP = os.path.join(SAMPLES, "demo_dump.jsonl")
SAMPLE_CORPUS = os.path.join(SAMPLES, "health_boards.annotated.jsonl")
LEXICONS = os.path.join(REPO, "lexicons")
BENCHMARKS = os.path.join(REPO, "benchmarks")
TOOLS = os.path.join(REPO, "tools")
BIN = os.path.join(REPO, "bin")
README = os.path.join(REPO, "README.md")
