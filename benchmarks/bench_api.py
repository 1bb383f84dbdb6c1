#!/usr/bin/env python3
"""Speed of the Python API (a script, not a test): ``mmbdeid.scrub``, ``scrub_records`` and
``scrub_dataframe`` on synthetic posts of about 100 tokens.

    python benchmarks/bench_api.py [--posts 1 100 10000] [--functions scrub ...]
        [--fields] [--min-posts 200] [--budget 120] [--seed 0]

Posts: a synthetic dump (``synthetic_dump.py``, fictional) is generated, not timed, and
its posts of 90-110 whitespace tokens are kept. Each (function, post count) is measured in
a fresh Python process, which imports the package it finds (run with ``PYTHONPATH=.`` for
a source checkout) and makes a first call on one post, timed on its own (it loads the
model and the word lists). Then, in rounds until at least ``--min-posts`` posts have gone
through (at least ``--min-rounds`` rounds; fewer if ``--budget`` seconds run out, which
the table says):

* ``scrub``: each of N posts in its own call (``mmbdeid.scrub(text)``, and with
  ``--fields`` its author, thread and board too);
* ``scrub_records``: one call with N records (all their fields);
* ``scrub_dataframe``: one call with a DataFrame of N rows (pandas needed).

Printed per row: rounds, calls timed, the median milliseconds per call (wall time, and the
process's CPU time, which other load on the machine changes less), calls per second
and posts per second (over the total time of the timed calls), the first call's seconds
(import excluded, printed apart), and the process's peak RSS. See benchmarks/README.md.
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

FUNCTIONS = ("scrub", "scrub_records", "scrub_dataframe")
TOKENS = (90, 110)          # whitespace tokens of a post kept
# posts generated per post wanted: about 9% of synthetic posts have 90-110 tokens
GENERATED_PER_KEPT = 14


def posts_of_about_100_tokens(n_wanted, seed, directory):
    """At least ``n_wanted`` synthetic posts of 90-110 whitespace tokens (dicts)."""
    import synthetic_dump

    size = max(2000, GENERATED_PER_KEPT * n_wanted)
    while True:
        path = os.path.join(directory, "dump.jsonl")
        synthetic_dump.generate(size, path, seed=seed)
        with open(path, encoding="utf-8") as handle:
            posts = [post for post in map(json.loads, handle)
                     if TOKENS[0] <= len(post["text"].split()) <= TOKENS[1]]
        if len(posts) >= n_wanted:
            return posts[:n_wanted]
        size *= 2


# -- the measuring process ---------------------------------------------------------------
def _calls(function, posts, n, fields):
    """The calls of one round over ``n`` posts: (callable, posts it scrubs) pairs."""
    import mmbdeid

    chosen = [posts[k % len(posts)] for k in range(n)]
    if function == "scrub":
        def one(post):
            if fields:
                return lambda: mmbdeid.scrub(post["text"], author=post["author"],
                                             thread=post["thread"], board=post["board"])
            return lambda: mmbdeid.scrub(post["text"])
        return [(one(post), 1) for post in chosen]
    if function == "scrub_records":
        return [(lambda: list(mmbdeid.scrub_records(chosen)), n)]
    import pandas as pd
    frame = pd.DataFrame(chosen)
    return [(lambda: mmbdeid.scrub_dataframe(frame), n)]


def measure(function, posts_path, n, fields, min_posts, min_rounds, budget):
    """Run in a fresh process: the first call, then rounds of ``n`` posts."""
    import resource

    started = time.perf_counter()
    import mmbdeid  # noqa: F401
    import_seconds = time.perf_counter() - started
    with open(posts_path, encoding="utf-8") as handle:
        posts = json.load(handle)
    first_post, posts = posts[0], posts[1:]
    first_call = _calls(function, [first_post], 1, fields)[0][0]
    started = time.perf_counter()
    first_call()
    first_seconds = time.perf_counter() - started
    rounds = max(min_rounds, math.ceil(min_posts / n))
    times, cpu_times, scrubbed, done, stopped = [], [], 0, 0, False
    deadline = time.perf_counter() + budget
    for _ in range(rounds):
        for call, count in _calls(function, posts, n, fields):
            started, cpu_started = time.perf_counter(), time.process_time()
            call()
            times.append(time.perf_counter() - started)
            cpu_times.append(time.process_time() - cpu_started)
            scrubbed += count
            if time.perf_counter() > deadline:
                stopped = True
                break
        done += 1
        if stopped:
            break
    total = sum(times)
    return {"function": function, "posts": n, "rounds": done, "calls": len(times),
            "stopped": stopped, "import_s": import_seconds, "first_s": first_seconds,
            "median_ms": 1000 * statistics.median(times),
            "median_cpu_ms": 1000 * statistics.median(cpu_times),
            "calls_per_s": len(times) / total,
            "posts_per_s": scrubbed / total,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _child(args):
    result = measure(args.child, args.posts_file, args.posts[0], args.fields, args.min_posts,
                     args.min_rounds, args.budget)
    print(json.dumps(result))


# -- the parent --------------------------------------------------------------------------
def _row(result):
    rounds = "%d%s" % (result["rounds"], "*" if result["stopped"] else "")
    return "%-16s %7d %7s %7d %10.2f %10.2f %10.1f %10.1f %9.2f %9.2f %9.0f" % (
        result["function"], result["posts"], rounds, result["calls"], result["median_ms"],
        result["median_cpu_ms"], result["calls_per_s"], result["posts_per_s"], result["import_s"], result["first_s"],
        result["peak_rss_mib"])


def _machine():
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0, 0, 0)
    try:
        import mmbdeid
        version = mmbdeid.__version__
        where = os.path.dirname(mmbdeid.__file__)
    except ImportError:
        version, where = "?", "?"
    return ("machine: %d cores, Python %s, %s; load average %.1f %.1f %.1f at start; "
            "mmbdeid %s from %s" % (os.cpu_count() or 0, platform.python_version(),
                                    platform.platform(), *load, version, where))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", default=[1, 100, 10000], metavar="N",
                        help="posts per measurement (default: 1 100 10000)")
    parser.add_argument("--functions", nargs="+", choices=FUNCTIONS, default=list(FUNCTIONS))
    parser.add_argument("--fields", action="store_true",
                        help="scrub() gets each post's author, thread and board too")
    parser.add_argument("--min-posts", type=int, default=200,
                        help="posts scrubbed per measurement, at least (default 200)")
    parser.add_argument("--min-rounds", type=int, default=3,
                        help="rounds per measurement, at least (default 3)")
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds per measurement before it stops early (default 120)")
    parser.add_argument("--seed", type=int, default=0, help="synthetic dump seed")
    parser.add_argument("--child", choices=FUNCTIONS, help=argparse.SUPPRESS)
    parser.add_argument("--posts-file", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return _child(args)
    print(_machine())
    with tempfile.TemporaryDirectory(prefix="bench_api_") as directory:
        posts = posts_of_about_100_tokens(max(args.posts) + 1, args.seed, directory)
        posts_file = os.path.join(directory, "posts.json")
        with open(posts_file, "w", encoding="utf-8") as handle:
            json.dump(posts, handle)
        print("posts: %d synthetic posts of %d-%d whitespace tokens (mean %.1f), seed %d%s"
              % (len(posts), TOKENS[0], TOKENS[1],
                 statistics.mean(len(p["text"].split()) for p in posts), args.seed,
                 "; scrub() with author, thread, board" if args.fields else ""))
        print("%-16s %7s %7s %7s %10s %10s %10s %10s %9s %9s %9s" % (
            "function", "posts", "rounds", "calls", "median ms", "median CPU", "calls/s",
            "posts/s",
            "import s", "first s", "peak MiB"))
        for function in args.functions:
            for n in args.posts:
                command = [sys.executable, os.path.abspath(__file__), "--child", function,
                           "--posts-file", posts_file, "--posts", str(n),
                           "--min-posts", str(args.min_posts), "--min-rounds",
                           str(args.min_rounds), "--budget", str(args.budget)]
                if args.fields:
                    command.append("--fields")
                done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
                print(_row(json.loads(done.stdout.strip().splitlines()[-1])), flush=True)
    print("rounds*: stopped early at --budget; median ms: wall time per call (scrub: one "
          "post; the others: all N posts); median CPU: the process's CPU ms per call (less "
          "sensitive to other load); first s: the first call of the process (one post), "
          "import excluded")


if __name__ == "__main__":
    sys.exit(main())
