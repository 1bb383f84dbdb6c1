"""The ``mmbdeid`` command: train, scrub, evaluate, sweep, crossval, stats, link, review,
audit. The commands, options and exit statuses are a stable contract: scripts outside this
repository call them."""
import argparse
import contextlib
import datetime
import math
import os
import signal
import sqlite3
import sys
from typing import List, Optional

from . import __version__
from .errors import InputError, Stopped, note_stop, raise_if_stopped
from .people.linking import SCOPES
from .output.operators import MODES

EXIT_LEAK = 1

EXIT_OK, EXIT_BAD_INPUT = 0, 2



class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, exit status 2."""

    def error(self, message):
        raise InputError("%s (see '%s --help')" % (message, self.prog))


def _threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("threshold must be a number, got %r" % text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError("threshold must be between 0 and 1 (exclusive), "
                                         "got %s" % text)
    return value


def _recall(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("target recall must be a number, got %r" % text)
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError("target recall must be in (0, 1], got %s" % text)
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mmbdeid", description="De-identify medical message board text.")
    parser.add_argument("--version", action="version", version="mmbdeid " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    train = commands.add_parser("train", help="train a model on annotated posts or CoNLL")
    train.add_argument("corpus", nargs="+", metavar="CORPUS",
                       help="annotated JSONL/CSV (with spans) or CoNLL file(s)")
    train.add_argument("-o", "--output", required=True, metavar="MODEL")
    train.add_argument("--stats", metavar="STATS",
                       help="corpus statistics file: read if it exists, else built and saved")
    train.add_argument("--dev", metavar="FILE",
                       help="annotated or CoNLL development set for choosing the threshold")
    train.add_argument("--target-recall", type=_recall, default=0.9, metavar="R",
                       help="with --dev: the highest threshold whose dev recall reaches R "
                            "(default 0.9)")
    _training_options(train)

    scrub = commands.add_parser("scrub", help="remove names and identifiers from a dump")
    scrub.add_argument("dump", metavar="DUMP", help="posts as JSONL or CSV")
    scrub.add_argument("-o", "--output", required=True, metavar="OUT")
    _model_options(scrub)
    scrub.add_argument("--spans", metavar="SPANS.jsonl", help="also write standoff spans")
    _stats_options(scrub)
    _run_options(scrub)
    scrub.add_argument("--skip-bad", action="store_true",
                       help="write bad records to a reject file and go on (default: stop "
                            "at the first with file:line and exit 2)")
    scrub.add_argument("--rejects", metavar="FILE",
                       help="with --skip-bad: the reject file (default OUT.rejects.jsonl)")
    scrub.add_argument("--mode", choices=MODES, default="placeholder",
                       help="placeholder: [NAME], [USER], ... (default); pseudonym: one "
                            "identifier per person ([U12]); surrogate: realistic fake values, "
                            "the same for each person")
    scrub.add_argument("--map", metavar="MAP",
                       help="person mode: the (edited) person map from 'mmbdeid link' "
                            "instead of linking names afresh")
    scrub.add_argument("--seed", type=int, default=0,
                       help="surrogate mode: seed of the fake values (default 0)")
    _person_options(scrub)

    link = _detecting_command(commands, "link", "MAP", "write the person map (who is "
                              "called what) of a dump, for editing and 'scrub --map'")
    _person_options(link)
    review = _detecting_command(commands, "review", "LIST.csv", "list every distinct "
                                "string the model would remove, most frequent first (CSV)")
    _list_options(review)

    audit = commands.add_parser("audit", help="look for usernames and names left in "
                                "scrubbed output; exit 1 if any")
    audit.add_argument("scrubbed", metavar="SCRUBBED")
    audit.add_argument("--original", metavar="DUMP",
                       help="the dump before scrubbing (usernames and authors by post id)")
    audit.add_argument("--map", metavar="MAP",
                       help="person map: each author's names are searched in their posts")
    audit.add_argument("--allow", metavar="FILE",
                       help="the scrub's allow list: terms kept on purpose are not leaks")
    audit.add_argument("--quiet", "-q", action="store_true", help="only the exit status")

    evaluate = commands.add_parser("evaluate", help="per-token name metrics on gold data")
    evaluate.add_argument("gold", metavar="GOLD", help="annotated JSONL/CSV or CoNLL")
    _model_options(evaluate)
    evaluate.add_argument("--stats", metavar="STATS")

    sweep = commands.add_parser("sweep", help="metrics at thresholds from 0.5 down to 0.005")
    sweep.add_argument("gold", metavar="GOLD", help="annotated JSONL/CSV or CoNLL")
    sweep.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    sweep.add_argument("-o", "--output", metavar="CURVE.csv")
    sweep.add_argument("--plot", metavar="CURVE.png")
    sweep.add_argument("--stats", metavar="STATS")

    crossval = commands.add_parser("crossval", help="k-fold cross-validation (folds grouped "
                                   "by thread) on labelled data")
    crossval.add_argument("corpus", nargs="+", metavar="CORPUS")
    crossval.add_argument("--folds", type=int, default=5)
    crossval.add_argument("-o", "--output", metavar="CURVE.csv")
    _training_options(crossval)

    stats = commands.add_parser("stats", help="build the corpus statistics of a dump")
    stats.add_argument("dump", metavar="DUMP")
    stats.add_argument("-o", "--output", required=True, metavar="STATS")
    _run_options(stats)
    return parser


def _positive(option: str, low: int = 1, high: Optional[int] = None):
    """An argparse type: a whole number from ``low`` (to ``high``), errors naming
    ``option``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a whole number, got %r"
                                             % (option, text))
        if value < low:
            raise argparse.ArgumentTypeError("%s must be at least %d, got %s"
                                             % (option, low, text))
        if high is not None and value > high:
            raise argparse.ArgumentTypeError("%s must be at most %d, got %s"
                                             % (option, high, text))
        return value
    return parse


