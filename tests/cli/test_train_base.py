"""train --base default: the user's posts trained together with the default model's corpora
(read from the package), repeated --base-weight times (default: about a third of the
tokens), and the options refused in one line when they make no sense."""
import os

import pytest

from mmbdeid.cli import main
from mmbdeid.model import base_corpora
from mmbdeid.model.tagger import NameTagger

SMALL_BASE = ("health_boards.annotated.jsonl.gz",)   # one shipped file: a fast test


@pytest.fixture
def small_base(monkeypatch):
    monkeypatch.setitem(base_corpora.BASES, "default", SMALL_BASE)
    fitted = []
    fit = NameTagger.fit

    def counting_fit(self, documents, labels, *args, **kwargs):
        fitted.append(len(documents))
        return fit(self, documents, labels, *args, **kwargs)
    monkeypatch.setattr(NameTagger, "fit", counting_fit)
    return fitted


def _base_documents():
    return sum(len(documents) for _, documents in base_corpora.load_base("default"))


@pytest.mark.parametrize("weight", [None, 3])
def test_train_with_the_default_base(tmp_path, capsys, tiny_corpus_path, small_base, weight):
    model = tmp_path / "board.mmbdeid"
    options = [] if weight is None else ["--base-weight", str(weight)]
    assert main(["train", tiny_corpus_path, "--base", "default", "-o", str(model),
                 "--max-iterations", "3", "-q"] + options) == 0
    sources = NameTagger.load(str(model)).metadata_["training_data"]
    user, base = sources[0], sources[1:]
    assert user["documents"] == 10
    expected = weight or base_corpora.repeat_count(
        user["tokens"], sum(source["tokens"] for source in base))
    assert expected > 1
    assert user["repeated"] == expected
    assert [(s["path"], s["base"]) for s in base] == [(SMALL_BASE[0], "default")]
    assert small_base == [10 * expected + _base_documents()]


def test_base_weight_without_base_is_refused(tmp_path, capsys, tiny_corpus_path):
    model = tmp_path / "m.mmbdeid"
    assert main(["train", tiny_corpus_path, "-o", str(model), "--base-weight", "4",
                 "-q"]) == 2
    assert capsys.readouterr().err == (
        "mmbdeid: error: --base-weight needs --base (it weights the CORPUS posts against the "
        "base corpora)\n")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("options, message", [
    (["--base", "mine"], "argument --base: invalid choice: 'mine' (choose from 'default')"),
    (["--base", "default", "--base-weight", "0"], "--base-weight"),
])
def test_bad_base_options_are_one_line(tmp_path, capsys, tiny_corpus_path, options, message):
    model = tmp_path / "m.mmbdeid"
    try:
        status = main(["train", tiny_corpus_path, "-o", str(model), "-q"] + options)
    except SystemExit as exit:
        status = exit.code
    assert status == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mmbdeid: error: ")
    assert message in lines[0]
    assert not model.exists()
