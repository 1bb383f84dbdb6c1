#!/usr/bin/env python3
"""Build the fictional identity-annotated samples of issue 30 from their marked-up sources.

Every post was written by hand for this project (invented boards, people and usernames; no
real person's post copied or paraphrased), before and independent of the person-linking
rules, so that the samples test the genre, not the code.

    python3 tools/build_people_samples.py            # write the three files
    python3 tools/build_people_samples.py --check    # exit 1 if a shipped file is stale
    python3 tools/build_people_samples.py --stats    # counts of the development sample

Sources and outputs:

* ``corpora_samples/source/people/people_identities.txt`` ->
  ``corpora_samples/people_identities.annotated.jsonl`` (the development sample);
* ``corpora_samples/blind/people_identities_blind.txt`` ->
  ``corpora_samples/blind/people_identities_blind.annotated.jsonl`` (kept aside: its source
  sits beside it, not in this script, so that reading the script does not read it);
* ``corpora_samples/blind/people_identities_blind2.txt`` ->
  ``corpora_samples/blind/people_identities_blind2.annotated.jsonl`` (the second blind
  sample, written after the first was read once; kept aside the same way).

Markup::

    === BOARD THREAD YYYY-MM-DD title        a new thread (the title is not output)
    ### AUTHOR                               a post replying to the thread's first post
                                             (the first post itself: parent null)
    ### AUTHOR > N                           a post replying to post N of the thread
    [[text|PERSON]]                          a NAME span of PERSON
    [[text|PERSON|USER]]                     a USER span (a handle, whole or shortened,
                                             written without its @)
    {{text|WHAT}}                            a word that must stay (``keep``): WHAT is
                                             medical, word, title or org
    %% ...                                   a comment line (dropped)

PERSON is a member's username exactly (the ``author`` of some post in the same file) or,
for anyone else (relatives, doctors, people only mentioned, users who never post), an id
starting with ``~`` (the same id for every mention of one person). Offsets are computed
here, never by hand, and checked to round-trip; any slip stops the build with
``file:line: what`` and exit status 1.
"""
import argparse
import datetime
import json
import re
import sys
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "corpora_samples"
BUILDS = [
    (SAMPLES / "source" / "people" / "people_identities.txt",
     SAMPLES / "people_identities.annotated.jsonl"),
    (SAMPLES / "blind" / "people_identities_blind.txt",
     SAMPLES / "blind" / "people_identities_blind.annotated.jsonl"),
    (SAMPLES / "blind" / "people_identities_blind2.txt",
     SAMPLES / "blind" / "people_identities_blind2.annotated.jsonl"),
]
THREAD_SIZES = (4, 8)
KEEP_KINDS = {"medical", "word", "title", "org"}
MARK = re.compile(r"\[\[([^\[\]|]*)\|([^\[\]|]*)(?:\|(USER))?\]\]|\{\{([^{}|]*)\|([^{}|]*)\}\}")
STRAY = re.compile(r"\[\[|\]\]|\{\{|\}\}")
THREAD = re.compile(r"=== (\S+) (\S+) (\d{4}-\d\d-\d\d)(?: .*)?$")
POST = re.compile(r"### (\S+)(?: > (\d+))?$")
PERSON = re.compile(r"~?[\w.-]+$")


class SampleError(ValueError):
    """A slip in a source: the message starts with ``file:line:``."""


def parse_text(markup: str, where: str) -> Tuple[str, List[dict], List[dict]]:
    """The text of one marked-up post, its spans (with ``person``) and its kept words."""
    pieces, spans, keep = [], [], []
    position = length = 0
    for match in MARK.finditer(markup):
        plain = markup[position:match.start()]
        if STRAY.search(plain):
            raise SampleError("%s: unbalanced or malformed mark near %r" % (where, plain[-30:]))
        pieces.append(plain)
        length += len(plain)
        marked = match.group(1) if match.group(4) is None else match.group(4)
        if not marked or marked != marked.strip() or "@" in marked:
            raise SampleError("%s: a marked text must be non-empty, without outer spaces "
                              "or @: %r" % (where, marked))
        start, end = length, length + len(marked)
        if match.group(4) is None:
            person = match.group(2)
            if not PERSON.match(person):
                raise SampleError("%s: bad person id %r" % (where, person))
            spans.append({"start": start, "end": end, "label": match.group(3) or "NAME",
                          "person": person})
        else:
            if match.group(5) not in KEEP_KINDS:
                raise SampleError("%s: keep kind %r is not one of %s"
                                  % (where, match.group(5), ", ".join(sorted(KEEP_KINDS))))
            keep.append({"start": start, "end": end, "text": marked, "what": match.group(5)})
        pieces.append(marked)
        length = end
        position = match.end()
    tail = markup[position:]
    if STRAY.search(tail):
        raise SampleError("%s: unbalanced or malformed mark near %r" % (where, tail[:30]))
    pieces.append(tail)
    text = "".join(pieces)
    for item in spans + keep:
        before = text[item["start"] - 1:item["start"]]
        after = text[item["end"]:item["end"] + 1]
        if before.isalnum() or after.isalnum():
            raise SampleError("%s: %r is not on word boundaries"
                              % (where, text[item["start"]:item["end"]]))
    return text, spans, keep