def _run_options(parser) -> None:
    from .jobs.config import MAX_POST_CHARS
    parser.add_argument("--jobs", "-j", type=_positive("--jobs"), metavar="N",
                        help="worker processes (default: all cores)")
    parser.add_argument("--max-post-chars", type=_positive("--max-post-chars"),
                        default=MAX_POST_CHARS, metavar="N",
                        help="a post whose text is longer is a bad record (memory and time "
                             "grow with a post's length; default %(default)s)")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress and no summary on stderr")
    parser.add_argument("--engine", choices=("local", "dask"), default="local",
                        help="local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --engine dask: the scheduler, e.g. tcp://10.0.0.5:8786")


def _training_options(parser) -> None:
    from .model.tagger import NameTagger
    defaults = NameTagger().get_params()
    parser.add_argument("--c1", type=_number("--c1", 0.0, None), default=defaults["c1"],
                        help="L1 regularisation, >= 0 (default %(default)s)")
    parser.add_argument("--c2", type=_number("--c2", 0.0, None), default=defaults["c2"],
                        help="L2 regularisation, >= 0 (default %(default)s)")
    parser.add_argument("--max-iterations", type=_positive("--max-iterations"),
                        default=defaults["max_iterations"],
                        help="L-BFGS iterations at most (default %(default)s)")
    parser.add_argument("--lowercase-share", type=_number("--lowercase-share", 0.0, 1.0),
                        default=defaults["lowercase_share"], metavar="S",
                        help="share of training documents added again in lower case, "
                             "0 to 1 (default %(default)s)")
    parser.add_argument("--stages", type=int, choices=(1, 2), default=1,
                        help="2: also learn the second stage, which pools the first "
                             "stage's evidence per word across the post, thread, author "
                             "and board (default 1: on the WNUT17 and BTC dev sets it did not "
                             "help; see README)")
    parser.add_argument("--context-folds", type=_positive("--context-folds", 2, 20),
                        default=defaults["context_folds"], metavar="K",
                        help="cross-validation folds for training the second stage, "
                             "2 to 20 (default %(default)s)")


