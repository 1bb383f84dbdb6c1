#!/usr/bin/env python3
"""Throughput benchmark for ``mmbdeid scrub`` (a script, not a test).

    python benchmarks/bench_scrub.py --posts 5000 20000 100000 [--jobs N] [--keep DIR]
        [--mode pseudonym] [--distinct-authors] [--tagger crfsuite] [--kinds safe-harbor]
        [--profile]

For every size: generate a synthetic dump (``synthetic_dump.py``, not timed), run the real
CLI in a subprocess (``python -m mmbdeid scrub DUMP -o OUT --quiet [--jobs N]``, default
model, corpus statistics built in the same run) and measure its wall time and the peak
resident memory of the whole process tree (VmRSS of the process and all descendants,
polled every 50 ms). Then measure bare crfsuite tagging of the same posts on one core:
features are built untimed, only ``ItemSequence`` + ``Tagger.set`` + the NAME and USER
marginals of every token are timed, on a sample of at most ``--bare-sample`` posts, scaled
to the whole dump by whitespace tokens. See benchmarks/README.md.

``--profile``: also run the two passes of each dump in this process on one core, stage by
stage (``stages.py``), and print where the time goes.
"""
import argparse
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synthetic_dump  # noqa: E402

POLL_SECONDS = 0.05
MIB = 1024 * 1024


# -- process-tree memory ------------------------------------------------------------
def _children_map():
    """ppid -> [pid] for every process visible in /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may contain spaces and brackets.
        fields = stat[stat.rindex(b")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def _rss_bytes(pid):
    try:
        with open("/proc/%d/status" % pid) as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def tree_rss(root):
    """Summed VmRSS of ``root`` and all its descendants, in bytes."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            proc = psutil.Process(root)
            procs = [proc] + proc.children(recursive=True)
        except psutil.Error:
            return 0
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total
    children = _children_map()
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += _rss_bytes(pid)
        stack.extend(children.get(pid, ()))
    return total


