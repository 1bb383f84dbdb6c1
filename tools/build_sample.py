#!/usr/bin/env python3
"""Compile the fictional, hand-tagged sample corpus in ``corpora_samples/``.

Every post in ``corpora_samples/source/`` was written for this project; none is
taken from or based on a real message board.  The sources use a small inline
markup (see ``corpora_samples/README.md``)::

    === <board> <YYYY-MM-DD> <thread title>     starts a thread
    ### <author>                                 starts a post (reply to the first post)
    ### <author> > <n>                           starts a post replying to post <n> of the thread
    {N:Kay}                                      a person's name  -> span label NAME
    {N:Kay=kaygirl}                              a name of the board member kaygirl -> NAME,
                                                 person "kaygirl"
    {U:kaygirl}                                  a board username -> span label USER
    {U:kay=kaygirl}                              a short or misspelled form of the handle of
                                                 the board member kaygirl -> USER, person "kaygirl"

Gold person identities: a NAME or USER span gets ``"person": <author>`` when its mark
names a target (``{N:Jess=RAwarrior}``, ``{U:roxy=roxy22}``); the target must be the
author of some post in the same output (annotated sample or demo dump), else the build
fails (exit 1, ``file:line``).  Names of non-members (doctors, relatives, celebrities)
have no target and no person.  A USER span without a target gets the person of the author
whose username matches its text ignoring case (``{U:Tiger}`` -> ``tiger``), or none (users
who never post, like ``metsmama``); a USER target that contradicts such a match
(``{U:hope=tiger}``) is an error too.  Targets never appear in output text.

Outputs (all rebuilt by ``python tools/build_sample.py``):

* ``corpora_samples/health_boards.annotated.jsonl`` from ``source/annotated/*.txt``
* ``corpora_samples/demo_dump.jsonl`` and ``demo_dump.csv`` from ``source/demo/*.txt``
  (markup stripped: the dump is raw, untagged text)
* ``corpora_samples/README.md`` (counts filled in from the built data)

``--lint`` additionally prints likely tagging inconsistencies (a string tagged
somewhere but left untagged elsewhere, an author's username appearing untagged, a NAME or
USER string given a person in a thread but a different person or none elsewhere in that thread).
``--check`` rebuilds in memory and exits 1 if the shipped files differ.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import io
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "corpora_samples"
SOURCE = SAMPLES / "source"
ANNOTATED_OUT = SAMPLES / "health_boards.annotated.jsonl"
DEMO_JSONL = SAMPLES / "demo_dump.jsonl"
DEMO_CSV = SAMPLES / "demo_dump.csv"
README = SAMPLES / "README.md"

BOARD_PREFIX = {"breastcancer": "bc", "arthritis": "ar", "diabetes": "db", "thyroid": "th"}
LABELS = {"N": "NAME", "U": "USER"}
FIELDS = ["id", "board", "thread", "author", "parent", "time", "text"]

MARK_RE = re.compile(r"\{([A-Z]):([^{}\n]+)\}")
TARGET_RE = re.compile(r"[A-Za-z0-9_.-]+")         # a board username, as in a post header
THREAD_RE = re.compile(r"^=== (\w+) (\d{4}-\d{2}-\d{2}) (.+)$")
POST_RE = re.compile(r"^### (\S+)(?: > (\d+))?\s*$")
TOKEN_RE = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)

# Tagged strings that are also ordinary words or otherwise legitimately appear
# untagged; the lint does not complain about their untagged occurrences.
LINT_AMBIGUOUS = {
    "hope", "Hope", "grace", "Grace", "faith", "Faith", "will", "Will", "rose", "Rose",
    "bill", "Bill", "june", "June", "joy", "Joy", "mark", "Mark", "sue", "Sue", "pat", "Pat",
    "boo", "Boo", "tiger", "Tiger", "breezy", "Breezy", "sunshine", "Sunshine", "dawn", "Dawn",
    "penny", "Penny", "sandy", "Sandy", "frank", "Frank", "art", "Art", "summer", "Summer",
    "rich", "Rich", "kay", "Kay", "MJ", "Jolie", "Angelina", "Crow", "Sheryl",
    "may", "May", "Hazel", "hazel", "Ginger", "ginger", "Amber", "amber", "Holly", "holly",
    "Lou", "Ray", "ray", "Dee", "Jack", "jack", "Brook", "Chase", "chase", "Grant", "grant",
    "Lily", "Iris", "Robin", "robin", "Melody", "Honey", "Gene", "Sky",
    "Graves", "foggy", "Foggy",
}
# chunks that are e-mails or URLs: names inside them are left to the pattern stage
PATTERN_CHUNK_RE = re.compile(r"\S*(?:@\S+\.\w|://|www\.|\.(?:com|org|net)\b)\S*")


class MarkupError(ValueError):
    pass


class TargetError(MarkupError):
    """A ``{N:name=target}`` or ``{U:handle=target}`` whose target is not an author, or a
    USER target other than the author the handle spells (exit status 1)."""


def _strip_blank(lines):
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _split_target(code: str, content: str, mark: str, where: str):
    """``("Jess", "RAwarrior")`` for ``Jess=RAwarrior``, ``("Jess", None)`` for ``Jess``.

    NAME (``N``) and USER (``U``) marks take a target; the same syntax rules apply to both.
    """
    if "=" not in content:
        return content, None
    if code not in ("N", "U"):
        raise MarkupError(f"{where}: only NAME and USER marks take a =person target: {mark!r}")
    text, _, target = content.partition("=")
    if not TARGET_RE.fullmatch(target):
        raise MarkupError(f"{where}: bad person target {target!r} in {mark!r}")
    if not text:
        raise MarkupError(f"{where}: empty {LABELS[code].lower()} before '=' in {mark!r}")
    return text, target


def compile_text(raw: str, where: str):
    """Turn marked-up text into (plain text, spans).

    Each span is ``{"start", "end", "label", "_markup", "_target", "_rawpos"}``:
    ``_markup`` is the span's text, ``_target`` the ``=person`` target of a NAME or
    USER mark (or None), ``_rawpos`` the offset of the mark in ``raw`` (for error line numbers).
    """
    out = []
    spans = []
    pos = 0
    length = 0
    for m in MARK_RE.finditer(raw):
        before = raw[pos:m.start()]
        out.append(before)
        length += len(before)
        code, content = m.group(1), m.group(2)
        if code not in LABELS:
            raise MarkupError(f"{where}: unknown label {code!r} in {m.group(0)!r}")
        content, target = _split_target(code, content, m.group(0), where)
        if content != content.strip():
            raise MarkupError(f"{where}: span with outer whitespace {m.group(0)!r}")
        start = length
        out.append(content)
        length += len(content)
        spans.append({"start": start, "end": length, "label": LABELS[code], "_markup": content,
                      "_target": target, "_rawpos": m.start()})
        pos = m.end()
    out.append(raw[pos:])
    text = "".join(out)
    if "{" in text or "}" in text:
        raise MarkupError(f"{where}: stray brace in text: {text[max(0, text.find('{') - 30):][:80]!r}")
    # verification: span text equals markup, inside text, on word boundaries, no overlap
    prev_end = -1
    for sp in spans:
        s, e = sp["start"], sp["end"]
        if not (0 <= s < e <= len(text)):
            raise MarkupError(f"{where}: span {sp} outside text")
        if text[s:e] != sp["_markup"]:
            raise MarkupError(f"{where}: span text {text[s:e]!r} != markup {sp['_markup']!r}")
        if s < prev_end:
            raise MarkupError(f"{where}: overlapping spans at {s}")
        if s > 0 and text[s - 1].isalnum():
            raise MarkupError(f"{where}: span {sp['_markup']!r} starts inside a word")
        if e < len(text) and text[e].isalnum():
            raise MarkupError(f"{where}: span {sp['_markup']!r} ends inside a word")
        prev_end = e
    return text, spans


def parse_file(path: Path):
    """Yield threads: dict(board, date, title, posts=[dict(author, reply_to, raw, line)])."""
    threads = []
    cur_thread = None
    cur_post = None
    lines = path.read_text(encoding="utf-8").splitlines()

    def close_post():
        nonlocal cur_post
        if cur_post is not None:
            lines = cur_post.pop("lines")
            leading = next((i for i, l in enumerate(lines) if l.strip()), len(lines))
            body = _strip_blank(lines)
            if not body:
                raise MarkupError(f"{path.name}:{cur_post['line']}: empty post")
            cur_post["body_line"] = cur_post["line"] + 1 + leading
            cur_post["raw"] = "\n".join(l.rstrip() for l in body)
            cur_thread["posts"].append(cur_post)
            cur_post = None

    for no, line in enumerate(lines, 1):
        tm = THREAD_RE.match(line)
        pm = POST_RE.match(line)
        if line.startswith("=== "):
            if not tm:
                raise MarkupError(f"{path.name}:{no}: bad thread header {line!r}")
            close_post()
            cur_thread = {"board": tm.group(1), "date": tm.group(2), "title": tm.group(3),
                          "posts": [], "line": no, "file": path.name}
            if cur_thread["board"] not in BOARD_PREFIX:
                raise MarkupError(f"{path.name}:{no}: unknown board {tm.group(1)!r}")
            threads.append(cur_thread)
        elif line.startswith("### "):
            if not pm:
                raise MarkupError(f"{path.name}:{no}: bad post header {line!r}")
            if cur_thread is None:
                raise MarkupError(f"{path.name}:{no}: post before any thread")
            close_post()
            cur_post = {"author": pm.group(1), "reply_to": int(pm.group(2)) if pm.group(2) else None,
                        "line": no, "lines": []}
        else:
            if cur_post is None:
                if line.strip():
                    raise MarkupError(f"{path.name}:{no}: text outside a post")
                continue
            cur_post["lines"].append(line)
    close_post()
    return threads


def build_records(subdir: str, id_prefix: str = ""):
    files = sorted((SOURCE / subdir).glob("*.txt"))
    if not files:
        raise MarkupError(f"no source files in {SOURCE / subdir}")
    counters = Counter()
    records = []
    for path in files:
        for th in parse_file(path):
            board = th["board"]
            counters[board] += 1
            tid = f"{id_prefix}{BOARD_PREFIX[board]}{counters[board]:03d}"
            n = len(th["posts"])
            if not 3 <= n <= 10:
                raise MarkupError(f"{path.name}:{th['line']}: thread {tid} has {n} posts (want 3-10)")
            rng = random.Random(tid)
            t = _dt.datetime.fromisoformat(th["date"]) + _dt.timedelta(
                hours=rng.randint(6, 22), minutes=rng.randint(0, 59), seconds=rng.randint(0, 59))
            for i, post in enumerate(th["posts"], 1):
                where = f"{path.name}:{post['line']}"
                if i > 1:
                    t += _dt.timedelta(minutes=rng.choice([rng.randint(3, 90), rng.randint(60, 1800)]))
                pid = f"{tid}-{i:02d}"
                if i == 1:
                    if post["reply_to"] is not None:
                        raise MarkupError(f"{where}: first post cannot reply")
                    parent = None
                else:
                    r = post["reply_to"] or 1
                    if not 1 <= r < i:
                        raise MarkupError(f"{where}: reply to post {r} not before post {i}")
                    parent = f"{tid}-{r:02d}"
                text, spans = compile_text(post["raw"], where)
                for sp in spans:
                    line = post["body_line"] + post["raw"].count("\n", 0, sp["_rawpos"])
                    sp["_where"] = f"{path.name}:{line}"
                records.append({
                    "id": pid, "board": board, "thread": tid, "author": post["author"],
                    "parent": parent, "time": t.strftime("%Y-%m-%dT%H:%M:%S"),
                    "text": text, "spans": spans, "_where": where, "_title": th["title"],
                })
    ids = [r["id"] for r in records]
    if len(ids) != len(set(ids)):
        raise MarkupError("duplicate post ids")
    resolve_persons(records)
    return records


def resolve_persons(records):
    """Set ``person`` on each span: the author a NAME or USER mark targets, else (USER
    only) the author whose username the span spells (ignoring case); None otherwise.

    Raises ``TargetError`` listing every target that is not an author of ``records`` and
    every USER target that differs from the author its handle spells.
    """
    authors = {r["author"] for r in records}
    by_lower = {}
    for a in sorted(authors):
        if a.lower() in by_lower:
            raise MarkupError(f"authors {by_lower[a.lower()]!r} and {a!r} differ only in case")
        by_lower[a.lower()] = a
    bad = []
    for r in records:
        for sp in r["spans"]:
            spelled = by_lower.get(sp["_markup"].lower()) if sp["label"] == "USER" else None
            if sp["_target"] is None:
                sp["person"] = spelled
            elif sp["_target"] in authors:
                sp["person"] = sp["_target"]
                if spelled is not None and spelled != sp["_target"]:
                    bad.append(f"{sp['_where']}: person target {sp['_target']!r} of USER "
                               f"{sp['_markup']!r} contradicts author {spelled!r}")
            else:
                hint = by_lower.get(sp["_target"].lower())
                bad.append(f"{sp['_where']}: person target {sp['_target']!r} of "
                           f"{sp['_markup']!r} is not an author"
                           + (f" (did you mean {hint!r}?)" if hint else ""))
    if bad:
        raise TargetError("\n".join(bad))


def annotated_json(rec):
    out = {k: rec[k] for k in FIELDS}
    out["spans"] = []
    for s in rec["spans"]:
        span = {"start": s["start"], "end": s["end"], "label": s["label"]}
        if s["person"] is not None:
            span["person"] = s["person"]
        out["spans"].append(span)
    return out


def demo_json(rec):
    return {k: rec[k] for k in FIELDS}


def jsonl(objs):
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs)


def csv_text(objs):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=FIELDS, lineterminator="\n")
    w.writeheader()
    for o in objs:
        row = dict(o)
        row["parent"] = row["parent"] or ""
        w.writerow(row)
    return buf.getvalue()


def stats(records):
    span_counts = Counter()
    person_counts = Counter()
    persons = set()
    token_counts = Counter()
    n_tokens = 0
    strings = {"NAME": set(), "USER": set()}
    for r in records:
        n_tokens += len(TOKEN_RE.findall(r["text"]))
        for s in r["spans"]:
            span_counts[s["label"]] += 1
            if s.get("person"):
                person_counts[s["label"]] += 1
                persons.add(s["person"])
            token_counts[s["label"]] += len(TOKEN_RE.findall(r["text"][s["start"]:s["end"]]))
            strings[s["label"]].add(r["text"][s["start"]:s["end"]])
    boards = Counter(r["board"] for r in records)
    threads = {r["thread"] for r in records}
    authors = {r["author"] for r in records}
    author_boards = {}
    for r in records:
        author_boards.setdefault(r["author"], set()).add(r["board"])
    multi = sorted(a for a, b in author_boards.items() if len(b) > 1)
    words = [len(r["text"].split()) for r in records]
    return {
        "posts": len(records),
        "boards": dict(sorted(boards.items())),
        "threads": len(threads),
        "threads_per_board": dict(sorted(Counter(t[:2] if not t.startswith("demo-") else t[5:7]
                                                 for t in threads).items())),
        "authors": len(authors),
        "multi_board_authors": multi,
        "tokens": n_tokens,
        "name_spans": span_counts["NAME"], "user_spans": span_counts["USER"],
        "name_spans_person": person_counts["NAME"], "user_spans_person": person_counts["USER"],
        "spans_person": sum(person_counts.values()), "distinct_persons": len(persons),
        "name_tokens": token_counts["NAME"], "user_tokens": token_counts["USER"],
        "distinct_name_strings": len(strings["NAME"]), "distinct_user_strings": len(strings["USER"]),
        "words_min": min(words), "words_median": sorted(words)[len(words) // 2], "words_max": max(words),
    }


README_TEMPLATE = """# Sample corpora (fictional)

