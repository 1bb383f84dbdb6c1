#!/usr/bin/env python3
"""Recall and false removals of the place and organisation steps (issue 21).

Scrubs an annotated file with the default model and the default chain plus the steps
``place-names`` and ``org-names`` (the sample's own statistics pooled with the reference
statistics, as ``scrub`` pools a small input's), and prints per kind the gold words removed
(and removed under their own label) and the words of the other kinds and of ``keep`` (the
lookalikes that must stay) that the steps removed. Usage::

    python3 tools/score_places_orgs.py [FILE]      # default: corpora_samples/places_orgs...
    python3 tools/score_places_orgs.py --sanity FILE   # a file with person labels only

``--sanity`` counts, on a file whose gold has no places or organisations (EWT), the words
the two steps remove that are no gold name, and the gold name words they relabel.
``--conll`` runs the two steps alone (no model) on a CoNLL file with entity types (BTC
dev: PER, LOC, ORG; WNUT17 dev: person, location, corporation, ...) and counts the words
they remove by gold type::

    python3 tools/score_places_orgs.py --conll ../shared/data/btc/btc.dev.conll
"""
import argparse
import collections
import json
import os
import sys
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from mmbdeid.detect.analyzer import Analyzer  # noqa: E402
from mmbdeid.kinds import DEFAULT_KINDS  # noqa: E402
from mmbdeid.model.reference import with_reference  # noqa: E402
from mmbdeid.model.stats import CorpusStats  # noqa: E402
from mmbdeid.model.tagger import NameTagger, default_model_path  # noqa: E402
from mmbdeid.text.document import Document  # noqa: E402

SAMPLE = os.path.join(ROOT, "corpora_samples", "places_orgs.annotated.jsonl")
KINDS = ("PLACE", "ORG")


