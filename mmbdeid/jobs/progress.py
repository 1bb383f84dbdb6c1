"""Progress on stderr for long runs: a bar with posts/s and ETA on a terminal, a plain line
every ``interval`` seconds otherwise (logs, CI), nothing when quiet. ``unit`` names what is
counted (posts while scrubbing or scoring, iterations while training)."""
import sys
import time
from typing import Optional


class Progress:
    def __init__(self, label: str, total: Optional[int] = None, quiet: bool = False,
                 stream=None, interval: float = 10.0, terminal: Optional[bool] = None,
                 unit: str = "posts"):
        self.label = label
        self.unit = unit
        self.total = total
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.posts = 0
        self.tokens = 0
        self.started = time.monotonic()
        self._last_line = self.started
        self._bar = None
        if terminal is None:
            terminal = hasattr(self.stream, "isatty") and self.stream.isatty()
        if not quiet and terminal:
            from tqdm import tqdm
            self._bar = tqdm(total=total, desc=label, unit=" " + unit, file=self.stream,
                             dynamic_ncols=True, smoothing=0.1)

    def update(self, posts: int, tokens: int = 0) -> None:
        self.posts += posts
        self.tokens += tokens
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(posts)
            return
        now = time.monotonic()
        if now - self._last_line >= self.interval:
            self._last_line = now
            print("mmbdeid: " + self.status(now), file=self.stream, flush=True)

    def status(self, now: Optional[float] = None) -> str:
        elapsed = max((now or time.monotonic()) - self.started, 1e-9)
        rate = self.posts / elapsed
        done = "%d" % self.posts if self.total is None else "%d/%d" % (self.posts, self.total)
        line = "%s: %s %s, %.0f %s/s" % (self.label, done, self.unit, rate, self.unit)
        if self.total and rate > 0:
            line += ", ETA %ds" % max(0, round((self.total - self.posts) / rate))
        return line

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class StepProgress:
    """Progress of a job that reports ``(step, done, total)``, such as training ("features"
    of each document, then L-BFGS "iterations"), scoring ("posts") or linking names to
    people (the names "addressed", then the others, "by name"): one
    :class:`Progress` per step, labelled ``label: step``. Callable, so it can be passed as
    ``NameTagger.fit(progress=...)``."""

    UNITS = {"features": "documents", "addressed": "names", "by name": "names"}

    def __init__(self, label: str, quiet: bool = False, stream=None, interval: float = 5.0,
                 terminal: Optional[bool] = None):
        self.label = label
        self.options = dict(quiet=quiet, stream=stream, interval=interval, terminal=terminal)
        self.step: Optional[str] = None
        self.current: Optional[Progress] = None

    def __call__(self, step: str, done: int, total: int) -> None:
        if step != self.step or self.current is None or done < self.current.posts:
            self.close()
            self.step = step
            self.current = Progress("%s: %s" % (self.label, step), total=total,
                                    unit=self.UNITS.get(step, step), **self.options)
        self.current.update(done - self.current.posts)

    def __enter__(self) -> "StepProgress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
            self.current = None
