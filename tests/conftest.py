import os

import pytest

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
TINY = os.path.join(FIXTURES, "tiny_board.annotated.jsonl")


@pytest.fixture(scope="session")
def tiny_corpus_path():
    return TINY


@pytest.fixture(scope="session")
def tiny_model_path(tmp_path_factory):
    """A model trained by the real CLI on the tiny fictional fixture (seconds)."""
    from mmbdeid.cli import main
    path = str(tmp_path_factory.mktemp("model") / "tiny.mmbdeid")
    assert main(["train", TINY, "-o", path, "--max-iterations", "50"]) == 0
    return path
