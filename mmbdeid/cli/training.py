"""The commands on hand-tagged data that make models: train (a model, its threshold from a
dev set), crossval (k-fold figures of the training settings) and split (train and dev
files, whole threads on either side)."""
import datetime
import os

from .. import __version__
from ..errors import InputError
from .exits import EXIT_OK
from .io import check_plotting, locked_outputs, posts_output_format, posts_source
from .messages import progress, say
from .types import DEFAULT_TARGET_RECALL


def tagger_params(args) -> dict:
    """The NameTagger parameters the training options give."""
    return {"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations,
            "lowercase_share": args.lowercase_share, "second_stage": args.stages == 2,
            "context_folds": args.context_folds}


def run_train(args) -> int:
    if args.base_weight is not None and not args.base:
        raise InputError("--base-weight needs --base (it weights the CORPUS posts against "
                         "the base corpora)")
    for option, given in (("--target-recall", args.target_recall is not None),
                          ("--force", args.force)):
        if given and not args.dev:      # it would be ignored: the default threshold is used
            raise InputError("%s needs --dev (the threshold is chosen on a development "
                             "set)" % option)
    if args.target_recall is None:
        args.target_recall = DEFAULT_TARGET_RECALL
    with locked_outputs([args.output], list(args.corpus) + [args.dev], args.stats):
        return _train(args)


def _train(args) -> int:
    from ..files.corpora import file_sha256, load_labelled, training_labels
    from ..model.token_features import FEATURE_GROUPS
    from ..model.reference import corpus_stats
    from ..model.tagger import DEFAULT_THRESHOLD, NameTagger

    labelled, sources = [], []
    for path in args.corpus:
        documents = load_labelled(posts_source(args, path, sniff=False))
        labelled.extend(documents)
        sources.append({"path": os.path.basename(str(path)), "sha256": file_sha256(path),
                        "documents": len(documents),
                        "tokens": sum(len(d.labels) for d in documents)})
    if args.base:
        labelled, stats = _with_base(args, labelled, sources)
    else:
        stats = corpus_stats([d.document for d in labelled], args.stats)
    say("training on %d documents, %d tokens" % (
        len(labelled), sum(len(d.labels) for d in labelled)))
    metadata = {"mmbdeid_version": __version__, "training_data": sources,
                "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"),
                "features": FEATURE_GROUPS}
    tagger = NameTagger(**tagger_params(args), metadata=metadata)
    with progress(args, "training") as shown:
        tagger.fit([d.document for d in labelled],
                   [training_labels(d.document, d.labels) for d in labelled], stats=stats,
                   progress=shown)
    if args.dev:
        threshold, threshold_source = _dev_threshold(args, tagger)
    else:
        threshold = DEFAULT_THRESHOLD
        threshold_source = "default (paper's tuned value)"
    tagger.set_params(threshold=threshold, metadata=dict(
        metadata, threshold_source=threshold_source, threshold=threshold))
    tagger.save(args.output)
    say("model written to %s (threshold %g)" % (args.output, tagger.threshold))
    return EXIT_OK


def _with_base(args, labelled, sources):
    """The training documents with the base corpora (``--base``): the user's repeated
    ``--base-weight`` times (default: :func:`repeat_count`), then the base's; the corpus
    statistics of them all, each document once. ``sources`` gains the base's files and the
    user's files their repeat count (the model's metadata)."""
    from ..model.base_corpora import load_base, repeat_count, repeated
    from ..model.reference import corpus_stats

    base, base_sources = [], []
    for name, documents in load_base(args.base):
        base.extend(documents)
        base_sources.append({"path": name, "base": args.base, "documents": len(documents),
                             "tokens": sum(len(d.labels) for d in documents)})
    times = args.base_weight or repeat_count(sum(len(d.labels) for d in labelled),
                                             sum(len(d.labels) for d in base))
    for source in sources:
        source["repeated"] = times
    sources.extend(base_sources)
    say("base %s: %d documents; the %d CORPUS documents count %d times" % (
        args.base, len(base), len(labelled), times))
    stats = corpus_stats([d.document for d in labelled + base], args.stats)
    return repeated(labelled, times) + base, stats


