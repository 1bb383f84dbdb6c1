"""``evaluate --people``: the person ids a person-mode ``scrub`` gives, scored against gold
person identities (:mod:`mmbdeid.evaluation.identity`). The gold posts go through
``scrub_dump`` itself, as ``scrub GOLD --mode pseudonym --spans`` would, into a scratch
directory: what is measured is what scrub does. With ``--map`` the run applies that person
map (one the user edited after ``mmbdeid link``), as ``scrub --map`` does: the map is
scored."""
import argparse
import json
import os
from typing import Dict, List, Optional, Tuple

from ..errors import InputError
from .exits import EXIT_OK
from .io import load_model, locked_outputs, posts_source

PEOPLE_ONLY = ("mode", "scope", "map", "json")     # options of evaluate that need --people
NOT_WITH_PEOPLE = ("errors", "by")


def check_people_options(args) -> None:
    """Before any work: the person options go with --people, the per-token ones not."""
    if args.people:
        given = [name for name in NOT_WITH_PEOPLE if getattr(args, name)]
        if given:
            raise InputError("%s does not go with --people (it lists tokens; --people "
                             "scores persons)" % " and ".join("--" + n for n in given))
        if args.map:
            from ..people.personmap import PersonMap
            PersonMap.read(args.map)        # a bad map fails before any work
    else:
        given = [name for name in PEOPLE_ONLY if getattr(args, name) is not None]
        if given:
            raise InputError("%s need%s --people" % (
                ", ".join("--" + n for n in given), "s" if len(given) == 1 else ""))


def run_evaluate_people(args) -> int:
    from ..evaluation.identity import format_identity, score

    mode, scope = args.mode or "pseudonym", args.scope or "board"
    with locked_outputs([args.json], [args.gold, args.model, args.map], args.stats):
        posts = _gold_posts(posts_source(args, args.gold, sniff=False))
        tool_spans, tool_authors = _person_run(args, posts_source(args, args.gold), mode,
                                               scope)
        result = score(posts, tool_spans, tool_authors)
        threshold = (load_model(args.model).threshold if args.threshold is None
                     else args.threshold)
        if args.json:
            _write_json(args.json, dict(threshold=threshold, mode=mode, scope=scope,
                                        map=args.map, **result.as_dict()))
    print("threshold       %g" % threshold)
    print("mode            %s, scope %s%s" % (mode, scope,
                                              ", map %s" % args.map if args.map else ""))
    print(format_identity(result))
    return EXIT_OK


def _gold_posts(gold) -> List[dict]:
    """The gold posts; refused without a single ``person`` (nothing to measure)."""
    from ..files.corpora import read_annotated
    from ..files.posts import corpus_format
    if corpus_format(gold) == "conll":
        raise InputError("--people needs annotated posts whose spans carry 'person' "
                         "(JSONL, CSV, TSV or Parquet), not CoNLL", str(gold))
    posts = [item.record.fields for item in read_annotated(gold)]
    if not any(span.get("person") for post in posts for span in post["spans"] or ()):
        raise InputError("no span has a 'person': --people needs gold person identities "
                         "(a member's username, or ~id for someone who never posts, on "
                         "NAME and USER spans)", str(gold))
    return posts


def _person_run(args, gold, mode: str, scope: str) -> Tuple[Dict[str, list], Dict[str, str]]:
    """Scrub the gold posts in the person ``mode``: each post's spans (spans file entries)
    and the id its author field got. Both person modes take their ids from one linking;
    surrogate mode writes fake usernames, so the authors' ids come from a pseudonym run
    of the same posts (its statistics reused)."""
    from ..files.scratch import scratch_directory

    with scratch_directory() as scratch:
        stats = args.stats or os.path.join(scratch, "stats.sqlite")
        reusable = not args.stats or os.path.exists(args.stats)
        spans, authors = _scrubbed(args, gold, "pseudonym", scope, scratch, stats)
        if mode != "pseudonym":
            # a --stats store this run has just built is locked as its output: not reread
            spans, _ = _scrubbed(args, gold, mode, scope, scratch,
                                 stats if reusable else None)
    return spans, authors


def _scrubbed(args, gold, mode: str, scope: str, scratch: str,
              stats: Optional[str]) -> Tuple[Dict[str, list], Dict[str, str]]:
    from ..jobs.config import MAX_POST_CHARS
    from ..jobs.local import LocalEngine, default_jobs
    from ..jobs.passes import scrub_dump
    from .scrubbing import _run_config

    output = os.path.join(scratch, mode + ".jsonl")
    spans_path = os.path.join(scratch, mode + ".spans.jsonl")
    # scrub's own configuration, as 'scrub GOLD -o OUT --spans SPANS --mode MODE' makes it
    options = argparse.Namespace(**dict(
        vars(args), command="scrub", dump=gold, output=output, stats=stats,
        stats_rebuild=False, max_post_chars=MAX_POST_CHARS))
    config = _run_config(options, output_format="jsonl", spans_path=spans_path, mode=mode,
                         person_map=args.map, scope=scope)
    scrub_dump(config, LocalEngine(default_jobs()))
    with open(spans_path, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    with open(output, encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    # the output holds every record in input order, and the spans file one line for each
    authors = {str(line["id"]): str(record["author"]) for line, record in zip(lines, records)
               if record.get("author") not in (None, "")}
    return {str(line["id"]): line["spans"] for line in lines}, authors


def _write_json(path: str, figures: dict) -> None:
    """The figures and lists; private (mode 0600): they hold the gold's names."""
    from ..files.atomic import atomic_output
    with atomic_output(path, private=True) as handle:
        json.dump(figures, handle, ensure_ascii=False, indent=1)
        handle.write("\n")
