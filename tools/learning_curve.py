"""The learning curve of docs/training.md: how a model trained on N hand-tagged posts of a
genre does on held-out posts of that genre, against N, for posts chosen at random or by
uncertainty (``mmbdeid sample --by``), trained alone or with ``train --base default``; the
bundled default model is the baseline.

One thread-grouped fold of the corpus is held out (``mmbdeid.model.folds``: whole threads on
one side); the other folds are the pool the posts are chosen from, by ``mmbdeid sample``
(uncertainty: the bundled model's, as a user would run it on their own dump). Each model is
trained with ``mmbdeid train`` and measured as ``evaluate --chain scrub`` measures it, at
threshold 0.05: token recall, precision and the share of held-out posts with a name that
still hold one.

Usage:
  python3 tools/learning_curve.py /work/shared/data/ewt/ewt.dev.annotated.jsonl \
      --sizes 50,100,200,400 --base-sizes 200 -o docs/learning_curve.csv \
      --plot docs/learning_curve.png
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, NamedTuple, Optional, Sequence

THRESHOLD = 0.05
RULES = ("random", "uncertainty")
FIELDS = ("posts", "rule", "base", "recall", "precision", "leaking", "with_names",
          "leak_share", "train_seconds")


class Point(NamedTuple):
    posts: int              # tagged posts trained on (0: the default model alone)
    rule: str               # random, uncertainty, or default (the baseline)
    base: bool              # trained with --base default
    recall: float
    precision: float
    leaking: int            # held-out posts with a name that still hold one
    with_names: int         # held-out posts with a name
    train_seconds: float

    @property
    def leak_share(self) -> float:
        return self.leaking / self.with_names if self.with_names else 0.0


def read_posts(path: str) -> List[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def held_out_split(posts: Sequence[dict], folds: int, fold: int):
    """(pool, held-out): fold ``fold`` of ``folds`` thread-grouped folds held out."""
    from mmbdeid.model.folds import group_folds
    groups = [(post.get("board") or "", post.get("thread") or "#%d" % number)
              for number, post in enumerate(posts)]
    held = set(group_folds(groups, folds)[fold])
    return ([p for n, p in enumerate(posts) if n not in held],
            [p for n, p in enumerate(posts) if n in held])


def curve_sizes(wanted: Sequence[int], pool: int) -> List[int]:
    """The sizes of ``wanted`` the pool can give, then the whole pool if it is smaller than
    the largest size wanted (the curve's last point: every post there is)."""
    sizes = sorted(size for size in set(wanted) if size < pool)
    if any(size >= pool for size in wanted):
        sizes.append(pool)
    return sizes


def grid(sizes: Sequence[int], base_sizes: Sequence[int], pool: int,
         alone: bool = True) -> List[tuple]:
    """(posts, rule, base) of each model to train: every size by each rule alone (unless
    not ``alone``), the ``base_sizes`` with --base default too; the whole pool once per
    base setting (every rule chooses the same posts)."""
    runs = []
    for size in sizes:
        for base in (False, True):
            if not base and not alone:
                continue
            if base and size not in base_sizes and not (
                    size >= pool and any(b >= pool for b in base_sizes)):
                continue
            for rule in (RULES[:1] if size >= pool else RULES):
                runs.append((size, rule, base))
    return runs


def write_jsonl(posts: Sequence[dict], path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for post in posts:
            handle.write(json.dumps(post, ensure_ascii=False) + "\n")


def mmbdeid(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "mmbdeid"] + list(arguments) + ["-q"], check=True)


def measure(model: Optional[str], held_out: str) -> tuple:
    """(recall, precision, leaking posts, posts with a name) of the model (None: the
    bundled one) on the held-out file, as ``evaluate --chain scrub --threshold 0.05``."""
    from mmbdeid.evaluation.gold import document_scores, pooled_scores
    from mmbdeid.evaluation.metrics import post_leak, token_metrics
    from mmbdeid.files.corpora import load_labelled
    from mmbdeid.model.reference import corpus_stats
    from mmbdeid.model.tagger import NameTagger
    tagger = NameTagger.load(model) if model else NameTagger.default()
    labelled = load_labelled(held_out)
    stats = corpus_stats([d.document for d in labelled])
    scores = document_scores(tagger, labelled, stats, chain="scrub")
    gold, probabilities, minima = pooled_scores(labelled, scores, posts=True)
    metrics = token_metrics(gold, probabilities > THRESHOLD, threshold=THRESHOLD)
    leak = post_leak(minima, THRESHOLD)
    return metrics.recall, metrics.precision, leak.leaking, leak.with_names


def run(args) -> List[Point]:
    posts = read_posts(args.corpus)
    pool, held = held_out_split(posts, args.folds, args.fold)
    work = tempfile.mkdtemp(prefix="learning-curve-")
    pool_path, held_path = os.path.join(work, "pool.jsonl"), os.path.join(work, "held.jsonl")
    write_jsonl(pool, pool_path)
    write_jsonl(held, held_path)
    sizes = curve_sizes(args.sizes, len(pool))
    say("%d posts: pool %d, held out %d (fold %d of %d); sizes %s" % (
        len(posts), len(pool), len(held), args.fold + 1, args.folds, sizes))
    points = []
    if args.alone:
        points.append(Point(0, "default", False, *measure(None, held_path), 0.0))
        report(points[-1])
    for size, rule, base in grid(sizes, args.base_sizes, len(pool), args.alone):
        chosen = os.path.join(work, "%s-%d.jsonl" % (rule, size))
        if not os.path.exists(chosen):
            mmbdeid("sample", pool_path, "-n", str(size), "--by", rule, "--seed",
                    str(args.seed), "-o", chosen)
        model = os.path.join(work, "%s-%d-%s.mmbdeid" % (rule, size, "base" if base else "alone"))
        started = time.monotonic()
        mmbdeid("train", chosen, "-o", model, "--max-iterations", str(args.max_iterations),
                *(["--base", "default"] if base else []))
        seconds = time.monotonic() - started
        points.append(Point(size, rule, base, *measure(model, held_path), seconds))
        report(points[-1])
        if args.output:
            write_points(points, args.output)
    return points


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def report(point: Point) -> None:
    say("%4d %-11s %-5s recall %.4f precision %.4f leaking %d/%d (%.1f%%) trained in %.0fs"
        % (point.posts, point.rule, "base" if point.base else "alone", point.recall,
           point.precision, point.leaking, point.with_names, 100 * point.leak_share,
           point.train_seconds))


def write_points(points: Sequence[Point], path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        for p in points:
            writer.writerow([p.posts, p.rule, int(p.base), "%.4f" % p.recall,
                             "%.4f" % p.precision, p.leaking, p.with_names,
                             "%.4f" % p.leak_share, "%.0f" % p.train_seconds])


def read_points(path: str) -> List[Point]:
    with open(path, newline="", encoding="utf-8") as handle:
        return [Point(int(row["posts"]), row["rule"], row["base"] == "1",
                      float(row["recall"]), float(row["precision"]), int(row["leaking"]),
                      int(row["with_names"]), float(row["train_seconds"]))
                for row in csv.DictReader(handle)]


def markdown_table(points: Sequence[Point]) -> str:
    """The table of docs/training.md."""
    lines = ["| tagged posts | chosen | trained | recall | precision | leaking posts |",
             "|---:|---|---|---:|---:|---:|"]
    for p in points:
        lines.append("| %s | %s | %s | %.1f%% | %.1f%% | %d of %d (%.1f%%) |" % (
            p.posts or "-", "-" if p.rule == "default" else p.rule,
            "default model alone" if p.rule == "default" else
            ("with --base default" if p.base else "alone"),
            100 * p.recall, 100 * p.precision, p.leaking, p.with_names, 100 * p.leak_share))
    return "\n".join(lines)


def series(points: Sequence[Point]) -> Dict[str, List[Point]]:
    """The plot's lines: one per (rule, base), by size; the baseline apart."""
    lines: Dict[str, List[Point]] = {}
    for p in points:
        if p.rule == "default":
            continue
        rules = RULES if p.rule == RULES[0] and p.posts == max(q.posts for q in points) \
            else (p.rule,)
        for rule in rules:      # the whole pool is a point of every rule's line
            lines.setdefault("%s, %s" % (rule, "with --base default" if p.base else "alone"),
                             []).append(p)
    return {name: sorted(line, key=lambda q: q.posts) for name, line in lines.items()}


def plot(points: Sequence[Point], path: str, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mmbdeid.evaluation.curve_plot import DPI, SIZE
    figure, (recall, leaks) = plt.subplots(1, 2, figsize=SIZE)
    baseline = [p for p in points if p.rule == "default"]
    for name, line in series(points).items():
        style = "-" if "alone" in name else "--"
        marker = "o" if name.startswith("random") else "s"
        xs = [p.posts for p in line]
        recall.plot(xs, [100 * p.recall for p in line], style, marker=marker, label=name)
        leaks.plot(xs, [100 * p.leak_share for p in line], style, marker=marker, label=name)
    for axis, value, what in ((recall, "recall", "token recall (%)"),
                              (leaks, "leak_share", "held-out posts with a name that leak (%)")):
        if baseline:
            figure_value = 100 * getattr(baseline[0], value)
            axis.axhline(figure_value, color="grey", linestyle=":", label="default model")
        axis.set_xscale("log", base=2)
        ticks = sorted({p.posts for p in points if p.posts})
        axis.set_xticks(ticks)
        axis.set_xticklabels([str(t) for t in ticks])
        axis.minorticks_off()
        axis.set_xlabel("tagged posts trained on")
        axis.set_ylabel(what)
        axis.grid(True, alpha=0.3)
    recall.legend(fontsize=8)
    figure.suptitle(title)
    figure.savefig(path, dpi=DPI)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", help="annotated JSONL with board and thread fields")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--fold", type=int, default=0, help="the fold held out (0-based)")
    parser.add_argument("--sizes", default="50,100,200,400,800")
    parser.add_argument("--base-sizes", default="200",
                        help="the sizes also trained with --base default (each trains on "
                             "the 215,000 base tokens too: minutes each)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-iterations", type=int, default=200)
    parser.add_argument("--no-alone", dest="alone", action="store_false",
                        help="train only with --base default (no baseline either): to run "
                             "the slow part in a second process")
    parser.add_argument("--merge", nargs="+", metavar="CSV",
                        help="no training: the table and plot of these points files")
    parser.add_argument("-o", "--output", help="the points as CSV")
    parser.add_argument("--plot", help="the curve as PNG (needs matplotlib)")
    args = parser.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.base_sizes = [int(s) for s in args.base_sizes.split(",") if s]
    if args.merge:
        points = sorted((p for path in args.merge for p in read_points(path)),
                        key=lambda p: (p.posts, p.base, p.rule))
    else:
        points = run(args)
    print(markdown_table(points))
    if args.plot:
        plot(points, args.plot, "Learning curve on %s (threshold %g, scrub chain)" % (
            os.path.basename(args.corpus), THRESHOLD))
    return 0


if __name__ == "__main__":
    sys.exit(main())
