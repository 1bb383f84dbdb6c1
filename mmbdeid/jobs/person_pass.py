"""The person modes after detection: the names linked to people in the main process, then
pass 3 writing the posts, with the work that does not depend on who is who in the workers.

A post's rewriting has two halves. The first (its spans completed with the other
occurrences of its thread's and author's words and with the map's names the model missed
there, then its mentions of people found: most of the time) is the same whatever came
before, so the workers do it, chunk by chunk (:class:`ChunkMentions`). The second (each
mention's person, and its pseudonym or surrogate) stays in the main process, in input
order: the resolver learns the names it meets, and a surrogate is drawn once and never
given to two people. So the output is the same whatever ``--jobs`` is.
"""
import hashlib
import json
from collections import Counter
from dataclasses import replace
from typing import Iterator, List, Optional, Sequence, Tuple

from ..files.atomic import optional_output
from ..kinds import PERSON_LABELS
from ..output.operators import OPERATORS
from ..spans import Span, join
from ..text.document import Document
from .chunks import chunked, mention_counts
from .config import DetectionConfig, RunConfig
from .progress import Progress, StepProgress


def forms_payload(forms: Sequence[str]) -> Tuple[str, bytes]:
    """The map's names as the workers get them: (SHA-256, bytes)."""
    content = json.dumps(list(forms), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(content).hexdigest(), content


class ChunkMentions:
    """Pass 3 of the person modes in one process: per post ``(fields, spans, words)``
    (``words``: its scopes' words to look for, or None), its spans completed and its
    mentions of people found (:class:`~mmbdeid.output.person_mentions.MentionFinder`).
    ``run``: the run it serves (an engine caching it per run forgets it by that);
    ``forms``: the map's names (:func:`forms_payload`), checked against ``digest``."""

    def __init__(self, run: str, digest: str, forms: bytes, detection: DetectionConfig):
        from ..output.person_mentions import MentionFinder
        from .consistency import ChunkExtender
        if hashlib.sha256(forms).hexdigest() != digest:
            raise ValueError("the person map's names arrived damaged")
        self.finder = MentionFinder(json.loads(forms.decode("utf-8")), detection.allow,
                                    detection.steps)
        self.analyzer = (ChunkExtender(run, replace(detection, render_placeholders=False))
                         .analyzer if detection.runs("consistency") else None)

    def __call__(self, items: Sequence[Tuple[dict, List[Span], Optional[dict]]]) -> list:
        """Per post: its spans, its mentions, and the summary's count of what will be
        removed (:func:`removed_counts`)."""
        results = []
        for fields, spans, words in items:
            if words:
                spans = self.analyzer.extend(Document.from_post(fields), spans, words)
            spans, mentions = self.finder(fields["text"], spans)
            results.append((spans, mentions, removed_counts(fields["text"], spans, mentions)))
        return results


def removed_counts(text: str, spans: Sequence[Span], mentions: Sequence) -> Counter:
    """The summary's ``removed`` count of a post the person operators will rewrite: each
    mention's parts and each other identifier, in text order, as
    :meth:`~mmbdeid.output.operators.PersonOperator.write` replaces them."""
    replaced = [(join(m.parts), m.parts) for m in mentions]
    replaced += [(span, (span,)) for span in spans if span.label not in PERSON_LABELS]
    replaced.sort(key=lambda item: item[0].start)
    return mention_counts(text, [part for _, parts in replaced for part in parts])


def scrub_people(config: RunConfig, engine, detected: Iterator, watch, summary,
                 reread, post_output, spans_line) -> None:
    """Pass 2's posts (``detected``) linked, then pass 3 over ``reread()`` (the dump
    again) writing ``post_output``; ``spans_line`` makes a line of the spans file."""
    from ..people.linker import Linker
    from ..people.personmap import PersonMap
    from .consistency import Evidence, FoundSpans

    linker = Linker(config.scope)
    evidence = Evidence(config.detection) if config.detection.runs("consistency") else None
    with FoundSpans() as found:
        for post in detected:
            linker.observe(post.fields, post.spans, post.mentions)
            if evidence is not None:
                evidence.observe(post.fields, post.spans)
            found.add(post.fields, post.spans)
        people = (PersonMap.read(config.person_map) if config.person_map
                  else linked(linker, config, summary))
        seed = {"seed": config.seed} if OPERATORS[config.mode].seeded else {}
        operator = OPERATORS[config.mode](people, linker.scopes, config.scope,
                                          allow=config.detection.allow,
                                          steps=config.detection.steps, warn=summary.warn,
                                          **seed)

        def work() -> Iterator[Tuple[dict, List[Span], Optional[dict]]]:
            for index, record, spans in found.read_back(reread(), watch):
                words = (evidence.words_for(record.fields, index, spans)
                         if evidence is not None else None)
                yield record.fields, spans, words

        factory, args = engine.mention_finder(config.detection,
                                              *forms_payload(operator.member_forms))
        progress = Progress("pass 3/3 writing", total=found.posts, quiet=config.quiet)
        # the spans carry each mention's person id: private, like the map
        with post_output(config, summary) as writer, \
                optional_output(config.spans_path, private=True) as spans_out:
            for chunk, results in engine.map_ordered(factory, args, chunked(work())):
                for (fields, _, _), (spans, mentions, removed) in zip(chunk, results):
                    rewritten, replaced = operator.write(fields, spans, mentions)
                    writer.write(rewritten)
                    summary.posts += 1
                    summary.removed.update(removed)
                    if spans_out is not None:
                        spans_out.write(spans_line(fields["id"], replaced))
                progress.update(len(chunk))
            progress.close()
            watch.check_file("pass 3/3")    # appended to after it was read?
    summary.people = len(people)


def linked(linker, config: RunConfig, summary):
    """The linker's person map, with the linking's progress on stderr."""
    with StepProgress("linking", quiet=config.quiet, interval=10.0) as progress:
        return linker.person_map(warn=summary.warn, progress=progress)
