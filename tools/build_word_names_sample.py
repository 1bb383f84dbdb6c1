#!/usr/bin/env python3
"""Build the fictional word-name development sample of issue 31 from its marked-up source.

Every post was written by hand for this project, before the word-name rules of
``mmbdeid/detect/names/cued_names.py``: first names that are also English words (``Hope``,
``Will``, ``Grace``, ``Art``, ...) as names and as words.

    python3 tools/build_word_names_sample.py            # write the file
    python3 tools/build_word_names_sample.py --check    # exit 1 if the shipped file is stale
    python3 tools/build_word_names_sample.py --stats    # its counts

``corpora_samples/source/word_names/word_names.txt`` ->
``corpora_samples/word_names.annotated.jsonl``; the layout and marks are those of
``tools/build_check_samples.py`` (``[[name]]``, ``{{word|word}}``), whose parser this reuses
(without building its other samples).
"""
import sys
from pathlib import Path
from typing import Dict

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))      # tools/ is no package: its scripts import each other so
import build_check_samples as CHECK  # noqa: E402

ROOT = TOOLS.parent
SOURCE = ROOT / "corpora_samples" / "source" / "word_names" / "word_names.txt"
OUTPUT = ROOT / "corpora_samples" / "word_names.annotated.jsonl"


def build_all() -> Dict[Path, str]:
    return {OUTPUT: CHECK.LAYOUT.jsonl(CHECK.build(SOURCE.read_text(encoding="utf-8"),
                                                   SOURCE.name))}


def _stats() -> Dict[str, object]:
    return CHECK.stats(CHECK.build(SOURCE.read_text(encoding="utf-8"), SOURCE.name))


def main(argv=None) -> int:
    return CHECK.LAYOUT.run(argv, "build_word_names_sample", build_all, _stats,
                            __doc__.split("\n\n")[0])


if __name__ == "__main__":
    raise SystemExit(main())