def _cpu_seconds(pid):
    """User + system CPU of one process so far (0 once it is gone)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as handle:
            stat = handle.read()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(b")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_measured(cmd, cwd):
    """Run ``cmd``; return (wall seconds, peak tree RSS bytes, CPU seconds, peak RSS bytes
    of the main process alone: what grows with the dump, the workers' does not, and the
    main process's own CPU seconds, as last seen before it ended: its serial share)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = main_peak = main_cpu = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        main_peak = max(main_peak, _rss_bytes(proc.pid))
        main_cpu = max(main_cpu, _cpu_seconds(proc.pid))
        time.sleep(POLL_SECONDS)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.stderr.write(err.decode("utf-8", "replace"))
        raise SystemExit("benchmark: %s exited with %d" % (" ".join(cmd), proc.returncode))
    if peak == 0:
        # Ended before the first poll: fall back to the largest single child ever (KiB).
        peak = after.ru_maxrss * 1024
    return wall, peak, cpu, main_peak, main_cpu


def scrub_options(cwd):
    """Which of ``--quiet`` / ``--jobs`` / ``--tagger`` / ``--kinds`` the installed CLI
    knows."""
    result = subprocess.run([sys.executable, "-m", "mmbdeid", "scrub", "--help"], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return {opt for opt in ("--quiet", "--jobs", "--tagger", "--kinds")
            if opt in result.stdout}


# -- dump facts and bare crfsuite ---------------------------------------------------
def read_posts(path):
    import json
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def dump_facts(dump):
    """What :func:`bare_crfsuite` returns without measuring crfsuite: the whitespace and
    CRF tokens of the dump, no sample."""
    from mmbdeid.text.document import Document
    facts = {"ws_tokens": 0, "crf_tokens": 0, "sample_posts": 0, "sample_ws_tokens": 0,
             "sample_crf_tokens": 0, "bare_seconds": 0.0, "items_api": "not measured"}
    for fields in read_posts(dump):
        facts["ws_tokens"] += len(fields["text"].split())
        facts["crf_tokens"] += len(Document.from_post(fields))
    return facts


def bare_crfsuite(dump, n_posts, sample_size, seed=0):
    """Whitespace tokens, CRF tokens of the whole dump, and bare tagging speed on one core.

    Returns a dict with ``ws_tokens``, ``crf_tokens``, ``sample_posts``,
    ``sample_ws_tokens``, ``sample_crf_tokens``, ``bare_seconds``, ``items_api``.
    """
    import pycrfsuite
    from mmbdeid.text.document import Document
    from mmbdeid.model.features import Featurizer
    from mmbdeid.model.tagger import NameTagger, default_model_path
    from mmbdeid.model.stats import CorpusStats

    facts = {"ws_tokens": 0, "crf_tokens": 0}

    def documents():
        for fields in read_posts(dump):
            document = Document.from_post(fields)
            facts["ws_tokens"] += len(fields["text"].split())
            facts["crf_tokens"] += len(document)
            yield document

    stats = CorpusStats.build(documents())          # statistics of the whole dump, untimed
    model = NameTagger.load(default_model_path())
    featurizer = Featurizer(stats, window=getattr(model, "window", 2))
    if hasattr(featurizer, "document_items"):
        items_of, facts["items_api"] = featurizer.document_items, "document_items"
    else:
        items_of, facts["items_api"] = featurizer.document_features, "document_features"
    tagger = model._crf_tagger()
    labels = set(tagger.labels())
    wanted = [label for label in ("NAME", "USER") if label in labels]

    # A deterministic sample spread over the whole dump (every thread part, every board).
    chosen = set(range(n_posts)) if n_posts <= sample_size else \
        set(random.Random(seed).sample(range(n_posts), sample_size))
    elapsed, sample_posts, sample_ws, sample_crf = 0.0, 0, 0, 0
    clock = time.perf_counter
    for index, fields in enumerate(read_posts(dump)):
        if index not in chosen:
            continue
        document = Document.from_post(fields)
        items = items_of(document)                    # untimed: feature extraction
        sample_posts += 1
        sample_ws += len(fields["text"].split())
        sample_crf += len(document)
        if not len(document):
            continue
        started = clock()
        sequence = items if isinstance(items, pycrfsuite.ItemSequence) \
            else pycrfsuite.ItemSequence(items)
        tagger.set(sequence)
        for i in range(len(document)):
            for label in wanted:
                tagger.marginal(label, i)
        elapsed += clock() - started
    facts.update(sample_posts=sample_posts, sample_ws_tokens=sample_ws,
                 sample_crf_tokens=sample_crf, bare_seconds=elapsed)
    return facts


# -- main ---------------------------------------------------------------------------
def _version(distribution):
    try:
        from importlib.metadata import version
        return version(distribution)
    except Exception:  # noqa: BLE001 - only informative
        return "?"


def _fmt_row(values, widths):
    return "  ".join(str(v).rjust(w) for v, w in zip(values, widths))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, nargs="+", default=[5000, 20000, 100000],
                        metavar="N", help="dump sizes (default: 5000 20000 100000)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="pass --jobs N to mmbdeid scrub (if the CLI knows it)")
    parser.add_argument("--keep", metavar="DIR",
                        help="write dumps and outputs here and keep them (default: a temporary "
                             "directory, removed at the end)")
    parser.add_argument("--seed", type=int, default=0, help="synthetic dump seed")
    parser.add_argument("--distinct-authors", action="store_true",
                        help="every post by a new author (synthetic_dump.py "
                             "--distinct-authors): the person modes' worst case")
    parser.add_argument("--no-bare", action="store_true",
                        help="leave out the bare crfsuite measurement (it builds the whole "
                             "dump's statistics first: minutes for 300,000 posts); the "
                             "ratios are then not printed")
    parser.add_argument("--bare-sample", type=int, default=5000, metavar="N",
                        help="posts used for the bare crfsuite measurement (default 5000)")
    parser.add_argument("--mode", default="placeholder",
                        choices=("placeholder", "pseudonym", "surrogate"),
                        help="scrub --mode (the person modes add a linking pass)")
    parser.add_argument("--tagger", choices=("compiled", "crfsuite"),
                        help="scrub --tagger (default: the CLI's)")
    parser.add_argument("--kinds", metavar="KIND,...",
                        help="scrub --kinds (default: the CLI's, the default kinds; "
                             "'safe-harbor': every kind)")
    parser.add_argument("--profile", action="store_true",
                        help="also profile each dump stage by stage on one core "
                             "(placeholder mode)")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.posts):
        parser.error("--posts sizes must be positive")

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        workdir = os.path.abspath(args.keep)
    else:
        workdir = tempfile.mkdtemp(prefix="mmbdeid-bench-")
    try:
        return _run(args, workdir)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


def _run(args, workdir):
    import mmbdeid

    # The CLI runs with cwd=workdir so that it imports the *installed* mmbdeid, not a
    # source checkout that happens to be the current directory.
    known = scrub_options(workdir)
    jobs_used = args.jobs if (args.jobs and "--jobs" in known) else 1
    print("machine: nproc %d, Python %s (%s), %s, pycrfsuite %s" % (
        os.cpu_count() or 0, platform.python_version(), platform.python_implementation(),
        platform.platform(), _version("python-crfsuite")))
    print("mmbdeid: %s (%s)" % (_version("mmbdeid"),
                                os.path.dirname(mmbdeid.__file__)))
    if args.jobs and "--jobs" not in known:
        print("note: installed CLI has no --jobs; ran single-process (jobs = 1)")
    if "--quiet" not in known:
        print("note: installed CLI has no --quiet; option left out")
    print("workdir: %s%s" % (workdir, "" if args.keep else " (temporary)"))
    sys.stdout.flush()

    rows = []
    for n in args.posts:
        dump = os.path.join(workdir, "dump-%d.jsonl" % n)
        out = os.path.join(workdir, "scrubbed-%d.jsonl" % n)
        started = time.perf_counter()
        synthetic_dump.generate(n, dump, seed=args.seed,
                                distinct_authors=args.distinct_authors)
        gen_seconds = time.perf_counter() - started
        cmd = [sys.executable, "-m", "mmbdeid", "scrub", dump, "-o", out]
        if "--quiet" in known:
            cmd.append("--quiet")
        if args.jobs and "--jobs" in known:
            cmd += ["--jobs", str(args.jobs)]
        if args.mode != "placeholder":
            cmd += ["--mode", args.mode]
        if args.tagger:
            if "--tagger" not in known:
                raise SystemExit("benchmark: the installed CLI has no --tagger")
            cmd += ["--tagger", args.tagger]
        if args.kinds:
            if "--kinds" not in known:
                raise SystemExit("benchmark: the installed CLI has no --kinds")
            cmd += ["--kinds", args.kinds]
        print("[%d posts] dump generated in %.1f s; running: %s" % (
            n, gen_seconds, " ".join(os.path.basename(c) if c == sys.executable else c
                                     for c in cmd)))
        sys.stdout.flush()
        wall, peak, cpu, main_peak, main_cpu = run_measured(cmd, workdir)
        bare = (dump_facts(dump) if args.no_bare
                else bare_crfsuite(dump, n, args.bare_sample, seed=args.seed))
        bare_rate = bare["sample_ws_tokens"] / bare["bare_seconds"] if bare["bare_seconds"] else 0.0
        e2e_rate = bare["ws_tokens"] / wall
        row = {
            "posts": n, "ws": bare["ws_tokens"], "crf": bare["crf_tokens"], "wall": wall,
            "cpu": cpu, "tps": e2e_rate, "pps": n / wall, "rss": peak / MIB,
            "main_rss": main_peak / MIB, "main_cpu": main_cpu,
            "bare": bare_rate,
            "ratio1": e2e_rate / bare_rate if bare_rate else float("nan"),
            "ratioj": e2e_rate / (bare_rate * jobs_used) if bare_rate else float("nan"),
            "bare_posts": bare["sample_posts"], "items_api": bare["items_api"],
            "bare_crf_rate": bare["sample_crf_tokens"] / bare["bare_seconds"]
            if bare["bare_seconds"] else 0.0,
        }
        rows.append(row)
        print("[%d posts] scrub %.1f s wall, %.1f s CPU, peak %.0f MiB (main process %.1f s "
              "CPU, %.0f MiB); bare crfsuite on %d posts: %.2f s (%s)" % (
                  n, wall, cpu, row["rss"], main_cpu, row["main_rss"], bare["sample_posts"],
                  bare["bare_seconds"], bare["items_api"]))
        sys.stdout.flush()
        if args.profile:
            import stages
            clock, ws_tokens, posts = stages.profile_stages(dump, args.tagger)
            stages.print_profile(clock, ws_tokens, posts, "[%d posts] profile (%s tagger)" % (
                n, args.tagger or "default"))
            sys.stdout.flush()

    print()
    print("jobs = %d, mode = %s, tagger = %s" % (jobs_used, args.mode,
                                                 args.tagger or "the CLI's default"))
    headers = ("posts", "ws tokens", "CRF tokens", "wall s", "CPU s", "tokens/s", "posts/s",
               "peak RSS MiB", "bare tok/s/core", "e2e/bare", "e2e/(bare*jobs)")
    widths = [max(len(h), 9) for h in headers]
    print(_fmt_row(headers, widths))
    for r in rows:
        print(_fmt_row((r["posts"], r["ws"], r["crf"], "%.1f" % r["wall"], "%.1f" % r["cpu"],
                        "%.0f" % r["tps"], "%.1f" % r["pps"], "%.0f" % r["rss"],
                        "%.0f" % r["bare"], "%.3f" % r["ratio1"], "%.3f" % r["ratioj"]),
                       widths))
    print("(tokens/s and bare tok/s are per whitespace token; bare crfsuite per CRF token: %s)"
          % ", ".join("%.0f" % r["bare_crf_rate"] for r in rows))

    if len(rows) > 1:
        print()
        print("scaling (time ratio / size ratio; 1.00 = linear):")
        for a, b in zip(rows, rows[1:]):
            size_ratio = b["posts"] / a["posts"]
            time_ratio = b["wall"] / a["wall"]
            print("  %d -> %d posts: size x%.2f, time x%.2f, time/size %.2f" % (
                a["posts"], b["posts"], size_ratio, time_ratio, time_ratio / size_ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
