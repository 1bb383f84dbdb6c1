"""The leak report of a marked sample (``mmbdeid estimate report``): the marked posts read
and matched with the draw's settings, the leak share with its 95% intervals
(:mod:`.leak_estimate`), and everything an ethics application cites about it, as one
dict (written as JSON, and as Markdown by :mod:`.leak_report_text`).

A post leaks when a person marked at least one span in it (of the ``labels`` counted, if
given), other than a span over a placeholder the scrub wrote. The marks are reported by
post id and label only, never their text, so the report holds no name and can be
shared."""
import datetime
import json
from collections import Counter
from typing import Dict, List, NamedTuple, Optional, Sequence

from ..errors import InputError
from ..files.corpora import file_sha256, read_annotated
from ..text.placeholders import MASK, PLACEHOLDER
from .leak_draw import DRAW_KIND, text_digest
from .leak_estimate import (CONFIDENCE, clopper_pearson, more_posts_for_bound,
                            posts_for_bound, upper_bound, wilson)

DEFAULT_TARGET = 0.01


class MarkedPost(NamedTuple):
    id: str
    line: int
    labels: List[str]          # the labels of its marked spans, one per span
    text_sha256: str = ""      # its text's fingerprint (leak_draw.text_digest)
    on_placeholders: int = 0   # spans over nothing but what the scrub wrote: no leak


def is_scrubbed(text: str) -> bool:
    """Whether a marked string is only what a scrub wrote (``[NAME]``, ``[U12]``,
    ``[NAME:1a2b3c4d5e6f]``, ``*****``): a page that pre-marks placeholders, or a reader
    who marks one, marks no leak."""
    text = text.strip()
    return bool(PLACEHOLDER.fullmatch(text) or MASK.fullmatch(text))


def read_marked(source) -> List[MarkedPost]:
    """The posts of an annotated file (every record needs ``spans``), with distinct ids."""
    posts: List[MarkedPost] = []
    lines: Dict[str, int] = {}
    for post in read_annotated(source):
        record = post.record
        if record.id in lines:
            raise InputError("post %r is marked twice (also on line %d): one record a post"
                             % (record.id, lines[record.id]), str(source), record.line)
        lines[record.id] = record.line
        scrubbed = [is_scrubbed(record.text[span.start:span.end]) for span in post.spans]
        posts.append(MarkedPost(record.id, record.line,
                                [span.label for span, s in zip(post.spans, scrubbed) if not s],
                                text_digest(record.text), sum(scrubbed)))
    return posts


def read_draw_info(path: str) -> dict:
    """The settings file ``estimate draw`` wrote beside the sample, checked."""
    try:
        with open(path, encoding="utf-8") as handle:
            info = json.load(handle)
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text: not a draw's settings file", path) from None
    except ValueError as error:
        raise InputError("not valid JSON (%s): not a draw's settings file"
                         % getattr(error, "msg", error), path) from None
    if not isinstance(info, dict) or info.get("kind") != DRAW_KIND:
        raise InputError("not the settings file of 'mmbdeid estimate draw' (the "
                         "SAMPLE.meta.json written beside the sample)", path)
    ids, digests = info.get("ids"), info.get("text_sha256")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise InputError("'ids' must be the list of the drawn posts' ids", path)
    if digests is not None and (not isinstance(digests, list) or len(digests) != len(ids)):
        raise InputError("'text_sha256' must hold one fingerprint per drawn id", path)
    return info


def check_against_draw(posts: Sequence[MarkedPost], info: dict, marked: str,
                       draw_info: str) -> None:
    """Every marked post was drawn, and every drawn post is marked: the share is then
    that of the whole random sample, not of a chosen part of it."""
    drawn = dict(zip(info["ids"], info.get("text_sha256") or [None] * len(info["ids"])))
    for post in posts:
        if post.id not in drawn:
            raise InputError("post %r is not in the draw of %s: mark the sample that "
                             "draw wrote" % (post.id, draw_info), marked, post.line)
        if drawn[post.id] not in (None, post.text_sha256):
            raise InputError("post %r has another text than the one drawn (%s): mark the "
                             "sample that draw wrote, not the dump before scrubbing or "
                             "another scrub of it" % (post.id, draw_info), marked, post.line)
    missing = set(drawn).difference(post.id for post in posts)
    if missing:
        first = [i for i in info["ids"] if i in missing][:3]
        raise InputError("%d of the %d drawn posts are not in it (%s%s): a share of part "
                         "of the sample is not the random sample's; mark them all"
                         % (len(missing), len(drawn), ", ".join(repr(i) for i in first),
                            ", ..." if len(missing) > len(first) else ""), marked)


def leak_report(marked, posts: Sequence[MarkedPost], info: Optional[dict],
                labels: Optional[Sequence[str]] = None,
                target: float = DEFAULT_TARGET) -> dict:
    """The report of ``posts`` (marked, read from ``marked``) drawn as ``info`` says
    (None: the draw is unknown): what an ethics application cites."""
    from .. import __version__
    if not posts:
        raise InputError("no posts: nothing to estimate", str(marked))
    counted = [[label for label in post.labels if labels is None or label in labels]
               for post in posts]
    leaking = [post.id for post, marks in zip(posts, counted) if marks]
    n, leaks = len(posts), len(leaking)
    exact, score = clopper_pearson(leaks, n), wilson(leaks, n)
    return {
        "title": "Leak share of a scrubbed dump",
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "mmbdeid_version": __version__,
        "data": _data(info),
        "sample": _sample(info, marked, n),
        "leak": {"definition": "a post in which the marker left at least one span (a "
                               "span over nothing but a placeholder or mask the scrub "
                               "wrote is none)",
                 "labels": "any" if labels is None else list(labels)},
        "marks": {"leaking_posts": leaks, "leaking_ids": leaking,
                  "spans_by_label": dict(sorted(Counter(
                      label for marks in counted for label in marks).items())),
                  "posts_by_label": dict(sorted(Counter(
                      label for marks in counted for label in set(marks)).items())),
                  "spans_on_placeholders": sum(post.on_placeholders for post in posts)},
        "estimate": {"leaks": leaks, "posts": n, "share": leaks / n,
                     "confidence": CONFIDENCE,
                     "clopper_pearson": list(exact), "wilson": list(score),
                     "upper_bound": upper_bound(leaks, n),
                     "target": target,
                     "more_posts_for_target": more_posts_for_bound(leaks, n, target),
                     "posts_for_target": posts_for_bound(target, leaks)},
        "population": _population(info),
    }


def _data(info: Optional[dict]) -> Optional[dict]:
    return None if info is None else info.get("scrubbed")


def _sample(info: Optional[dict], marked, n: int) -> dict:
    sample = {"marked_file": str(marked), "marked_sha256": file_sha256(marked), "posts": n}
    if info is not None:
        for key in ("sample_file", "seed", "by", "size", "allocation", "strata",
                    "by_stratum", "created"):
            sample["draw_created" if key == "created" else key] = info.get(key)
    return sample


def _population(info: Optional[dict]) -> str:
    if info is None:
        return ("not known: no --draw-info was given, so the share is that of the "
                "marked posts, and estimates the dump's only if they are a random "
                "sample of it")
    if info.get("by") == "none":
        return "the dump: a simple random sample of its posts"
    return ("the dump: stratified by %s with proportional allocation, every post had "
            "the same chance n/N of being drawn, so the sample's share estimates the "
            "dump's without weights; the intervals are those of a simple random sample "
            "of the same size, whose variance a proportionally stratified sample's does "
            "not exceed (up to the rounding of the quotas), so they are if anything "
            "conservative" % info.get("by"))
