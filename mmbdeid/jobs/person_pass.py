"""The person modes after detection: the names linked to people in the main process, then
pass 3 writing the posts, with all that does not depend on the order of the posts in the
workers.

Once the map is fixed (linked, or read with ``--map``), it goes to every worker with who
posts in each scope group. The workers, chunk by chunk (:class:`ChunkMentions`), complete
each post's spans (the other occurrences of its thread's and author's words, the map's
names the model missed there), find its mentions of people and resolve each on the map
(:meth:`~mmbdeid.people.resolver.Resolver.route` and ``answer``): most of the work, the
same whatever came before. The main process settles each answer in input order
(:meth:`~mmbdeid.people.resolver.Resolver.settle`: a name met first in pass 3 gets the
next ``P`` number, and what such a new person could change is resolved again) and writes
the values: a surrogate is drawn once and never given to two people. So the output is the
same whatever ``--jobs`` is, and the same as resolving every mention in the main process.
"""
import hashlib
import pickle
from collections import Counter
from dataclasses import replace
from typing import Iterator, List, Optional, Sequence, Tuple

from ..errors import MmbdeidValueError
from ..kinds import PERSON_LABELS
from ..output.operators import OPERATORS, SurrogateOperator
from ..spans import Span, join
from ..text.document import Document
from .chunks import chunked, mention_counts
from .config import DetectionConfig, RunConfig
from .progress import Progress, StepProgress


def map_payload(people, members, scope: str) -> Tuple[str, bytes]:
    """The fixed person map, who posts in each group of ``scope`` and the scope, as the
    workers get them: (SHA-256, bytes). Pickled: the map's order is its people's order,
    which resolving depends on."""
    content = pickle.dumps((people, members, scope), protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.sha256(content).hexdigest(), content


class ChunkMentions:
    """Pass 3 of the person modes in one process: per post ``(fields, spans, words,
    addressees)`` (``words``: its scopes' words to look for, or None; ``addressees``:
    whom it may speak to), its spans completed, its mentions of people found
    (:class:`~mmbdeid.output.person_mentions.MentionFinder`), each answered on the map
    (:meth:`~mmbdeid.people.resolver.Resolver.answer`), and the count of what will be
    removed. ``run``: the run it serves (an engine caching it per run forgets it by
    that); ``payload``: the map (:func:`map_payload`), checked against ``digest``."""

    def __init__(self, run: str, digest: str, payload: bytes, detection: DetectionConfig):
        from ..output.operators import finder_of
        from ..people.resolver import Resolver
        from .thread_names import ChunkExtender, runs_thread_names
        if hashlib.sha256(payload).hexdigest() != digest:
            raise MmbdeidValueError("the person map arrived damaged")
        people, members, scope = pickle.loads(payload)
        self.finder = finder_of(people, detection.chain.allow, detection.chain.steps)
        self.resolver = Resolver(people, members, scope)
        self.analyzer = (ChunkExtender(run, replace(detection, render_placeholders=False))
                         .analyzer if runs_thread_names(detection) else None)

    def __call__(self, items: Sequence[Tuple[dict, List[Span], Optional[dict], List[str]]]
                 ) -> list:
        results = []
        for fields, spans, words, addressees in items:
            if words:
                spans = self.analyzer.extend(Document.from_post(fields), spans, words)
            spans, mentions = self.finder(fields["text"], spans, fields, addressees)
            answers = []
            for mention in mentions:
                route = self.resolver.route(mention, fields, addressees)
                answers.append(route if isinstance(route, str)
                               else (route,) + self.resolver.answer(route))
            results.append((spans, mentions, removed_counts(fields["text"], spans, mentions),
                            answers))
        return results


def removed_counts(text: str, spans: Sequence[Span], mentions: Sequence) -> Counter:
    """The summary's ``removed`` count of a post the person operators will rewrite: each
    mention's parts and each other identifier, in text order, as
    :meth:`~mmbdeid.output.operators.PersonOperator.write` replaces them."""
    replaced = [(join(m.parts), m.parts) for m in mentions]
    replaced += [(span, (span,)) for span in spans if span.label not in PERSON_LABELS]
    replaced.sort(key=lambda item: item[0].start)
    return mention_counts(text, [part for _, parts in replaced for part in parts])


def people_rewritten(config: RunConfig, engine, detected: Iterator, watch, summary
                     ) -> Iterator[Tuple[dict, dict, list]]:
    """Pass 2's posts (``detected``) linked, then pass 3 over the dump read again: ``(fields, rewritten record, what it replaced)`` per post, in input order, the
    summary's ``removed`` counted (when it has one)."""
    from ..people.gender_cues import GenderEvidence
    from ..people.linker import Linker
    from ..people.personmap import PersonMap
    from .first_pass import reread
    from ..detect.thread_names import DumpEvidence
    from .thread_names import FoundSpans

    linker = Linker(config.scope)
    # surrogates: what the text says of each person (Mr., my sister, he) is read in pass 2
    surrogates = issubclass(OPERATORS[config.mode], SurrogateOperator)
    genders = GenderEvidence() if surrogates else None
    evidence = DumpEvidence.of(config.detection.chain)
    with FoundSpans() as found:
        for post in detected:
            linker.observe(post.fields, post.spans, post.mentions)
            if evidence is not None:
                evidence.observe(post.fields, post.spans)
            if genders is not None:
                genders.observe(post.fields["text"], post.spans, post.mentions)
            found.add(post.fields, post.spans)
        if config.person_map:
            people = PersonMap.read(config.person_map)
            people.avoid(linker.real_strings())     # as the linker's own map does
        else:
            people = linked(linker, config, summary)
        seed = {"seed": config.seed} if OPERATORS[config.mode].seeded else {}
        if surrogates:
            seed.update(evidence=genders, mark=config.mark_surrogates)
        operator = OPERATORS[config.mode](people, linker.scopes, config.scope,
                                          allow=config.detection.chain.allow,
                                          steps=config.detection.chain.steps, warn=summary.warn,
                                          **seed)

        def work() -> Iterator[Tuple[dict, List[Span], Optional[dict], List[str]]]:
            for index, record, spans in found.read_back(reread(config), watch):
                words = (evidence.words_for(record.fields, index, spans)
                         if evidence is not None else None)
                yield record.fields, spans, words, linker.scopes.addressees(record.fields)

        factory, args = engine.mention_finder(config.detection, *map_payload(
            people, linker.scopes.members_of(config.scope), config.scope))
        progress = Progress("pass 3/3 writing", total=found.posts, quiet=config.quiet)
        for chunk, results in engine.map_ordered(factory, args, chunked(work())):
            for item, (spans, mentions, removed, answers) in zip(chunk, results):
                fields = item[0]
                rewritten, replaced = operator.write(fields, spans, mentions, answers)
                if summary.removed is not None:
                    summary.removed.update(removed)
                yield fields, rewritten, replaced
            progress.update(len(chunk))
        progress.close()
        watch.check_file("pass 3/3")    # appended to after it was read?
    summary.people = len(people)


def linked(linker, config: RunConfig, summary):
    """The linker's person map, with the linking's progress on stderr."""
    with StepProgress("linking", quiet=config.quiet, interval=10.0) as progress:
        return linker.person_map(warn=summary.warn, progress=progress)
