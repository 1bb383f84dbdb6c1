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


class Highlight(NamedTuple):
    """One removal in a post: character offsets into its text, label, probability."""
    start: int
    end: int
    label: str
    prob: float


class PagePost(NamedTuple):
    post_id: str
    text: str
    highlights: Sequence[Highlight]


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


class PageCounts(NamedTuple):
    threshold: float
    posts_read: int
    posts_with_removals: int


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
                      counts: PageCounts) -> str:
    """The whole page: threshold and counts, filters, the posts with their removals
    highlighted, and the table of removed strings."""
    anchors = post_anchors([post.post_id for post in posts])
    found = {h.label for p in posts for h in p.highlights}
    # the default kinds always, another kind where the page shows one
    labels = ([label for label in LABELS if label in DEFAULT_KINDS or label in found]
              + sorted(found - set(LABELS)))
    script = _SCRIPT
    style = _style(labels)
    policy = "default-src 'none'; style-src %s; script-src %s" % (
        _source_hash(style), _source_hash(script))
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n" % _e(policy),
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<title>mmbdeid review</title>\n<style>%s</style>\n</head>\n<body>\n" % style,
        _header(posts, strings, counts),
        _filters(posts, labels),
        "<section id=\"posts\">\n<h2>Posts with removals</h2>\n",
        "".join(_post(post, anchor) for post, anchor in zip(posts, anchors)),
        "</section>\n",
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
    lines.append("<p class=\"note\">Untick a label or a probability band to stop "
                 "highlighting it: posts left with no highlighted removal are hidden, and so "
                 "are the table's rows of that label or band (by mean probability). This "
                 "page holds the names it shows: keep it where the raw dump is kept.</p>\n"
                 "</header>\n")
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
                 "shown</span>\n</form>\n" % (len(posts), len(posts)))
    return "".join(boxes)


def _post(post: PagePost, anchor: str) -> str:
    return ("<article class=\"post\" id=\"%s\">\n<h3>post <code>%s</code> "
            "<span class=\"n\">(%d removed)</span></h3>\n<div class=\"text\">%s</div>\n"
            "</article>\n" % (anchor, _e(post.post_id), len(post.highlights),
                              _marked_text(post.text, post.highlights)))


def _marked_text(text: str, highlights: Sequence[Highlight]) -> str:
    pieces, position = [], 0
    for h in sorted(highlights, key=lambda h: (h.start, h.end)):
        if h.start < position:          # overlapping: the first one wins
            continue
        pieces.append(_e(text[position:h.start]))
        pieces.append(_highlight(text[h.start:h.end], h.label, h.prob))
        position = h.end
    pieces.append(_e(text[position:]))
    return "".join(pieces)


def _highlight(string: str, label: str, prob: float) -> str:
    band = probability_band(prob)
    return ("<mark class=\"rm\" data-label=\"%s\" data-band=\"%s\" data-prob=\"%.4f\" "
            "title=\"%s, probability %.4f (%s)\">%s<span class=\"tag\">%s %s</span></mark>" % (
                _e(label), band, prob, _e(label), prob, _e(BAND_TEXT[band]), _e(string),
                _e(label), _e(BAND_TEXT[band])))


def _table(strings: Sequence[PageString], anchors: Sequence[str]) -> str:
    rows = ["<section id=\"table\">\n<h2>Removed strings</h2>\n",
            "<table id=\"strings\">\n<thead><tr><th>String</th><th>Count</th>"
            "<th>Mean probability</th><th>Label</th><th>In context</th></tr></thead>\n<tbody>\n"]
    for row in strings:
        examples = "".join(_example(example, anchors) for example in row.examples)
        rows.append("<tr data-label=\"%s\" data-band=\"%s\"><td class=\"s\">%s</td>"
                    "<td class=\"c\">%d</td><td class=\"p\">%.4f</td><td><span class=\"chip\" "
                    "data-label=\"%s\">%s</span></td><td><ul>%s</ul></td></tr>\n" % (
                        _e(row.label), probability_band(row.mean_prob), _e(row.string),
                        row.count, row.mean_prob, _e(row.label), _e(row.label), examples))
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


def _style(labels: Sequence[str]) -> str:
    """The fixed rules, then a colour per label (a label that is not a plain word keeps
    the grey: CSS is not HTML, escaping would not make it safe)."""
    colours = "".join(
        ".chip[data-label=\"%s\"],mark.rm[data-label=\"%s\"]{background:%s}" % (
            label, label, LABEL_COLOURS.get(label, OTHER_COLOUR))
        for label in labels if re.fullmatch(r"[A-Za-z0-9_]+", label))
    return _STYLE + ".chip,mark.rm{background:%s}" % OTHER_COLOUR + colours


# Bands are told apart by the border of a highlight as well as by its tag's text.
_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;
max-width:62em;padding:0 1em;color:#111;line-height:1.5}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em;margin:0 0 .3em}
.note{color:#555;font-size:.9em}
#filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.3em 0;
z-index:1;display:flex;flex-wrap:wrap;align-items:center;gap:.3em .6em}
fieldset{border:1px solid #bbb;margin:0;padding:.1em .5em .3em}
fieldset label{margin-right:.8em;white-space:nowrap}
.chip,.band{padding:0 .3em;border-radius:3px}
.band[data-band="low"]{border:2px dotted #333}.band[data-band="mid"]{border:2px dashed #333}
.band[data-band="high"]{border:2px solid #333}
article.post{border:1px solid #ddd;border-radius:4px;padding:.5em .8em;margin:.6em 0;
scroll-margin-top:10em}
article.post.hidden{display:none}
article.post:target,article.post.hidden:target{display:block;outline:3px solid #1a5fb4}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
mark.rm{padding:0 .15em;border-radius:3px;color:#000}
mark.rm[data-band="low"]{border:2px dotted #333}mark.rm[data-band="mid"]{border:2px dashed #333}
mark.rm[data-band="high"]{border:2px solid #333}
mark.rm .tag{font-size:.7em;font-weight:bold;margin-left:.3em;vertical-align:super;
white-space:nowrap}
mark.rm.off{background:none!important;border:none;padding:0}
mark.rm.off .tag{display:none}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:.25em .4em;vertical-align:top;text-align:left}
td.c,td.p{text-align:right}
tr.hidden{display:none}
td ul{margin:0;padding-left:1.1em}
td mark{background:#fff3b0}
.pid{color:#555;font-size:.85em}
"""

_SCRIPT = """
(function () {
  var form = document.getElementById("filters");
  function ticked(name) {
    var on = {};
    form.querySelectorAll("input[name='" + name + "']").forEach(function (box) {
      on[box.value] = box.checked;
    });
    return on;
  }
  function apply() {
    var labels = ticked("label"), bands = ticked("band"), shown = 0;
    function wanted(element) {
      return labels[element.dataset.label] === true && bands[element.dataset.band] === true;
    }
    document.querySelectorAll("mark.rm").forEach(function (mark) {
      mark.classList.toggle("off", !wanted(mark));
    });
    var posts = document.querySelectorAll("article.post");
    posts.forEach(function (post) {
      var any = post.querySelector("mark.rm:not(.off)") !== null;
      post.classList.toggle("hidden", !any);
      if (any) { shown += 1; }
    });
    document.querySelectorAll("#strings tbody tr").forEach(function (row) {
      row.classList.toggle("hidden", !wanted(row));
    });
    document.getElementById("shown").textContent = shown + " of " + posts.length + " posts shown";
  }
  form.addEventListener("change", apply);
  apply();
})();
"""
