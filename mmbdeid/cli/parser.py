"""The command line's grammar: the ``mmbdeid`` parser, and each command with its options
added by a function of its own (``add_scrub_command``, ...; option groups several commands
share are built by one function each, in :mod:`.options`)."""
import argparse

from .. import __version__
from ..errors import InputError
from ..evaluation import BREAKDOWNS, THRESHOLD_FLOOR
from ..people.scope import SCOPES
from ..output.operators import OPERATORS
from ..output.annotate_page import DEFAULT_LABELS
from ..output.review_page import DEFAULT_PAGE_POSTS
from .annotating import label_list
from .help import GOLD_STATS_HELP, PLOT_HELP, TABLE_HELP, describe
from .steps import kind_list
from .options import (REVIEW_MODES, chain_option, detecting_command, model_options,
                      person_options, post_formats, posts_options, quiet_option,
                      run_options, stats_options, step_options, tagging_option,
                      training_options)
from .types import (DEFAULT_TARGET_RECALL, corpus_weight, number, open_share, positive,
                    probability_threshold, target_recall)


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors on one line, exit status 2."""

    def error(self, message):
        raise InputError("%s (see '%s --help')" % (message, self.prog))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mmbdeid", description="De-identify medical message board text: "
                     "names and usernames by a CRF with a low threshold, e-mail addresses, "
                     "URLs and phone numbers by pattern.",
                     epilog="'mmbdeid COMMAND --help' describes a command, with examples.")
    parser.add_argument("--version", action="version", version="mmbdeid " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    add_train_command(commands)
    add_scrub_command(commands)
    add_link_command(commands)
    add_review_command(commands)
    add_annotate_command(commands)
    add_audit_command(commands)
    add_evaluate_command(commands)
    add_sweep_command(commands)
    add_crossval_command(commands)
    add_split_command(commands)
    add_stats_command(commands)
    add_steps_command(commands)
    add_convert_command(commands)
    add_sample_command(commands)
    add_estimate_command(commands)
    describe(commands)
    return parser


def add_train_command(commands) -> None:
    """``train``: a model from annotated posts or CoNLL."""
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
    train.add_argument("--target-recall", type=target_recall, metavar="R",
                       help="with --dev: the highest threshold whose dev recall reaches R "
                            "(default %g)" % DEFAULT_TARGET_RECALL)
    train.add_argument("--force", action="store_true",
                       help="with --dev: accept a threshold below %g when the target "
                            "recall needs one (otherwise an error, and no model written)"
                            % THRESHOLD_FLOOR)
    chain_option(train, "scrub", "with --dev: ")
    train.add_argument("--base", choices=("default",),
                       help="default: train on the default model's corpora (shipped with "
                            "mmbdeid) together with the CORPUS posts, repeated so they count")
    train.add_argument("--base-weight", type=positive("--base-weight", 1, 1000), metavar="W",
                       help="with --base: how many times the CORPUS posts go into training "
                            "(default: so they are about a third of the training tokens)")
    training_options(train)
    quiet_option(train)
    posts_options(train, input_format=False)


def add_scrub_command(commands) -> None:
    """``scrub``: a dump with its names and identifiers removed."""
    scrub = commands.add_parser("scrub", help="remove names and identifiers from a dump")
    scrub.add_argument("dump", metavar="DUMP", help="posts: JSONL, CSV or TSV (each may be "
                       ".gz) or Parquet; - reads standard input")
    scrub.add_argument("-o", "--output", required=True, metavar="OUT",
                       help="the scrubbed dump, in the format its extension names (no "
                            "extension: the dump's); - writes standard output")
    posts_options(scrub)
    scrub.add_argument("--output-format", choices=post_formats(), metavar="FORMAT",
                       help="OUT's format when its extension does not say it (e.g. for -): "
                            "%s (default: the dump's format, uncompressed)"
                            % ", ".join(post_formats()))
    model_options(scrub)
    scrub.add_argument("--spans", metavar="SPANS.jsonl", help="also write standoff spans "
                       "(JSON Lines: .jsonl, or .jsonl.gz compressed)")
    stats_options(scrub)
    run_options(scrub)
    scrub.add_argument("--skip-bad", action="store_true",
                       help="write bad records to a reject file and go on (default: stop "
                            "at the first with file:line and exit 2)")
    scrub.add_argument("--rejects", metavar="FILE",
                       help="with --skip-bad: the reject file (default OUT.rejects.jsonl)")
    scrub.add_argument("--mode", choices=tuple(OPERATORS), default="placeholder",
                       help="placeholder: [NAME], [USER], ... (default); mask: * for each "
                            "character; hash: [NAME:1a2b3c4d5e6f], a keyed HMAC-SHA256 of "
                            "the identifier (needs a key); pseudonym: one identifier per "
                            "person ([U12]); surrogate: realistic fake values, the same for "
                            "each person")
    scrub.add_argument("--hash-key-file", metavar="FILE",
                       help="hash mode: the secret key (16 bytes or more; one final line "
                            "break is ignored); default: the environment variable "
                            "MMBDEID_HASH_KEY. Never written to any output")
    scrub.add_argument("--map", metavar="MAP",
                       help="person mode: the (edited) person map from 'mmbdeid link' "
                            "instead of linking names afresh")
    scrub.add_argument("--seed", type=int, default=0,
                       help="surrogate mode: seed of the fake values (default 0)")
    scrub.add_argument("--mark-surrogates", action="store_true",
                       help="surrogate mode: write every fake value in the text between "
                            "\u27e6 and \u27e7 (\u27e6Michael\u27e7), so a reader can tell "
                            "the changed words; a later scrub keeps them")
    person_options(scrub)


def add_link_command(commands) -> None:
    """``link``: the person map of a dump, for editing and ``scrub --map``."""
    link = detecting_command(commands, "link", "MAP", "write the person map (who is "
                              "called what) of a dump, for editing and 'scrub --map'")
    person_options(link)


def add_review_command(commands) -> None:
    """``review``: every distinct string scrub removes, as a list (and a page)."""
    review = detecting_command(commands, "review", "LIST.csv", "list every distinct "
                                "string scrub removes, most frequent first (CSV)")
    review.add_argument("--mode", choices=REVIEW_MODES, default="placeholder",
                        help="review what 'scrub --mode' removes: placeholder (default; "
                             "mask and hash remove the same), or pseudonym or surrogate "
                             "(the person map's names spread across the dump)")
    review.add_argument("--map", metavar="MAP",
                        help="person mode: the (edited) person map 'scrub --map' would use")
    person_options(review)
    review.add_argument("--html", metavar="PAGE.html",
                        help="also write one self-contained HTML page (private, like the "
                             "list): each post with its removals highlighted by label and "
                             "probability, filters, the strings in context, what may be left "
                             "(near-misses, posts with no removal), and allow/deny lists to "
                             "download")
    review.add_argument("--html-posts", type=positive("--html-posts", 0), metavar="N",
                        help="with --html: show at most the first N posts that have "
                             "removals, and N with none (default %d); the tables of strings "
                             "cover all posts"
                             % DEFAULT_PAGE_POSTS)


def add_annotate_command(commands) -> None:
    """``annotate``: a page on which to tag a sample of posts by hand."""
    annotate = detecting_command(commands, "annotate", "PAGE.html", "write a page on "
                                  "which to tag the names of a sample of posts by hand, "
                                  "pre-filled with what scrub removes")
    annotate.add_argument("--labels", type=label_list, default=DEFAULT_LABELS,
                          metavar="LABEL,...",
                          help="the labels offered, keys 1 to 9 in this order (default "
                               "%s)" % ",".join(DEFAULT_LABELS))
    annotate.add_argument("--no-prefill", action="store_true",
                          help="start with no spans instead of what scrub removes (an "
                               "annotated POSTS always starts from its own spans)")


def add_audit_command(commands) -> None:
    """``audit``: the usernames and names left in scrubbed output."""
    audit = commands.add_parser("audit", help="look for usernames and names left in "
                                "scrubbed output; exit 1 if any")
    audit.add_argument("scrubbed", metavar="SCRUBBED",
                       help="the scrubbed dump (any posts format); - reads standard input")
    posts_options(audit, input_format=False)
    audit.add_argument("--original", metavar="DUMP",
                       help="the dump before scrubbing (usernames and authors by post id)")
    audit.add_argument("--map", metavar="MAP",
                       help="person map: each author's names are searched in their posts")
    audit.add_argument("--allow", metavar="FILE",
                       help="the scrub's allow list: terms kept on purpose are not leaks")
    audit.add_argument("--spans", metavar="SPANS.jsonl",
                       help="the scrub's spans file (with --original): every removed "
                            "span's text is searched in its post")
    audit.add_argument("--model", metavar="MODEL",
                       help="the model whose near-misses in the output are listed "
                            "(default: the bundled model)")
    audit.add_argument("--unsearched", metavar="FILE",
                       help="also write the parts of usernames and names not searched "
                            "(ordinary words), one a line (private: they are parts of "
                            "names); stderr gives only their count")
    audit.add_argument("--quiet", "-q", action="store_true", help="only the exit status")


def add_evaluate_command(commands) -> None:
    """``evaluate``: per-token name metrics on gold data."""
    evaluate = commands.add_parser("evaluate", help="per-token name metrics on gold data")
    evaluate.add_argument("gold", metavar="GOLD", help="annotated JSONL/CSV or CoNLL")
    model_options(evaluate)
    posts_options(evaluate, input_format=False)
    evaluate.add_argument("--stats", metavar="STATS", help=GOLD_STATS_HELP)
    evaluate.add_argument("--errors", metavar="FILE",
                          help="also write every miss (a gold name token left) and every "
                               "false removal (another token removed) at the threshold, "
                               "with its post and context, as " + TABLE_HELP +
                               " (private: it holds names)")
    evaluate.add_argument("--by", choices=BREAKDOWNS,
                          help="also print the figures of each board, forum (a board's "
                               "name up to its first ':') or thread; or, with 'kind', of "
                               "each kind of identifier (what scrub removes of each kind "
                               "of the gold spans, the false removals, and the listed "
                               "lookalikes removed: an annotated posts file)")
    chain_option(evaluate, "model")
    evaluate.add_argument("--people", action="store_true",
                          help="score persons instead of tokens: scrub GOLD in a person "
                               "mode and compare each mention's person id with the gold "
                               "'person' of its span (and each post's author): pairwise "
                               "link precision and recall, wrong merges and splits")
    evaluate.add_argument("--mode", choices=("pseudonym", "surrogate"),
                          help="with --people: the person mode scrubbed in (default "
                               "pseudonym)")
    evaluate.add_argument("--scope", choices=SCOPES,
                          help="with --people: as for scrub (default board)")
    evaluate.add_argument("--map", metavar="MAP",
                          help="with --people: apply this person map (from 'mmbdeid link', "
                               "edited) as 'scrub --map' does, and score it")
    evaluate.add_argument("--json", metavar="FILE",
                          help="with --people: also write every figure, merge and split "
                               "as JSON (private: it holds names)")
    quiet_option(evaluate)


def add_sweep_command(commands) -> None:
    """``sweep``: the metrics at a range of thresholds."""
    sweep = commands.add_parser("sweep", help="metrics at thresholds from 0.5 down to 0.005")
    sweep.add_argument("gold", metavar="GOLD", help="annotated JSONL/CSV or CoNLL")
    sweep.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    posts_options(sweep, input_format=False)
    sweep.add_argument("-o", "--output", metavar="CURVE.csv",
                       help="also write the table (one row per threshold) as " + TABLE_HELP)
    sweep.add_argument("--plot", metavar="CURVE.png",
                       help="precision and the leaking-post share against recall, "
                            "each point's threshold beside it, the model's threshold "
                            "circled, " + PLOT_HELP)
    sweep.add_argument("--stats", metavar="STATS", help=GOLD_STATS_HELP)
    chain_option(sweep, "scrub")
    tagging_option(sweep)
    step_options(sweep)
    quiet_option(sweep)


def add_crossval_command(commands) -> None:
    """``crossval``: k-fold cross-validation, folds grouped by thread."""
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
                               + TABLE_HELP)
    crossval.add_argument("--plot", metavar="CURVE.png",
                          help="the pooled precision and leaking-post share against "
                               "recall, with each fold's precision, " + PLOT_HELP)
    crossval.add_argument("--threshold", type=probability_threshold, metavar="T",
                          help="threshold of the per-fold figures (default 0.05)")
    chain_option(crossval, "scrub")
    crossval.add_argument("--base", choices=("default",),
                          help="default: also train every fold on the default model's "
                               "corpora (less any post of a CORPUS file), never scored")
    crossval.add_argument("--train-also", action="append", default=[], metavar="FILE",
                          help="also train every fold on this annotated or CoNLL file, "
                               "never scored (repeatable)")
    crossval.add_argument("--weight", action="append", default=[], metavar="FILE=W",
                          type=corpus_weight,
                          help="train on a CORPUS or --train-also file W times (a whole "
                               "number), on a share W < 1 of its posts, or not at all (0: "
                               "scored only); default 1 (repeatable)")
    crossval.add_argument("--by", choices=("file", "board"), default="file",
                          help="the groups of the per-group figures: each CORPUS file, or "
                               "each file and each of its boards (EWT's genre) too "
                               "(default file)")
    crossval.add_argument("--target-recall", type=target_recall, default=0.96, metavar="R",
                          help="per group, the highest threshold whose pooled recall "
                               "reaches R is shown (default 0.96)")
    training_options(crossval)
    quiet_option(crossval)
    posts_options(crossval, input_format=False)


def add_split_command(commands) -> None:
    """``split``: an annotated file split into train and dev by thread."""
    split = commands.add_parser("split", help="split an annotated file into train and dev, "
                                "whole threads on either side")
    split.add_argument("corpus", metavar="ANNOTATED",
                       help="annotated JSONL or CSV (posts with their gold spans)")
    split.add_argument("-o", "--output", required=True, metavar="TRAIN",
                       help="the training part (same format as the input, or by extension)")
    split.add_argument("--dev", required=True, metavar="DEV", help="the development part")
    split.add_argument("--dev-share", type=number("--dev-share", 0.01, 0.99), default=0.2,
                       metavar="S", help="share of the threads that go to dev, rounded "
                       "up to whole threads (default 0.2)")
    split.add_argument("--seed", type=int, default=0,
                       help="random seed: the same seed gives the same split (default 0)")


def add_stats_command(commands) -> None:
    """``stats``: the corpus statistics of a dump."""
    stats = commands.add_parser("stats", help="build the corpus statistics of a dump")
    stats.add_argument("dump", metavar="DUMP", help="posts (any posts format); - reads "
                       "standard input")
    posts_options(stats)
    stats.add_argument("-o", "--output", required=True, metavar="STATS",
                       help="the statistics file to write (SQLite), for --stats of "
                            "scrub, link, review and train")
    run_options(stats)


def add_steps_command(commands) -> None:
    """``steps``: the detector chain's steps, in their order."""
    commands.add_parser("steps", help="list the steps of the detector chain, in their order")


