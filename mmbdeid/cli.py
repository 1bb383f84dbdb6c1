"""The ``mmbdeid`` command: train, scrub, evaluate, sweep, crossval, stats, link, review,
audit. The commands, options and exit statuses are a stable contract: scripts outside this
repository call them."""
import argparse
import contextlib
import datetime
import functools
import os
import signal
import sqlite3
import sys
from typing import List, Optional, Tuple

from . import __version__, checks
from .errors import InputError, Stopped, note_stop, raise_if_stopped, stop_signal
from .evaluation import CHAINS, GROUPINGS
from .people.scope import SCOPES
from .output.operators import MODES
from .output.review_page import DEFAULT_PAGE_POSTS

EXIT_LEAK = 1

EXIT_OK, EXIT_BAD_INPUT = 0, 2



class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, exit status 2."""

    def error(self, message):
        raise InputError("%s (see '%s --help')" % (message, self.prog))


def _checked(check, convert=float, what: str = "a number"):
    """An argparse type: the text converted (``float``, ``int``), then checked by one of
    :mod:`mmbdeid.checks` (the API's checks), its message the error."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%s must be %s, got %r"
                                             % (check.keywords["name"], what, text))
        try:
            return check(value)
        except (TypeError, ValueError) as error:
            raise argparse.ArgumentTypeError(str(error))
    return parse


