"""``mmbdeid annotate``: the page on which a person tags a sample of posts by hand
(:mod:`mmbdeid.output.annotate_page`), pre-filled by the scrub chain itself: the posts are
scrubbed as ``scrub --spans`` would (placeholder mode, the same options) into a scratch
directory, and each post starts with the spans of its line of the spans file."""
import argparse
import contextlib
import dataclasses
import json
import os
from typing import List, Optional, Sequence, Tuple

from ..errors import InputError
from ..kinds import LABELS
from ..output.annotate_page import MAX_LABELS, AnnotatedSpan, AnnotatePost
from .exits import EXIT_OK
from .io import load_model, locked_outputs, posts_source
from .messages import say

EXPORT_SUFFIX = ".annotated.jsonl"


def label_list(text: str) -> Tuple[str, ...]:
    """An argparse type: span labels, comma-separated, each a kind's (any case), at most
    nine (one per key), each once."""
    labels: List[str] = []
    for name in (part.strip().upper() for part in text.split(",")):
        if name and name not in labels:
            if name not in LABELS:
                raise argparse.ArgumentTypeError("unknown label %r (the labels: %s)" % (
                    name, ",".join(LABELS)))
            labels.append(name)
    if not labels:
        raise argparse.ArgumentTypeError("no label given")
    if len(labels) > MAX_LABELS:
        raise argparse.ArgumentTypeError("%d labels: at most %d (one for each key 1 to 9)"
                                         % (len(labels), MAX_LABELS))
    return tuple(labels)


def run_annotate(args) -> int:
    from ..files.atomic import atomic_output
    from ..output.annotate_page import build_annotate_page

    source = posts_source(args, args.dump)
    model = args.model
    with locked_outputs([args.output], [source, model], args.stats, args.stats_rebuild):
        if _is_annotated(source, args.max_post_chars):
            records, starting = _annotated(source)
            prefilled = "Starting from the spans of the file (%d)." % _count(starting)
        else:
            from ..files.posts import read_posts
            records = list(read_posts(source, max_chars=args.max_post_chars))
            if args.no_prefill:
                starting, prefilled = [[] for _ in records], "No spans to start from " \
                    "(--no-prefill)."
            else:
                starting, prefilled = _prefilled(args, source, records)
        labels = list(args.labels) + sorted({span.label for spans in starting
                                             for span in spans} - set(args.labels))
        posts = [AnnotatePost(str(record.id), record.text,
                              source.fields.to_external(record.fields), spans,
                              {name: record.get(name) for name in ("author", "thread",
                                                                   "board")
                               if record.get(name)})
                 for record, spans in zip(records, starting)]
        page = build_annotate_page(posts, labels, str(source), _export_name(str(source)),
                                   prefilled)
        with atomic_output(args.output, private=True) as handle:
            handle.write(page)
    if not args.quiet:
        say("annotation page of %d posts (%d spans to start from) written to %s: open it "
            "in a browser; keep it private, it holds the posts" % (
                len(posts), _count(starting), args.output))
    return EXIT_OK


def _count(spans: Sequence[Sequence[AnnotatedSpan]]) -> int:
    return sum(len(post) for post in spans)


def _is_annotated(source, max_chars: Optional[int]) -> bool:
    """Whether the first record has a ``spans`` field (then every record must have one,
    as for ``train``)."""
    from ..files.posts import read_posts
    with contextlib.closing(read_posts(source, max_chars=max_chars)) as records:
        return "spans" in next(records).fields


def _annotated(source):
    """The records of an annotated file and their spans, checked as ``train`` checks them
    (file:line on a bad one), each with its ``person`` if it has one."""
    from ..files.corpora import read_annotated
    records, starting = [], []
    for post in read_annotated(source):
        raw = post.record.fields["spans"]
        items = json.loads(raw) if isinstance(raw, str) and raw.strip() else raw or []
        person = {(item["start"], item["end"]): item.get("person") for item in items}
        records.append(post.record)
        starting.append([AnnotatedSpan(span.start, span.end, span.label,
                                       _person(person.get((span.start, span.end))))
                         for span in post.spans])
    return records, starting


def _person(value) -> Optional[str]:
    return str(value) if value not in (None, "") else None


def _prefilled(args, source, records) -> Tuple[List[List[AnnotatedSpan]], str]:
    """Each record's spans as ``scrub --spans`` writes them (placeholder mode), those of
    the page's labels; and the sentence saying so."""
    from ..files.scratch import scratch_directory
    from ..jobs.passes import scrub_dump
    from .scrubbing import _engine, _run_config

    with scratch_directory() as scratch:
        spans_path = os.path.join(scratch, "spans.jsonl")
        config = _run_config(args, output_format="jsonl", spans_path=spans_path)
        config = dataclasses.replace(config, output=os.path.join(scratch, "scrubbed.jsonl"))
        with _engine(args) as engine:
            scrub_dump(config, engine)
        with open(spans_path, encoding="utf-8") as handle:
            lines = [json.loads(line) for line in handle]
    if len(lines) != len(records) or any(line["id"] != record.fields["id"]
                                         for line, record in zip(lines, records)):
        raise InputError("changed during the run (read again, its posts differ); nothing "
                         "written: run again once it stays put", str(source))
    starting, left_out = [], set()
    for line in lines:
        kept = [AnnotatedSpan(item["start"], item["end"], item["label"])
                for item in line["spans"] if item["label"] in args.labels]
        left_out.update(item["label"] for item in line["spans"]
                        if item["label"] not in args.labels)
        starting.append(kept)
    threshold = (args.threshold if args.threshold is not None
                 else load_model(args.model).threshold)
    sentence = "Pre-filled with what scrub removes at threshold %g: %d spans." % (
        threshold, _count(starting))
    if left_out:
        sentence += " Not among the labels, so left out: %s." % ", ".join(
            label for label in LABELS if label in left_out)
    return starting, sentence


def _export_name(name: str) -> str:
    """``sample.jsonl.gz`` -> ``sample.annotated.jsonl``."""
    base = os.path.basename(name)
    for ending in (".gz", ".jsonl", ".json", ".ndjson", ".csv", ".tsv", ".parquet",
                   ".annotated"):
        if base.lower().endswith(ending):
            base = base[:-len(ending)]
    base = base if base and not base.startswith("<") else "posts"
    return base + EXPORT_SUFFIX
