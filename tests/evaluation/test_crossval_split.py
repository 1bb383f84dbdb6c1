"""Thread-grouped folds and splits, per-fold spread, `mmbdeid split`, progress while
training and scoring. Fixture posts are fictional."""
import io
import json
import sys

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

from mmbdeid.cli import main
from mmbdeid.evaluation.crossval import FoldScores, thread_folds, train_dev_split
from mmbdeid.evaluation.metrics import fold_spread, format_fold_table, sweep
from mmbdeid.files.corpora import LabelledDocument
from mmbdeid.jobs.progress import StepProgress
from mmbdeid.model.tagger import NameTagger
from mmbdeid.text.document import Document


def documents(threads):
    """One labelled document per (thread, text) pair; thread "" = no thread."""
    return [LabelledDocument(Document.from_text(text, board="b", thread=thread), ["O"])
            for thread, text in threads]


THREADS = [("t1", "a"), ("t2", "b"), ("t1", "c"), ("t3", "d"), ("", "e"), ("t2", "f"),
           ("t4", "g"), ("", "h")]


@pytest.mark.parametrize("n_folds", [2, 3, 5])
def test_a_thread_never_spans_two_folds(n_folds):
    labelled = documents(THREADS)
    folds = thread_folds(labelled, n_folds)
    assert sorted(i for fold in folds for i in fold) == list(range(len(THREADS)))
    fold_of = {i: k for k, fold in enumerate(folds) for i in fold}
    for thread in ("t1", "t2"):
        assert len({fold_of[i] for i, (t, _) in enumerate(THREADS) if t == thread}) == 1
    assert folds == thread_folds(labelled, n_folds)          # deterministic


def test_more_folds_than_threads_is_an_error():
    with pytest.raises(ValueError, match="7 folds need at least 7 threads; the corpus has 6"):
        thread_folds(documents(THREADS), 7)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_train_dev_split_keeps_threads_whole_and_repeats(seed):
    labelled = documents(THREADS)
    train, dev = train_dev_split(labelled, 0.4, seed)
    assert sorted(train + dev) == list(range(len(THREADS))) and train and dev
    for thread in ("t1", "t2"):
        sides = {i in dev for i, (t, _) in enumerate(THREADS) if t == thread}
        assert len(sides) == 1
    assert (train, dev) == train_dev_split(labelled, 0.4, seed)


def fold(gold, probabilities, minima, posts):
    return FoldScores(np.array(gold, bool), np.array(probabilities, float),
                      np.array(minima, float), posts)


FOLDS = [fold([1, 1, 0, 0], [0.9, 0.01, 0.2, 0.0], [0.01, np.inf], 2),     # R .5 P .5
         fold([1, 1, 0, 0], [0.9, 0.6, 0.0, 0.0], [0.6, np.inf], 2)]       # R 1 P 1


def test_fold_table_and_spread():
    table = format_fold_table(FOLDS, 0.05)
    assert "     1      2      2    50.00       50.00   50.00" in table
    assert "     2      2      2   100.00      100.00  100.00" in table
    spread = fold_spread(FOLDS, 0.05)
    assert "recall 75.00 ± 35.36 (50.00–100.00)" in spread
    assert "leaking posts 50.00 ± 70.71 (0.00–100.00)" in spread


def test_sweep_counts_agree_with_scikit_learn():
    rng = np.random.default_rng(3)
    gold = rng.random(5000) < 0.1
    scores = rng.random(5000)
    for row in sweep(gold, scores):
        tn, fp, fn, tp = confusion_matrix(gold, scores > row.threshold, labels=[0, 1]).ravel()
        assert (row.tp, row.fp, row.fn, row.tn) == (tp, fp, fn, tn)


def test_step_progress_reports_each_step_and_is_silent_when_quiet():
    stream = io.StringIO()
    progress = StepProgress("training", stream=stream, interval=0, terminal=False)
    NameTagger(max_iterations=3, lowercase_share=0).fit(
        ["Hi Kay", "Thanks Bob"], [[(3, 6, "NAME")], [(7, 10, "NAME")]], progress=progress)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert any("training: features: 2/2 documents" in line for line in lines)
    assert any("training: iterations: 3/3 iterations" in line for line in lines)
    quiet = io.StringIO()
    progress = StepProgress("training", quiet=True, stream=quiet, interval=0, terminal=False)
    progress("iterations", 1, 3)
    assert quiet.getvalue() == ""


@pytest.fixture
def threaded_file(tmp_path):
    path = tmp_path / "tagged.jsonl"
    rows = []
    for number in range(12):
        text = "Hi Kay, thread %d here" % (number // 2)
        rows.append({"id": "p%d" % number, "thread": "t%d" % (number // 2), "text": text,
                     "spans": [{"start": 3, "end": 6, "label": "NAME"}]})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def test_split_command_writes_every_post_once_in_order(threaded_file, tmp_path, capsys):
    path, rows = threaded_file
    train, dev = tmp_path / "train.jsonl", tmp_path / "dev.jsonl"
    assert main(["split", str(path), "-o", str(train), "--dev", str(dev),
                 "--dev-share", "0.3", "--seed", "4"]) == 0
    got_train = [json.loads(line) for line in train.read_text().splitlines()]
    got_dev = [json.loads(line) for line in dev.read_text().splitlines()]
    assert sorted(got_train + got_dev, key=lambda r: int(r["id"][1:])) == rows
    for part in (got_train, got_dev):
        assert [int(r["id"][1:]) for r in part] == sorted(int(r["id"][1:]) for r in part)
    assert not {r["thread"] for r in got_train} & {r["thread"] for r in got_dev}
    assert len({r["thread"] for r in got_dev}) == 2       # 0.3 of 6 threads, rounded up
    assert "to %s" % dev in capsys.readouterr().err


@pytest.mark.parametrize("lines, message", [
    (['{"id": 1, "text": "Hi"}'], "tagged.jsonl:1: missing field 'spans'"),
    (['{"id": 1, "text": "Hi", "spans": []}'], "a split needs at least 2 threads"),
])
def test_split_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, lines, message):
    path = tmp_path / "tagged.jsonl"
    path.write_text("\n".join(lines) + "\n")
    train, dev = tmp_path / "train.jsonl", tmp_path / "dev.jsonl"
    assert main(["split", str(path), "-o", str(train), "--dev", str(dev)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not train.exists() and not dev.exists()


def test_crossval_reports_each_fold_and_plots(threaded_file, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path, _ = threaded_file
    plot = tmp_path / "cv.png"
    assert main(["crossval", str(path), "--folds", "3", "--max-iterations", "10",
                 "--plot", str(plot), "--quiet"]) == 0
    out = capsys.readouterr()
    assert "per fold at threshold 0.05:" in out.out
    assert "spread over 3 folds, mean ± sd (min–max)" in out.out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.err == ""                                       # --quiet


def test_plot_without_matplotlib_says_which_extra(threaded_file, tmp_path, capsys,
                                                  monkeypatch):
    path, _ = threaded_file
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # import fails
    plot = tmp_path / "cv.png"
    assert main(["crossval", str(path), "--folds", "2", "--plot", str(plot)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("mmbdeid: error: %s: --plot needs matplotlib: "
                   "pip install 'mmbdeid[plot]'" % plot)
    assert not plot.exists()
