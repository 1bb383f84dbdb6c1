#!/usr/bin/env python3
"""False removals and recall of each output mode on an annotated posts file, side by side.

Runs the real CLI (``scrub --spans``) once per mode and compares the removed spans with the
gold spans, word by word (runs of letters and digits; names and usernames only): a word
removed that no gold span covers is a false removal, a gold word removed counts for recall,
precision is the share of the removed words that are gold, and a leaking post is one with a
gold word left. The person modes search the map's names in every post, so they may remove
more than placeholder mode does
(issue 30: within 10% of it is the target). Usage::

    python3 tools/measure_mode_removals.py GOLD [--modes placeholder,pseudonym] [--top 15]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_WORD = re.compile(r"[^\W_]+")
PERSON = ("NAME", "USER")      # the kinds the person modes link; e-mails, URLs alike in all


def words(text):
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def covered(start, end, spans):
    return any(s["start"] < end and start < s["end"] for s in spans)


def score(posts, predicted):
    """(false removals Counter of words, gold words removed, gold words, leaking posts:
    posts with a gold word left)."""
    false, found, gold_words, leaking = Counter(), 0, 0, 0
    for post in posts:
        removed = [s for s in predicted.get(str(post["id"]), []) if s["label"] in PERSON]
        left = False
        for start, end, word in words(post["text"]):
            is_gold = covered(start, end, post.get("spans", []))
            is_removed = covered(start, end, removed)
            gold_words += is_gold
            found += is_gold and is_removed
            left = left or (is_gold and not is_removed)
            if is_removed and not is_gold:
                false[word] += 1
        leaking += left
    return false, found, gold_words, leaking


def scrub(gold, mode, work, extra):
    out = os.path.join(work, mode + ".jsonl")
    spans = os.path.join(work, mode + "-spans.jsonl")
    command = [sys.executable, "-m", "mmbdeid", "scrub", gold, "-o", out, "--spans", spans,
               "--mode", mode, "-q"] + extra
    subprocess.run(command, check=True, cwd=ROOT)
    with open(spans, encoding="utf-8") as handle:
        return {str(entry["id"]): entry["spans"] for entry in map(json.loads, handle)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold")
    parser.add_argument("--modes", default="placeholder,pseudonym")
    parser.add_argument("--top", type=int, default=15, help="false removals listed per mode")
    parser.add_argument("--work", help="keep outputs here (default: a temporary directory)")
    args, extra = parser.parse_known_args(argv)
    work = args.work or tempfile.mkdtemp(prefix="mmbdeid-modes-")
    os.makedirs(work, exist_ok=True)
    with open(args.gold, encoding="utf-8") as handle:
        posts = [json.loads(line) for line in handle if line.strip()]
    for mode in args.modes.split(","):
        false, found, gold_words, leaking = score(posts, scrub(args.gold, mode, work, extra))
        removed = found + sum(false.values())
        print("%-11s false removals %4d  recall %.3f (%d/%d gold words)  precision %.3f  "
              "leaking posts %d/%d" % (mode, sum(false.values()), found / max(gold_words, 1),
                                       found, gold_words, found / max(removed, 1), leaking,
                                       len(posts)))
        print("            " + ", ".join("%s x%d" % item for item in false.most_common(args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
