#!/usr/bin/env python3
"""Build the reference corpus statistics shipped as package data (``mmbdeid/bundled/
reference_stats.sqlite``), which ``mmbdeid.model.reference.CombinedStats`` uses for inputs too
small to have statistics of their own. The shipped file is built from the training splits
(the dev splits stay out, so that the dev figures of docs/accuracy.md are measured without them):

    python tools/build_reference_stats.py corpora_samples/health_boards.annotated.jsonl \\
        ../shared/data/wnut17/wnut17train.conll ../shared/data/btc/btc.train.conll

Privacy: the file holds term statistics only (counts, document frequencies, anonymous
histograms): no text, no usernames, no author names (see ``reference.build_reference``).
Provenance (file names, SHA-256, licences) goes into its ``meta`` table, row ``sources``.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mmbdeid.files.corpora import file_sha256, load_labelled  # noqa: E402
from mmbdeid.lexicon.wordlists import load_zipf  # noqa: E402
from mmbdeid.model.reference import REFERENCE_PATH, build_reference  # noqa: E402

# Known corpora: where they come from and under which licence (CC-BY 4.0 asks for credit).
CREDITS = {
    "health_boards": ("mmbdeid project, fictional hand-written sample (corpora_samples/)",
                      "project licence (MIT)"),
    "wnut17train": ("WNUT 2017 Emerging Entities, Derczynski, Nichols, van Erp, "
                    "Limsopatham (2017), W-NUT at EMNLP", "CC-BY 4.0"),
    "emerging.dev": ("WNUT 2017 Emerging Entities, Derczynski, Nichols, van Erp, "
                     "Limsopatham (2017), W-NUT at EMNLP", "CC-BY 4.0"),
    "btc.": ("Broad Twitter Corpus, Derczynski, Bontcheva, Roberts (2016), COLING",
             "CC-BY 4.0"),
}


def credit(path: str):
    name = os.path.basename(path)
    for prefix, (source, licence) in CREDITS.items():
        if name.startswith(prefix):
            return source, licence
    print("warning: unknown corpus %s: record its source and licence before shipping" % name,
          file=sys.stderr)
    return "unknown", "unknown"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="+", help="annotated JSONL/CSV or CoNLL files")
    parser.add_argument("-o", "--output", default=REFERENCE_PATH)
    args = parser.parse_args(argv)
    corpora, sources = [], []
    for path in args.corpus:
        documents = load_labelled(path)
        name = os.path.basename(path)
        corpora.append((name, documents))
        source, licence = credit(path)
        sources.append({"file": name, "sha256": file_sha256(path), "documents": len(documents),
                        "source": source, "licence": licence})
    build_reference(corpora, args.output, sources, zipf=load_zipf())
    print("%s: %d bytes" % (args.output, os.path.getsize(args.output)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
