"""The review page: one self-contained HTML file showing what ``mmbdeid review`` would
remove, in context.

Pure functions from plain data to an HTML string. The page loads nothing: its CSS and
script are inline, and a Content-Security-Policy allows only those two (by hash), so it
works offline from ``file://`` and no request can leave it, even if a post's text held
markup (which is escaped anyway). It holds the names it shows: keep it as private as
the dump.
"""
import base64
import hashlib
import html
import re
from typing import Dict, List, NamedTuple, Optional, Sequence

from ..kinds import DEFAULT_KINDS, LABELS
from ..text.excerpts import Context
from .review_assets import SCRIPT, STYLE

# Probability bands: (key, text shown, lowest probability in the band).
BANDS = (("low", "< 0.1", 0.0), ("mid", "0.1\u20130.5", 0.1), ("high", "\u2265 0.5", 0.5))
BAND_TEXT = {key: text for key, text, _ in BANDS}

# Background colours of the labels (each highlight also names its label in text).
LABEL_COLOURS = {"NAME": "#ffd66b", "USER": "#9fd3ff", "EMAIL": "#a8e6a1",
                 "URL": "#e3b5f2", "PHONE": "#ffb38a", "ADDRESS": "#c9e4a6",
                 "POSTCODE": "#b8e0d2", "ID": "#f5b7c5", "IP": "#cfc3f0", "DATE": "#f7e1a0",
                 "PLACE": "#a7d8e8", "ORG": "#e8c6a7"}
OTHER_COLOUR = "#d9d9d9"

ANCHOR_PREFIX = "post-"
DEFAULT_PAGE_POSTS = 2000   # posts with removals shown at most (review --html-posts)
EXAMPLES_SHOWN = 3          # contexts per string in the table, from distinct posts
NEAR_ROWS_SHOWN = 1000      # near-miss strings listed at most, in each of their two tables


class Highlight(NamedTuple):
    """One removal in a post: character offsets into its text, label, probability."""
    start: int
    end: int
    label: str
    prob: float


class PagePost(NamedTuple):
    """A post: ``highlights`` are its removals; a post without any is shown among the posts
    with no removal, with its ``words`` (capitalised, not in the dictionary) marked.
    ``near``: its near-misses, marked in either section."""
    post_id: str
    text: str
    highlights: Sequence[Highlight]
    author: str = ""
    thread: str = ""
    board: str = ""
    near: Sequence[Highlight] = ()
    words: Sequence[Highlight] = ()


class PageExample(NamedTuple):
    """An occurrence of a string: ``post`` is its post's index in the page's posts, None
    when that post is not shown (beyond the cap)."""
    post: Optional[int]
    post_id: str
    context: Context


class PageString(NamedTuple):
    """A row of the table of removed strings (a row of the review list)."""
    string: str
    count: int
    mean_prob: float
    label: str
    examples: Sequence[PageExample]
    held_by: str = ""       # a near-miss: the KEEP step that holds it, if one does


class PageCounts(NamedTuple):
    """``unremoved``: the posts with no removal but a capitalised word not in the
    dictionary; ``near_strings``: the distinct near-misses (all, beyond the cap), which
    scored from ``near_from`` to under the threshold."""
    threshold: float
    posts_read: int
    posts_with_removals: int
    unremoved: int = 0
    near_strings: int = 0
    near_from: float = 0.0


def probability_band(prob: float) -> str:
    """``low`` (< 0.1), ``mid`` (0.1 to under 0.5) or ``high`` (0.5 and above)."""
    band = BANDS[0][0]
    for key, _, lowest in BANDS:
        if prob >= lowest:
            band = key
    return band


def post_anchors(post_ids: Sequence[str]) -> List[str]:
    """A safe, unique HTML id per post: ``post-`` then the id with every character but
    ASCII letters and digits written as ``_HEX_`` (so distinct ids stay distinct), and
    ``-2``, ``-3``, ... on a repeated id."""
    anchors, seen = [], {}                 # type: List[str], Dict[str, int]
    for post_id in post_ids:
        anchor = ANCHOR_PREFIX + re.sub(r"[^A-Za-z0-9]",
                                        lambda m: "_%x_" % ord(m.group()), str(post_id))
        seen[anchor] = seen.get(anchor, 0) + 1
        anchors.append(anchor if seen[anchor] == 1 else "%s-%d" % (anchor, seen[anchor]))
    return anchors


