"""train --dev: the threshold chosen for --target-recall, its dev figures printed and kept in
the model, and a threshold below the floor (0.005) refused unless --force; the threshold is
chosen on what scrub removes (``evaluate --chain scrub``) unless --chain model."""
import math
import os

import numpy as np
import pytest

from mmbdeid.cli import main
from mmbdeid.model.tagger import NameTagger

INF = math.inf
# A dev set's scores: four name tokens (three posts with a name, one without) and four
# other tokens; one more set whose last name scores 0, so recall 1 is out of reach.
SCORES = ([True] * 4 + [False] * 4, [0.9, 0.6, 0.3, 0.002, 0.5, 0.1, 0.001, 0.0],
          [0.9, 0.3, 0.002, INF])
ZERO_NAME = ([True, True, False, False], [0.8, 0.0, 0.3, 0.001], [0.8, 0.0])
AT_FLOOR = ([True, True, False, False], [0.9, 0.006, 0.005, 0.001], [0.9, 0.006])

CASES = [  # (scores, target, --force, exit, threshold, printed figures, said on stderr)
    (SCORES, 0.5, False, 0, 0.5,
     {"recall": "50.00%  (2 of 4", "precision": "100.00%  (2 of 2",
      "specificity": "100.00%  (4 of 4", "leaking": "2 of 3 posts with a name (66.67%); "
      "2 of 4 posts (50.00%)"}, []),
    (SCORES, 0.75, False, 0, 0.2,
     {"recall": "75.00%  (3 of 4", "precision": "75.00%  (3 of 4",
      "specificity": "75.00%  (3 of 4", "leaking": "1 of 3 posts with a name"}, []),
    (SCORES, 1.0, False, 2, 0.001, {"recall": "100.00%  (4 of 4"},
     ["target recall 1 needs threshold 0.001, below 0.005; --force accepts it; "
      "no model written"]),
    (SCORES, 1.0, True, 0, 0.001,
     {"recall": "100.00%  (4 of 4", "specificity": "50.00%  (2 of 4",
      "leaking": "0 of 3 posts with a name (0.00%)"},
     ["warning: threshold 0.001 is below 0.005, accepted with --force"]),
    (ZERO_NAME, 1.0, False, 2, 0.0009, {"recall": "50.00%  (1 of 2"},
     ["no threshold reaches dev recall 1 (0.5000 at best, at threshold 0.0009), below "
      "0.005; --force accepts it"]),
    (ZERO_NAME, 1.0, True, 0, 0.0009, {"threshold": "0.0009 (the lowest there is: dev "
                                       "recall stays below 1)"},
     ["warning: dev recall 0.5000 < target 1 even at threshold 0.0009",
      "accepted with --force"]),
    (AT_FLOOR, 1.0, False, 0, 0.005, {"recall": "100.00%  (2 of 2",
                                      "specificity": "100.00%  (2 of 2"}, []),
]


def _error_lines(err):
    return [line for line in err.splitlines() if line.startswith("mmbdeid: error: ")]


def _figures(out):
    """The printed block as {first word: the rest of its line}."""
    return dict(line.split(None, 1) for line in out.splitlines() if line.strip())


@pytest.mark.parametrize("scores, target, force, status, threshold, printed, said", CASES)
def test_dev_threshold_figures_and_floor(tmp_path, monkeypatch, capsys, tiny_corpus_path,
                                         scores, target, force, status, threshold, printed,
                                         said):
    gold, probabilities, minima = (np.asarray(a, dtype=dtype) for a, dtype in
                                   zip(scores, (bool, float, float)))
    monkeypatch.setattr("mmbdeid.evaluation.gold.gold_scores",
                        lambda *args, **kwargs: (gold, probabilities, minima))
    model = tmp_path / "m.mmbdeid"
    argv = ["train", tiny_corpus_path, "-o", str(model), "--max-iterations", "5", "--quiet",
            "--dev", tiny_corpus_path, "--target-recall", str(target)]
    assert main(argv + (["--force"] if force else [])) == status
    out, err = capsys.readouterr()
    figures = _figures(out)
    assert figures["threshold"].split()[0] == "%g" % threshold
    for word, text in printed.items():
        assert figures[word].startswith(text), (word, figures[word])
    for text in said:
        assert text in err
    assert os.listdir(tmp_path) == (["m.mmbdeid"] if status == 0 else [])
    if status:
        assert _error_lines(err) == [err.splitlines()[-1]]
        return
    tagger = NameTagger.load(str(model))
    source = tagger.metadata_["threshold_source"]
    assert tagger.threshold == threshold
    assert source["below_floor_forced"] == (threshold < 0.005)
    assert source["target_reached"] == (scores is not ZERO_NAME)
    kept = source["dev_figures"]
    assert figures["recall"].startswith("%.2f%%" % (100 * kept["recall"]))
    assert figures["leaking"].startswith("%d of %d" % (kept["leaking_posts"],
                                                       kept["posts_with_a_name"]))


