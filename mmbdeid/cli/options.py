"""The options several commands share (the model, the posts' fields, the run, the steps),
each added by one function: a command's parser is built from them (:mod:`.parser`)."""
from ..crf import TAGGERS
from ..evaluation import CHAINS
from ..kinds import DEFAULT_KINDS
from ..people.scope import SCOPES
from .help import DETECTING_OUTPUTS
from .steps import kind_list, step_list
from .types import number, positive, probability_threshold


def run_options(parser) -> None:
    from ..jobs.config import MAX_POST_CHARS
    parser.add_argument("--jobs", "-j", type=positive("--jobs"), metavar="N",
                        help="worker processes (default: all cores)")
    parser.add_argument("--max-post-chars", type=positive("--max-post-chars"),
                        default=MAX_POST_CHARS, metavar="N",
                        help="a post whose text is longer is a bad record (memory and time "
                             "grow with a post's length; default %(default)s)")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress and no summary on stderr")
    parser.add_argument("--engine", choices=("local", "dask"), default="local",
                        help="local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --engine dask: the scheduler, e.g. tcp://10.0.0.5:8786")


def training_options(parser) -> None:
    from ..model.tagger import NameTagger
    defaults = NameTagger().get_params()
    parser.add_argument("--c1", type=number("--c1", 0.0, None), default=defaults["c1"],
                        help="L1 regularisation, >= 0 (default %(default)s)")
    parser.add_argument("--c2", type=number("--c2", 0.0, None), default=defaults["c2"],
                        help="L2 regularisation, >= 0 (default %(default)s)")
    parser.add_argument("--max-iterations", type=positive("--max-iterations"),
                        default=defaults["max_iterations"],
                        help="L-BFGS iterations at most (default %(default)s)")
    parser.add_argument("--lowercase-share", type=number("--lowercase-share", 0.0, 1.0),
                        default=defaults["lowercase_share"], metavar="S",
                        help="share of training documents added again in lower case, "
                             "0 to 1 (default %(default)s)")
    parser.add_argument("--stages", type=int, choices=(1, 2), default=1,
                        help="2: also learn the second stage, which pools the first "
                             "stage's evidence per word across the post, thread, author "
                             "and board (default 1: on the WNUT17 and BTC dev sets it did not "
                             "help; see docs/accuracy.md)")
    parser.add_argument("--context-folds", type=positive("--context-folds", 2, 20),
                        default=defaults["context_folds"], metavar="K",
                        help="cross-validation folds for training the second stage, "
                             "2 to 20 (default %(default)s)")


def detecting_command(commands, name: str, output: str, help: str):
    """A command that runs the model over a whole dump and writes one file."""
    parser = commands.add_parser(name, help=help)
    parser.add_argument("dump", metavar="DUMP", help="posts: JSONL, CSV or TSV (each may "
                        "be .gz) or Parquet; - reads standard input")
    posts_options(parser)
    parser.add_argument("-o", "--output", required=True, metavar=output,
                        help=DETECTING_OUTPUTS[name])
    model_options(parser)
    stats_options(parser)
    run_options(parser)
    return parser


def stats_options(parser) -> None:
    parser.add_argument("--stats", metavar="STATS",
                        help="corpus statistics file: read if it exists (it must have been "
                             "built from this dump), else built and saved")
    parser.add_argument("--stats-rebuild", action="store_true",
                        help="build --stats from this dump even if the file exists")


def list_options(parser) -> None:
    parser.add_argument("--allow", metavar="FILE",
                        help="terms never removed, one per line (or a review CSV)")
    parser.add_argument("--deny", metavar="FILE",
                        help="terms always removed, one per line (or a review CSV)")


REVIEW_MODES = ("placeholder", "pseudonym", "surrogate")   # what removes differently


def person_options(parser) -> None:
    list_options(parser)
    parser.add_argument("--scope", choices=SCOPES, default="board",
                        help="where two people sharing a name are a conflict: thread, board "
                             "(default) or the whole dump")


def post_formats():
    from ..files.formats import POST_FORMATS
    return POST_FORMATS


def posts_options(parser, input_format: bool = True) -> None:
    """How to read posts: the id and text field names and (a dump's) format."""
    parser.add_argument("--id-field", default="id", metavar="NAME",
                        help="the field holding a post's id (default id); an output keeps "
                             "the name")
    parser.add_argument("--text-field", default="text", metavar="NAME",
                        help="the field holding a post's text (default text); an output "
                             "keeps the name")
    if input_format:
        parser.add_argument("--input-format", choices=post_formats(), metavar="FORMAT",
                            help="the dump's format: %s (default: from the extension, "
                                 "else from the content, as for -)"
                                 % ", ".join(post_formats()))


def quiet_option(parser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress messages on stderr")


def chain_option(parser, default: str, prefix: str = "") -> None:
    """``--chain``: what evaluate, sweep and train --dev measure (``CHAINS``)."""
    parser.add_argument("--chain", choices=CHAINS, default=default,
                        help=prefix + "what is measured: 'scrub', everything scrub removes "
                        "(the rule steps too), or 'model', the model with its threshold and "
                        "filters (default '%s')" % default)


def model_options(parser) -> None:
    parser.add_argument("--model", metavar="MODEL", help="default: the bundled model")
    parser.add_argument("--threshold", type=probability_threshold, metavar="T",
                        help="name probability threshold (default: the model's)")
    tagging_option(parser)
    step_options(parser)


def step_options(parser) -> None:
    parser.add_argument("--steps", type=step_list, metavar="NAME,...",
                        help="only these steps of the detector chain, comma-separated "
                             "(default: every step; 'mmbdeid steps' lists them)")
    parser.add_argument("--no-step", action="append", type=step_list, default=[],
                        metavar="NAME", help="leave this step out of the chain (repeatable: "
                        "--no-step drugs --no-step sign-offs)")
    parser.add_argument("--kinds", type=kind_list, default=DEFAULT_KINDS, metavar="KIND,...",
                        help="the kinds of identifier removed, comma-separated labels and "
                             "presets (default: 'default', that is NAME,USER,EMAIL,URL,"
                             "PHONE; 'safe-harbor': every kind; e.g. default,DATE,ID)")


def tagging_option(parser) -> None:
    # --tagger: its name before the chain's options had one name each (issue 32)
    parser.add_argument("--tagging", "--tagger", dest="tagging", choices=TAGGERS,
                        default=TAGGERS[0],
                        help="how the model's probabilities are computed: 'compiled' "
                             "(default: cached weight sums, many posts at once) or "
                             "'crfsuite' (crfsuite's arithmetic, slower; the same "
                             "probabilities to within 1e-6)")
