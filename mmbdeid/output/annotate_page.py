"""The annotation page (``mmbdeid annotate``): one self-contained HTML file on which a
person tags the names in a sample of posts and downloads them as annotated JSON Lines.

The posts travel in a JSON data block the page's script reads; nothing from a post is
written into the HTML itself, and the script puts post text into the page only as text
nodes, so a post's markup is shown, never run. As on the review page the style and script
are allowed by hash alone (Content-Security-Policy): the page works offline from
``file://`` and nothing leaves it. It holds the posts: keep it as private as the dump.

Offsets are Python's: code points. Each field of a record travels as its own JSON text,
so the export writes the record back field by field, in order, exactly as read.
"""
import base64
import hashlib
import html
import json
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

from ..kinds import DEFAULT_KINDS, KINDS
from .annotate_assets import SCRIPT, STYLE
from .review_page import label_style

# NAME and USER, then the opt-in kinds: nine labels, one per key 1..9. E-mails, URLs and
# phone numbers are found by pattern and read as O by training: not offered by default.
DEFAULT_LABELS = tuple(kind.label for kind in KINDS
                       if kind.person or kind.label not in DEFAULT_KINDS)
MAX_LABELS = 9                          # keys 1 to 9
SPANS_FIELD = "spans"


class AnnotatedSpan(NamedTuple):
    """A span of a post: code-point offsets into its text, label, optional person key."""
    start: int
    end: int
    label: str
    person: Optional[str] = None


class AnnotatePost(NamedTuple):
    """A post as the page holds it: ``fields`` are the record's fields as the file names
    them, in order (the text among them); ``spans`` the starting spans."""
    post_id: str
    text: str
    fields: Dict[str, Any]
    spans: Sequence[AnnotatedSpan] = ()
    meta: Dict[str, str] = {}


def page_data(posts: Sequence[AnnotatePost], labels: Sequence[str],
              export_name: str) -> Dict[str, Any]:
    """What the page's script reads: the labels, the export's file name and each post."""
    return {"labels": list(labels), "exportName": export_name, "spansField": SPANS_FIELD,
            "posts": [{"id": post.post_id, "text": post.text, "meta": dict(post.meta),
                       "fields": [[name, json.dumps(value, ensure_ascii=False,
                                                    default=str)]
                                  for name, value in post.fields.items()],
                       "spans": [_span_json(span) for span in post.spans]}
                      for post in posts]}


def data_block(data: Dict[str, Any]) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element: ASCII only, and no
    ``<``, ``>`` or ``&`` (so no ``</script>`` or ``<!--`` can end the block)."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def build_annotate_page(posts: Sequence[AnnotatePost], labels: Sequence[str],
                        source: str, export_name: str, prefilled: str) -> str:
    """The whole page. ``source``: the posts file as the user named it; ``prefilled``:
    a sentence saying where the starting spans come from."""
    content = page_data(posts, labels, export_name)
    data = data_block(content)
    # Progress is saved under this key: the same posts, starting spans and labels (from
    # whatever file name), the same saved work.
    key = hashlib.sha256(data_block({"labels": content["labels"], "posts": content["posts"]})
                         .encode("ascii")).hexdigest()[:32]
    style = label_style(STYLE, "span", labels)
    policy = "default-src 'none'; style-src %s; script-src %s" % (
        _source_hash(style), _source_hash(SCRIPT))
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n" % _e(policy),
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<title>mmbdeid annotate</title>\n<style>%s</style>\n</head>\n" % style,
        "<body data-key=\"%s\">\n" % key,
        _header(len(posts), source, prefilled),
        _toolbar(labels),
        _shortcuts(labels),
        "<main id=\"posts\"></main>\n",
        "<script type=\"application/json\" id=\"data\">%s</script>\n" % data,
        "<script>%s</script>\n</body>\n</html>\n" % SCRIPT,
    ])


def _span_json(span: AnnotatedSpan) -> Dict[str, Any]:
    item = {"start": span.start, "end": span.end, "label": span.label}
    if span.person:
        item["person"] = span.person
    return item


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _source_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-%s'" % base64.b64encode(digest).decode("ascii")


def _header(count: int, source: str, prefilled: str) -> str:
    return ("<header>\n<h1>Tag the names</h1>\n<p id=\"about\">%d posts of <code>%s</code>. "
            "%s</p>\n<p class=\"note\">Select text to tag it, click a tag to select it; "
            "press <kbd>?</kbd> for the keys. Your work is saved in this browser as you go; "
            "<strong>Export</strong> downloads the posts with their spans (annotated JSON "
            "Lines for <code>train</code>, <code>evaluate</code>, <code>sweep</code> and "
            "<code>split</code>). This page holds the posts: keep it, and the export, "
            "where the raw dump is kept.</p>\n</header>\n" % (count, _e(source), _e(prefilled)))


def _toolbar(labels: Sequence[str]) -> str:
    buttons = "".join(
        "<button type=\"button\" class=\"label chip\" data-label=\"%s\" "
        "title=\"key %s\"><kbd>%s</kbd> %s</button>\n" % (
            _e(label), key, key, _e(label))
        for key, label in _keyed(labels))
    return ("<nav id=\"toolbar\">\n<span id=\"labels\">%s</span>\n"
            "<span id=\"progress\" aria-live=\"polite\"></span>\n"
            "<button type=\"button\" id=\"export\">Export</button>\n"
            "<button type=\"button\" id=\"help-button\" title=\"key ?\">Keys</button>\n"
            "<button type=\"button\" id=\"reset\">Start over</button>\n"
            "<span id=\"saved\" class=\"note\"></span>\n"
            "<a id=\"download\" hidden></a>\n</nav>\n" % buttons)


def _shortcuts(labels: Sequence[str]) -> str:
    rows = [("1 to %d" % min(len(labels), MAX_LABELS),
             "label the selected text (a new span) or the selected span: " + ", ".join(
                 "%s %s" % (key, _e(label)) for key, label in _keyed(labels))),
            ("Enter", "tag the selected text with the current label"),
            ("Delete, Backspace", "remove the selected span"),
            ("j, \u2193 / k, \u2191", "next / previous post"),
            ("\u2192 / \u2190", "next / previous span of the post"),
            ("p", "set the selected span's person key (who it is; empty: none)"),
            ("d", "mark the post done (or not done)"),
            ("Esc", "unselect; close this list"),
            ("?", "show or hide this list")]
    return ("<aside id=\"help\" hidden>\n<h2>Keys</h2>\n<table>%s</table>\n<p class=\"note\">"
            "A selection is widened to whole characters (an accent with its letter, an "
            "emoji whole) and loses the spaces at its ends; a new span replaces the spans "
            "it overlaps.</p>\n</aside>\n" % "".join(
                "<tr><th>%s</th><td>%s</td></tr>" % (_e(keys), what) for keys, what in rows))


def _keyed(labels: Sequence[str]) -> List[tuple]:
    return [(index + 1, label) for index, label in enumerate(labels[:MAX_LABELS])]