def build_review_page(posts: Sequence[PagePost], strings: Sequence[PageString],
                      counts: PageCounts, near: Sequence[PageString] = ()) -> str:
    """The whole page: threshold and counts, filters and list export, the posts with their
    removals highlighted, the posts with no removal but a capitalised word not in the
    dictionary, the near-misses (``near``: their rows, those no KEEP step holds first) and
    the table of removed strings, whose rows can be ticked for the allow list."""
    anchors = post_anchors([post.post_id for post in posts])
    shown = [(post, anchor) for post, anchor in zip(posts, anchors)]
    found = {h.label for p in posts for h in p.highlights}
    # the default kinds always, another kind where the page shows one
    labels = ([label for label in LABELS if label in DEFAULT_KINDS or label in found]
              + sorted(found - set(LABELS)))
    script = SCRIPT
    style = label_style(STYLE, "rm", labels)
    policy = "default-src 'none'; style-src %s; script-src %s" % (
        _source_hash(style), _source_hash(script))
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n" % _e(policy),
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<title>mmbdeid review</title>\n<style>%s</style>\n</head>\n<body>\n" % style,
        _header([p for p in posts if p.highlights], strings, counts),
        _filters([p for p in posts if p.highlights], labels),
        "<section id=\"posts\">\n<h2>Posts with removals</h2>\n",
        "".join(_post(post, anchor) for post, anchor in shown if post.highlights),
        "</section>\n",
        _unremoved([(p, a) for p, a in shown if not p.highlights], counts.unremoved),
        _near_misses(near, anchors, counts),
        _table(strings, anchors),
        "<script>%s</script>\n</body>\n</html>\n" % script,
    ]
    return "".join(parts)


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-%s'" % base64.b64encode(digest).decode("ascii")


def _header(posts, strings, counts: PageCounts) -> str:
    left_out = counts.posts_with_removals - len(posts)
    lines = [
        "<header>\n<h1>What mmbdeid would remove</h1>\n",
        "<p id=\"threshold\">Threshold <strong>%s</strong>: a token is removed when "
        "P(NAME) + P(USER) is above it. E-mails, URLs, phone numbers and @handles are "
        "removed by pattern (probability 1).</p>\n" % _e("%g" % counts.threshold),
        "<p id=\"counts\">%d posts read, %d with removals; %d shown here" % (
            counts.posts_read, counts.posts_with_removals, len(posts)),
    ]
    if left_out > 0:
        lines.append(" (the first %d), <strong id=\"left-out\">%d left out</strong> "
                     "(see <code>--html-posts</code>)" % (len(posts), left_out))
    lines.append(". The table of %d removed strings covers all posts.</p>\n" % len(strings))
    lines.append("<p id=\"left-counts\">What may be left: posts with no removal but a "
                 "capitalised word not in the dictionary, <a href=\"#unremoved\">%d</a>; "
                 "near-miss strings, <a href=\"#near-misses\">%d</a>.</p>\n" % (
                     counts.unremoved, counts.near_strings))
    lines.append("<p class=\"note\">Untick a label or a probability band to stop "
                 "highlighting it: posts left with no highlighted removal are hidden, and so "
                 "are the table's rows of that label or band (by mean probability). Tick "
                 "removed strings that should stay (the allow list) and near-misses or words "
                 "that should go (the deny list), then download the lists for "
                 "<code>scrub --allow</code> and <code>--deny</code>. Both match everywhere, in "
                 "any case: allowing <code>Grace</code> keeps every grace, denying "
                 "<code>Will</code> removes every will. This page holds the names it shows: keep it, and "
                 "the lists, where the raw dump is kept.</p>\n</header>\n")
    return "".join(lines)


def _filters(posts, labels) -> str:
    label_counts: Dict[str, int] = {}
    band_counts: Dict[str, int] = {}
    for post in posts:
        for h in post.highlights:
            label_counts[h.label] = label_counts.get(h.label, 0) + 1
            band = probability_band(h.prob)
            band_counts[band] = band_counts.get(band, 0) + 1
    boxes = ["<form id=\"filters\">\n<fieldset id=\"label-filter\"><legend>Labels</legend>\n"]
    for label in labels:
        boxes.append("<label><input type=\"checkbox\" name=\"label\" value=\"%s\" checked> "
                     "<span class=\"chip\" data-label=\"%s\">%s</span> (%d)</label>\n" % (
                         _e(label), _e(label), _e(label), label_counts.get(label, 0)))
    boxes.append("</fieldset>\n<fieldset id=\"band-filter\"><legend>Probability</legend>\n")
    for key, text, _ in BANDS:
        boxes.append("<label><input type=\"checkbox\" name=\"band\" value=\"%s\" checked> "
                     "<span class=\"band\" data-band=\"%s\">%s</span> (%d)</label>\n" % (
                         key, key, _e(text), band_counts.get(key, 0)))
    boxes.append("</fieldset>\n<span id=\"shown\" aria-live=\"polite\">%d of %d posts "
                 "shown</span>\n" % (len(posts), len(posts)))
    boxes.append("<fieldset id=\"export\"><legend>Lists</legend>\n"
                 "<button type=\"button\" id=\"export-allow\" data-list=\"allow\">Download "
                 "allow list (<span class=\"count\">0</span>)</button>\n"
                 "<button type=\"button\" id=\"export-deny\" data-list=\"deny\">Download "
                 "deny list (<span class=\"count\">0</span>)</button>\n"
                 "<a id=\"download\" hidden></a></fieldset>\n</form>\n")
    return "".join(boxes)


