"""The documentation holds together: the README stays a short summary (at most 200 lines),
every relative link in the README and in docs/*.md leads to a file that exists (and, for a
link to a heading, to a heading that exists), and every page of docs/ is linked from the
README. (The pages' Python examples are run by test_readme_examples.py.)
"""
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
MAX_README_LINES = 200

FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# [text](target) and ![alt](target), with an optional "title"
LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)


def documents():
    return [README] + sorted(DOCS.glob("*.md"))


def prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans, where brackets are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(path: Path):
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def relative(target: str) -> bool:
    return not re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) and not target.startswith("//")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as
    hyphens (markup characters such as backticks are punctuation too)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path):
    found, seen = set(), {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else "%s-%d" % (base, count))
    return found


def test_the_readme_is_at_most_200_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, (
        "README.md has %d lines; move detail into docs/ (at most %d)" % (lines, MAX_README_LINES))


def test_there_are_docs_pages():
    assert len(list(DOCS.glob("*.md"))) >= 6


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_leads_to_an_existing_file(path):
    broken = []
    for target in links(path):
        if not relative(target):
            continue
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not destination.exists():
            broken.append("%s (no such file)" % target)
        elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
            broken.append("%s (no such heading)" % target)
    assert not broken, "%s: broken links: %s" % (path.relative_to(REPO), ", ".join(broken))


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(README.parent / target.partition("#")[0]).resolve()
              for target in links(README) if relative(target) and target.partition("#")[0]}
    unlinked = [page.name for page in sorted(DOCS.glob("*.md")) if page.resolve() not in linked]
    assert not unlinked, "docs pages the README does not link: %s" % ", ".join(unlinked)


@pytest.mark.parametrize("heading, anchor", [
    ("What each change bought (WNUT17 dev, threshold 0.05)",
     "what-each-change-bought-wnut17-dev-threshold-005"),
    ("Review and allow/deny lists", "review-and-allowdeny-lists"),
    ("Real data: BTC dev (`btc.dev.conll`), trained on WNUT17 train + dev + BTC train",
     "real-data-btc-dev-btcdevconll-trained-on-wnut17-train--dev--btc-train"),
    ("A post's fields", "a-posts-fields"),
])
def test_anchors_are_those_github_makes(heading, anchor):
    assert slug(heading) == anchor


def test_links_in_code_are_not_links():
    assert LINK.findall(prose("see `[a](nowhere.md)` and\n```\n[b](nowhere.md)\n```\n")) == []
    assert LINK.findall(prose("see [a](a.md#x) and ![b](b.png)")) == ["a.md#x", "b.png"]
