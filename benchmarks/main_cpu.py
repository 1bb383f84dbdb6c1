#!/usr/bin/env python3
"""CPU seconds of a command's main process and of its worker processes, apart (a script,
not a test): the main process's share is what more workers cannot speed up.

    PYTHONPATH=CHECKOUT python3 benchmarks/main_cpu.py scrub DUMP -o OUT --mode pseudonym -j 2 -q

Runs ``mmbdeid.cli.entry.main(ARGS)`` in this process, then prints to stderr the exit
status, the wall time, ``getrusage`` of this process and of its children (the workers, once
they have ended), and this process's peak RSS.
"""
import resource
import sys
import time

from mmbdeid.cli.entry import main


def run(argv):
    started = time.monotonic()
    status = main(argv)
    wall = time.monotonic() - started
    me = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("status %d wall %.1f s; main process CPU %.1f s; workers CPU %.1f s; "
          "main peak RSS %d MiB" % (status, wall, me.ru_utime + me.ru_stime,
                                   workers.ru_utime + workers.ru_stime,
                                   me.ru_maxrss // 1024), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