def add_convert_command(commands) -> None:
    """``convert``: hand-tagged posts from one annotation format to another."""
    from ..files.conversion import CONVERT_FORMATS
    from ..files.interchange import CODEPOINTS, UTF16
    convert = commands.add_parser("convert", help="convert hand-tagged posts between "
                                  "annotated JSONL, Label Studio, doccano and CoNLL")
    convert.add_argument("corpus", metavar="IN", help="annotated posts (JSONL, CSV, TSV, "
                         "Parquet), a Label Studio JSON export, a doccano JSONL export "
                         "or CoNLL")
    convert.add_argument("-o", "--output", required=True, metavar="OUT",
                         help="the converted file (private: it holds names)")
    convert.add_argument("--from", dest="source_format", choices=CONVERT_FORMATS,
                         help="IN's format (default: Label Studio or doccano by content, "
                              "else CoNLL by extension or content, else annotated posts)")
    convert.add_argument("--to", dest="target_format", choices=CONVERT_FORMATS,
                         help="OUT's format (default by extension: .json Label Studio, "
                              ".jsonl annotated JSONL, .conll/.bio/.txt CoNLL)")
    convert.add_argument("--label-map", metavar="FILE",
                         help="a JSON object from each label read to the label written "
                              "(default: PERSON, PER → NAME; USERNAME → USER)")
    convert.add_argument("--offsets", choices=(UTF16, CODEPOINTS),
                         help="the tool's offsets: UTF-16 code units (Label Studio's "
                              "default) or code points (doccano's default)")
    posts_options(convert, input_format=False)


