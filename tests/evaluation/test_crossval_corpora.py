"""Cross-validation over several corpora (issue 31): folds by thread across files, fixed
training corpora never scored nor holding a held-out post, weights, the chain measured,
and the figures per file and board. Fixture posts are fictional."""
import json

import numpy as np
import pytest

from mmbdeid.cli import main
from mmbdeid.evaluation import gold
from mmbdeid.evaluation.crossval import (Corpus, FoldScores, corpora_fold_scores,
                                         corpus_folds, weighted, without_held_documents)
from mmbdeid.evaluation.fold_groups import format_group_spread, recall_threshold
from mmbdeid.files.corpora import LabelledDocument
from mmbdeid.model.tagger import NameTagger
from mmbdeid.text.document import Document

FAST = dict(max_iterations=3, lowercase_share=0)


def labelled(text, board="b", thread="t", names=()):
    document = Document.from_post({"text": text, "board": board, "thread": thread})
    return LabelledDocument(document, ["NAME" if token in names else "O"
                                       for token in document.tokens])


def corpus(name, threads, weight=1, board="b"):
    """One post per thread id in ``threads``: ``Thanks <Name>, see you`` (Name tagged)."""
    posts = [labelled("Thanks %s, see you" % who, board, thread, names=(who,))
             for thread, who in threads]
    return Corpus(name, posts, weight)


ONE = corpus("one.jsonl", [("t1", "Kay"), ("t2", "Bob"), ("t1", "Ann"), ("t3", "Lea")])
# the same thread ids on the same board in another file are other threads
TWO = corpus("two.jsonl", [("t1", "Sam"), ("t2", "Tom"), ("t4", "Eve")])


def test_folds_cover_every_post_once_a_thread_of_one_file_in_one_fold():
    folds = corpus_folds([ONE, TWO], 3)
    places = sorted(place for fold in folds for place in fold)
    assert places == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]
    fold_of = {place: k for k, fold in enumerate(folds) for place in fold}
    assert fold_of[(0, 0)] == fold_of[(0, 2)]                  # one.jsonl's thread t1
    assert corpus_folds([ONE, TWO], 3) == folds                # deterministic
    # 5 threads: t1 t2 t3 of one file, t1 t2 t4 of the other are 6 groups
    assert len(corpus_folds([ONE, TWO], 6)) == 6


@pytest.mark.parametrize("weight, expected", [(0, 0), (0.5, 2), (1, 4), (3, 12)])
def test_weight_repeats_or_draws_whole_documents(weight, expected):
    chosen = weighted(ONE.documents, weight)
    assert len(chosen) == expected
    assert all(any(item is d for d in ONE.documents) for item in chosen)
    assert weighted(ONE.documents, weight) == chosen           # the same draw every time


def test_fixed_corpora_lose_the_posts_that_are_cross_validated():
    copy = labelled("Thanks Kay, see you", "b", "t1", names=("Kay",))   # as in ONE
    other = labelled("Hi Max", "x", "y", names=("Max",))
    base = Corpus("base.jsonl", [copy, other])
    assert without_held_documents([base], [ONE])[0].documents == [other]


@pytest.fixture
def trained(monkeypatch):
    """The documents each fold's model is trained on, and the chain each fold is scored
    over (the real training and scoring still run)."""
    seen = {"trained": [], "chains": []}
    fit = NameTagger.fit

    def spy_fit(self, documents, labels, **kwargs):
        seen["trained"].append([" ".join(d.tokens) for d in documents])
        return fit(self, documents, labels, **kwargs)
    scores = gold.document_scores

    def spy_scores(*args, **kwargs):
        seen["chains"].append(kwargs.get("chain"))
        return scores(*args, **kwargs)
    monkeypatch.setattr(NameTagger, "fit", spy_fit)
    monkeypatch.setattr(gold, "document_scores", spy_scores)
    return seen


def test_weight_zero_is_scored_never_trained_and_fixed_is_trained_never_scored(trained):
    fixed = Corpus("fixed.jsonl", [labelled("Hello Zed, welcome", names=("Zed",))])
    folds = list(corpora_fold_scores([ONE, TWO._replace(weight=0)], 3, [fixed],
                                     chain="scrub", **FAST))
    assert sum(fold.posts for fold in folds) == 7              # both files scored
    assert sum(int(fold.gold.sum()) for fold in folds) == 7    # one name a post, not Zed
    for texts in trained["trained"]:
        assert "Hello Zed , welcome" in texts                  # fixed: every fold
        assert not any(who in text for text in texts for who in ("Sam", "Tom", "Eve"))
    assert trained["chains"] == ["scrub"] * 3


