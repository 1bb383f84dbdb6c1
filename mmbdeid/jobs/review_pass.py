"""``review``: the list of every distinct string scrub removes, and the review page.

The review reads what scrub writes (:func:`~mmbdeid.jobs.passes.scrubbed_posts`: the same
chain, the same consistency pass and, for ``--mode pseudonym`` or ``surrogate``, the same
linking and spreading of the map's names), so a string on the page is one scrub removes
and a near-miss is one it leaves: one code path decides both. The near-misses and the
unknown words are found in pass 2 by the workers (:mod:`mmbdeid.detect.leftovers`) and
kept only where scrub's final removals leave them.
"""
import time
from dataclasses import replace
from typing import Dict, Iterator, List, NamedTuple, Optional, Tuple

from ..files.atomic import optional_output
from ..files.tables import table_output
from ..kinds import PERSON_LABELS
from ..output.review_page import PageCounts, build_review_page
from ..output.review_rows import REVIEW_COLUMNS, PageGatherer, ReviewedString
from ..spans import CRF, Span, join
from .collection import fewer_collections
from .config import RunConfig
from .chunks import Detected
from .passes import Summary, detected_posts, scrub_setup, scrubbed_posts


class ReviewPage(NamedTuple):
    """``review --html``: the page's path, the threshold it states, and how many posts
    with removals it shows at most (the table of strings covers all)."""
    path: str
    threshold: float
    max_posts: int


class ReviewedPost(NamedTuple):
    fields: dict
    removed: List[Span]     # the spans scrub replaced (each detected span: a part)
    near: List[Span]        # the near-misses scrub leaves
    unknown: List[Span]     # the unknown words of a post scrub leaves whole


def reviewed_posts(config: RunConfig, engine, summary: Summary, leftovers: bool
                   ) -> Iterator[ReviewedPost]:
    """Each post as scrub leaves it (``config.mode``), in input order; with
    ``leftovers``, its near-misses and unknown words."""
    config, passes, work = scrub_setup(replace(config, detection=replace(
        config.detection, leftovers=leftovers)))
    found: Dict[int, Tuple[list, list]] = {}    # pass 2's leftovers, by post, till pass 3

    def noting(detected: Iterator[Detected]) -> Iterator[Detected]:
        for index, post in enumerate(detected):
            if post.near or post.unknown:
                found[index] = (post.near or [], post.unknown or [])
            yield post

    with detected_posts(config, engine, summary, passes, work) as (detected, watch):
        for index, (fields, _, replaced) in enumerate(
                scrubbed_posts(config, engine, summary, noting(detected), watch)):
            removed = [part for r in replaced for part in r.parts]
            near, unknown = found.pop(index, ([], []))
            near = [s for s in near
                    if not any(s.start < r.end and r.start < s.end for r in removed)]
            yield ReviewedPost(fields, removed, near, [] if removed else unknown)


@fewer_collections()
def review_dump(config: RunConfig, engine, page: Optional[ReviewPage] = None) -> Summary:
    """Every distinct string scrub removes in ``config.mode`` (names and usernames,
    compared case-insensitively) with its count, mean probability, commonest label, the
    context of its first occurrence and the ids of the posts holding it, most frequent
    first, at ``config.output`` in ``config.output_format`` (a table format:
    :mod:`mmbdeid.files.tables`); with ``page``, the review page too.

    A string is a mention as the person modes see it (:func:`~mmbdeid.people.mentions.
    name_groups`): ``Mary Jane`` and ``Arthur C. Clarke`` are one string, its probability
    its highest token's, but a word that does not look like part of the name (``Dr``,
    ``Ouch``, ``Thanks``) stays a string of its own, so it can be struck. The page also
    shows the e-mails, URLs and phone numbers removed by pattern, and what may be left:
    the near-misses and the posts with no removal but a capitalised word not in the
    dictionary."""
    from ..detect.leftovers import NEAR_DIVISOR
    from ..people.mentions import name_groups

    started = time.monotonic()
    summary = Summary(verb="reviewed")
    strings: Dict[str, ReviewedString] = {}          # by the folded string
    gathered = PageGatherer(page.max_posts, CRF) if page is not None else None
    for number, post in enumerate(reviewed_posts(config, engine, summary, page is not None)):
        summary.posts += 1
        text = post.fields["text"]
        post_id = str(post.fields["id"])
        person_spans = sorted((s for s in post.removed if s.label in PERSON_LABELS),
                              key=lambda s: (s.start, s.end))
        mentions = [join(group) for group in name_groups(text, person_spans)]
        shown = None                    # the post's index on the page, if it is shown
        if gathered is not None:
            removals = mentions + [s for s in post.removed if s.label not in PERSON_LABELS]
            shown = gathered.add(number, post.fields, removals, post.near,
                                 post.unknown)
        for span in mentions:
            string = text[span.start:span.end]
            entry = strings.setdefault(string.casefold(), ReviewedString())
            entry.add(span, string, number, post_id, text, shown)
    rows = sorted(strings.values(), key=lambda e: (-e.count, e.string))
    with table_output(config.output, config.output_format, REVIEW_COLUMNS,
                      private=True) as write_row, \
            optional_output(page and page.path, private=True) as page_handle:
        for entry in rows:
            write_row(entry.row())
        if page_handle is not None:
            near = gathered.near_strings()
            page_handle.write(build_review_page(
                gathered.posts, [entry.page_string() for entry in rows],
                PageCounts(page.threshold, summary.posts, gathered.with_removals,
                           gathered.unremoved, len(near), page.threshold / NEAR_DIVISOR),
                near))
    summary.seconds = time.monotonic() - started
    return summary