def read(path: str) -> List[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def scrub(records: List[dict], tagger, extra=KINDS) -> Dict[str, tuple]:
    """Post id -> (document, spans) through the chain of the default kinds plus ``extra``
    (the place-names and org-names steps)."""
    documents = [Document.from_post(record) for record in records]
    analyzer = Analyzer.build(tagger, with_reference(CorpusStats.build(documents)),
                              kinds=DEFAULT_KINDS + tuple(extra))
    spans = analyzer.analyze_all(documents)
    return {record["id"]: (document, found)
            for record, document, found in zip(records, documents, spans)}


def words(document: Document, start: int, end: int):
    """The word tokens (offsets) inside ``[start, end)``."""
    return [(s, e) for s, e in document.original_offsets
            if start <= s and e <= end and document.original_text[s:e][:1].isalnum()]


def label_at(spans, start: int, end: int):
    for span in spans:
        if span.start < end and start < span.end:
            return span.label
    return None


def kind_scores(records: List[dict], scrubbed: Dict[str, tuple]) -> dict:
    """Per gold label: words, removed, removed under that label, removed as PLACE/ORG;
    ``keep``: the lookalikes' words and those removed (any label) and by the two steps."""
    counts = collections.defaultdict(collections.Counter)
    lost = []
    for record in records:
        document, spans = scrubbed[record["id"]]
        for gold in record["spans"]:
            for start, end in words(document, gold["start"], gold["end"]):
                label = label_at(spans, start, end)
                row = counts[gold["label"]]
                row["words"] += 1
                row["removed"] += label is not None
                row["as itself"] += label == gold["label"]
                row["as PLACE/ORG"] += label in KINDS and label != gold["label"]
        for keep in record["keep"]:
            for start, end in words(document, keep["start"], keep["end"]):
                label = label_at(spans, start, end)
                counts["keep"]["words"] += 1
                counts["keep"]["removed"] += label is not None
                counts["keep"]["as PLACE/ORG"] += label in KINDS
                if label is not None:
                    lost.append((record["id"], document.original_text[start:end], label))
    return {"counts": counts, "lost": lost}


def sanity(path: str, tagger) -> None:
    """What the two steps remove on a file with person labels only."""
    records = read(path)
    scrubbed = scrub(records, tagger)
    removed = collections.Counter()
    relabelled = 0
    for record in records:
        document, spans = scrubbed[record["id"]]
        gold = record["spans"]
        for span in spans:
            if span.label not in KINDS:
                continue
            for start, end in words(document, span.start, span.end):
                if any(g["start"] < end and start < g["end"] for g in gold):
                    relabelled += 1
                else:
                    removed[(span.label, document.original_text[start:end])] += 1
    for kind in KINDS:
        found = {w: n for (label, w), n in removed.items() if label == kind}
        print("%-5s %4d words that are no gold name: %s" % (
            kind, sum(found.values()), ", ".join("%s %d" % (w, n) for w, n in sorted(
                found.items(), key=lambda item: (-item[1], item[0])))))
    print("gold name words relabelled PLACE/ORG: %d" % relabelled)


def read_conll(path: str):
    """(tokens, entity type per token: ``LOC``, ``ORG``, ``PER``, ... or ``O``) per tweet;
    WNUT17's types are mapped to BTC's (location, corporation, person)."""
    kinds = {"location": "LOC", "corporation": "ORG", "person": "PER"}
    tweets, tokens, tags = [], [], []
    with open(path, encoding="utf-8") as handle:
        for line in list(handle) + [""]:
            if not line.strip():
                if tokens:
                    tweets.append((tokens, tags))
                tokens, tags = [], []
                continue
            token, tag = line.rstrip("\n").split("\t")[:2]
            kind = tag.split("-", 1)[1] if "-" in tag else "O"
            tokens.append(token)
            tags.append(kinds.get(kind, kind))
    return tweets


def conll(path: str) -> None:
    """The two steps alone on a CoNLL file with entity types: each word they remove by the
    gold type of its token, and the gold locations and organisations they remove."""
    from mmbdeid.detect.kinds.org_names import OrgNameDetector
    from mmbdeid.detect.kinds.place_names import PlaceNameDetector
    from mmbdeid.files.corpora import detokenize
    from mmbdeid.detect.kinds.place_names import city_words
    from mmbdeid.detect.keep.places import states_and_countries
    towns = city_words() - states_and_countries()
    steps = (PlaceNameDetector(), OrgNameDetector())
    removed = collections.Counter()
    gold = collections.Counter()
    examples = collections.defaultdict(list)
    for tokens, tags in read_conll(path):
        text, offsets = detokenize(tokens)
        document = Document.from_text(text)
        spans = [span for step in steps for span in step.detect(document)]
        for (start, end), tag in zip(offsets, tags):
            if not text[start:end][:1].isalnum():
                continue
            label = label_at(spans, start, end)
            gold[tag] += 1
            if tag == "LOC" and text[start:end].lower() in towns:
                gold["LOC town"] += 1
                removed[("town", "LOC town")] += label is not None
            if label is not None:
                removed[(label, tag)] += 1
                examples[(label, tag)].append(text[start:end])
    for kind in KINDS:
        print("%-5s removes %d words: %s" % (kind, sum(n for (k, t), n in removed.items()
                                                       if k == kind), ", ".join(
            "gold %s %d" % (tag, n) for (k, tag), n in sorted(removed.items()) if k == kind)))
    for tag in ("LOC", "ORG", "LOC town"):
        print("gold %s words %d, removed %d" % (
            tag, gold[tag], sum(n for (_, t), n in removed.items() if t == tag)))
    for key in sorted(examples):
        if key[1] not in ("LOC", "LOC town") or key[0] != "PLACE":
            print("%s on gold %s: %s" % (key[0], key[1], ", ".join(examples[key])))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=SAMPLE)
    parser.add_argument("--sanity", action="store_true",
                        help="a file with person labels only: what the steps remove there")
    parser.add_argument("--conll", action="store_true",
                        help="a CoNLL file with entity types (BTC, WNUT17): the two steps "
                             "alone, by the gold type of the words they remove")
    args = parser.parse_args(argv)
    if args.conll:
        conll(args.file)
        return
    tagger = NameTagger.load(default_model_path())
    if args.sanity:
        sanity(args.file, tagger)
        return
    records = read(args.file)
    result = kind_scores(records, scrub(records, tagger))
    print("%-6s %6s %8s %10s %13s" % ("gold", "words", "removed", "as itself", "as PLACE/ORG"))
    for label in ("PLACE", "ORG", "NAME", "keep"):
        row = result["counts"][label]
        print("%-6s %6d %8d %10s %13d" % (label, row["words"], row["removed"],
                                          "-" if label == "keep" else row["as itself"],
                                          row["as PLACE/ORG"]))
    for post, word, label in result["lost"]:
        print("lookalike removed: %s %r as %s" % (post, word, label))


if __name__ == "__main__":
    main()
