#!/usr/bin/env python3
"""Build ``corpora_samples/name_parts.annotated.jsonl``: fictional threads (written for this
project, no real person's posts) with the name patterns of issue 19 (signature blocks with
middle initials, particles, hyphens and apostrophes, capitals, surname-first headers,
sign-off initials, names in hashtags, spelled with separators or masked), hand-tagged.

    python3 tools/build_name_parts_sample.py [-o corpora_samples/name_parts.annotated.jsonl]

Markup in the posts below: ``{N:text}`` a NAME span, ``{K:text}`` a word that must be kept
(a title, the full stop after a name, a greeting or closing word, an abbreviation, a
medical word, a hashtag that holds no name). Records: ``id``, ``board``, ``thread``,
``author``, ``parent``, ``text``, ``spans`` (NAME) and ``keep`` (``start``, ``end``,
``text``), as in ``medical_vs_names.annotated.jsonl``.
"""
import argparse
import json
import os
import re
from typing import List, Tuple

OUTPUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "corpora_samples", "name_parts.annotated.jsonl")

# (id, board, thread, author, parent, marked-up text)
POSTS = [
    # np01: a mail thread: surname-first header, signature blocks, particles, suffix, initials
    ("np01-01", "work", "np01", "maren.o", None,
     "{N:OYELARAN}, {N:MAREN} 03/14/2019 09:32 AM\n"
     "Hi {N:Tobias}{K:,}\n"
     "The revised schedule for the Lakeview site is attached{K:.} Could you "
     "check the loading dock hours before {K:Friday}?\n"
     "{K:Thanks},\n"
     "{N:Maren T. Oyelaran}\n"
     "{K:Acme} {K:Freight}"),
    ("np01-02", "work", "np01", "tobias.w", "np01-01",
     "{N:Maren}{K:,}\n"
     "The hours look right to me. I copied {N:Ana de la Fuente} at the depot{K:.}\n"
     "{K:Best} {K:regards},\n"
     "{N:Tobias Wendeborn}"),
    ("np01-03", "work", "np01", "ana.f", "np01-01",
     "{N:Maren}, {N:Tobias}{K:,}\n"
     "Dock B closes at six on Fridays now. {N:Pieter van Houten} will sign "
     "for the pallets{K:.}\n"
     "{K:Thx} {N:adf}"),
    ("np01-04", "work", "np01", "maren.o", "np01-03",
     "Perfect, thank you both. I will let {N:Howard K. Pemberton Jr}{K:.} know.\n"
     "{N:MTO}"),
    # np02: a health board: titles, hyphen and apostrophe names, a masked name, sign-offs
    ("np02-01", "breastcancer", "np02", "bluebird44", None,
     "Had my port placed today. {K:Dr}{K:.} {N:Adeyemi-Larsson} did it and "
     "the nurse, {N:Siobhan O'Leary}, was so gentle{K:.}\n"
     "Anyone else get bruising after?\n"
     "{K:-} {N:D}"),
    ("np02-02", "breastcancer", "np02", "ironwillow", "np02-01",
     "Yes, bruising for a week. {N:Gina d'Amato} at my infusion center says "
     "ice helps{K:.} Hugs to you{K:.}\n"
     "{N:J.S}."),
    ("np02-03", "breastcancer", "np02", "bluebird44", "np02-02",
     "Thanks! My sister {N:Noor} came with me{K:.} She says hi to "
     "{N:M*rgit} from group too{K:.}\n"
     "TIA for any tips on sleeping with it."),
    ("np02-04", "breastcancer", "np02", "ironwillow", "np02-03",
     "Sleep on the other side with a small pillow{K:.} {K:HTH}"),
    # np03: names in hashtags and spelled out with separators
    ("np03-01", "diabetes", "np03", "sugarfree_sam", None,
     "Walk for a cure on Saturday! #{N:TeamMaren} #{N:walkforwinifred} "
     "{K:#}{K:diabetesawareness}"),
    ("np03-02", "diabetes", "np03", "pumpkinpie", "np03-01",
     "Count me in{K:.} Tell {N:M.a.r.e.n} I said hello{K:.} #{K:T1D} #{K:blessed}"),
    ("np03-03", "diabetes", "np03", "sugarfree_sam", "np03-02",
     "Will do! My son {N:R-u-p-e-r-t} wants to come too{K:.}\n"
     "{K:Love},\n"
     "{N:Sam}"),
    # np04: a list of volunteers, surname first and in capitals; particles
    ("np04-01", "arthritis", "np04", "kneesofsteel", None,
     "Volunteers for the May meeting:\n"
     "{N:Okafor}, {N:Chidinma}\n"
     "{N:Lindqvist}, {N:Bertil}\n"
     "{N:DELACROIX}, {N:JEANNE}\n"
     "Please reply by {K:Monday}{K:.}"),
    ("np04-02", "arthritis", "np04", "ruthiebee", "np04-01",
     "Put me down too. {N:Ruth Abernathy-Quinn}{K:.} My rheumatologist, "
     "{K:Dr}{K:.} {N:Mahmoud al-Rashidi}, will give the talk on {K:methotrexate}{K:.}"),
    ("np04-03", "arthritis", "np04", "kneesofsteel", "np04-02",
     "Wonderful. {N:Bertil} will bring coffee{K:.} Thank you {N:Ruth}{K:.} "
     "{N:Tomasz}, are you coming?\n"
     "{K:~}{N:KT}"),
    # np05: sign-off initials beside abbreviations and interjections that stay
    ("np05-01", "thyroid", "np05", "butterflyneck", None,
     "My {K:TSH} came back at 4.2 and my {K:T4} is low normal{K:.} Should I "
     "ask about a dose change?\n"
     "{K:OK} I know it depends{K:.}\n"
     "{N:LW}"),
    ("np05-02", "thyroid", "np05", "slowmetab", "np05-01",
     "Ask for a {K:T3} too. My {K:endo} raised mine by 25 mcg{K:.}\n"
     "{K:xoxo}"),
    ("np05-03", "thyroid", "np05", "butterflyneck", "np05-02",
     "Will do, thanks{K:.} {K:Ugh}, the waiting is the worst{K:.}\n"
     "{K:-} {N:L}"),
]

MARK = re.compile(r"\{([NK]):([^{}]*)\}")


def parse(markup: str) -> Tuple[str, List[Tuple[int, int]], List[Tuple[int, int]]]:
    """The text of a marked-up post, its NAME spans and its kept words."""
    pieces: List[str] = []
    spans: List[Tuple[int, int]] = []
    keep: List[Tuple[int, int]] = []
    position = length = 0
    for match in MARK.finditer(markup):
        pieces.append(markup[position:match.start()])
        length += match.start() - position
        (spans if match.group(1) == "N" else keep).append(
            (length, length + len(match.group(2))))
        pieces.append(match.group(2))
        length += len(match.group(2))
        position = match.end()
    pieces.append(markup[position:])
    return "".join(pieces), spans, keep


def records() -> List[dict]:
    built = []
    for post_id, board, thread, author, parent, markup in POSTS:
        text, spans, keep = parse(markup)
        built.append({"id": post_id, "board": board, "thread": thread, "author": author,
                      "parent": parent, "text": text,
                      "spans": [{"start": s, "end": e, "label": "NAME"} for s, e in spans],
                      "keep": [{"start": s, "end": e, "text": text[s:e]} for s, e in keep]})
    return built


def jsonl() -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=OUTPUT)
    args = parser.parse_args(argv)
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(jsonl())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