**Every post in this directory is fictional.** All threads, usernames, names, and
stories were written by hand for the mmbdeid project. None of it is copied from,
paraphrased from, or derived from any real message board or any real person's posts.
Usernames and personal names are invented; any resemblance to real board members is
accidental. The only real people mentioned are a few public figures (for example
Angelina Jolie, Dr. Oz, Tom Hanks), who come up the way celebrities come up on
health boards. They are tagged `NAME` like every other person's name. Phone numbers use
the fictional 555 exchange. E-mail addresses and URLs use `example.com`/`.org`/`.net`
or obviously made-up domains.

This is test and demonstration data: it shows that the code works and exercises the hard
cases (usernames that are ordinary words, names that are ordinary words, drug names that look
like names, lower-case and misspelled names, handles). **Scores measured on it are not
evidence of real-world accuracy.**

## Files

| file | what |
|---|---|
| `health_boards.annotated.jsonl` | hand-tagged sample: {a[posts]} posts, one JSON object per line, with `spans` (and gold `person` identities) |
| `demo_dump.jsonl` | raw (untagged) demo dump: {d[posts]} further posts, different from the annotated ones |
| `demo_dump.csv` | the same {d[posts]} demo records as CSV with a header |
| `medical_vs_names.annotated.jsonl` | 34 fictional posts written for `tests/test_medical_sample.py`: eponymous conditions, drug nicknames, abbreviations, kinship words and titles beside names (hand-written directly as JSON Lines, not built by this script) |
| `thread_names.annotated.jsonl` | 14 fictional posts in 5 interleaved threads, written for `tests/detect/test_thread_consistency.py` (issue 19): a name found with confidence in one post and repeated elsewhere in its thread or by its author where the context says less (a sentence start, capitals in a header, a sign-off), beside the same words as common words in lower case (`keep the faith`, `a grant`), a title and an eponym (`Graves' disease`); all `NAME` spans (hand-written with inline `[[...]]` marks, not built by this script) |
| `not_persons.annotated.jsonl` | 20 fictional posts written for `tests/test_not_persons_sample.py` (issue 19, item 5): places, organisations, hospitals named after saints, months and weekdays, medical devices and eponyms, acronyms in brackets, a file name and nationalities beside names, and people whose names are places (`Houston`, `Georgia`, `Jordan`); `spans` are the names, `keep` the words that must survive (hand-written with inline markup and converted once to JSON Lines, not built by this script) |
| `lowercase_names.annotated.jsonl` | 30 fictional posts (25 threads) written for issue 19's word-cluster features (`tests/model/test_clusters.py`): names written in lower case, common census names (`kevin`, `maria`) and ones no name list holds (`bri`, `kenz`, `jojo`, `dre`, `tay`, `bubba`, `okafor`), public figures (`beyonce`, `bieber`); 38 name tokens, all `NAME` (hand-written directly as JSON Lines, not built by this script) |
| `name_parts.annotated.jsonl` | 17 fictional posts in five threads written for `tests/test_name_parts_sample.py` (issue 19): signature blocks with middle initials, particles, hyphen and apostrophe names, names in capitals, surname-first headers, sign-off initials, names in hashtags, spelled with separators or masked; `spans` (NAME) and `keep` (words that must stay: titles, the full stop after a name, greetings, closing words, abbreviations). Built by `python3 tools/build_name_parts_sample.py` from the marked-up posts in that script, not by this one |
| `identifiers.annotated.jsonl` | 35 fictional posts written for issue 21 (`tests/evaluation/test_kind_figures.py`, the per-kind table of `docs/accuracy.md`): 43 identifiers of the opt-in kinds in several shapes (`spans` labelled `ADDRESS`: US, UK, Canadian and Australian street addresses with units and postcodes, a PO box; `POSTCODE`: ZIP, ZIP+4, UK, Canadian and Australian postcodes after a cue or a state; `ID`: record, account, member, licence, policy, claim, NHS and order numbers after their cue, and SSNs; `IP`: IPv4 and IPv6; `DATE`: full dates and day-month forms in eleven formats) beside 45 lookalikes that must stay (`keep`, each with its `what`: doses, lab values, years, rooms, weekdays, times, counts, months, rankings, fractions, versions). No names or places are tagged in it. The SSNs are numbers the Social Security Administration voided or reserves for advertising (`219-09-9999`, `987-65-4321`), the IPs private, link-local or documentation ranges; the street addresses and other numbers are invented, any real one they match is a coincidence, and the two postcodes of public institutions (`SW1A 1AA`, `K1A 0B1`) are the ones every postcode example uses (hand-written with inline markup and converted once to JSON Lines, not built by this script) |
| `places_orgs.annotated.jsonl` | 45 fictional posts in 11 threads written for issue 21 (`tests/detect/kinds/test_place_org_names.py`, `tools/score_places_orgs.py`): towns and cities (`PLACE`: after `I live in`, `moved to`, `I'm from`, `near`, in several words, before `, KS`, listed, in lower case) and employers, schools and hospitals (`ORG`: `St. Agnes Hospital`, `Lakeview Elementary`, `University of Leeds`, `I work at Acme Freight`, `an appointment at Mayo`) beside lookalikes that must stay (`keep`: states, countries, eponyms, drugs, months, companies named without a cue, `mayo` the spread) and people whose names are places (`NAME`: `Austin`, `Florence`, `Jackson`, `Chelsea`, `Sydney`, `Savannah`); posts `po07`-`po11` were written after the rules and measured once before joining (see [accuracy.md](../docs/accuracy.md#places-and-organisations-issue-21-opt-in)). The towns and companies are real names used as any board would use them; the hospitals, schools and employers with made-up names (`Acme Freight`, `Dunmore Logistics`, `Saint Brendan Infirmary`) are invented. Hand-written with inline markup and converted once to JSON Lines, not built by this script; `spans` may have the labels `PLACE` and `ORG`, which `mmbdeid evaluate` does not read yet |
| `people_identities.annotated.jsonl` | the development identity sample of issue 30 (person modes): 73 fictional posts in 12 threads on four invented health boards (IVF, dementia caregivers, long COVID, addiction recovery), written before the person-linking rules, to choose them by. 62 people (21 members, 41 others: relatives, doctors, people only mentioned), 240 mentions (221 `NAME`, 19 `USER`), every one with its gold `person`, and 104 words that must stay (`keep`, each with its `what`: `medical`, `word`, `title`, `org`). The hard cases: different people sharing a name across boards and threads (11 names held by 23 people: three Wills beside a Bill, two Hopes, two Arts, three Faiths, a member and someone's sister both Summer), nicknames and misspellings of one person (`Desiree`/`Dez`/`Desirae`, `Penny`/`Pen`, `Stan Kowalski`/`Kowalski, Stanislaw J.`/`KOWALSKI, STAN`/`Stanislaw`), hyphenated surnames, members' own sign-offs and greetings to them, whole and shortened handles and `@`-mentions, word-names beside the same words (`I hope`, `grace period`, `will`, `the art of`), usernames holding ordinary or medical words (`LongHaulerLuis` beside `long hauler`), titles, kinship and pronouns near mentions, medical words that look like names (`Menopur`, `sundowning`, `Al-Anon`), replies, and a member posting on two boards. Built by `python3 tools/build_people_samples.py` from `source/people/people_identities.txt`, not by this script |
| `blind/people_identities_blind.annotated.jsonl` | the blind identity sample of issue 30: 40 fictional posts in 7 threads on three other invented boards, 35 people (12 members, 23 others), 139 mentions, all with a `person`, the same kinds of hard cases in new shapes. Written blind on 2026-11-29, before the rules, and **kept aside**: not to be read or used to choose anything, read once at the end for the final figure (see `blind/README.md`). Built by the same script as the development sample |
| `blind/people_identities_blind2.annotated.jsonl` | the second blind identity sample of issue 30: 45 fictional posts in 8 threads on three other invented boards (type 1 diabetes families, kidney dialysis and transplant, ME/CFS), 39 people (15 members, 24 others), 173 mentions (166 `NAME`, 7 `USER`), all with a `person`, and 56 words that must stay (`keep`: 19 `medical`, 18 `word`, 18 `title`, 1 `org`). The hard cases in new shapes: 8 first names held by several people across boards and threads, nicknames and short forms of one person, misspellings, surname-first and capitalised forms, titled surnames across threads, members' own sign-offs (initials included), whole and shortened handles and `@`-mentions (one of a user who never posts), word-names beside the same words, usernames holding ordinary or medical words, medical words that look like names, replies, and a member posting on two boards. Written blind on 2026-11-29 after the first blind identity sample was read, before the rules changed after that read, and **kept aside**: not to be read or used to choose anything, read once at the end for the final figure (see `blind/README.md`). Built by the same script as the development sample |
| `technical.annotated.jsonl` | the development sample of issue 31's code-aware detection: 52 fictional posts in 10 threads (Stack Overflow-like questions and answers, GitHub-like issues with review comments and `Signed-off-by:` lines), with inline code and fenced code blocks, identifiers (CamelCase, `::`, dotted, snake_case), emoji shortcodes, software product names, versions and file paths, all words that must stay: 166 kept words (`keep`, each with its `what`: `code` 91, `product` 58, `emoji` 14, `word` 3), beside the people in them: 47 spans (36 `NAME`, 11 `USER`: posters' and maintainers' names, sign-offs, `@`-handles). Not blind: use it to choose. Built by `python3 tools/build_check_samples.py` from `source/technical/technical.txt`, not by this script |
| `word_names.annotated.jsonl` | the development sample of issue 31's word-names: 37 fictional posts in 8 threads on four invented boards (caregivers, recovery, diabetes, cancer), written before the rules of `detect/names/cued_names.py`, where first names that are also words (`Hope`, `Will`, `Grace`, `Art`, `Faith`, `Joy`, `Rose`, `Bill`, `Mark`, `Frank`, `May`, `June`, `Summer`, `Sunny`, `Destiny`, `Patience`, `Rich`) stand as names (43 `NAME` spans: after kinship words, before verbs of people, addressed, repeated in the thread) and as words (26 `keep` entries of kind `word`: `I hope so`, `Will you`, `Art therapy`, `Mark the date`); built by `tools/build_word_names_sample.py` from `source/word_names/word_names.txt` |
| `message_structure.annotated.jsonl` | the development sample of issue 31's message-structure steps: 31 fictional posts in 5 threads on 5 invented boards and lists (clinic e-mail with `From:`/`To:` headers, a Notes header, quoted replies and signature blocks; a news desk with names in capitals and a list of people with ages and places; IVF, caregiver and diabetes boards with member sign-offs), 59 `NAME` spans (sign-off initials and short handles alone or after a closing word, `/ T /`, `----mjv`, `-- e`, `xx Pen`, `kisses sky`, a quoted block's own sign-off, display names `"halvard j. penrose" <...>`, header names, `Name, age, place` lines, a repeated `First Last` signature) beside 34 kept words (`keep`: medical abbreviations inside sentences, `my GT test came back`, `CT slot`, `INR`, `FDA`; a lone `GT` closing an e-mail is a name). Not blind: used to choose the rules. Built by `python3 tools/build_check_samples.py` from `source/structure/message_structure.txt`, not by this script |
| `blind/medical_check_blind.annotated.jsonl` | the blind medical check set of issue 31: 118 fictional posts in 22 threads on 11 invented health boards (fertility, dementia care, long COVID, addiction recovery, diabetes, oncology, psychiatry, autoimmune, thyroid, cardiology, vertigo), 476 medical words that must stay (`keep`: `drug` 190, `medical` 132, `lab` 98, `eponym` 42, `org` 14; also 26 `title` and 11 `word`) and 157 spans (154 `NAME`, 3 `USER`): every person and handle named. Written blind on 2026-11-29, before the rules, and **kept aside**: not to be read or used to choose anything, read once at the end for the final figure (see `blind/README.md`). Built by `python3 tools/build_check_samples.py` |
| `blind/general_blind.annotated.jsonl` | the blind thread sample of issue 31's final figure: 66 fictional posts in 13 threads on 6 invented boards and lists (office e-mail with headers and signature blocks, a newsgroup, a discussion list, travel Q&A, two health boards), 182 spans (180 `NAME`, 2 `USER`) and 45 kept words (`keep`: 21 medical words (`drug`, `medical`, `lab`, `eponym`), 21 `word`, 3 `title`). Written blind on 2026-11-29, before the rules, and **kept aside** like the medical check set. Built by `python3 tools/build_check_samples.py` |
| `source/annotated/*.txt` | the hand-written source of the annotated sample, with inline markup |
| `source/demo/*.txt` | the hand-written source of the demo dump (markup there is stripped on output) |

Rebuild everything (including this README's counts) with

    python tools/build_sample.py           # add --lint to list possible tagging slips

`tests/test_sample_corpus.py` rebuilds the files in memory and checks that they match the shipped files.

## Fields

`id`, `board`, `thread`, `author`, `parent`, `time`, `text`, plus `spans` in the annotated file.

* `id`: `<board prefix><thread no>-<post no>`, e.g. `bc007-03` (demo ids start with `demo-`).
  Board prefixes: `bc` breastcancer, `ar` arthritis, `db` diabetes, `th` thyroid.
* `thread`: the thread id, e.g. `bc007`. `author`: the poster's username.
* `parent`: the id of the post this one replies to; `null` (JSON) or empty (CSV) for a thread's
  first post.
* `time`: ISO 8601 local time `YYYY-MM-DDTHH:MM:SS`. The build script generates times from each
  thread's date (deterministic pseudo-random gaps).
* `text`: the post. Paragraphs are separated by a blank line (`\\n\\n`), and a sign-off is often on its own line.
* `spans`: `[{{"start": s, "end": e, "label": "NAME"|"USER"}}, ...]`. Offsets are Python
  string (code point) offsets into `text`, end exclusive, sorted and non-overlapping.
* `person` (optional, on a span): the username of the board member the span refers to, always
  the `author` of some post in the annotated file, e.g.
  `{{"start": 338, "end": 342, "label": "NAME", "person": "RAwarrior"}}` for "Jess" signed by
  RAwarrior. It lets an evaluation check that a pseudonymiser gives one person one identifier
  across all their mentions (sign-off names, greetings, handles). Spans without `person` refer to
  someone who does not post in the sample (relatives, doctors, public figures, or a username of
  a non-poster). Tools that read spans ignore the key. In the identity samples of issue 30 (`people_identities.annotated.jsonl` and
  `blind/`) *every* `NAME` and `USER` span has a `person`: a member's username, or, for anyone
  who never posts there, an id starting with `~` (`~hope-sister-of-jen`), the same for every
  mention of one person and different for different people of the same name.

## Tagging guidelines

* `NAME`: any person's name. That covers first names, surnames, full names, nicknames
  (`Robbie`, `Liz`), misspelled names (`Jenifer`, `Micheal`), names written in lower case
  (`jenny`), names of family members, doctors and nurses (`Dr. {{N:Patel}}`: the title is not
  part of the span), and public figures (`Angelina Jolie`, `Dr. Oz`). A full name written with a
  space (`Mary Jane`, `Angelina Jolie`) is one span. Possessive `'s` is outside the span.
* `USER`: a board username mentioned in the text, spanning the handle without any `@`. This includes
  shortened, re-cased and misspelled forms used to refer to the member (`kay` or `kaygril`
  for `kaygirl`, `hippie` for `hippie96321`, `pinkwarrior` for `pinkwarrior72`, `Tiger` for `tiger`).
  Usernames mentioned by people who never post in the sample (`metsmama`) are USER too.
  A member's real first name, as they sign it (kaygirl signs "Kay"), is tagged `NAME`. So "Hi
  Kay" is NAME and "hey kaygirl" is USER. A lower-case short form of the handle (`kay`) is tagged
  USER. The evaluation counts either label as a name, so this NAME/USER choice does not change
  name precision or recall.
* `person` on `NAME`: set by hand in the source (`{{N:Jess=RAwarrior}}`) when the name is a board
  member's own name. A sign-off belongs to the post's author; a greeting (`Hi Jess`, `Jess,
  welcome`) addresses the author of the parent post or the person being discussed; a mid-text
  mention ("thank you Ron") is whoever the thread uses that name for. The same first name can
  belong to different people on different boards (`Carol` is sunshine on breastcancer and
  diabetes but achyknees' wife on arthritis; `Pete` is PsAPete on arthritis but maggieMae's
  husband on breastcancer); each mark is linked by its context, not by the string.
* `person` on `USER`: a USER span whose text equals an author's username ignoring case
  (`Tiger` -> `tiger`, `marcy_rai` -> `Marcy_RAI`) gets that author automatically. A shortened
  or misspelled handle gets its member by hand, with the same target syntax as NAME
  (`{{U:kay=kaygirl}}`, `{{U:kaygril=kaygirl}}`, `{{U:roxy=roxy22}}`, `{{U:hippie=hippie96321}}`),
  linked by the thread like a NAME mark. Usernames of non-posters (`metsmama`) get none. A target
  that contradicts the author a handle spells (`{{U:hope=tiger}}`) is an error.
* Not tagged: ordinary-word uses of words that are also usernames or names (`I hope`, `Boo hoo`,
  `Breezy little recovery`, `Grace under pressure`, `Have faith`, `June 3rd`, `the next bill`,
  sentence-initial `Will ...`, `Here comes the sunshine`, `Eye of the tiger`). Also not tagged: drug names, even when
  capitalised (`Arimidex`, `Humira`, `Lantus`), eponymous diseases (`Hashimoto's`,
  `Graves`, `Crohn's`), product and company names, and pets' names (none occur in this
  sample). E-mail addresses, URLs and phone numbers are never tagged, even when they contain a
  name. The tool removes them by pattern.

## Markup

    === <board> <YYYY-MM-DD> <thread title>     a new thread on <board> (title is not output)
    ### <author>                                 a new post, replying to the thread's first post
    ### <author> > 3                             a new post, replying to post 3 of the thread
    {{N:Kay}}                                      NAME span
    {{N:Kay=kaygirl}}                              NAME span of board member kaygirl (person "kaygirl")
    {{U:kaygirl}}                                  USER span, e.g. @{{U:kaygirl}} (person "kaygirl")
    {{U:kay=kaygirl}}                              USER span of a short form of kaygirl's handle

Braces are used only for markup, so any other `{{` or `}}` is an error. The build script checks
that every span's text is exactly its markup, that spans lie inside the text on word boundaries
and don't overlap, that threads have 3 to 10 posts, and that reply targets exist. A `=person`
target that is not the author of some post (in the same output) is an error: the build prints
`file:line` and exits 1. In the demo sources targets are allowed and stripped like all markup.

## Counts (computed by `tools/build_sample.py`)

Annotated sample (`health_boards.annotated.jsonl`):

| | |
|---|---|
| posts | {a[posts]} |
| boards | {a_boards} |
| threads | {a[threads]} |
| distinct authors | {a[authors]} (posting on two or more boards: {a_multi}) |
| word tokens | {a[tokens]} |
| NAME spans / tokens | {a[name_spans]} / {a[name_tokens]} ({a[distinct_name_strings]} distinct strings) |
| USER spans / tokens | {a[user_spans]} / {a[user_tokens]} ({a[distinct_user_strings]} distinct strings) |
| spans with a `person` | {a[spans_person]} (NAME {a[name_spans_person]} of {a[name_spans]}, USER {a[user_spans_person]} of {a[user_spans]}) |
| distinct persons mentioned | {a[distinct_persons]} of {a[authors]} authors |
| words per post (min / median / max) | {a[words_min]} / {a[words_median]} / {a[words_max]} |

Demo dump (`demo_dump.jsonl`, `demo_dump.csv`):

| | |
|---|---|
| posts | {d[posts]} |
| boards | {d_boards} |
| threads | {d[threads]} |
| distinct authors | {d[authors]} |
| words per post (min / median / max) | {d[words_min]} / {d[words_median]} / {d[words_max]} |

Tokens are counted as `\\w+` runs (apostrophe-joined), so a two-word full name is two NAME tokens.
"""


def _boards(s):
    return ", ".join(f"{b} ({n})" for b, n in s["boards"].items())


def render_readme(a, d):
    return README_TEMPLATE.format(
        a=a, d=d, a_boards=f"{len(a['boards'])}: " + _boards(a),
        d_boards=f"{len(d['boards'])}: " + _boards(d),
        a_multi=", ".join(a["multi_board_authors"]) or "none")


def build_all():
    """Return {path: content} for every generated file, plus the stats."""
    ann = build_records("annotated")
    demo = build_records("demo", id_prefix="demo-")
    a_stats, d_stats = stats(ann), stats(demo)
    ann_texts = {r["text"] for r in ann}
    for r in demo:
        if r["text"] in ann_texts:
            raise MarkupError(f"{r['_where']}: demo post duplicates an annotated post")
    files = {
        ANNOTATED_OUT: jsonl(annotated_json(r) for r in ann),
        DEMO_JSONL: jsonl(demo_json(r) for r in demo),
        DEMO_CSV: csv_text(demo_json(r) for r in demo),
        README: render_readme(a_stats, d_stats),
    }
    return files, ann, demo, a_stats, d_stats


def lint(records):
    tagged = {}
    for r in records:
        for s in r["spans"]:
            tagged.setdefault(s["_markup"], s["label"])
    authors = {r["author"] for r in records}
    warnings = []
    for r in records:
        covered = [(s["start"], s["end"]) for s in r["spans"]]

        covered += [(m.start(), m.end()) for m in PATTERN_CHUNK_RE.finditer(r["text"])]

        def free(a, b):
            return not any(a < e and s < b for s, e in covered)

        for string in tagged:
            if string in LINT_AMBIGUOUS:
                continue
            for m in re.finditer(r"(?<!\w)" + re.escape(string) + r"(?!\w)", r["text"]):
                if free(m.start(), m.end()):
                    warnings.append(f"{r['_where']} [{r['id']}]: untagged {string!r} (tagged {tagged[string]} elsewhere)")
        for a in authors:
            if a.lower() in {w.lower() for w in LINT_AMBIGUOUS}:
                continue
            for m in re.finditer(r"(?<!\w)" + re.escape(a) + r"(?!\w)", r["text"], re.I):
                if free(m.start(), m.end()) and m.group(0) not in tagged:
                    warnings.append(f"{r['_where']} [{r['id']}]: untagged username {m.group(0)!r}")
    warnings += lint_persons(records)
    return sorted(set(warnings))


def lint_persons(records):
    """A NAME or USER string with a person in some mark of a thread but not (the same) in
    another."""
    seen = {}
    for r in records:
        for s in r["spans"]:
            seen.setdefault((r["thread"], s["label"], s["_markup"]), []).append(
                (s.get("person"), s["_where"], r["id"]))
    warnings = []
    for (thread, _label, string), uses in seen.items():
        people = {p for p, _, _ in uses}
        if len(people) > 1 and people != {None}:
            for p, where, pid in uses:
                warnings.append(f"{where} [{pid}]: {string!r} -> {p or 'no person'} "
                                f"(thread {thread} also has {sorted(x or 'no person' for x in people - {p})})")
    return warnings


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lint", action="store_true", help="print possible tagging inconsistencies")
    ap.add_argument("--check", action="store_true", help="only check that shipped files are up to date")
    args = ap.parse_args(argv)
    try:
        files, ann, demo, a_stats, d_stats = build_all()
    except TargetError as exc:
        for line in str(exc).splitlines():
            print(f"build_sample: {line}", file=sys.stderr)
        return 1
    except MarkupError as exc:
        print(f"build_sample: {exc}", file=sys.stderr)
        return 2
    if args.check:
        stale = [p for p, c in files.items() if not p.exists() or p.read_text(encoding="utf-8") != c]
        for p in stale:
            print(f"build_sample: out of date: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for path, content in files.items():
        path.write_text(content, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    print("annotated:", json.dumps(a_stats))
    print("demo:", json.dumps({k: v for k, v in d_stats.items() if not k.endswith("strings")}))
    if args.lint:
        for w in lint(ann + demo):
            print("LINT", w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
