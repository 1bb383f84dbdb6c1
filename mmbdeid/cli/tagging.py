"""The commands that prepare hand-tagging: convert (annotated posts to and from Label
Studio, doccano and CoNLL) and sample (which posts of a dump to tag)."""
import json

from ..errors import InputError
from .exits import EXIT_OK
from .io import load_model, locked_outputs, posts_output_format, posts_source
from .messages import say


def run_convert(args) -> int:
    from ..files.conversion import input_kind, output_kind, read_tagged, write_tagged

    source = posts_source(args, args.corpus, sniff=False)
    with locked_outputs([args.output], [args.corpus, args.label_map]):
        target = output_kind(args.output, args.target_format)
        kind = input_kind(source, args.source_format)
        label_map = load_label_map(args.label_map) if args.label_map else None
        count = write_tagged(read_tagged(source, kind, args.offsets, label_map),
                             args.output, target, source, args.offsets)
    say("%d posts from %s (%s) to %s (%s)" % (count, source, kind, args.output, target))
    return EXIT_OK


def load_label_map(path: str) -> dict:
    """--label-map: a JSON object from a label as read to the label written."""
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except ValueError as error:
        raise InputError("not a JSON object of labels: %s" % getattr(error, "msg", error),
                         path) from None
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise InputError("expected a JSON object mapping each label to a label, e.g. "
                         '{"Patient": "NAME"}', path)
    return value


def run_sample(args) -> int:
    from ..evaluation.choosing import PostKey, choose
    from ..files.post_writer import post_output
    from ..files.posts import read_posts
    from .scrubbing import _checked_outputs, _engine, _run_config

    if args.count < 1:
        raise InputError("-n must be at least 1")
    if args.by != "uncertainty":
        for option, given in (("--model", args.model), ("--threshold", args.threshold),
                              ("--stats", args.stats)):
            if given is not None:      # it would be ignored: no model runs
                raise InputError("%s goes with --by uncertainty (--by %s runs no model)"
                                 % (option, args.by))
    fmt = posts_output_format(args.output, posts_source(args, args.dump))
    config = _run_config(args, output_format=fmt)
    with _checked_outputs(config, args):
        scores = None
        if args.by == "uncertainty":
            from ..jobs.uncertainty import post_uncertainties
            threshold = (args.threshold if args.threshold is not None
                         else load_model(args.model).threshold)
            with _engine(args) as engine:
                keys, scores, _ = post_uncertainties(config, engine, threshold)
        else:
            keys = [PostKey(record.get("board"), record.get("thread"))
                    for record in read_posts(config.dump, max_chars=args.max_post_chars)]
        if not keys:
            raise InputError("empty file: no posts", str(config.dump))
        chosen = set(choose(args.by, keys, args.count, args.seed, args.per_thread, scores))
        field_names: list = []
        records = []
        for number, record in enumerate(read_posts(config.dump)):
            field_names.extend(name for name in record.fields if name not in field_names)
            if number in chosen:
                records.append(record)
        with post_output(args.output, fmt, field_names, like=config.dump,
                         private=True) as writer:
            for record in records:
                writer.write(record)
    say("%d of %d posts chosen (%s, seed %d) to %s" % (
        len(records), len(keys), args.by, args.seed, args.output))
    if len(records) < min(args.count, len(keys)):
        say("note: at most %d posts a thread (--per-thread) left %d short of %d" % (
            args.per_thread, args.count - len(records), args.count))
    return EXIT_OK