def _post(post: PagePost, anchor: str) -> str:
    return ("<article class=\"post\" id=\"%s\">\n<h3>post <code>%s</code> "
            "<span class=\"n\">(%d removed)</span></h3>\n%s<div class=\"text\">%s</div>\n"
            "</article>\n" % (anchor, _e(post.post_id), len(post.highlights), _meta(post),
                              _marked_text(post.text, post.highlights, post.near)))


def _meta(post: PagePost) -> str:
    """Who wrote the post, where: a name left in a post is often the author's or a
    thread member's."""
    parts = ["%s <code>%s</code>" % (name, _e(value)) for name, value in
             (("by", post.author), ("thread", post.thread), ("board", post.board)) if value]
    return "<p class=\"meta\">%s</p>\n" % " \u00b7 ".join(parts) if parts else ""


def _marked_text(text: str, highlights: Sequence[Highlight], near: Sequence[Highlight] = (),
                 words: Sequence[Highlight] = ()) -> str:
    # at one place a removal comes first, then a near-miss, then an unknown word
    marks = sorted([(h.start, h.end, 0, h) for h in highlights] +
                   [(h.start, h.end, 1, h) for h in near] +
                   [(h.start, h.end, 2, h) for h in words], key=lambda m: m[:3])
    pieces, position = [], 0
    for start, end, kind, h in marks:
        if start < position:            # overlapping: the first one wins
            continue
        pieces.append(_e(text[position:start]))
        string = text[start:end]
        if kind == 0:
            pieces.append(_highlight(string, h.label, h.prob))
        elif kind == 1:
            pieces.append("<mark class=\"near\" title=\"near-miss: %s, probability %.4f\">%s"
                          "</mark>" % (_e(h.label), h.prob, _e(string)))
        else:
            pieces.append("<mark class=\"word\" title=\"capitalised, not in the dictionary\">"
                          "%s</mark>" % _e(string))
        position = end
    pieces.append(_e(text[position:]))
    return "".join(pieces)


def _unremoved(posts, total: int) -> str:
    """The posts with no removal that hold a capitalised word not in the dictionary, each
    word with a box for the deny list."""
    parts = ["<section id=\"unremoved\">\n<h2>Posts with no removal and a capitalised word "
             "not in the dictionary</h2>\n<p class=\"note\">%d in all, %d shown here%s. "
             "A name the model missed would be here: tick a word to add it to the deny "
             "list. Near-misses are underlined.</p>\n" % (
                 total, len(posts), " (the first %d; see <code>--html-posts</code>)" %
                 len(posts) if total > len(posts) else "")]
    for post, anchor in posts:
        words = {}                      # distinct, in order of appearance
        for h in post.words:
            words.setdefault(post.text[h.start:h.end], None)
        boxes = "".join("<label><input type=\"checkbox\" name=\"deny\" value=\"%s\"> %s"
                        "</label> " % (_e(word), _e(word)) for word in words)
        parts.append("<article class=\"post quiet\" id=\"%s\">\n<h3>post <code>%s</code>"
                     "</h3>\n%s<div class=\"text\">%s</div>\n<p class=\"words\">Deny: %s</p>"
                     "\n</article>\n" % (anchor, _e(post.post_id), _meta(post),
                                         _marked_text(post.text, (), post.near, post.words),
                                         boxes))
    parts.append("</section>\n")
    return "".join(parts)


def _near_misses(rows: Sequence[PageString], anchors: Sequence[str],
                 counts: PageCounts) -> str:
    """The near-miss strings, each with a box for the deny list: those no KEEP step holds,
    then, folded away, those one does (with its name)."""
    free = [row for row in rows if not row.held_by]
    held = [row for row in rows if row.held_by]
    parts = ["<section id=\"near-misses\">\n<h2>Near-misses</h2>\n<p class=\"note\">"
             "Capitalised tokens the model scored from %s (a tenth of the threshold) to just "
             "under the threshold %s, and that no step removed: %d strings, the likeliest "
             "first. Tick those that should go: they join the deny list.</p>\n" % (
                 _e("%g" % counts.near_from), _e("%g" % counts.threshold), counts.near_strings),
             _near_table("near", free, anchors, len(free)),
             "<details id=\"near-held\"><summary>%d more held by a keep step (a drug, a "
             "greeting, an organisation...), which lowering the threshold would not remove"
             "</summary>\n" % len(held), _near_table("near-kept", held, anchors, len(held)),
             "</details>\n</section>\n"]
    return "".join(parts)