REAL = [  # the tiny model scored for real: (target, --force, exit, figures printed)
    (0.8, False, 0, {"threshold": "0.7 (the highest whose dev recall reaches 0.8)"}),
    (1.0, False, 2, {"threshold": "0.003 (the lowest there is"}),
    (1.0, True, 0, {"threshold": "0.003 (the lowest there is"}),
]


@pytest.mark.parametrize("target, force, status, printed", REAL)
def test_dev_threshold_on_the_tiny_board(tmp_path, capsys, tiny_corpus_path, target, force,
                                         status, printed):
    model = tmp_path / "m.mmbdeid"
    argv = ["train", tiny_corpus_path, "-o", str(model), "--max-iterations", "30",
            "--dev", tiny_corpus_path, "--target-recall", str(target)]
    assert main(argv + (["--force"] if force else [])) == status
    figures = _figures(capsys.readouterr().out)
    for word, text in printed.items():
        assert figures[word].startswith(text), (word, figures[word])
    assert set(figures) == {"dev", "threshold", "recall", "precision", "specificity",
                            "leaking"}
    assert model.exists() == (status == 0)
    if status == 0:
        metadata = NameTagger.load(str(model)).metadata_
        assert metadata["threshold_source"]["target_recall"] == target
        assert metadata["training_data"][0]["documents"] == 10


def test_a_dev_set_without_names_is_one_line_error(tmp_path, capsys, tiny_corpus_path):
    dev = tmp_path / "dev.conll"
    dev.write_text("Fine\tO\nthanks\tO\n\n", encoding="utf-8")
    model = tmp_path / "m.mmbdeid"
    assert main(["train", tiny_corpus_path, "-o", str(model), "--max-iterations", "5",
                 "--quiet", "--dev", str(dev)]) == 2
    err = capsys.readouterr().err
    assert _error_lines(err) == [
        "mmbdeid: error: %s: no gold name tokens: recall is undefined" % dev]
    assert not model.exists()


@pytest.mark.parametrize("option", [["--target-recall", "0.95"], ["--force"]])
def test_a_dev_option_without_dev_is_refused_not_ignored(tmp_path, capsys, tiny_corpus_path,
                                                         option):
    model = tmp_path / "m.mmbdeid"
    assert main(["train", tiny_corpus_path, "-o", str(model), "--max-iterations", "5",
                 "-q"] + option) == 2
    assert capsys.readouterr().err == ("mmbdeid: error: %s needs --dev (the threshold is "
                                       "chosen on a development set)\n" % option[0])
    assert os.listdir(tmp_path) == []


CHAINS = [  # (train's --chain options, the chain measured, target, threshold chosen)
    # a rule step finds a name the model scores 0.8 or less
    pytest.param([], "scrub", 0.7, 0.9, id="default-0.7"),
    pytest.param(["--chain", "scrub"], "scrub", 0.7, 0.9, id="scrub-0.7"),
    pytest.param(["--chain", "model"], "model", 0.7, 0.8, id="model-0.7"),
    pytest.param([], "scrub", 0.85, 0.587, id="default-0.85"),
]


@pytest.mark.parametrize("extra, chain, target, chosen", CHAINS)
def test_dev_threshold_is_the_one_evaluate_gives_the_chain(tmp_path, capsys,
                                                           tiny_corpus_path, extra, chain,
                                                           target, chosen):
    """train --dev chooses over what scrub removes (by default): its threshold is the
    highest whose recall in ``evaluate --chain`` reaches the target, and the recall and
    leaking posts it prints are evaluate's at that threshold."""
    from mmbdeid.evaluation.gold import document_scores, pooled_scores
    from mmbdeid.evaluation.metrics import pick_threshold
    from mmbdeid.files.corpora import load_labelled
    from mmbdeid.model.reference import corpus_stats

    model = str(tmp_path / "m.mmbdeid")
    assert main(["train", tiny_corpus_path, "-o", model, "--max-iterations", "30", "--dev",
                 tiny_corpus_path, "--target-recall", str(target), "--quiet"] + extra) == 0
    trained = _figures(capsys.readouterr().out)
    tagger = NameTagger.load(model)
    dev = load_labelled(tiny_corpus_path)
    scores = document_scores(tagger, dev, corpus_stats([d.document for d in dev]),
                             chain=chain)
    gold, probabilities = pooled_scores(dev, scores)
    assert tagger.threshold == pick_threshold(gold, probabilities, target) == chosen
    assert tagger.metadata_["threshold_source"]["chain"] == chain
    assert main(["evaluate", tiny_corpus_path, "--model", model, "--chain", chain,
                 "--quiet"]) == 0
    evaluated = _figures(capsys.readouterr().out)
    assert float(evaluated["recall"]) >= target
    assert trained["recall"].startswith("%.2f%%" % (100 * float(evaluated["recall"])))
    assert trained["leaking"] == evaluated["leaking"]
    assert ("evaluate --chain %s measures" % chain) in trained["dev"]
