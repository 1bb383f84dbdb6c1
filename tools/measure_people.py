#!/usr/bin/env python3
"""Person consistency of ``scrub --mode pseudonym`` on the hand-tagged sample.

Runs the real CLI on ``corpora_samples/health_boards.annotated.jsonl`` and compares the
``person`` of every removed span with the gold ``person`` annotations
(:mod:`mmbdeid.evaluation.pseudonym_consistency`), then audits the scrubbed output for leaks. Usage::

    python3 tools/measure_people.py [--model MODEL] [--scope board] [--work DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from mmbdeid.evaluation.pseudonym_consistency import gold_mentions, measure  # noqa: E402

SAMPLE = os.path.join(ROOT, "corpora_samples", "health_boards.annotated.jsonl")


def run(*args):
    command = [sys.executable, "-m", "mmbdeid", *args]
    print("$ mmbdeid " + " ".join(args), flush=True)
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model")
    parser.add_argument("--scope", default="board")
    parser.add_argument("--work", help="keep outputs here (default: a temporary directory)")
    args = parser.parse_args(argv)
    work = args.work or tempfile.mkdtemp(prefix="mmbdeid-people-")
    os.makedirs(work, exist_ok=True)
    out, spans = os.path.join(work, "pseudonymised.jsonl"), os.path.join(work, "spans.jsonl")
    model = ["--model", args.model] if args.model else []
    if run("scrub", SAMPLE, "-o", out, "--spans", spans, "--mode", "pseudonym",
           "--scope", args.scope, "-q", *model):
        return 2
    with open(SAMPLE, encoding="utf-8") as handle:
        posts = [json.loads(line) for line in handle]
    with open(out, encoding="utf-8") as handle:
        scrubbed = [json.loads(line) for line in handle]
    with open(spans, encoding="utf-8") as handle:
        predicted = {str(entry["id"]): entry["spans"] for entry in map(json.loads, handle)}
    author_ids = {post["author"]: record["author"] for post, record in zip(posts, scrubbed)}
    result = measure(gold_mentions(posts), predicted, author_ids)
    print("people whose every mention maps to their one identifier: %d/%d = %.1f%%"
          % (result.consistent_people, result.people, 100 * result.people_share))
    print("mentions mapped to their person's identifier: %d/%d = %.1f%% (%d not removed)"
          % (result.consistent_mentions, result.mentions, 100 * result.mention_share,
             result.missed_mentions))
    for post_id, text, why in result.inconsistent:
        print("  %s %r: %s" % (post_id, text, why))
    leaks = run("audit", out, "--original", SAMPLE)
    print("audit exit status: %d (0 = no leak)" % leaks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