def test_each_fold_has_the_figures_of_each_file_and_board():
    posts = [labelled("Thanks %s, see you" % who, board, thread, names=(who,))
             for board, thread, who in [("ewt-email", "m1", "Kay"), ("ewt-email", "m2", "Bob"),
                                        ("ewt-reviews", "r1", "Ann"),
                                        ("ewt-reviews", "r2", "Lea")]]
    folds = list(corpora_fold_scores([Corpus("ewt.jsonl", posts), ONE], 2, by_board=True,
                                     chain="model", **FAST))
    for fold in folds:
        assert fold.posts == sum(fold.groups[name].posts for name in fold.groups
                                 if ":" not in name)
        whole = sum(int(fold.groups[name].gold.sum()) for name in fold.groups
                    if ":" not in name)
        assert whole == int(fold.gold.sum())
    names = {name for fold in folds for name in fold.groups}
    assert names == {"ewt.jsonl", "ewt.jsonl:ewt-email", "ewt.jsonl:ewt-reviews",
                     "one.jsonl", "one.jsonl:b"}


def scores(gold, probabilities, minima):
    return FoldScores(np.array(gold, bool), np.array(probabilities, float),
                      np.array(minima, float), len(minima))


def test_group_table_gives_mean_sd_range_and_the_threshold_for_the_target():
    folds = [scores([1, 1, 0], [0.9, 0.01, 0.2], [0.01])._replace(
                 groups={"a.jsonl": scores([1, 1, 0], [0.9, 0.01, 0.2], [0.01])}),
             scores([1, 0], [0.6, 0.0], [0.6])._replace(
                 groups={"a.jsonl": scores([1, 0], [0.6, 0.0], [0.6])})]
    table = format_group_spread(folds, 0.05, 0.96)
    row = [line for line in table.splitlines() if "a.jsonl" in line][0].split()
    assert row[1:4] == ["2", "2", "3"]                         # folds, posts, names
    assert " ".join(row[4:8]) == "75.0 ± 35.4 (50.0–100.0)"   # recall
    assert " ".join(row[12:16]) == "50.0 ± 70.7 (0.0–100.0)"  # leaking posts
    assert row[-1] == "0.009"                                  # reaches 0.01, all 3 names
    assert table.splitlines()[2].split()[:4] == ["(all)", "2", "2", "3"]
    assert recall_threshold([scores([0, 0], [0.5, 0.1], [np.inf])], 0.96) is None


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, who in (("one.jsonl", "Kay"), ("two.jsonl", "Bob"), ("extra.jsonl", "Max")):
        path = tmp_path / name
        rows = [{"id": "%s%d" % (name[0], n), "board": "b", "thread": "t%d" % n,
                 "text": "Thanks %s, see you" % who,
                 "spans": [{"start": 7, "end": 10, "label": "NAME"}]} for n in range(4)]
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        paths.append(str(path))
    return paths


def test_command_reports_chain_training_and_groups(files, capsys):
    one, two, extra = files
    assert main(["crossval", one, two, "--folds", "2", "--max-iterations", "3",
                 "--weight", two + "=0", "--train-also", extra, "--weight", extra + "=2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert ("chain scrub; trained on the other folds of one.jsonl x1; every fold: "
            "extra.jsonl x2") in out
    assert "per group at threshold 0.05" in out
    assert len([line for line in out.splitlines() if "  two.jsonl  " in line]) == 1


@pytest.mark.parametrize("weight, message", [
    ("{one}=2.5", "W must be 0, a share below 1 or a whole number from 1 to 1000, got '2.5'"),
    ("{one}", "--weight must be FILE=W"),
    ("other.jsonl=1", "other.jsonl: --weight names a file that is neither a CORPUS nor a "
                      "--train-also file"),
    ("{one}=0", "nothing to train on: every CORPUS has --weight 0"),
])
def test_bad_weight_is_one_line_exit_2(files, capsys, weight, message):
    one = files[0]
    assert main(["crossval", one, "--folds", "2", "--weight", weight.format(one=one)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