def add_sample_command(commands) -> None:
    """``sample``: posts of a dump to hand-tag."""
    from ..evaluation.choosing import SAMPLING_RULES
    sample = commands.add_parser("sample", help="choose posts of a dump to hand-tag")
    sample.add_argument("dump", metavar="DUMP", help="posts: JSONL, CSV or TSV (each may "
                        "be .gz) or Parquet; - reads standard input")
    sample.add_argument("-n", dest="count", type=int, default=300, metavar="N",
                        help="how many posts (default 300)")
    sample.add_argument("--by", choices=SAMPLING_RULES, default="uncertainty",
                        help="uncertainty: posts with tokens near the threshold and "
                             "undecided capitalised words first (default); random: a "
                             "simple random sample (for unbiased measurement); "
                             "stratified: by board, spread over threads")
    sample.add_argument("--per-thread", type=positive("--per-thread"), default=3,
                        metavar="K", help="uncertainty, stratified: at most K posts from "
                        "a thread (default 3)")
    sample.add_argument("--seed", type=int, default=0,
                        help="random seed: the same seed gives the same sample (default 0)")
    sample.add_argument("-o", "--output", default="-", metavar="OUT",
                        help="the chosen posts, every field, in the dump's order (default "
                             "-: standard output; private: they hold names)")
    posts_options(sample)
    model_options(sample)
    stats_options(sample)
    run_options(sample)