def _dev_threshold(args, tagger):
    """The threshold --dev and --target-recall choose over the chain --chain names (by
    default everything scrub removes, so scrub reaches the dev recall asked for) and where
    it came from (the model's metadata); its dev figures printed. A threshold below the
    floor is an error unless --force, so no model is written with it by accident."""
    from ..files.corpora import file_sha256, load_labelled
    from ..evaluation.gold import gold_scores
    from ..evaluation import THRESHOLD_FLOOR
    from ..evaluation.metrics import (UnreachableRecall, pick_threshold, post_leak,
                                      token_metrics)
    from ..model.reference import corpus_stats

    dev = load_labelled(posts_source(args, args.dev, sniff=False))
    with progress(args, "scoring dev") as shown:
        gold, probabilities, minima = gold_scores(
            tagger, dev, corpus_stats([d.document for d in dev]), posts=True,
            progress=shown, chain=args.chain)
    reached = True
    try:
        threshold = pick_threshold(gold, probabilities, args.target_recall)
    except UnreachableRecall as error:
        threshold, reached = error.threshold, False
    except ValueError as error:         # no gold name in the dev set
        raise InputError(str(error), args.dev) from None
    metrics = token_metrics(gold, probabilities > threshold, threshold=threshold)
    leak = post_leak(minima, threshold)
    print(format_dev_figures(os.path.basename(str(args.dev)), args.target_recall, reached,
                             metrics, leak, args.chain))
    below = threshold < THRESHOLD_FLOOR
    if below and not args.force:
        needs = ("target recall %g needs threshold %g" % (args.target_recall, threshold)
                 if reached else "no threshold reaches dev recall %g (%.4f at best, at "
                 "threshold %g)" % (args.target_recall, metrics.recall, threshold))
        raise InputError("%s, below %g; --force accepts it; no model written" % (
            needs, THRESHOLD_FLOOR), args.dev)
    if not reached:
        say("warning: dev recall %.4f < target %g even at threshold %g" % (
            metrics.recall, args.target_recall, threshold))
    if below:
        say("warning: threshold %g is below %g, accepted with --force: the model removes "
            "%.2f%% of the dev set's other tokens" % (
                threshold, THRESHOLD_FLOOR, 100 * (1 - metrics.specificity)))
    return threshold, {
        "dev": os.path.basename(str(args.dev)), "dev_sha256": file_sha256(args.dev),
        "chain": args.chain,
        "target_recall": args.target_recall, "target_reached": reached,
        "below_floor_forced": below,
        "dev_figures": {"recall": metrics.recall, "precision": metrics.precision,
                        "specificity": metrics.specificity, "tp": metrics.tp,
                        "fp": metrics.fp, "fn": metrics.fn, "tn": metrics.tn,
                        "leaking_posts": leak.leaking, "posts_with_a_name": leak.with_names,
                        "posts": leak.posts}}


# What each chain measures, as the dev figures say it.
_MEASURED = {"scrub": "everything scrub removes, as evaluate --chain scrub measures",
             "model": "the model and its filters, as evaluate --chain model measures"}


def format_dev_figures(dev: str, target: float, reached: bool, metrics, leak,
                       chain: str = "scrub") -> str:
    """The dev figures at the chosen threshold, one short block: what the threshold buys
    and what it costs, with the counts behind each share, over ``chain``."""
    from ..evaluation.metrics import format_leak
    return "\n".join([
        "dev set      %s (%s)" % (dev, _MEASURED[chain]),
        "threshold    %g (%s)" % (metrics.threshold, (
            "the highest whose dev recall reaches %g" % target if reached else
            "the lowest there is: dev recall stays below %g" % target)),
        "recall       %6.2f%%  (%d of %d name tokens removed)" % (
            100 * metrics.recall, metrics.tp, metrics.tp + metrics.fn),
        "precision    %6.2f%%  (%d of %d tokens removed are names)" % (
            100 * metrics.precision, metrics.tp, metrics.tp + metrics.fp),
        "specificity  %6.2f%%  (%d of %d other tokens kept)" % (
            100 * metrics.specificity, metrics.tn, metrics.tn + metrics.fp),
        "leaking      %s" % format_leak(leak)])


