"""Two models on one gold file: recall at equal precision and precision at a given recall,
with a paired bootstrap over posts (tweets) for the gain of the second model.

  python tools/compare_models.py GOLD BASE.mmbdeid NEW.mmbdeid [--threshold 0.05]
      [--recall 0.88] [--resamples 1000] [--chain model|scrub]

Recall at equal precision: the base model's precision at ``--threshold``; the new model's
best recall among its operating points (every distinct score as a threshold) with at least
that precision, against the base model's recall at ``--threshold``. Precision at a recall:
each model's best precision among its operating points with at least that recall. Each
resample draws as many posts as the file has, with replacement, the same posts for both
models; the interval is the 2.5 and 97.5 percentiles of the gains.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mmbdeid.evaluation.gold import document_scores  # noqa: E402
from mmbdeid.model.reference import corpus_stats  # noqa: E402
from mmbdeid.files.corpora import load_labelled  # noqa: E402
from mmbdeid.kinds import PERSON_LABELS  # noqa: E402
from mmbdeid.model.tagger import NameTagger  # noqa: E402


def scored_tokens(model_path, labelled, stats, chain):
    """(post index, gold is-name, score) per scored token."""
    scores = document_scores(NameTagger.load(model_path), labelled, stats, chain=chain)
    post, gold, prob = [], [], []
    for i, ((_, labels), token_scores) in enumerate(zip(labelled, scores)):
        for label, score in zip(labels, token_scores):
            if score is not None:
                post.append(i)
                gold.append(label in PERSON_LABELS)
                prob.append(score)
    return np.array(post), np.array(gold), np.array(prob, dtype=float)


class Curve:
    """A model's operating points, ready for weighted (resampled) counts."""

    def __init__(self, post, gold, prob):
        order = np.argsort(-prob, kind="stable")
        self.post, self.gold, self.prob = post[order], gold[order], prob[order]
        # a threshold just below each distinct score tags every token up to its last tie
        last = np.r_[self.prob[1:] != self.prob[:-1], True]
        self.ends = np.flatnonzero(last)

    def points(self, weights):
        """(precision, recall) at every distinct score, tokens weighted by their post's
        count in the resample."""
        w = weights[self.post]
        tp = np.cumsum(w * self.gold)[self.ends]
        tagged = np.cumsum(w)[self.ends]
        names = np.sum(w * self.gold)
        return tp / np.maximum(tagged, 1e-12), tp / max(names, 1e-12)

    def at(self, weights, threshold):
        w = weights[self.post]
        tagged = self.prob > threshold
        tp = np.sum(w * (tagged & self.gold))
        return tp / max(np.sum(w * tagged), 1e-12), tp / max(np.sum(w * self.gold), 1e-12)


def best(values, allowed):
    return float(values[allowed].max()) if allowed.any() else 0.0


def figures(base, new, weights, threshold, recall_level):
    p_base, r_base = base.at(weights, threshold)
    p_new, r_new = new.points(weights)
    p_b, r_b = base.points(weights)
    return {
        "base precision@t": p_base, "base recall@t": r_base,
        "new recall at base precision": best(r_new, p_new >= p_base),
        "recall gain at equal precision": best(r_new, p_new >= p_base) - r_base,
        "base precision at recall": best(p_b, r_b >= recall_level),
        "new precision at recall": best(p_new, r_new >= recall_level),
        "precision gain at recall": best(p_new, r_new >= recall_level)
        - best(p_b, r_b >= recall_level),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold")
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--threshold", type=float, default=0.05)
    parser.add_argument("--recall", type=float, default=0.88)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--chain", default="model", choices=("model", "scrub"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    labelled = load_labelled(args.gold)
    stats = corpus_stats([d.document for d in labelled])
    base = Curve(*scored_tokens(args.base, labelled, stats, args.chain))
    new = Curve(*scored_tokens(args.new, labelled, stats, args.chain))
    n = len(labelled)
    point = figures(base, new, np.ones(n), args.threshold, args.recall)
    rng = np.random.default_rng(args.seed)
    draws = [figures(base, new, np.bincount(rng.integers(0, n, n), minlength=n).astype(float),
                     args.threshold, args.recall) for _ in range(args.resamples)]
    print("%s: %d posts; threshold %g; recall level %g; %d resamples over posts"
          % (args.gold, n, args.threshold, args.recall, args.resamples))
    for key, value in point.items():
        spread = np.percentile([d[key] for d in draws], [2.5, 97.5])
        print("%-32s %7.2f   95%% interval %7.2f .. %7.2f" % (key, 100 * value,
                                                             100 * spread[0], 100 * spread[1]))


if __name__ == "__main__":
    main()
