"""The ``mmbdeid`` command: train, scrub, evaluate, sweep, crossval, split, stats, link,
review, audit, estimate. The commands, options and exit statuses are a stable contract: scripts
outside this repository call them.

``entry`` runs a command line (``main``), ``parser`` and ``help`` make the options and
their help, ``types`` checks option values; the commands are in ``training``,
``measuring``, ``scrubbing`` and ``estimating``, over ``io`` (the files a command reads and writes) and
``messages`` (what it says on stderr)."""
from .entry import main, main_entry

__all__ = ["main", "main_entry"]