def run_crossval(args) -> int:
    if args.folds < 2:
        raise InputError("--folds must be at least 2")
    check_plotting(args.plot)
    inputs = list(args.corpus) + list(args.train_also)
    for path, _ in args.weight:
        if path not in inputs:
            raise InputError("--weight names a file that is neither a CORPUS nor a "
                             "--train-also file", path)
    with locked_outputs([args.output, args.plot], inputs):
        return _crossval(args)


def _crossval(args) -> int:
    import numpy as np
    from ..evaluation.crossval import corpora_fold_scores
    from ..evaluation.curve_plot import plot_curve
    from ..evaluation.fold_groups import format_group_spread
    from ..evaluation.metrics import (fold_spread, format_fold_table, format_table,
                                      leak_legend, post_leaks, sweep, write_curve)
    from ..model.tagger import DEFAULT_THRESHOLD

    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    corpora = _crossval_corpora(args, args.corpus)
    if not any(corpus.weight for corpus in corpora) and not (args.base or args.train_also):
        raise InputError("nothing to train on: every CORPUS has --weight 0")
    fixed = _crossval_corpora(args, args.train_also)
    if args.base:
        from ..model.base_corpora import load_base
        from ..evaluation.crossval import Corpus
        fixed += [Corpus(name, documents) for name, documents in load_base(args.base)]
    shown = progress(args, "fold")

    def fold_progress(number: int):
        shown.label = "fold %d/%d" % (number, args.folds)
        return shown
    try:
        folds = list(corpora_fold_scores(corpora, args.folds, fixed, chain=args.chain,
                                         by_board=args.by == "board",
                                         progress=fold_progress, **tagger_params(args)))
    except ValueError as error:        # fewer threads than folds
        raise InputError(str(error), args.corpus[0]) from None
    finally:
        shown.close()
    gold = np.concatenate([f.gold for f in folds])
    probabilities = np.concatenate([f.probabilities for f in folds])
    minima = np.concatenate([f.minima for f in folds])
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print("%d-fold cross-validation (folds grouped by thread), %d tokens, %d names; "
          "default threshold %g; chain %s; trained on %s" % (
              args.folds, len(gold), int(gold.sum()), DEFAULT_THRESHOLD, args.chain,
              _training_description(corpora, fixed)))
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    print()
    print(format_fold_table(folds, threshold))
    print(fold_spread(folds, threshold))
    print()
    print(format_group_spread(folds, threshold, args.target_recall))
    if args.output:
        write_curve(rows, args.output, leaks, args.output_formats["output"])
    if args.plot:
        plot_curve(rows, args.plot, title="%d-fold cross-validation" % args.folds,
                   mark=threshold, folds=[sweep(f.gold, f.probabilities) for f in folds],
                   fmt=args.output_formats["plot"], leaks=leaks)
    return EXIT_OK


def _crossval_corpora(args, paths):
    """The files ``paths`` as weighted corpora (``--weight``), named by file name."""
    from ..evaluation.crossval import Corpus
    from ..files.corpora import load_labelled
    weights = dict(args.weight)
    return [Corpus(os.path.basename(str(path)),
                   load_labelled(posts_source(args, path, sniff=False)),
                   weights.get(path, 1)) for path in paths]


def _training_description(corpora, fixed) -> str:
    """``the other folds of a.jsonl x1, b.jsonl x0.5; every fold: c.conll x1``."""
    def listed(items):
        return ", ".join("%s x%g" % (c.name, c.weight) for c in items if c.weight)
    described = "the other folds of %s" % (listed(corpora) or "none")
    return described + ("; every fold: %s" % listed(fixed) if fixed else "")


def run_split(args) -> int:
    from ..evaluation.split_files import split_annotated_file

    with locked_outputs([args.output, args.dev], [args.corpus]):
        formats = [posts_output_format(path, args.corpus) for path in (args.output, args.dev)]
        sizes = split_annotated_file(args.corpus, args.output, args.dev, formats,
                                     args.dev_share, args.seed)
        say("%d posts (%d threads) to %s, %d posts (%d threads) to %s" % (
            sizes.train_posts, sizes.train_threads, args.output, sizes.dev_posts,
            sizes.dev_threads, args.dev))
    return EXIT_OK
