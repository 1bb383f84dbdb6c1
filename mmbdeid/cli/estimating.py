"""``mmbdeid estimate``: the leak share of a scrubbed dump for an ethics board. ``draw``
writes a random sample of its posts to mark (:mod:`mmbdeid.evaluation.leak_draw`),
``report`` the share of the marked sample with its intervals
(:mod:`mmbdeid.evaluation.leak_report`)."""
import json

from ..errors import InputError
from ..files.stdio import STDIO
from .exits import EXIT_OK
from .io import locked_outputs, posts_source
from .messages import say


def run_estimate(args) -> int:
    return {"draw": _draw, "report": _report}[args.subcommand](args)


def _draw(args) -> int:
    from ..evaluation.leak_draw import draw_sample, meta_path_for
    size = _sample_size(args)
    if args.output == STDIO and not args.meta:
        raise InputError("estimate draw -o -: the draw's settings are written beside the "
                         "sample; name their file with --meta")
    meta = args.meta or meta_path_for(args.output)
    with locked_outputs([args.output, meta], [args.scrubbed]):
        source = posts_source(args, args.scrubbed)
        summary = draw_sample(source, args.output, args.output_formats["output"], meta,
                              size, args.by, args.seed)
    if summary.drawn < size.posts:
        say("the dump has %d posts, fewer than the %d asked for: all are drawn"
            % (summary.records, size.posts))
    say("drew %d of %d posts (%s) into %s; the draw's settings: %s" % (
        summary.drawn, summary.records, "simple random sample" if args.by == "none"
        else "by %s, %d strata" % (args.by, summary.strata), args.output, meta))
    return EXIT_OK


def _sample_size(args):
    from ..evaluation.leak_draw import SampleSize
    from ..evaluation.leak_estimate import posts_for_bound, posts_for_margin
    if args.expected is not None and args.margin is None:
        raise InputError("--expected goes with --margin (the share the margin is "
                         "computed at)")
    if args.n is not None:
        return SampleSize(args.n, "n")
    if args.margin is not None:
        return SampleSize(posts_for_margin(args.margin, args.expected), "margin",
                          args.margin, 0.5 if args.expected is None else args.expected)
    return SampleSize(posts_for_bound(args.upper_bound), "upper-bound", args.upper_bound)


def _report(args) -> int:
    from ..evaluation.leak_report import (check_against_draw, leak_report, read_draw_info,
                                          read_marked)
    from ..evaluation.leak_report_text import headline, markdown, target_line
    from ..files.atomic import atomic_output
    with locked_outputs([args.output, args.json], [args.marked, args.draw_info]):
        marked = posts_source(args, args.marked, sniff=False)
        posts = read_marked(marked)
        info = None
        if args.draw_info:
            info = read_draw_info(args.draw_info)
            check_against_draw(posts, info, str(marked), args.draw_info)
        report = leak_report(marked, posts, info, args.labels, args.target)
        with atomic_output(args.output) as text:
            if args.json:
                with atomic_output(args.json) as handle:
                    handle.write(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
            text.write(markdown(report))
    if args.output != STDIO:
        print(headline(report))
        print(target_line(report))
    return EXIT_OK