def add_estimate_command(commands) -> None:
    """``estimate draw`` (a random sample of a scrubbed dump to mark) and ``estimate
    report`` (the leak share of the marked sample, with its interval)."""
    from ..evaluation.leak_draw import STRATA
    from ..evaluation.leak_report import DEFAULT_TARGET
    estimate = commands.add_parser("estimate", help="the leak share of a scrubbed dump with "
                                   "its 95%% interval: draw a sample, mark it, report")
    steps = estimate.add_subparsers(dest="subcommand", metavar="STEP",
                                    help="draw: the sample to mark; report: the estimate "
                                         "from the marked sample")
    steps.required = True
    draw = steps.add_parser("draw", help="a seeded, stratified random sample of scrubbed "
                            "posts to mark")
    draw.add_argument("scrubbed", metavar="SCRUBBED", help="the scrubbed dump (any posts "
                      "format); - reads standard input")
    draw.add_argument("-o", "--output", required=True, metavar="SAMPLE.jsonl",
                      help="the sample: the drawn posts with all their fields, in the "
                           "dump's order, as JSON Lines (private)")
    draw.add_argument("--meta", metavar="META.json",
                      help="the draw's settings, the dump's fingerprint and the drawn ids "
                           "(default: beside the sample, SAMPLE.meta.json)")
    size = draw.add_mutually_exclusive_group(required=True)
    size.add_argument("--n", type=positive("--n"), metavar="N", help="the sample size")
    size.add_argument("--margin", type=open_share("--margin"), metavar="M",
                      help="the size whose 95%% interval has half-width M (e.g. 0.05), at "
                           "the share --expected")
    size.add_argument("--upper-bound", type=open_share("--upper-bound"), metavar="U",
                      help="the size for which no leak gives a one-sided 95%% upper bound "
                           "below U (0.01: 299 posts)")
    draw.add_argument("--expected", type=open_share("--expected"), metavar="P",
                      help="with --margin: the leak share expected (default 0.5, the "
                           "worst case)")
    draw.add_argument("--by", choices=STRATA, default="board",
                      help="strata, each drawn from in proportion to its size: board "
                           "(default), thread, or none (a simple random sample)")
    draw.add_argument("--seed", type=int, default=0,
                      help="random seed: the same seed and dump give the same sample "
                           "(default 0)")
    posts_options(draw)
    report = steps.add_parser("report", help="the leak share of a marked sample, with its "
                              "95%% intervals, as Markdown and JSON")
    report.add_argument("marked", metavar="MARKED", help="the marked sample: annotated "
                        "JSON Lines, a span on each name left; - reads standard input")
    report.add_argument("--draw-info", metavar="SAMPLE.meta.json",
                        help="the settings file of the draw: the report names the dump and "
                             "the draw, and every drawn post must be marked")
    report.add_argument("-o", "--output", required=True, metavar="REPORT.md",
                        help="the report, as Markdown")
    report.add_argument("--json", metavar="REPORT.json",
                        help="also the report as JSON")
    report.add_argument("--labels", type=kind_list, metavar="LABEL,...",
                        help="only spans of these labels count as leaks (default: any "
                             "span; e.g. NAME,USER)")
    report.add_argument("--target", type=open_share("--target"),
                        default=DEFAULT_TARGET, metavar="U",
                        help="the upper bound aimed at: the report says how many more "
                             "posts with no leak would bring the bound below it "
                             "(default %(default)s)")
    posts_options(report, input_format=False)