def _number(option: str, low: float, high: Optional[float]):
    """An argparse type: a finite number in [low, high], errors naming ``option``
    (checked before training, not when the model is saved)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be a number, got %r" % (option, text))
        if not math.isfinite(value) or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError("%s must be %s, got %s" % (
                option, ">= %g" % low if high is None else "between %g and %g" % (low, high),
                text))
        return value
    return parse


def _tagger_params(args) -> dict:
    return {"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations,
            "lowercase_share": args.lowercase_share, "second_stage": args.stages == 2,
            "context_folds": args.context_folds}


def _detecting_command(commands, name: str, output: str, help: str):
    """A command that runs the model over a whole dump and writes one file."""
    parser = commands.add_parser(name, help=help)
    parser.add_argument("dump", metavar="DUMP")
    parser.add_argument("-o", "--output", required=True, metavar=output)
    _model_options(parser)
    _stats_options(parser)
    _run_options(parser)
    return parser


def _stats_options(parser) -> None:
    parser.add_argument("--stats", metavar="STATS",
                        help="corpus statistics file: read if it exists (it must have been "
                             "built from this dump), else built and saved")
    parser.add_argument("--stats-rebuild", action="store_true",
                        help="build --stats from this dump even if the file exists")


def _list_options(parser) -> None:
    parser.add_argument("--allow", metavar="FILE",
                        help="terms never removed, one per line (or a review CSV)")
    parser.add_argument("--deny", metavar="FILE",
                        help="terms always removed, one per line (or a review CSV)")


def _person_options(parser) -> None:
    _list_options(parser)
    parser.add_argument("--scope", choices=SCOPES, default="board",
                        help="where two people sharing a name are a conflict: thread, board "
                             "(default) or the whole dump")


def _model_options(parser) -> None:
    parser.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    parser.add_argument("--threshold", type=_threshold, metavar="T",
                        help="name probability threshold (default: the model's)")


def main(argv: Optional[List[str]] = None) -> int:
    note_stop(None)
    previous = _stop_on_signals()
    try:
        args = build_parser().parse_args(argv)
        status = COMMANDS[args.command](args)
        raise_if_stopped()          # a stop whose exception Python dropped
        return status
    except InputError as error:
        print("mmbdeid: error: %s" % error, file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:       # disk full, file too large, permissions: no traceback
        where = "%s: " % error.filename if error.filename else ""
        print("mmbdeid: error: %scannot write or read: %s; no output written" % (
            where, error.strerror or error), file=sys.stderr)
        return EXIT_BAD_INPUT
    except sqlite3.Error as error:  # the statistics store, e.g. a full TMPDIR
        print("mmbdeid: error: statistics store: %s; no output written" % error,
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as interrupt:
        signum = getattr(interrupt, "signum", signal.SIGINT)
        print("mmbdeid: %s; no output written" % (
            "interrupted" if signum == signal.SIGINT else "stopped by %s"
            % signal.Signals(signum).name), file=sys.stderr)
        return 128 + signum
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _stop_on_signals() -> dict:
    """Ctrl-C, a kill (SIGTERM) or a closed terminal (SIGHUP) unwinds, so temporary
    outputs, scratch stores and locks are removed; the exit status is 128 + the signal.
    SIGXFSZ is ignored, so a file-size limit makes the write fail with a clear error
    instead of killing the process with its temporary files in place."""
    def stop(signum, frame):
        note_stop(signum)
        raise Stopped(signum)
    previous = {}
    try:
        for signum, handler in ((signal.SIGINT, stop), (signal.SIGTERM, stop),
                                (signal.SIGHUP, stop),
                                (signal.SIGXFSZ, signal.SIG_IGN)):
            previous[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread (an embedding application)
        pass
    return previous


def main_entry() -> None:
    sys.exit(main())


# -- commands --------------------------------------------------------------------------
def run_train(args) -> int:
    from .files.corpora import file_sha256, load_labelled, training_labels
    from .evaluation.metrics import UnreachableRecall, pick_threshold
    from .evaluation.gold import corpus_stats, gold_scores
    from .model.tagger import DEFAULT_THRESHOLD, NameTagger

    labelled, sources = [], []
    for path in args.corpus:
        documents = load_labelled(path)
        labelled.extend(documents)
        sources.append({"path": os.path.basename(path), "sha256": file_sha256(path),
                        "documents": len(documents),
                        "tokens": sum(len(d.labels) for d in documents)})
    _say("training on %d documents, %d tokens" % (
        len(labelled), sum(len(d.labels) for d in labelled)))
    stats = corpus_stats([d.document for d in labelled], args.stats)
    metadata = {"mmbdeid_version": __version__, "training_data": sources,
                "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"),
                "features": FEATURE_GROUPS}
    tagger = NameTagger(**_tagger_params(args), metadata=metadata)
    tagger.fit([d.document for d in labelled],
               [training_labels(d.document, d.labels) for d in labelled], stats=stats)
    if args.dev:
        dev = load_labelled(args.dev)
        gold, probabilities = gold_scores(tagger, dev, corpus_stats([d.document for d in dev]))
        try:
            threshold = pick_threshold(gold, probabilities, args.target_recall)
        except UnreachableRecall as error:
            threshold = error.threshold
            _say("warning: dev recall %.3f < target %.3f even at %g" % (
                error.recall, args.target_recall, threshold))
        threshold_source = {
            "dev": os.path.basename(args.dev), "dev_sha256": file_sha256(args.dev),
            "target_recall": args.target_recall}
    else:
        threshold = DEFAULT_THRESHOLD
        threshold_source = "default (paper's tuned value)"
    tagger.set_params(threshold=threshold, metadata=dict(
        metadata, threshold_source=threshold_source, threshold=threshold))
    tagger.save(args.output)
    _say("model written to %s (threshold %g)" % (args.output, tagger.threshold))
    return EXIT_OK


def run_scrub(args) -> int:
    from .jobs.passes import scrub_dump

    rejects = None
    if args.skip_bad:
        rejects = args.rejects or args.output + ".rejects.jsonl"
    elif args.rejects:
        raise InputError("--rejects needs --skip-bad")
    if args.map and args.mode == "placeholder":
        raise InputError("--map needs --mode pseudonym or --mode surrogate")
    if args.map:
        from .people.personmap import PersonMap
        PersonMap.read(args.map)                    # a bad map fails before any work
    config = _run_config(args, output_format=_output_format(args.output, args.dump),
                         spans_path=args.spans, rejects_path=rejects, mode=args.mode,
                         person_map=args.map, scope=args.scope, seed=args.seed)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = scrub_dump(config, engine)
    _report(args, summary)
    return EXIT_OK


def run_link(args) -> int:
    from .jobs.passes import link_dump

    config = _run_config(args, scope=args.scope)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = link_dump(config, engine)
    _report(args, summary)
    if not args.quiet:
        _say("person map written to %s: keep it secret (it holds real names)" % args.output)
    return EXIT_OK


def run_review(args) -> int:
    from .jobs.passes import review_dump

    config = _run_config(args)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = review_dump(config, engine)
    _report(args, summary)
    return EXIT_OK


def run_audit(args) -> int:
    from .audit import audit_file, format_leak, names_from_person_map
    from .files.termlists import load_terms

    names_by_user = None
    if args.map:
        from .people.personmap import PersonMap
        names_by_user = names_from_person_map(PersonMap.read(args.map))
    allow = load_terms(args.allow) if args.allow else ()
    leaks, auditor = audit_file(args.scrubbed, args.original, names_by_user, allow)
    if not args.quiet:
        for leak in leaks:
            print(format_leak(leak))
        if auditor.unchecked:
            _say("not searched (ordinary words): " + ", ".join(sorted(auditor.unchecked)))
        _say("%d leak%s found" % (len(leaks), "" if len(leaks) == 1 else "s"))
    return EXIT_LEAK if leaks else EXIT_OK


def _run_config(args, mode: str = "placeholder", **options):
    """The run configuration of a job over a dump; the model and the term lists are
    checked here, before any work."""
    from .files.termlists import load_terms
    from .jobs.config import DetectionConfig, RunConfig
    from .model.tagger import NameTagger, default_model_path
    from .output.operators import OPERATORS

    model_path = args.model or default_model_path()
    NameTagger.load(model_path)                     # a bad model fails before any work
    lists = {}
    for name in ("allow", "deny"):
        path = getattr(args, name, None)
        lists[name] = tuple(load_terms(path)) if path else ()
    # Placeholder text is made in the workers only where the output needs it as it is.
    render = args.command == "scrub" and not OPERATORS[mode].needs_people
    detection = DetectionConfig(model_path, threshold=args.threshold,
                                render_placeholders=render, **lists)
    return RunConfig(args.dump, detection, args.output, stats_path=args.stats,
                     stats_rebuild=args.stats_rebuild, quiet=args.quiet, mode=mode,
                     max_post_chars=args.max_post_chars, **options)


@contextlib.contextmanager
def _checked_outputs(config, args):
    """Before any work: the outputs are writable files, none of them an input or given
    twice; then locked for the run, so a second run on the same files stops at once."""
    from .files.atomic import check_outputs, output_locks
    stats_is_output = bool(config.stats_path) and (
        config.stats_rebuild or not os.path.exists(config.stats_path))
    outputs = [config.output, config.spans_path, config.rejects_path]
    inputs = [config.dump, config.person_map, config.detection.model_path,
              getattr(args, "allow", None), getattr(args, "deny", None)]
    (outputs if stats_is_output else inputs).append(config.stats_path)
    check_outputs(outputs, inputs)
    with output_locks([path for path in outputs if path]):
        yield


def _report(args, summary) -> None:
    if not args.quiet:
        for line in summary.lines():
            _say(line)


def run_evaluate(args) -> int:
    from .evaluation.metrics import format_leak, post_leak, token_metrics
    from .evaluation.gold import score_gold_file

    tagger = _load_model(args.model)
    threshold = tagger.threshold if args.threshold is None else args.threshold
    gold, probabilities, minima = score_gold_file(tagger, args.gold, args.stats, posts=True)
    metrics = token_metrics(gold, probabilities > threshold, threshold=threshold)
    print("threshold   %g" % threshold)
    for name in ("precision", "recall", "f1", "specificity"):
        print("%-11s %.4f" % (name, getattr(metrics, name)))
    print("tokens      %d (names %d: found %d, missed %d; non-names %d: removed %d)" % (
        metrics.total, metrics.tp + metrics.fn, metrics.tp, metrics.fn,
        metrics.tn + metrics.fp, metrics.fp))
    print("%-11s %s" % ("leaking", format_leak(post_leak(minima, threshold))))
    return EXIT_OK


def run_sweep(args) -> int:
    from .evaluation.metrics import (format_table, leak_legend, plot_curve, post_leaks,
                                     sweep, write_curve_csv)
    from .evaluation.gold import score_gold_file

    tagger = _load_model(args.model)
    gold, probabilities, minima = score_gold_file(tagger, args.gold, args.stats, posts=True)
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    if args.output:
        write_curve_csv(rows, args.output, leaks)
    if args.plot:
        plot_curve(rows, args.plot, title=os.path.basename(args.gold), mark=tagger.threshold)
    return EXIT_OK


def run_crossval(args) -> int:
    from .files.corpora import load_labelled
    from .evaluation.crossval import cross_validate
    from .evaluation.metrics import (format_table, leak_legend, post_leaks, sweep,
                                     write_curve_csv)
    from .model.tagger import DEFAULT_THRESHOLD

    if args.folds < 2:
        raise InputError("--folds must be at least 2")
    labelled = [item for path in args.corpus for item in load_labelled(path)]
    gold, probabilities, minima = cross_validate(labelled, args.folds, posts=True,
                                                 **_tagger_params(args))
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print("%d-fold cross-validation (folds grouped by thread), %d tokens, %d names; "
          "default threshold %g" % (args.folds, len(gold), int(gold.sum()), DEFAULT_THRESHOLD))
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    if args.output:
        write_curve_csv(rows, args.output, leaks)
    return EXIT_OK


def run_stats(args) -> int:
    from .files.atomic import check_outputs, output_locks
    from .jobs.passes import build_stats

    check_outputs([args.output], [args.dump])
    with output_locks([args.output]), _engine(args) as engine:
        posts = build_stats(args.dump, args.output, engine, quiet=args.quiet,
                            max_chars=args.max_post_chars)
    if not args.quiet:
        _say("statistics of %d posts written to %s" % (posts, args.output))
    return EXIT_OK


COMMANDS = {"train": run_train, "scrub": run_scrub, "evaluate": run_evaluate,
            "sweep": run_sweep, "crossval": run_crossval, "stats": run_stats,
            "link": run_link, "review": run_review, "audit": run_audit}

FEATURE_GROUPS = [
    "token lower-cased", "length bucket", "case class", "word shape", "2/3-char prefixes and "
    "suffixes", "word-list membership", "Damerau-Levenshtein distance 1/2 membership",
    "wordfreq Zipf level", "board and thread username membership", "distance from message "
    "and paragraph start/end", "tf-idf rank buckets per board and per user",
    "paragraph-border likelihood rank bucket", "mid-sentence capitalisation share in the dump",
    "census first-name share and surname rank crossed with Zipf level",
    "place (by kind, cities by size) and organisation gazetteers",
    "part of the post's own author field",
    "all non-positional features of tokens -2..+2",
]


# -- helpers ---------------------------------------------------------------------------
def _load_model(path: Optional[str]):
    from .model.tagger import NameTagger, default_model_path
    return NameTagger.load(path or default_model_path())


@contextlib.contextmanager
def _engine(args):
    """The chosen engine, for the run's duration."""
    if args.engine == "dask":
        if not args.scheduler:
            raise InputError("--engine dask needs --scheduler ADDRESS")
        from .jobs.dask_cluster import dask_engine
        with dask_engine(args.scheduler) as engine:
            yield engine
        return
    if args.scheduler:
        raise InputError("--scheduler goes with --engine dask")
    from .jobs.local import LocalEngine, default_jobs
    yield LocalEngine(args.jobs or default_jobs())


def _output_format(output: str, dump: str) -> str:
    """The format OUT's extension names; otherwise the dump's own."""
    from .files.posts import CSV_EXTENSIONS, JSONL_EXTENSIONS, post_format
    extension = os.path.splitext(output)[1].lower()
    if extension in CSV_EXTENSIONS:
        return "csv"
    if extension in JSONL_EXTENSIONS:
        return "jsonl"
    return post_format(dump)


def _say(message: str) -> None:
    print("mmbdeid: " + message, file=sys.stderr)
