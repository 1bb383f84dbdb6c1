"""What a command says on stderr: its messages, a run's summary and its progress (standard
output is kept for results and for ``-o -``)."""
import sys


def say(message: str) -> None:
    print("mmbdeid: " + message, file=sys.stderr)


def report(args, summary) -> None:
    if not args.quiet:
        for line in summary.lines():
            say(line)


def progress(args, label: str):
    from ..jobs.progress import StepProgress
    return StepProgress(label, quiet=args.quiet)
