"""The commands that run over a whole dump, on an engine (local processes or Dask): scrub,
link (the person map), review (the list of what would be removed) and stats (the corpus
statistics they share); and audit, which looks for what a scrub left."""
import contextlib

from ..errors import InputError
from ..output.review_page import DEFAULT_PAGE_POSTS
from .exits import EXIT_LEAK, EXIT_OK
from .io import load_model, locked_outputs, posts_output_format, posts_source
from .messages import report, say
from .steps import chosen_options


def run_scrub(args) -> int:
    from ..files.targets import FILE, output_target
    from ..jobs.passes import scrub_dump

    rejects = None
    if args.skip_bad:
        if not args.rejects and output_target(args.output).kind != FILE:
            # not /dev/null.rejects.jsonl: raw posts beside a device are nobody's to keep
            raise InputError("--skip-bad with -o %s needs --rejects FILE (the reject file "
                             "goes beside OUT only when OUT is a regular file)" % args.output)
        rejects = args.rejects or args.output + ".rejects.jsonl"
    elif args.rejects:
        raise InputError("--rejects needs --skip-bad")
    from ..output.operators import OPERATORS
    _check_map(args)
    if args.mark_surrogates and args.mode != "surrogate":
        raise InputError("--mark-surrogates needs --mode surrogate")
    hash_key = None
    if OPERATORS[args.mode].keyed:
        from ..output.hash_key import find_key
        hash_key = find_key(args.hash_key_file)     # before any work; never shown
    elif args.hash_key_file:
        raise InputError("--hash-key-file needs --mode hash")
    config = _run_config(args, output_format=posts_output_format(
                             args.output, posts_source(args, args.dump), args.output_format),
                         spans_path=args.spans, rejects_path=rejects, mode=args.mode,
                         person_map=args.map, scope=args.scope, seed=args.seed,
                         mark_surrogates=args.mark_surrogates, hash_key=hash_key)
    from ..files.post_writer import check_post_output
    check_post_output(config.output, config.output_format, config.dump,
                      OPERATORS[args.mode].rewritten_fields())   # before pass 1
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = scrub_dump(config, engine)
    report(args, summary)
    return EXIT_OK


def _check_map(args) -> None:
    """--map goes with a person mode; a bad map fails before any work."""
    from ..output.operators import OPERATORS
    if args.map and not OPERATORS[args.mode].needs_people:
        raise InputError("--map needs --mode pseudonym or --mode surrogate")
    if args.map:
        from ..people.personmap import PersonMap
        PersonMap.read(args.map)


def run_link(args) -> int:
    from ..jobs.passes import link_dump

    config = _run_config(args, scope=args.scope)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = link_dump(config, engine)
    report(args, summary)
    if not args.quiet:
        say("person map written to %s: keep it secret (it holds real names)" % args.output)
    return EXIT_OK


def run_review(args) -> int:
    from ..jobs.review_pass import ReviewPage, review_dump

    if args.html_posts is not None and not args.html:
        raise InputError("--html-posts needs --html")
    _check_map(args)
    config = _run_config(args, output_format=args.output_formats["output"], mode=args.mode,
                         person_map=args.map, scope=args.scope)
    page = None
    if args.html:
        # the page states the threshold the run used
        threshold = (args.threshold if args.threshold is not None
                     else load_model(args.model).threshold)
        page = ReviewPage(args.html, threshold, DEFAULT_PAGE_POSTS if args.html_posts is None
                          else args.html_posts)
    with _checked_outputs(config, args), _engine(args) as engine:
        summary = review_dump(config, engine, page)
    report(args, summary)
    return EXIT_OK


def run_stats(args) -> int:
    from ..jobs.first_pass import build_stats

    dump = posts_source(args, args.dump)
    with locked_outputs([args.output], [dump]), _engine(args) as engine:
        posts = build_stats(dump, args.output, engine, quiet=args.quiet,
                            max_chars=args.max_post_chars)
    if not args.quiet:
        say("statistics of %d posts written to %s" % (posts, args.output))
    return EXIT_OK