def _near_table(table_id: str, rows: Sequence[PageString], anchors: Sequence[str],
                total: int) -> str:
    shown = rows[:NEAR_ROWS_SHOWN]
    held = any(row.held_by for row in rows)
    parts = ["<table id=\"%s\">\n<thead><tr><th>Deny</th><th>String</th><th>Count</th>"
             "<th>Mean probability</th><th>Label</th>%s<th>In context</th></tr>"
             "</thead>\n<tbody>\n" % (table_id, "<th>Kept by</th>" if held else "")]
    for row in shown:
        examples = "".join(_example(example, anchors) for example in row.examples)
        parts.append("<tr class=\"near\"><td><input type=\"checkbox\" name=\"deny\" "
                     "value=\"%s\" aria-label=\"deny %s\"></td><td class=\"s\">%s</td>"
                     "<td class=\"c\">%d</td><td class=\"p\">%.4f</td><td>%s</td>%s"
                     "<td><ul>%s</ul></td></tr>\n" % (
                         _e(row.string), _e(row.string), _e(row.string), row.count,
                         row.mean_prob, _e(row.label),
                         "<td>%s</td>" % _e(row.held_by) if held else "", examples))
    parts.append("</tbody>\n</table>\n")
    if total > len(shown):
        parts.append("<p class=\"note\">%d of %d shown (the likeliest).</p>\n" % (
            len(shown), total))
    return "".join(parts)


def _highlight(string: str, label: str, prob: float) -> str:
    band = probability_band(prob)
    return ("<mark class=\"rm\" data-label=\"%s\" data-band=\"%s\" data-prob=\"%.4f\" "
            "title=\"%s, probability %.4f (%s)\">%s<span class=\"tag\">%s %s</span></mark>" % (
                _e(label), band, prob, _e(label), prob, _e(BAND_TEXT[band]), _e(string),
                _e(label), _e(BAND_TEXT[band])))


def _table(strings: Sequence[PageString], anchors: Sequence[str]) -> str:
    rows = ["<section id=\"table\">\n<h2>Removed strings</h2>\n",
            "<table id=\"strings\">\n<thead><tr><th>Allow</th><th>String</th><th>Count</th>"
            "<th>Mean probability</th><th>Label</th><th>In context</th></tr></thead>\n<tbody>\n"]
    for row in strings:
        examples = "".join(_example(example, anchors) for example in row.examples)
        rows.append("<tr data-label=\"%s\" data-band=\"%s\"><td><input type=\"checkbox\" "
                    "name=\"allow\" value=\"%s\" aria-label=\"allow %s\"></td>"
                    "<td class=\"s\">%s</td>"
                    "<td class=\"c\">%d</td><td class=\"p\">%.4f</td><td><span class=\"chip\" "
                    "data-label=\"%s\">%s</span></td><td><ul>%s</ul></td></tr>\n" % (
                        _e(row.label), probability_band(row.mean_prob), _e(row.string),
                        _e(row.string), _e(row.string), row.count, row.mean_prob,
                        _e(row.label), _e(row.label), examples))
    rows.append("</tbody>\n</table>\n</section>\n")
    return "".join(rows)


def _example(example: PageExample, anchors: Sequence[str]) -> str:
    before, string, after = (_e(part) for part in example.context)
    snippet = "%s<mark>%s</mark>%s" % (before, string, after)
    if example.post is None:
        return "<li>%s <span class=\"pid\">(post <code>%s</code>, not shown)</span></li>" % (
            snippet, _e(example.post_id))
    return "<li><a href=\"#%s\">%s</a> <span class=\"pid\">(post <code>%s</code>)</span></li>" % (
        anchors[example.post], snippet, _e(example.post_id))


def label_style(style: str, mark: str, labels: Sequence[str]) -> str:
    """``style``, then a colour per label for the label chips and the ``mark.MARK``
    highlights (a label that is not a plain word keeps the grey: CSS is not HTML,
    escaping would not make it safe). The review and annotation pages share it."""
    colours = "".join(
        ".chip[data-label=\"%s\"],mark.%s[data-label=\"%s\"]{background:%s}" % (
            label, mark, label, LABEL_COLOURS.get(label, OTHER_COLOUR))
        for label in labels if re.fullmatch(r"[A-Za-z0-9_]+", label))
    return style + ".chip,mark.%s{background:%s}" % (mark, OTHER_COLOUR) + colours
