#!/usr/bin/env python3
"""What a scrub keeps and what it removes on a sample that lists its words to keep.

The check samples (``corpora_samples/*.annotated.jsonl`` with ``keep`` entries, and the
blind ones) list beside their gold names the words that must survive, each with its
``what`` (``drug``, ``medical``, ``lab``, ``eponym``, ``org``, ``code``, ``word``, ...).
This runs the real command line (``scrub --spans``, default model and threshold unless
given) and prints, per ``what``, the share of those words kept, then the gold name words
removed and the posts that still show a name word. ``--list`` also prints the words lost
and left (read a blind sample's lists once, at the end). Usage::

    python3 tools/measure_keep.py SAMPLE [--mode placeholder] [--threshold T] [--list]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_mode_removals import ROOT, covered, words  # noqa: E402


def scrubbed_spans(sample, mode, threshold):
    """Post id -> the spans ``scrub --spans`` wrote for it."""
    with tempfile.TemporaryDirectory() as scratch:
        out, spans = os.path.join(scratch, "out.jsonl"), os.path.join(scratch, "spans.jsonl")
        command = [sys.executable, os.path.join(ROOT, "bin", "mmbdeid"), "scrub", sample,
                   "-o", out, "--spans", spans, "--mode", mode, "--quiet"]
        if threshold is not None:
            command += ["--threshold", str(threshold)]
        subprocess.run(command, check=True)
        with open(spans, encoding="utf-8") as lines:
            return {row["id"]: row["spans"] for row in map(json.loads, lines)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sample")
    parser.add_argument("--mode", default="placeholder")
    parser.add_argument("--threshold", type=float)
    parser.add_argument("--list", action="store_true", help="print the words lost and left")
    args = parser.parse_args(argv)
    with open(args.sample, encoding="utf-8") as lines:
        posts = [json.loads(line) for line in lines if line.strip()]
    predicted = scrubbed_spans(args.sample, args.mode, args.threshold)
    kept, total, lost = Counter(), Counter(), []
    name_words = removed_words = leaking = 0
    left = []
    for post in posts:
        spans = predicted.get(post["id"], [])
        for keep in post.get("keep", ()):
            what = keep.get("what", "keep")
            total[what] += 1
            if covered(keep["start"], keep["end"], spans):
                lost.append((what, keep["text"], post["id"]))
            else:
                kept[what] += 1
        post_left = False
        for start, end, word in words(post["text"]):
            if covered(start, end, post.get("spans", ())):
                name_words += 1
                if covered(start, end, spans):
                    removed_words += 1
                else:
                    post_left = True
                    left.append((word, post["id"]))
        leaking += post_left
    print("sample          %s (%d posts, mode %s, threshold %s)"
          % (args.sample, len(posts), args.mode,
             "the model's" if args.threshold is None else args.threshold))
    for what in sorted(total):
        print("kept %-10s %4d of %4d  %6.2f%%" % (what, kept[what], total[what],
                                                100.0 * kept[what] / total[what]))
    all_kept, all_total = sum(kept.values()), sum(total.values())
    if all_total:
        print("kept (all)      %4d of %4d  %6.2f%%" % (all_kept, all_total,
                                                      100.0 * all_kept / all_total))
    if name_words:
        print("name words      %4d of %4d removed  %6.2f%%" % (
            removed_words, name_words, 100.0 * removed_words / name_words))
    print("leaking posts   %d of %d" % (leaking, len(posts)))
    if args.list:
        for what, text, post in lost:
            print("lost  %-8s %-24s %s" % (what, text, post))
        for word, post in left:
            print("left  %-33s %s" % (word, post))


if __name__ == "__main__":
    main()
