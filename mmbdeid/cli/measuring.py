"""The commands that score a model on hand-tagged gold data: evaluate (the figures at one
threshold, its errors, a breakdown by board or thread) and sweep (the figures at every
threshold, as a table and a curve). Both score through one code path
(:mod:`mmbdeid.evaluation.gold`) over the chain ``--chain`` names, so sweep's row at a
threshold T is what ``evaluate --chain`` (the same chain) prints at ``--threshold T``."""
import os

from .exits import EXIT_OK
from .io import check_plotting, load_model, locked_outputs, posts_source
from .messages import progress
from .steps import chosen_options


def run_evaluate(args) -> int:
    from .identity import check_people_options, run_evaluate_people
    check_people_options(args)
    if args.people:
        return run_evaluate_people(args)
    with locked_outputs([args.errors], [args.gold, args.model], args.stats):
        return _evaluate(args)


def _evaluate(args) -> int:
    from ..evaluation.metrics import format_leak, post_leak, token_metrics
    from ..evaluation.gold import document_scores, pooled_scores
    from ..model.reference import corpus_stats
    from ..errors import InputError
    from ..files.corpora import load_labelled
    from ..files.posts import corpus_format

    tagger = load_model(args.model)
    threshold = tagger.threshold if args.threshold is None else args.threshold
    gold_file = posts_source(args, args.gold, sniff=False)
    if args.by == "kind" and corpus_format(gold_file) == "conll":
        raise InputError("--by kind needs annotated posts (JSONL, CSV, TSV or Parquet with "
                         "spans), not CoNLL", str(args.gold))
    labelled = load_labelled(gold_file)
    stats = corpus_stats([d.document for d in labelled], args.stats)
    with progress(args, "scoring") as shown:
        scores = document_scores(tagger, labelled, stats, chosen_options(args),
                                 progress=shown, chain=args.chain)
    gold, probabilities, minima = pooled_scores(labelled, scores, posts=True)
    metrics = token_metrics(gold, probabilities > threshold, threshold=threshold)
    if args.errors:
        from ..evaluation.error_list import (FALSE_REMOVAL, document_sources, list_errors,
                                         write_errors)
        errors = list(list_errors(labelled, scores, document_sources(gold_file), threshold))
        write_errors(errors, args.errors, args.output_formats["errors"])
    print("threshold   %g" % threshold)
    for name in ("precision", "recall", "f1", "specificity"):
        print("%-11s %.4f" % (name, getattr(metrics, name)))
    print("tokens      %d (names %d: found %d, missed %d; non-names %d: removed %d)" % (
        metrics.total, metrics.tp + metrics.fn, metrics.tp, metrics.fn,
        metrics.tn + metrics.fp, metrics.fp))
    print("%-11s %s" % ("leaking", format_leak(post_leak(minima, threshold))))
    if args.by == "kind":
        print(_figures_by_kind(args, tagger, threshold, gold_file, labelled, stats))
    elif args.by:
        from ..evaluation.breakdown import figures_by_group, format_groups
        print(format_groups(figures_by_group(labelled, scores, threshold, args.by), args.by))
    if args.errors:
        false_removals = sum(error.kind == FALSE_REMOVAL for error in errors)
        print("%-11s %d written to %s (%d misses, %d false removals)" % (
            "errors", len(errors), args.errors, len(errors) - false_removals,
            false_removals))
    return EXIT_OK


def _figures_by_kind(args, tagger, threshold, gold_file, labelled, stats) -> str:
    """``evaluate --by kind``: what the scrub chain at ``threshold`` removes of each kind."""
    from ..detect.analyzer import Analyzer
    from ..evaluation.kinds import format_kinds, kind_figures
    from ..files.corpora import read_annotated

    analyzer = Analyzer.build(tagger, stats, chosen_options(args, threshold=threshold))
    documents = [item.document for item in labelled]
    analyzer.prefetch(documents)
    found = analyzer.analyze_all(documents)
    return format_kinds(*kind_figures(list(read_annotated(gold_file)), found))


def run_sweep(args) -> int:
    check_plotting(args.plot)
    with locked_outputs([args.output, args.plot], [args.gold, args.model], args.stats):
        return _sweep(args)


def _sweep(args) -> int:
    from ..evaluation.curve_plot import plot_curve
    from ..evaluation.metrics import (format_table, leak_legend, post_leaks,
                                      sweep, write_curve)
    from ..evaluation.gold import score_gold_file

    tagger = load_model(args.model)
    with progress(args, "scoring") as shown:
        gold, probabilities, minima = score_gold_file(tagger, posts_source(
                                                          args, args.gold, sniff=False),
                                                      args.stats, chosen_options(args),
                                                      posts=True, progress=shown,
                                                      chain=args.chain)
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    if args.output:
        write_curve(rows, args.output, leaks, args.output_formats["output"])
    if args.plot:
        plot_curve(rows, args.plot, title=os.path.basename(str(args.gold)), mark=tagger.threshold,
                   fmt=args.output_formats["plot"], leaks=leaks)
    return EXIT_OK
