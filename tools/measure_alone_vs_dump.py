#!/usr/bin/env python3
"""Gold name tokens a post's scrub finds when the post is scrubbed alone but misses inside
the whole dump, and the reverse (issue 31: frequency never makes a name safe).

Each post with a gold name is scored by the scrub chain twice at one threshold: with the
statistics of the post alone (a thin input, pooled with the reference statistics) and with
the statistics of the whole annotated file taken as one dump (past 20,000 tokens its own
statistics). A gold name token (NAME or USER) above the threshold in one and not in the
other is listed. Usage::

    python3 tools/measure_alone_vs_dump.py GOLD [--threshold 0.05] [--model FILE] [--list]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mmbdeid.evaluation.gold import document_scores               # noqa: E402
from mmbdeid.files.corpora import load_labelled                    # noqa: E402
from mmbdeid.kinds import PERSON_LABELS                            # noqa: E402
from mmbdeid.model.reference import with_reference                 # noqa: E402
from mmbdeid.model.tagger import NameTagger, default_model_path    # noqa: E402
from mmbdeid.model.thin_stats import input_stats                   # noqa: E402


def found_names(tagger, labelled, stats, threshold):
    """Per post, the indexes of its gold name tokens the scrub chain removes."""
    scores = document_scores(tagger, labelled, stats, chain="scrub")
    return [{index for index, (label, score) in enumerate(zip(labels, post_scores))
             if label in PERSON_LABELS and (score is None or score > threshold)}
            for (_, labels), post_scores in zip(labelled, scores)]


def compare(tagger, labelled, threshold):
    """(alone only, dump only, gold name tokens): lists of (post number, token index)."""
    in_dump = found_names(tagger, labelled, with_reference(input_stats(
        [document for document, _ in labelled])), threshold)
    alone_only, dump_only, gold = [], [], 0
    for number, (item, dump_found) in enumerate(zip(labelled, in_dump)):
        names = sum(label in PERSON_LABELS for label in item.labels)
        if not names:
            continue
        gold += names
        alone_found, = found_names(tagger, [item], with_reference(input_stats(
            [item.document])), threshold)
        alone_only += [(number, index) for index in sorted(alone_found - dump_found)]
        dump_only += [(number, index) for index in sorted(dump_found - alone_found)]
    return alone_only, dump_only, gold


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", help="annotated posts file (JSONL, CSV) or CoNLL")
    parser.add_argument("--threshold", type=float, default=None,
                        help="default: the model's")
    parser.add_argument("--model", default=None, help="default: the bundled model")
    parser.add_argument("--list", action="store_true", help="print each token that differs")
    args = parser.parse_args(argv)
    tagger = NameTagger.load(args.model or default_model_path())
    threshold = tagger.threshold if args.threshold is None else args.threshold
    labelled = load_labelled(args.gold)
    alone_only, dump_only, gold = compare(tagger, labelled, threshold)
    print("threshold %g, %d posts, %d gold name tokens in %d posts with a name" % (
        threshold, len(labelled), gold,
        sum(any(label in PERSON_LABELS for label in labels) for _, labels in labelled)))
    print("found alone, missed in the dump: %d tokens in %d posts" % (
        len(alone_only), len({number for number, _ in alone_only})))
    print("found in the dump, missed alone: %d tokens in %d posts" % (
        len(dump_only), len({number for number, _ in dump_only})))
    if args.list:
        for what, pairs in (("alone only", alone_only), ("dump only", dump_only)):
            for number, index in pairs:
                document = labelled[number].document
                print("%-10s post %d (%s) %s" % (what, number + 1, document.thread,
                                                 document.tokens[index]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
