"""Fixtures shared by the test directories. Those read but never changed by the tests are
session-scoped: built once per run. Paths are in ``paths.py``.

pytest's default (prepend) import mode puts this file's directory, ``tests/``, on
``sys.path``: the helper modules here (``paths``, ``documents``, ``jsonl_files``,
``keep_samples``, ``pass_hooks``, ``sample_builds``, ``slow_cases``, ``sql_ranking``, ``stand_in_model``) import as top-level
modules from any test directory. The test directories have no ``__init__.py``, so every
test file's name is unique across them."""
import json
import tempfile

import pytest

from paths import DEMO_DUMP, SAMPLE_CORPUS, TINY


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


@pytest.fixture(scope="session")
def default_tagger():
    """The bundled default model, loaded once."""
    from mmbdeid.model.tagger import NameTagger, default_model_path
    return NameTagger.load(default_model_path())


def _documents(path):
    from mmbdeid.text.document import Document
    with open(path, encoding="utf-8") as handle:
        return [Document.from_post(json.loads(line)) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def demo_documents():
    """The bundled demo dump (corpora_samples/demo_dump.jsonl), one Document a post."""
    return _documents(DEMO_DUMP)


@pytest.fixture(scope="session")
def sample_documents():
    """The bundled annotated sample (health_boards.annotated.jsonl) read as posts."""
    return _documents(SAMPLE_CORPUS)


@pytest.fixture(scope="session")
def sample_labelled():
    """The bundled annotated sample read with its gold labels (``load_labelled``)."""
    from mmbdeid.files.corpora import load_labelled
    return load_labelled(SAMPLE_CORPUS)


@pytest.fixture(scope="session")
def bundled_corpus(demo_documents, sample_documents):
    """The demo dump's and the sample's posts, and the corpus statistics of them all."""
    from mmbdeid.model.stats import CorpusStats
    documents = demo_documents + sample_documents
    return documents, CorpusStats.build(documents)


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """This process's (and so its workers') temporary directory, to see what is left."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    monkeypatch.setenv("TMPDIR", str(directory))
    return directory