def run_audit(args) -> int:
    from ..audit import format_leak, names_from_person_map, unposted_names, write_unsearched
    from ..audit.near_misses import format_near_miss
    from ..audit.report import audit_dump, summary_line
    from ..files.termlists import load_terms

    scrubbed = posts_source(args, args.scrubbed)
    original = posts_source(args, args.original) if args.original else None
    if args.spans and original is None:
        raise InputError("--spans needs --original (the spans are offsets into its text)")
    # the leaks go to standard output: never onto an input (audit - < out.jsonl >> out.jsonl)
    printed = [] if args.quiet else ["-"]
    with locked_outputs([args.unsearched] + printed, [scrubbed, original, args.map, args.allow,
                                                      args.spans, args.model]):
        names_by_user = names_everywhere = None
        if args.map:
            from ..people.personmap import PersonMap
            people = PersonMap.read(args.map)
            names_by_user = names_from_person_map(people)
            names_everywhere = unposted_names(people)
        allow = load_terms(args.allow) if args.allow else ()
        report = audit_dump(scrubbed, original, names_by_user, allow, names_everywhere,
                            args.spans, load_model(args.model))
        if args.unsearched:
            write_unsearched(report.auditor.unchecked, args.unsearched)
    if not args.quiet:
        for leak in report.leaks:
            print(format_leak(leak))
        for near in report.near or ():
            print(format_near_miss(near))
        unchecked = report.auditor.unchecked
        if unchecked:
            # the words are parts of usernames and names: stderr holds no names
            say("%d parts of usernames and names not searched (ordinary words): %s" % (
                len(unchecked), "listed in " + args.unsearched if args.unsearched
                else "--unsearched FILE lists them"))
        say(summary_line(report))
    return EXIT_LEAK if report.leaks else EXIT_OK


def _run_config(args, mode: str = "placeholder", hash_key=None, **options):
    """The run configuration of a job over a dump; the model and the term lists are
    checked here, before any work."""
    from ..files.termlists import load_terms
    from ..jobs.config import DetectionConfig, RunConfig
    from ..model.tagger import default_model_path
    from ..output.operators import OPERATORS

    model_path = args.model or default_model_path()
    load_model(model_path)                          # a bad model fails before any work
    lists = {}
    for name in ("allow", "deny"):
        path = getattr(args, name, None)
        lists[name] = tuple(load_terms(path)) if path else ()
    # Placeholder text is made in the workers only where the output needs it as it is.
    render = args.command == "scrub" and not OPERATORS[mode].needs_people
    detection = DetectionConfig(model_path, chosen_options(args, **lists),
                                render_placeholders=render, mode=mode, hash_key=hash_key)
    return RunConfig(posts_source(args, args.dump), detection, args.output,
                     stats_path=args.stats,
                     stats_rebuild=args.stats_rebuild, quiet=args.quiet, mode=mode,
                     max_post_chars=args.max_post_chars, **options)


def _checked_outputs(config, args):
    """``locked_outputs`` for a run over a dump."""
    outputs = [config.output, config.spans_path, config.rejects_path,
               getattr(args, "html", None)]
    inputs = [config.dump, config.person_map, config.detection.model_path,
              getattr(args, "allow", None), getattr(args, "deny", None),
              getattr(args, "hash_key_file", None)]
    return locked_outputs(outputs, inputs, config.stats_path, config.stats_rebuild)


@contextlib.contextmanager
def _engine(args):
    """The chosen engine, for the run's duration."""
    if args.engine == "dask":
        if not args.scheduler:
            raise InputError("--engine dask needs --scheduler ADDRESS")
        from ..jobs.dask_cluster import dask_engine
        with dask_engine(args.scheduler) as engine:
            yield engine
        return
    if args.scheduler:
        raise InputError("--scheduler goes with --engine dask")
    from ..jobs.local import LocalEngine, default_jobs
    yield LocalEngine(args.jobs or default_jobs())
