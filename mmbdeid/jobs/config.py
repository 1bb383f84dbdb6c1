"""The typed configuration of a run, built once from the command line and passed to the
jobs (:mod:`mmbdeid.jobs.passes`) and, for detection, to every worker."""
from dataclasses import dataclass
from typing import Any, Optional

from ..detect.options import ChainOptions
from ..output.hash_key import HashKey


# The longest post text a run accepts by default. Measured on this project's 2-core, 24 GiB
# machine: a worker's peak memory is about 0.22 GB + 0.05 GB per million characters of
# prose (0.18 GB per million at worst, one token per character), and a 5-million-character
# post takes 20-50 s. Real boards cap posts far below this; a longer record is a bad one.
MAX_POST_CHARS = 5_000_000


@dataclass(frozen=True)
class DetectionConfig:
    """What a worker needs to find the identifiers of a post. Plain values (paths, not
    open files), so it travels to worker processes and Dask workers.

    ``chain``: the chain's options, whole (:class:`~mmbdeid.detect.options.ChainOptions`:
    threshold, steps, allow and deny terms, tagging, consistency, kinds); with ``consistency``
    among its steps, the words a thread (and, with ``authors``, an author on the board)
    removed are removed throughout it in a pass after detection
    (:mod:`mmbdeid.jobs.thread_names`).
    ``render_placeholders``: the workers also write the output text, with the per-post
    operator ``mode`` (placeholder, mask, hash: :mod:`mmbdeid.output.operators`); the
    person modes rewrite posts only after linking, in pass 3
    (:mod:`mmbdeid.jobs.person_pass`). ``hash_key``: the key of ``--mode hash``, which
    reaches the workers with this configuration, in memory (its repr is hidden, so
    printing the configuration never shows it).
    ``leftovers``: the workers also find what a reviewer should see that the chain left
    (``review --html``: :mod:`mmbdeid.detect.leftovers`); ``mentions``: the workers also
    find each post's person mentions for the linker (the person modes and ``link``)."""
    model_path: str
    chain: ChainOptions = ChainOptions()
    render_placeholders: bool = True
    mode: str = "placeholder"
    hash_key: Optional[HashKey] = None
    leftovers: bool = False
    mentions: bool = False


@dataclass(frozen=True)
class RunConfig:
    """One whole-dump job: its input, outputs and options."""
    dump: Any                               # a path or a files.postfile.PostFile
    detection: DetectionConfig
    output: str                             # the scrubbed dump, the person map or the list
    output_format: str = "jsonl"            # a posts format (scrub) or a table one (review)
    spans_path: Optional[str] = None
    rejects_path: Optional[str] = None      # set with --skip-bad: bad records go there
    stats_path: Optional[str] = None
    stats_rebuild: bool = False             # build stats_path afresh even if it exists
    quiet: bool = False
    mode: str = "placeholder"               # an output operator (mmbdeid.output.operators)
    scope: str = "board"                    # where two people sharing a name conflict
    seed: int = 0                           # of the surrogates
    mark_surrogates: bool = False           # surrogates in the text between ⟦ and ⟧
    person_map: Optional[str] = None        # an edited map, instead of linking afresh
    max_post_chars: Optional[int] = MAX_POST_CHARS   # longer posts are bad records

    @property
    def skip_bad(self) -> bool:
        return self.rejects_path is not None