def parse_source(source: str, name: str, parse=parse_text) -> List[dict]:
    """The records of one source, checked on their own (persons are checked by
    ``check_persons`` once all authors are known). ``parse`` reads one post's markup into
    (text, spans, keep): tools/build_check_samples.py passes its own, with other marks."""
    records: List[dict] = []
    thread = None
    lines = source.split("\n")
    body: List[str] = []
    head = None

    def close_post():
        if head is None:
            return
        where, author, reply_to = head
        text, spans, keep = parse("\n".join(body).strip("\n"), where)
        if not text.strip():
            raise SampleError("%s: empty post" % where)
        posts = thread["posts"]
        number = len(posts) + 1
        if number == 1 and reply_to is not None:
            raise SampleError("%s: a thread's first post replies to nothing" % where)
        target = 1 if reply_to is None and number > 1 else reply_to
        if target is not None and not 1 <= target < number:
            raise SampleError("%s: post %s of the thread does not exist yet" % (where, target))
        posts.append({"id": "%s-%02d" % (thread["id"], number), "board": thread["board"],
                      "thread": thread["id"], "author": author,
                      "parent": None if target is None else "%s-%02d" % (thread["id"], target),
                      "time": None, "text": text, "spans": spans, "keep": keep,
                      "_where": where})

    def close_thread():
        if thread is None:
            return
        if not THREAD_SIZES[0] <= len(thread["posts"]) <= THREAD_SIZES[1]:
            raise SampleError("%s: thread %s has %d posts, not %d to %d"
                              % (thread["where"], thread["id"], len(thread["posts"]),
                                 *THREAD_SIZES))
        stamp_times(thread)
        records.extend(thread["posts"])

    for number, line in enumerate(lines, 1):
        where = "%s:%d" % (name, number)
        if line.startswith("%%"):
            continue
        if line.startswith("==="):
            close_post()
            head = None
            close_thread()
            match = THREAD.match(line)
            if not match:
                raise SampleError("%s: a thread line is '=== BOARD THREAD YYYY-MM-DD title'"
                                  % where)
            thread = {"board": match.group(1), "id": match.group(2), "date": match.group(3),
                      "posts": [], "where": where}
        elif line.startswith("###"):
            close_post()
            match = POST.match(line)
            if not match or thread is None:
                raise SampleError("%s: a post line is '### AUTHOR' or '### AUTHOR > N', "
                                  "inside a thread" % where)
            head = (where, match.group(1), int(match.group(2)) if match.group(2) else None)
            body = []
        elif head is not None:
            body.append(line)
        elif line.strip():
            raise SampleError("%s: text outside a post" % where)
    close_post()
    close_thread()
    ids = [record["id"] for record in records]
    if len(set(ids)) != len(ids):
        raise SampleError("%s: a thread id is used twice" % name)
    return records


def stamp_times(thread: dict) -> None:
    """Deterministic, increasing ISO times from the thread's date (gaps of 11 min to 5 h)."""
    moment = datetime.datetime.fromisoformat(thread["date"] + "T07:40:00")
    seed = sum(map(ord, thread["id"]))
    for number, post in enumerate(thread["posts"]):
        moment += datetime.timedelta(minutes=11 + (seed + 53 * number) % 290)
        post["time"] = moment.isoformat()


def check_persons(records: List[dict]) -> None:
    """Member ids are authors, ``~`` ids are not, a handle spelled in full is its author's."""
    authors = {record["author"] for record in records}
    by_lower = {author.lower(): author for author in authors}
    for record in records:
        for span in record["spans"]:
            person, piece = span["person"], record["text"][span["start"]:span["end"]]
            where = "%s [%s] %r" % (record["_where"], record["id"], piece)
            if person.startswith("~"):
                if person[1:].lower() in by_lower:
                    raise SampleError("%s: %s names the member %s: use the username"
                                      % (where, person, by_lower[person[1:].lower()]))
            elif person not in authors:
                raise SampleError("%s: person %r is no author of this file (others get a "
                                  "'~' id)" % (where, person))
            if span["label"] == "USER" and piece.lower() in by_lower \
                    and person != by_lower[piece.lower()]:
                raise SampleError("%s: the handle spells member %s, not %s"
                                  % (where, by_lower[piece.lower()], person))


