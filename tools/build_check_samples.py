#!/usr/bin/env python3
"""Build the fictional check samples of issue 31 from their marked-up sources.

Every post was written by hand for this project (invented boards, people, usernames and
repositories; 555 phone numbers, example.com addresses; no real person's post copied or
paraphrased), before and independent of the detection rules of issue 31.

    python3 tools/build_check_samples.py            # write the four files
    python3 tools/build_check_samples.py --check    # exit 1 if a shipped file is stale
    python3 tools/build_check_samples.py --stats    # counts of the technical sample

Sources and outputs:

* ``corpora_samples/source/technical/technical.txt`` ->
  ``corpora_samples/technical.annotated.jsonl`` (the development sample of code-aware
  detection);
* ``corpora_samples/source/structure/message_structure.txt`` ->
  ``corpora_samples/message_structure.annotated.jsonl`` (the development sample of the
  message-structure steps: headers, signatures, sign-offs, lists of people, capitals);
* ``corpora_samples/blind/medical_check_blind.txt`` and ``general_blind.txt`` ->
  ``corpora_samples/blind/*.annotated.jsonl`` (kept aside: their sources sit beside them, not
  in this script, so that reading the script does not read them).

The layout is that of ``tools/build_people_samples.py`` (``=== BOARD THREAD YYYY-MM-DD
title``, ``### AUTHOR [> N]``, ``%%`` comments, 4 to 8 posts a thread); the marks are::

    [[text]]                a NAME span (a person's name, any form)
    [[text|USER]]           a USER span (a handle, written without its @)
    {{text|WHAT}}           a word that must stay (``keep``), WHAT one of KEEP_KINDS

Offsets are computed here, never by hand, and checked to round-trip; any slip stops the
build with ``file:line: what`` and exit status 1.
"""
import importlib.util
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "corpora_samples"
BUILDS = [
    (SAMPLES / "source" / "technical" / "technical.txt", SAMPLES / "technical.annotated.jsonl"),
    (SAMPLES / "source" / "structure" / "message_structure.txt",
     SAMPLES / "message_structure.annotated.jsonl"),
    (SAMPLES / "blind" / "medical_check_blind.txt",
     SAMPLES / "blind" / "medical_check_blind.annotated.jsonl"),
    (SAMPLES / "blind" / "general_blind.txt", SAMPLES / "blind" / "general_blind.annotated.jsonl"),
]
# medical words: drug (brand or generic), eponym (scores, signs, diseases named after
# people), lab (tests and their abbreviations), org (support groups, clinics), medical (care
# words, devices, conditions); technical words: code, product, emoji; others: word (an
# ordinary word that is also a name), title (Dr., Nurse)
KEEP_KINDS = {"medical", "drug", "eponym", "lab", "org", "word", "title",
              "code", "product", "emoji"}
MEDICAL_KINDS = ("medical", "drug", "eponym", "lab", "org")
MARK = re.compile(r"\[\[([^\[\]|]*)(?:\|(USER))?\]\]|\{\{([^{}|]*)\|([^{}|]*)\}\}")
STRAY = re.compile(r"\[\[|\]\]|\{\{|\}\}")


def _layout():
    """tools/build_people_samples.py, whose post and thread layout these sources share."""
    spec = importlib.util.spec_from_file_location(
        "build_people_samples", Path(__file__).resolve().parent / "build_people_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAYOUT = _layout()
SampleError = LAYOUT.SampleError


def parse_text(markup: str, where: str) -> Tuple[str, List[dict], List[dict]]:
    """The text of one marked-up post, its NAME/USER spans and its kept words."""
    pieces, spans, keep = [], [], []
    position = length = 0
    for match in MARK.finditer(markup):
        plain = markup[position:match.start()]
        if STRAY.search(plain):
            raise SampleError("%s: unbalanced or malformed mark near %r" % (where, plain[-30:]))
        pieces.append(plain)
        length += len(plain)
        is_span = match.group(3) is None
        marked = match.group(1) if is_span else match.group(3)
        if not marked or marked != marked.strip() or (is_span and "@" in marked):
            raise SampleError("%s: a marked text must be non-empty, without outer spaces "
                              "(and a span without @): %r" % (where, marked))
        start, end = length, length + len(marked)
        if is_span:
            spans.append({"start": start, "end": end, "label": match.group(2) or "NAME"})
        elif match.group(4) not in KEEP_KINDS:
            raise SampleError("%s: keep kind %r is not one of %s"
                              % (where, match.group(4), ", ".join(sorted(KEEP_KINDS))))
        else:
            keep.append({"start": start, "end": end, "text": marked, "what": match.group(4)})
        pieces.append(marked)
        length = end
        position = match.end()
    tail = markup[position:]
    if STRAY.search(tail):
        raise SampleError("%s: unbalanced or malformed mark near %r" % (where, tail[:30]))
    pieces.append(tail)
    text = "".join(pieces)
    for item in spans + keep:
        if text[item["start"] - 1:item["start"]].isalnum() \
                or text[item["end"]:item["end"] + 1].isalnum():
            raise SampleError("%s: %r is not on word boundaries"
                              % (where, text[item["start"]:item["end"]]))
    return text, spans, keep


def build(source: str, name: str) -> List[dict]:
    records = LAYOUT.parse_source(source, name, parse=parse_text)
    for record in records:
        marks = [m.group(1) if m.group(3) is None else m.group(3)
                 for m in MARK.finditer(LAYOUT.source_of(record, source))]
        LAYOUT.check_round_trip(record, marks)
    return records


def build_all() -> Dict[Path, str]:
    """Output path -> content, for the four samples."""
    return {output: LAYOUT.jsonl(build(source.read_text(encoding="utf-8"), source.name))
            for source, output in BUILDS}


def stats(records: List[dict]) -> Dict[str, object]:
    """The counts that corpora_samples/README.md gives for a sample."""
    spans = Counter(span["label"] for record in records for span in record["spans"])
    kinds = Counter(keep["what"] for record in records for keep in record["keep"])
    return {"posts": len(records), "threads": len({r["thread"] for r in records}),
            "boards": len({r["board"] for r in records}),
            "authors": len({r["author"] for r in records}),
            "NAME": spans["NAME"], "USER": spans["USER"],
            "keep": sum(kinds.values()),
            "medical keep": sum(kinds[kind] for kind in MEDICAL_KINDS),
            **{"keep " + kind: kinds[kind] for kind in sorted(KEEP_KINDS)}}


def _development_stats() -> Dict[str, object]:
    source = BUILDS[0][0]
    return stats(build(source.read_text(encoding="utf-8"), source.name))


def main(argv=None) -> int:
    return LAYOUT.run(argv, "build_check_samples", build_all, _development_stats,
                      __doc__.split("\n\n")[0])


if __name__ == "__main__":
    raise SystemExit(main())
