"""Progress on stderr for long runs: a bar with posts/s and ETA on a terminal, a plain line
every ``interval`` seconds otherwise (logs, CI), nothing when quiet."""
import sys
import time
from typing import Optional


class Progress:
    def __init__(self, label: str, total: Optional[int] = None, quiet: bool = False,
                 stream=None, interval: float = 10.0, terminal: Optional[bool] = None):
        self.label = label
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
            self._bar = tqdm(total=total, desc=label, unit=" posts", file=self.stream,
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
        line = "%s: %s posts, %.0f posts/s" % (self.label, done, rate)
        if self.total and rate > 0:
            line += ", ETA %ds" % max(0, round((self.total - self.posts) / rate))
        return line

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