def check_round_trip(record: dict, source_markup_texts: List[str]) -> None:
    """Every span and kept word reads back as the text that was marked, in order, apart."""
    items = sorted(record["spans"] + record["keep"], key=lambda item: item["start"])
    previous = 0
    for item, marked in zip(items, source_markup_texts):
        if record["text"][item["start"]:item["end"]] != marked or item["start"] < previous:
            raise SampleError("%s: offsets do not round-trip for %r" % (record["_where"], marked))
        previous = item["end"]


def build(source: str, name: str) -> List[dict]:
    records = parse_source(source, name)
    check_persons(records)
    for record in records:
        marks = [m.group(1) if m.group(4) is None else m.group(4)
                 for m in MARK.finditer(source_of(record, source))]
        check_round_trip(record, marks)
    return records


def source_of(record: dict, source: str) -> str:
    """The marked-up body of a record's post in ``source`` (for the round-trip check)."""
    start = int(record["_where"].rsplit(":", 1)[1])
    body = []
    for line in source.split("\n")[start:]:
        if line.startswith(("###", "===")):
            break
        if not line.startswith("%%"):
            body.append(line)
    return "\n".join(body)


def jsonl(records: List[dict]) -> str:
    fields = ("id", "board", "thread", "author", "parent", "time", "text", "spans", "keep")
    return "".join(json.dumps({field: record[field] for field in fields}, ensure_ascii=False)
                   + "\n" for record in records)


def build_all() -> Dict[Path, str]:
    """Output path -> content, for every sample."""
    return {output: jsonl(build(source.read_text(encoding="utf-8"), source.name))
            for source, output in BUILDS}


def stats(records: List[dict]) -> Dict[str, object]:
    """The counts that corpora_samples/README.md gives for a sample."""
    authors = {record["author"] for record in records}
    spans = [span for record in records for span in record["spans"]]
    others = {span["person"] for span in spans if span["person"].startswith("~")}
    names: Dict[str, set] = {}      # first word of a NAME span -> its persons
    for record in records:
        for span in record["spans"]:
            if span["label"] == "NAME":
                first = record["text"][span["start"]:span["end"]].split()[0].strip(",").lower()
                names.setdefault(first, set()).add(span["person"])
    shared = {name: people for name, people in names.items() if len(people) > 1}
    return {"posts": len(records), "boards": len({r["board"] for r in records}),
            "threads": len({r["thread"] for r in records}), "members": len(authors),
            "others": len(others), "people": len(authors | others), "mentions": len(spans),
            "NAME": sum(span["label"] == "NAME" for span in spans),
            "USER": sum(span["label"] == "USER" for span in spans),
            "keep": sum(len(record["keep"]) for record in records),
            "names shared by several people": len(shared),
            "people sharing a name": len(set().union(*shared.values())) if shared else 0,
            "members on two boards": sum(
                len({r["board"] for r in records if r["author"] == a}) > 1 for a in authors)}


def run(argv, tool: str, build_all_files, development_stats, what: str) -> int:
    """The command line both sample builders share: write the stale files, --check,
    --stats (the counts of the development sample, ``development_stats()``)."""
    parser = argparse.ArgumentParser(description=what)
    parser.add_argument("--check", action="store_true", help="exit 1 if a shipped file is stale")
    parser.add_argument("--stats", action="store_true",
                        help="print the development sample's counts")
    args = parser.parse_args(argv)
    try:
        files = build_all_files()
        if args.stats:
            for key, value in development_stats().items():
                print("%s: %s" % (key, value))
            return 0
    except SampleError as error:
        print("%s: %s" % (tool, error), file=sys.stderr)
        return 1
    stale = [path for path, content in files.items()
             if not path.exists() or path.read_text(encoding="utf-8") != content]
    if args.check:
        for path in stale:
            print("%s is stale: run python3 tools/%s.py" % (path, tool), file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(files[path], encoding="utf-8")
    return 0


def _development_stats() -> Dict[str, object]:
    source = BUILDS[0][0]
    return stats(build(source.read_text(encoding="utf-8"), source.name))


def main(argv=None) -> int:
    return run(argv, "build_people_samples", build_all, _development_stats,
               __doc__.split("\n\n")[0])


if __name__ == "__main__":
    raise SystemExit(main())