_threshold = _checked(functools.partial(checks.threshold, name="threshold"))
_recall = _checked(functools.partial(checks.number, name="target recall", low=0.0, high=1.0,
                                     low_open=True))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mmbdeid", description="De-identify medical message board text: "
                     "names and usernames by a CRF with a low threshold, e-mail addresses, "
                     "URLs and phone numbers by pattern.",
                     epilog="'mmbdeid COMMAND --help' describes a command, with examples.")
    parser.add_argument("--version", action="version", version="mmbdeid " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    train = commands.add_parser("train", help="train a model on annotated posts or CoNLL")
    train.add_argument("corpus", nargs="+", metavar="CORPUS",
                       help="annotated JSONL/CSV (with spans) or CoNLL file(s)")
    train.add_argument("-o", "--output", required=True, metavar="MODEL",
                       help="the model file to write (one self-contained file, mode 0600: "
                            "it holds names from the training posts)")
    train.add_argument("--stats", metavar="STATS",
                       help="corpus statistics file: read if it exists, else built and saved")
    train.add_argument("--dev", metavar="FILE",
                       help="annotated or CoNLL development set for choosing the threshold")
    train.add_argument("--target-recall", type=_recall, default=0.9, metavar="R",
                       help="with --dev: the highest threshold whose dev recall reaches R "
                            "(default 0.9)")
    _training_options(train)
    _quiet_option(train)
    _posts_options(train, input_format=False)

    scrub = commands.add_parser("scrub", help="remove names and identifiers from a dump")
    scrub.add_argument("dump", metavar="DUMP", help="posts: JSONL, CSV or TSV (each may be "
                       ".gz) or Parquet; - reads standard input")
    scrub.add_argument("-o", "--output", required=True, metavar="OUT",
                       help="the scrubbed dump, in the format its extension names (no "
                            "extension: the dump's); - writes standard output")
    _posts_options(scrub)
    scrub.add_argument("--output-format", choices=_post_formats(), metavar="FORMAT",
                       help="OUT's format when its extension does not say it (e.g. for -): "
                            "%s (default: the dump's format, uncompressed)"
                            % ", ".join(_post_formats()))
    _model_options(scrub)
    scrub.add_argument("--spans", metavar="SPANS.jsonl", help="also write standoff spans "
                       "(JSON Lines: .jsonl, or .jsonl.gz compressed)")
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
    review.add_argument("--html", metavar="PAGE.html",
                        help="also write one self-contained HTML page (private, like the "
                             "list): each post with its removals highlighted by label and "
                             "probability, filters, and the strings in context")
    review.add_argument("--html-posts", type=_positive("--html-posts", 0), metavar="N",
                        help="with --html: show at most the first N posts that have "
                             "removals (default %d); the table of strings covers all posts"
                             % DEFAULT_PAGE_POSTS)

    audit = commands.add_parser("audit", help="look for usernames and names left in "
                                "scrubbed output; exit 1 if any")
    audit.add_argument("scrubbed", metavar="SCRUBBED",
                       help="the scrubbed dump (any posts format); - reads standard input")
    _posts_options(audit, input_format=False)
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
    _posts_options(evaluate, input_format=False)
    evaluate.add_argument("--stats", metavar="STATS", help=_GOLD_STATS_HELP)
    evaluate.add_argument("--errors", metavar="FILE",
                          help="also write every miss (a gold name token left) and every "
                               "false removal (another token removed) at the threshold, "
                               "with its post and context, as " + _TABLE_HELP +
                               " (private: it holds names)")
    evaluate.add_argument("--by", choices=GROUPINGS,
                          help="also print the figures of each board, forum (a board's "
                               "name up to its first ':') or thread")
    evaluate.add_argument("--chain", choices=CHAINS, default="model",
                          help="what is measured: 'model', the model with its threshold "
                               "and filters (default), or 'scrub', everything scrub "
                               "removes (the rule steps too)")
    _quiet_option(evaluate)

    sweep = commands.add_parser("sweep", help="metrics at thresholds from 0.5 down to 0.005")
    sweep.add_argument("gold", metavar="GOLD", help="annotated JSONL/CSV or CoNLL")
    sweep.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    _posts_options(sweep, input_format=False)
    sweep.add_argument("-o", "--output", metavar="CURVE.csv",
                       help="also write the table (one row per threshold) as " + _TABLE_HELP)
    sweep.add_argument("--plot", metavar="CURVE.png",
                       help="the precision-recall curve, the model's threshold circled, "
                            + _PLOT_HELP)
    sweep.add_argument("--stats", metavar="STATS", help=_GOLD_STATS_HELP)
    _tagger_option(sweep)
    _step_options(sweep)
    _quiet_option(sweep)

    crossval = commands.add_parser("crossval", help="k-fold cross-validation (folds grouped "
                                   "by thread) on labelled data")
    crossval.add_argument("corpus", nargs="+", metavar="CORPUS",
                          help="annotated JSONL/CSV (with spans) or CoNLL file(s), "
                               "taken together")
    crossval.add_argument("--folds", type=int, default=5,
                          help="number of folds, at least 2 and at most the number of "
                               "threads (default 5)")
    crossval.add_argument("-o", "--output", metavar="CURVE.csv",
                          help="also write the pooled table (one row per threshold) as "
                               + _TABLE_HELP)
    crossval.add_argument("--plot", metavar="CURVE.png",
                          help="the pooled precision-recall curve with each fold's, "
                               + _PLOT_HELP)
    crossval.add_argument("--threshold", type=_threshold, metavar="T",
                          help="threshold of the per-fold figures (default 0.05)")
    _training_options(crossval)
    _quiet_option(crossval)
    _posts_options(crossval, input_format=False)

    split = commands.add_parser(
        "split", help="split an annotated file into train and dev, whole threads on "
        "either side",
        description="Split hand-tagged posts into a training and a development file. A "
        "thread never spans both (posts of a thread share names), so dev measures the "
        "model on threads it has not seen. Posts without a thread are split one by one.",
        epilog="examples:\n  mmbdeid split tagged.jsonl -o train.jsonl --dev dev.jsonl "
        "--dev-share 0.2 --seed 1")
    split.add_argument("corpus", metavar="ANNOTATED",
                       help="annotated JSONL or CSV (posts with their gold spans)")
    split.add_argument("-o", "--output", required=True, metavar="TRAIN",
                       help="the training part (same format as the input, or by extension)")
    split.add_argument("--dev", required=True, metavar="DEV", help="the development part")
    split.add_argument("--dev-share", type=_number("--dev-share", 0.01, 0.99), default=0.2,
                       metavar="S", help="share of the threads that go to dev, rounded "
                       "up to whole threads (default 0.2)")
    split.add_argument("--seed", type=int, default=0,
                       help="random seed: the same seed gives the same split (default 0)")

    stats = commands.add_parser("stats", help="build the corpus statistics of a dump")
    stats.add_argument("dump", metavar="DUMP", help="posts (any posts format); - reads "
                       "standard input")
    _posts_options(stats)
    stats.add_argument("-o", "--output", required=True, metavar="STATS",
                       help="the statistics file to write (SQLite), for --stats of "
                            "scrub, link, review and train")
    _run_options(stats)

    commands.add_parser("steps", help="list the steps of the detector chain, in their order")
    _describe(commands)
    return parser


_GOLD_STATS_HELP = ("corpus statistics file: read if it exists, else built from the gold "
                    "file and saved (default: built in memory)")
# Tables and plots are written in the format their extension names (files/outputs.py).
_TABLE_HELP = "CSV, TSV or JSON Lines by the extension (.csv, .tsv, .jsonl; each also .gz)"
_PLOT_HELP = ("in the format its extension names (.png, .pdf, .svg, .eps, .ps; .jpg, .tif "
              "with Pillow; none: PNG; needs the [plot] extra: matplotlib)")
_DETECTING_OUTPUTS = {
    "link": "the person map to write (a text file, e.g. .map): each person's names and "
            "usernames, to edit and pass to 'scrub --map'",
    "review": "the review list to write (string, count, mean_prob, label, example, "
              "post_ids), as " + _TABLE_HELP,
}

# Each command's description and examples, shown by 'mmbdeid COMMAND --help'.
DESCRIPTIONS = {
    "train": ("Train a name tagger (a CRF) on hand-tagged posts or CoNLL files and save it "
              "as one model file. With --dev, the threshold is the highest whose recall on "
              "the dev set reaches --target-recall; otherwise 0.05. The model is written "
              "private (mode 0600): its token features hold words of the training posts "
              "verbatim, names and usernames among them, so share it like the posts.",
              ["mmbdeid train tagged.jsonl -o board.mmbdeid --stats dump.stats",
               "mmbdeid train train.jsonl --dev dev.jsonl --target-recall 0.95 -o board.mmbdeid"]),
    "scrub": ("Remove names, usernames, e-mail addresses, URLs and phone numbers from every "
              "post of a dump. Every record comes out, in order, with all its fields; only "
              "the text changes. Bad input stops the run with file:line and exit status 2, "
              "and no output is written (or, with --skip-bad, goes to a reject file).",
              ["mmbdeid scrub dump.jsonl -o scrubbed.jsonl --spans removed.jsonl",
               "mmbdeid scrub dump.csv.gz -o scrubbed.parquet --text-field body --id-field post_id",
               "zcat dump.jsonl.gz | mmbdeid scrub - -o - --mode surrogate > scrubbed.jsonl"]),
    "link": ("Detect the names and usernames of a dump and link them to people: who is "
             "called what across posts and threads. Edit the map, then scrub with --map.",
             ["mmbdeid link dump.jsonl -o people.map --scope board",
              "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --mode pseudonym --map people.map"]),
    "review": ("List every distinct string the model would remove, most frequent first, with "
               "its count, mean probability, label, an example in context and the posts it "
               "is in; with --html, also a page showing each post with its removals "
               "highlighted. Strike false removals into an allow list.",
               ["mmbdeid review dump.jsonl -o review.csv --html review.html",
                "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --allow keep.txt"]),
    "audit": ("Look through scrubbed output for usernames, authors' names and person-map "
              "names that are still there. Exit status 1 when something is found, 0 when "
              "clean.",
              ["mmbdeid audit scrubbed.jsonl --original dump.jsonl --map people.map"]),
    "evaluate": ("Per-token name metrics of a model on hand-tagged gold data at one "
                 "threshold: precision, recall, F1, specificity and the posts that still "
                 "hold a name. CoNLL files are scored as the text a person would have typed.",
                 ["mmbdeid evaluate dev.jsonl --model board.mmbdeid --errors errors.csv",
                  "mmbdeid evaluate emerging.dev.conll --threshold 0.02"]),
    "sweep": ("The metrics of 'evaluate' at every threshold from 0.5 down to 0.005, to "
              "choose the operating point.",
              ["mmbdeid sweep dev.jsonl --model board.mmbdeid -o curve.csv --plot curve.png"]),
    "crossval": ("K-fold cross-validation on hand-tagged data, whole threads in one fold: a "
                 "model trained on the other folds scores each fold. Prints the pooled "
                 "table and each fold's figures with their spread.",
                 ["mmbdeid crossval tagged.jsonl --folds 5 -o cv.csv --plot cv.png"]),
    "steps": ("List the steps of the detector chain in the order they run: each step's "
              "name (for --steps and --no-step), its stage (model, filter, rule), what its "
              "spans do (remove, keep, raise) and what it finds. 'evaluate --chain model' "
              "measures the model and filter stages.",
              ["mmbdeid steps",
               "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --no-step drugs --no-step sign-offs",
               "mmbdeid evaluate dev.jsonl --chain scrub --steps crf,not-names,completion"]),
    "stats": ("Build the corpus statistics of a dump once (token counts per board, thread "
              "and user; capitalisation; paragraph borders), for train, scrub, link and "
              "review to share.",
              ["mmbdeid stats dump.jsonl -o dump.stats",
               "mmbdeid scrub dump.jsonl -o scrubbed.jsonl --stats dump.stats"]),
}


def _describe(commands) -> None:
    """Give every command its description and examples (split has its own)."""
    for name, parser in commands.choices.items():
        if name in DESCRIPTIONS:
            description, examples = DESCRIPTIONS[name]
            parser.description = description
            parser.epilog = "examples:\n" + "\n".join("  " + e for e in examples)
        parser.formatter_class = argparse.RawDescriptionHelpFormatter


def _positive(option: str, low: int = 1, high: Optional[int] = None):
    """An argparse type: a whole number from ``low`` (to ``high``), errors naming
    ``option``."""
    return _checked(functools.partial(checks.whole_number, name=option, low=low, high=high),
                    int, "a whole number")


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
    return _checked(functools.partial(checks.number, name=option, low=low, high=high))


def _tagger_params(args) -> dict:
    return {"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations,
            "lowercase_share": args.lowercase_share, "second_stage": args.stages == 2,
            "context_folds": args.context_folds}


def _detecting_command(commands, name: str, output: str, help: str):
    """A command that runs the model over a whole dump and writes one file."""
    parser = commands.add_parser(name, help=help)
    parser.add_argument("dump", metavar="DUMP", help="posts: JSONL, CSV or TSV (each may "
                        "be .gz) or Parquet; - reads standard input")
    _posts_options(parser)
    parser.add_argument("-o", "--output", required=True, metavar=output,
                        help=_DETECTING_OUTPUTS[name])
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


def _post_formats():
    from .files.formats import POST_FORMATS
    return POST_FORMATS


def _posts_options(parser, input_format: bool = True) -> None:
    """How to read posts: the id and text field names and (a dump's) format."""
    parser.add_argument("--id-field", default="id", metavar="NAME",
                        help="the field holding a post's id (default id); an output keeps "
                             "the name")
    parser.add_argument("--text-field", default="text", metavar="NAME",
                        help="the field holding a post's text (default text); an output "
                             "keeps the name")
    if input_format:
        parser.add_argument("--input-format", choices=_post_formats(), metavar="FORMAT",
                            help="the dump's format: %s (default: from the extension, "
                                 "else from the content, as for -)"
                                 % ", ".join(_post_formats()))


def _quiet_option(parser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress messages on stderr")


def _progress(args, label: str):
    from .jobs.progress import StepProgress
    return StepProgress(label, quiet=args.quiet)


def _output_formats(args) -> dict:
    from .files.outputs import command_output_formats
    return command_output_formats(args.command, args)


def _check_plotting(path: Optional[str]) -> None:
    """Before any long work: --plot needs matplotlib, an optional extra."""
    from .files.outputs import installed
    if path and not installed("matplotlib"):
        raise InputError("--plot needs matplotlib: pip install 'mmbdeid[plot]'", path)


def _model_options(parser) -> None:
    parser.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    parser.add_argument("--threshold", type=_threshold, metavar="T",
                        help="name probability threshold (default: the model's)")
    _tagger_option(parser)
    _step_options(parser)


def _step_options(parser) -> None:
    parser.add_argument("--steps", type=_step_list, metavar="NAME,...",
                        help="only these steps of the detector chain, comma-separated "
                             "(default: every step; 'mmbdeid steps' lists them)")
    parser.add_argument("--no-step", action="append", type=_step_list, default=[],
                        metavar="NAME", help="leave this step out of the chain (repeatable: "
                        "--no-step drugs --no-step sign-offs)")


def _step_list(text: str) -> Tuple[str, ...]:
    """An argparse type: step names, comma-separated, each a registry step."""
    from .detect.registry import step_names      # only when the option is given
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    try:
        step_names(names)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return names


def _chosen_steps(args) -> Optional[Tuple[str, ...]]:
    """The steps ``--steps`` and ``--no-step`` choose; None: every step."""
    if args.steps is None and not args.no_step:
        return None
    from .detect.registry import step_names
    return step_names(args.steps, [name for names in args.no_step for name in names])


# (as crf.batched.TAGGERS: the parser is built without importing the model modules)
TAGGERS = ("compiled", "crfsuite")


def _tagger_option(parser) -> None:
    parser.add_argument("--tagger", choices=TAGGERS, default=TAGGERS[0],
                        help="how the model's probabilities are computed: 'compiled' "
                             "(default: cached weight sums, many posts at once) or "
                             "'crfsuite' (crfsuite's arithmetic, slower; the same "
                             "probabilities to within 1e-6)")


def main(argv: Optional[List[str]] = None) -> int:
    note_stop(None)
    previous = _stop_on_signals()
    try:
        args = build_parser().parse_args(argv)
        args.output_formats = _output_formats(args)     # a name for another format: refused
        with _stdin_spooled(args):
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
        if stop_signal() is not None:   # a query a stop signal interrupted
            return _stopped(stop_signal())
        print("mmbdeid: error: statistics store: %s; no output written" % error,
              file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as interrupt:
        return _stopped(getattr(interrupt, "signum", signal.SIGINT))
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _stopped(signum: int) -> int:
    print("mmbdeid: %s; no output written" % (
        "interrupted" if signum == signal.SIGINT else "stopped by %s"
        % signal.Signals(signum).name), file=sys.stderr)
    return 128 + signum


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
    with _locked_outputs([args.output], list(args.corpus) + [args.dev], args.stats):
        return _train(args)


def _train(args) -> int:
    from .files.corpora import file_sha256, load_labelled, training_labels
    from .evaluation.metrics import UnreachableRecall, pick_threshold
    from .evaluation.gold import gold_scores
    from .model.reference import corpus_stats
    from .model.tagger import DEFAULT_THRESHOLD, NameTagger

    labelled, sources = [], []
    for path in args.corpus:
        documents = load_labelled(_posts_source(args, path, sniff=False))
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
    with _progress(args, "training") as progress:
        tagger.fit([d.document for d in labelled],
                   [training_labels(d.document, d.labels) for d in labelled], stats=stats,
                   progress=progress)
    if args.dev:
        dev = load_labelled(_posts_source(args, args.dev, sniff=False))
        with _progress(args, "scoring dev") as progress:
            gold, probabilities = gold_scores(tagger, dev,
                                              corpus_stats([d.document for d in dev]),
                                              progress=progress)
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
        if args.output == "-" and not args.rejects:
            raise InputError("--skip-bad with -o - needs --rejects FILE")
        rejects = args.rejects or args.output + ".rejects.jsonl"
    elif args.rejects:
        raise InputError("--rejects needs --skip-bad")
    if args.map and args.mode == "placeholder":
        raise InputError("--map needs --mode pseudonym or --mode surrogate")
    if args.map:
        from .people.personmap import PersonMap
        PersonMap.read(args.map)                    # a bad map fails before any work
    config = _run_config(args, output_format=_output_format(
                             args.output, _posts_source(args, args.dump), args.output_format),
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
    from .jobs.passes import ReviewPage, review_dump

    if args.html_posts is not None and not args.html:
        raise InputError("--html-posts needs --html")
    config = _run_config(args, output_format=args.output_formats["output"])
    page = None
    if args.html:
        # the page states the threshold the run used
        threshold = (args.threshold if args.threshold is not None
                     else _load_model(args.model).threshold)
        page = ReviewPage(args.html, threshold, DEFAULT_PAGE_POSTS if args.html_posts is None
                          else args.html_posts)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = review_dump(config, engine, page)
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
    original = _posts_source(args, args.original) if args.original else None
    leaks, auditor = audit_file(_posts_source(args, args.scrubbed), original, names_by_user,
                                allow)
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
                                render_placeholders=render, tagging=args.tagger,
                                steps=_chosen_steps(args), **lists)
    return RunConfig(_posts_source(args, args.dump), detection, args.output,
                     stats_path=args.stats,
                     stats_rebuild=args.stats_rebuild, quiet=args.quiet, mode=mode,
                     max_post_chars=args.max_post_chars, **options)


def _checked_outputs(config, args):
    """``_locked_outputs`` for a run over a dump."""
    outputs = [config.output, config.spans_path, config.rejects_path,
               getattr(args, "html", None)]
    inputs = [config.dump, config.person_map, config.detection.model_path,
              getattr(args, "allow", None), getattr(args, "deny", None)]
    return _locked_outputs(outputs, inputs, config.stats_path, config.stats_rebuild)


@contextlib.contextmanager
def _locked_outputs(outputs, inputs, stats: Optional[str] = None, rebuild: bool = False):
    """Before any work: the outputs may be written (files in writable directories,
    devices, FIFOs, standard output), none of them is an input or given twice; then they
    are locked for the run, so a second run on the same files stops at once. ``stats``
    (a --stats file) is an output when it will be built (missing, or ``rebuild``), else
    an input."""
    from .files.locks import output_locks
    from .files.targets import check_outputs
    if stats:
        (outputs if rebuild or not os.path.exists(stats) else inputs).append(stats)
    outputs = [path for path in outputs if path]
    check_outputs(outputs, inputs)
    with output_locks(outputs):
        yield


def _report(args, summary) -> None:
    if not args.quiet:
        for line in summary.lines():
            _say(line)


def run_evaluate(args) -> int:
    with _locked_outputs([args.errors], [args.gold, args.model], args.stats):
        return _evaluate(args)


def _evaluate(args) -> int:
    from .evaluation.metrics import format_leak, post_leak, token_metrics
    from .evaluation.gold import document_scores, pooled_scores
    from .model.reference import corpus_stats
    from .files.corpora import load_labelled

    tagger = _load_model(args.model)
    threshold = tagger.threshold if args.threshold is None else args.threshold
    gold_file = _posts_source(args, args.gold, sniff=False)
    labelled = load_labelled(gold_file)
    stats = corpus_stats([d.document for d in labelled], args.stats)
    with _progress(args, "scoring") as progress:
        scores = document_scores(tagger, labelled, stats, _chosen_steps(args),
                                 progress=progress, tagging=args.tagger, chain=args.chain)
    gold, probabilities, minima = pooled_scores(labelled, scores, posts=True)
    metrics = token_metrics(gold, probabilities > threshold, threshold=threshold)
    if args.errors:
        from .evaluation.errors import (FALSE_REMOVAL, document_sources, list_errors,
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
    if args.by:
        from .evaluation.breakdown import figures_by_group, format_groups
        print(format_groups(figures_by_group(labelled, scores, threshold, args.by), args.by))
    if args.errors:
        false_removals = sum(error.kind == FALSE_REMOVAL for error in errors)
        print("%-11s %d written to %s (%d misses, %d false removals)" % (
            "errors", len(errors), args.errors, len(errors) - false_removals,
            false_removals))
    return EXIT_OK


def run_sweep(args) -> int:
    _check_plotting(args.plot)
    with _locked_outputs([args.output, args.plot], [args.gold, args.model], args.stats):
        return _sweep(args)


def _sweep(args) -> int:
    from .evaluation.metrics import (format_table, leak_legend, plot_curve, post_leaks,
                                     sweep, write_curve)
    from .evaluation.gold import score_gold_file

    tagger = _load_model(args.model)
    with _progress(args, "scoring") as progress:
        gold, probabilities, minima = score_gold_file(tagger, _posts_source(
                                                          args, args.gold, sniff=False),
                                                      args.stats, posts=True,
                                                      progress=progress,
                                                      tagging=args.tagger)
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    if args.output:
        write_curve(rows, args.output, leaks, args.output_formats["output"])
    if args.plot:
        plot_curve(rows, args.plot, title=os.path.basename(args.gold), mark=tagger.threshold,
                   fmt=args.output_formats["plot"])
    return EXIT_OK


def run_crossval(args) -> int:
    if args.folds < 2:
        raise InputError("--folds must be at least 2")
    _check_plotting(args.plot)
    with _locked_outputs([args.output, args.plot], list(args.corpus)):
        return _crossval(args)


def _crossval(args) -> int:
    import numpy as np
    from .files.corpora import load_labelled
    from .evaluation.crossval import fold_scores
    from .evaluation.metrics import (fold_spread, format_fold_table, format_table,
                                     leak_legend, plot_curve, post_leaks, sweep,
                                     write_curve)
    from .model.tagger import DEFAULT_THRESHOLD

    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    labelled = [item for path in args.corpus
                for item in load_labelled(_posts_source(args, path, sniff=False))]
    progress = _progress(args, "fold")

    def fold_progress(number: int):
        progress.label = "fold %d/%d" % (number, args.folds)
        return progress
    try:
        folds = list(fold_scores(labelled, args.folds, progress=fold_progress,
                                 **_tagger_params(args)))
    except ValueError as error:        # fewer threads than folds
        raise InputError(str(error), args.corpus[0]) from None
    finally:
        progress.close()
    gold = np.concatenate([f.gold for f in folds])
    probabilities = np.concatenate([f.probabilities for f in folds])
    minima = np.concatenate([f.minima for f in folds])
    rows = sweep(gold, probabilities)
    leaks = post_leaks(minima, [r.threshold for r in rows])
    print("%d-fold cross-validation (folds grouped by thread), %d tokens, %d names; "
          "default threshold %g" % (args.folds, len(gold), int(gold.sum()), DEFAULT_THRESHOLD))
    print(format_table(rows, leaks))
    print(leak_legend(leaks))
    print()
    print(format_fold_table(folds, threshold))
    print(fold_spread(folds, threshold))
    if args.output:
        write_curve(rows, args.output, leaks, args.output_formats["output"])
    if args.plot:
        plot_curve(rows, args.plot, title="%d-fold cross-validation" % args.folds,
                   mark=threshold, folds=[sweep(f.gold, f.probabilities) for f in folds],
                   fmt=args.output_formats["plot"])
    return EXIT_OK


def run_split(args) -> int:
    with _locked_outputs([args.output, args.dev], [args.corpus]):
        return _split(args)


def _split(args) -> int:
    from .evaluation.crossval import train_dev_split
    from .files.corpora import LabelledDocument, read_annotated
    from .files.parquet import ColumnKinds
    from .files.post_writer import post_output
    from .text.document import Document

    formats = [_output_format(path, args.corpus) for path in (args.output, args.dev)]
    posts = list(read_annotated(args.corpus))
    # thread keys only: the split needs no tokens or labels
    keyed = [LabelledDocument(Document.from_post(dict(p.record.fields, text="")), [])
             for p in posts]
    try:
        train, dev = train_dev_split(keyed, args.dev_share, args.seed)
    except ValueError as error:
        raise InputError(str(error), args.corpus) from None
    field_names = list(dict.fromkeys(name for p in posts for name in p.record.fields))
    kinds = ColumnKinds()            # Parquet columns from JSON Lines or CSV
    for post in posts:
        kinds.observe(post.record.fields)
    with post_output(args.output, formats[0], field_names, like=args.corpus,
                     column_kinds=kinds.kinds, private=True) as train_writer, \
            post_output(args.dev, formats[1], field_names, like=args.corpus,
                        column_kinds=kinds.kinds, private=True) as dev_writer:
        for writer, indices in ((train_writer, train), (dev_writer, dev)):
            for index in indices:
                writer.write(posts[index].record)
    threads = lambda indices: len({keyed[i].document.thread or "#%d" % i for i in indices})
    _say("%d posts (%d threads) to %s, %d posts (%d threads) to %s" % (
        len(train), threads(train), args.output, len(dev), threads(dev), args.dev))
    return EXIT_OK


def run_steps(args) -> int:
    from .detect.registry import STEPS
    width = max(len(step.name) for step in STEPS)
    for step in STEPS:
        print("%-*s  %-6s  %-6s  %s" % (width, step.name, step.stage, step.effect, step.help))
    return EXIT_OK


def run_stats(args) -> int:
    from .jobs.passes import build_stats

    dump = _posts_source(args, args.dump)
    with _locked_outputs([args.output], [dump]), _engine(args) as engine:
        posts = build_stats(dump, args.output, engine, quiet=args.quiet,
                            max_chars=args.max_post_chars)
    if not args.quiet:
        _say("statistics of %d posts written to %s" % (posts, args.output))
    return EXIT_OK


COMMANDS = {"train": run_train, "scrub": run_scrub, "evaluate": run_evaluate,
            "sweep": run_sweep, "crossval": run_crossval, "stats": run_stats,
            "link": run_link, "review": run_review, "audit": run_audit, "split": run_split,
            "steps": run_steps}

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


def _output_format(output: str, dump, requested: Optional[str] = None) -> str:
    """The format of a posts output: ``requested`` (--output-format), else the one OUT's
    extension names, else (no extension, or ``-``) the dump's own, uncompressed. An
    unknown extension is an error, never a silent JSON Lines file; Parquet needs pyarrow.
    Both are checked here, before any work."""
    from .files.formats import PARQUET, output_format
    from .files.parquet import pyarrow_modules
    from .files.posts import post_format
    fmt = output_format(output, post_format(dump), requested)
    if fmt == PARQUET:
        pyarrow_modules(output)
    return fmt


_STDIN_INPUTS = ("dump", "scrubbed", "original")     # the inputs that may be -


@contextlib.contextmanager
def _stdin_spooled(args):
    """An input given as ``-`` is standard input, copied first to a private temporary file
    (a dump is read more than once), removed afterwards, also on an error."""
    from .files.postfile import PostFile
    from .files.stdio import STDIN_NAME, STDIO, spooled_stdin
    given = [name for name in _STDIN_INPUTS if getattr(args, name, None) == STDIO]
    if not given:
        yield
        return
    if len(given) > 1:
        raise InputError("only one input can be standard input (-)")
    with spooled_stdin() as path:
        setattr(args, given[0], PostFile(path, name=STDIN_NAME))
        yield


def _posts_source(args, path, sniff: bool = True):
    """The posts file ``path`` with the field names and format the options give
    (--id-field, --text-field, --input-format); with ``sniff`` its format is settled now
    (from the extension, else the content), so every reader and the output agree."""
    import dataclasses
    from .files.postfile import FieldNames, PostFile
    from .files.posts import post_format
    try:
        names = FieldNames(getattr(args, "id_field", "id"), getattr(args, "text_field", "text"))
    except ValueError as error:
        raise InputError("--id-field, --text-field: %s" % error) from None
    source = path if isinstance(path, PostFile) else PostFile(os.fspath(path))
    source = dataclasses.replace(source, fields=names,
                                 format=getattr(args, "input_format", None))
    if sniff and source.format is None:
        source = dataclasses.replace(source, format=post_format(source))
    return source


def _say(message: str) -> None:
    print("mmbdeid: " + message, file=sys.stderr)
