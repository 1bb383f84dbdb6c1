"""What the review page shows of what may be left (issue 21): each post's author, thread and
board, the posts with no removal but a capitalised word not in the dictionary, the
near-misses, and the allow and deny lists it downloads; the page builder, the gathering of
its posts, the command and, in headless Chromium, what a person sees and does."""
import importlib.util
import os
import re
import shutil
import time

import pytest

from jsonl_files import read_jsonl, write_jsonl
from mmbdeid.cli import main
from mmbdeid.files.termlists import load_terms
from mmbdeid.output import review_page
from mmbdeid.output.review_page import (Highlight, PageCounts, PageExample, PagePost,
                                        PageString, build_review_page)
from mmbdeid.output.review_rows import PageGatherer
from mmbdeid.spans import Span
from mmbdeid.text.excerpts import context

# Fictional posts. At --threshold 0.9 the bundled model removes Linda, Maren, Joanne and Kay
# and scores Oswin, Quillon and Brannigan between 0.09 and 0.9: near-misses.
POSTS = [
    {"id": "f1", "board": "ra", "thread": "t1", "author": "sunnyknits",
     "text": "My rheumy upped the methotrexate again. Thanks Linda for the tip about heat "
             "pads!"},
    {"id": "f2", "board": "ra", "thread": "t1", "author": "lindalou",
     "text": "Glad it helped! Brannigan at the pharmacy said the same thing."},
    {"id": "f3", "board": "<i>ra</i>", "thread": "t2", "author": "<b>ronbo</b>",
     "text": "Someone posted <script>alert('x')</script> here. Oswin told me to ignore it."},
    {"id": "f4", "board": "ra", "thread": "t2", "author": "quietday",
     "text": "Nothing new, just tired today. Saw Quillon at group."},
    {"id": "f5", "board": "ra", "thread": "t3", "author": "kaygirl",
     "text": "Hugs to Maren and Joanne, see you Tuesday.\nKay"},
]
THRESHOLD = "0.9"


# --- the page builder -------------------------------------------------------------------

def _page(near_rows_shown=None, monkeypatch=None):
    if near_rows_shown is not None:
        monkeypatch.setattr(review_page, "NEAR_ROWS_SHOWN", near_rows_shown)
    text, quiet = "Thanks Ann&Co <b>", "Saw <Zed> & Ivo"
    posts = [PagePost("p1", text, [Highlight(7, 10, "NAME", 0.9)], "<img src=x>", "t\"1", "b"),
             PagePost("p2", quiet, [], "kay", "t2", "", near=[Highlight(12, 15, "NAME", 0.03)],
                      words=[Highlight(5, 8, "WORD", 0.0), Highlight(12, 15, "WORD", 0.0)])]
    strings = [PageString('Ann"s', 1, 0.9, "NAME", [PageExample(0, "p1", context(text, 7, 10))])]
    near = [PageString("Ivo", 2, 0.03, "NAME", [PageExample(1, "p2", context(quiet, 12, 15))]),
            PageString("<Ox>", 1, 0.02, "USER", [PageExample(None, "p9", context("<Ox>", 0, 4))]),
            PageString("Humira", 1, 0.04, "NAME", [], held_by="drugs")]
    return build_review_page(posts, strings, PageCounts(0.05, 10, 1, 4, 3, 0.005), near)


def test_each_post_names_its_author_thread_and_board_escaped():
    page = _page()
    assert ('<p class="meta">by <code>&lt;img src=x&gt;</code> \u00b7 thread <code>t&quot;1'
            '</code> \u00b7 board <code>b</code></p>') in page
    assert '<p class="meta">by <code>kay</code> \u00b7 thread <code>t2</code></p>' in page
    assert "<img" not in page


def test_posts_with_no_removal_have_their_words_marked_with_deny_boxes():
    page = _page()
    section = page[page.index('<section id="unremoved">'):page.index('<section id="near')]
    assert "4 in all, 1 shown here (the first 1; see <code>--html-posts</code>)" in section
    assert '<article class="post quiet" id="post-p2">' in section
    assert ('Saw &lt;<mark class="word" title="capitalised, not in the dictionary">Zed</mark>'
            '&gt; &amp; <mark class="near" title="near-miss: NAME, probability 0.0300">Ivo'
            '</mark>') in section                 # a near-miss marked over its word mark
    assert re.findall(r'name="deny" value="([^"]*)"', section) == ["Zed", "Ivo"]
    assert "post-p1" not in section               # a post with removals is not here


def test_near_misses_free_first_and_those_held_folded_away_with_their_step():
    page = _page()
    section = page[page.index('<section id="near-misses">'):page.index('<section id="table">')]
    free, held = section.split('<details id="near-held">')
    assert re.findall(r'name="deny" value="([^"]*)"', free) == ["Ivo", "&lt;Ox&gt;"]
    assert "Kept by" not in free and "<Ox>" not in free
    assert "from 0.005 (a tenth of the threshold) to just under the threshold 0.05" in free
    assert '<a href="#post-p2">' in free and "(post <code>p9</code>, not shown)" in free
    assert "1 more held by a keep step" in held
    assert "<th>Kept by</th>" in held and "<td>drugs</td>" in held and 'value="Humira"' in held


def test_near_misses_are_capped_with_a_count(monkeypatch):
    page = _page(1, monkeypatch)
    assert page.count('<tr class="near">') == 2         # one free, one held
    assert "<p class=\"note\">1 of 2 shown (the likeliest).</p>" in page


def test_removed_strings_have_allow_boxes_and_the_page_download_buttons():
    page = _page()
    assert '<input type="checkbox" name="allow" value="Ann&quot;s" aria-label="allow Ann&quot;s">' in page
    assert 'id="export-allow" data-list="allow"' in page and 'id="export-deny"' in page
    assert ('not in the dictionary, <a href="#unremoved">4</a>; near-miss strings, '
            '<a href="#near-misses">3</a>.') in page


# --- gathering the page's posts ------------------------------------------------------------

def _span(start, end, source="crf", label="NAME", score=0.03):
    return Span(label, start, end, score, source)


def test_gatherer_caps_each_kind_of_post_and_indexes_the_shown_ones():
    gathered = PageGatherer(1, "crf")
    post = {"id": 1, "text": "Ivo Zed", "author": None, "thread": 7}
    assert gathered.add(0, post, [_span(0, 3)], [], []) == 0
    assert gathered.add(1, post, [], [_span(4, 7)], [_span(4, 7, label="WORD")]) == 1
    assert gathered.add(2, post, [_span(0, 3)], [], []) is None          # over the cap
    assert gathered.add(3, post, [], [_span(4, 7)], [_span(4, 7, label="WORD")]) is None
    assert gathered.add(4, post, [], [_span(0, 3)], []) is None          # no unknown word
    assert (gathered.with_removals, gathered.unremoved) == (2, 2)
    assert [(p.author, p.thread, bool(p.highlights)) for p in gathered.posts] == [
        ("", "7", True), ("", "7", False)]
    [zed, ivo] = gathered.near_strings()
    assert (zed.string, zed.count, [e.post for e in zed.examples]) == ("Zed", 2, [1, None])
    assert ivo.string == "Ivo"


@pytest.mark.parametrize("sources,held_by", [
    (["crf"], ""), (["drugs"], "drugs"), (["drugs", "crf", "drugs"], ""),   # one free: free
])
def test_a_near_miss_is_held_only_where_no_occurrence_is_free(sources, held_by):
    gathered = PageGatherer(5, "crf")
    for number, source in enumerate(sources):
        gathered.add(number, {"id": number, "text": "Zed"}, [], [_span(0, 3, source)], [])
    assert [row.held_by for row in gathered.near_strings()] == [held_by]


# --- the command ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    work = tmp_path_factory.mktemp("review")
    dump = write_jsonl(work / "dump.jsonl", POSTS)
    page = str(work / "review.html")
    assert main(["review", dump, "-o", str(work / "review.csv"), "--html", page,
                 "--threshold", THRESHOLD, "-j", "1", "-q"]) == 0
    return work, page


def test_review_page_shows_near_misses_and_posts_with_no_removal(reviewed):
    _, page = reviewed
    text = open(page, encoding="utf-8").read()
    near = text[text.index('<section id="near-misses">'):text.index('<details')]
    assert re.findall(r'name="deny" value="([^"]*)"', near) == ["Oswin", "Quillon", "Brannigan"]
    unremoved = text[text.index('<section id="unremoved">'):text.index('<section id="near')]
    assert re.findall(r'<article class="post quiet" id="post-([^"]*)"', unremoved) == [
        "f2", "f3", "f4"]
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in unremoved
    assert "by <code>&lt;b&gt;ronbo&lt;/b&gt;</code>" in unremoved
    assert text.count("<script") == 1
    assert re.findall(r'<article class="post" id="post-([^"]*)"', text) == ["f1", "f5"]


def test_review_without_a_page_finds_no_leftovers(tmp_path, monkeypatch):
    """The list alone costs nothing more: the workers look for leftovers only for a page."""
    import mmbdeid.detect.leftovers as leftovers
    monkeypatch.setattr(leftovers, "near_misses", None)      # would fail if called
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    assert main(["review", dump, "-o", str(tmp_path / "r.csv"), "--threshold", THRESHOLD,
                 "-j", "1", "-q"]) == 0


# --- in a browser -----------------------------------------------------------------------

CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if importlib.util.find_spec("selenium") is None or not shutil.which("chromium"):
        pytest.skip("browser test: selenium or chromium missing")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    downloads = str(tmp_path_factory.mktemp("downloads"))
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--window-size=1100,900"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": downloads,
                                              "download.prompt_for_download": False})
    service = Service(CHROMEDRIVER) if os.path.exists(CHROMEDRIVER) else Service()
    driver = webdriver.Chrome(options=options, service=service)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow",
                                                        "downloadPath": downloads})
    yield driver, downloads
    driver.quit()


def _downloaded(directory, name, seconds=10):
    path = os.path.join(directory, name)
    deadline = time.monotonic() + seconds
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.1)
    return open(path, encoding="utf-8").read()


def _tick(driver, selector):
    box = driver.find_element("css selector", selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()


@pytest.mark.slow
def test_page_exports_the_ticked_strings_as_lists_scrub_reads(browser, reviewed):
    driver, downloads = browser
    work, page = reviewed
    driver.get("file://" + page)

    meta = driver.find_element("css selector", "#post-f5 .meta").text
    assert meta == "by kaygirl \u00b7 thread t3 \u00b7 board ra"
    assert driver.find_element("css selector", "#post-f3 .meta").text.startswith(
        "by <b>ronbo</b>")
    assert "<script>alert('x')</script>" in driver.find_element(
        "css selector", "#post-f3 .text").text                   # shown, not run
    near = [cell.text for cell in driver.find_elements("css selector", "#near td.s")]
    assert near == ["Oswin", "Quillon", "Brannigan"]

    allow, deny = (driver.find_element("id", "export-" + name) for name in ("allow", "deny"))
    assert not allow.is_enabled() and not deny.is_enabled()      # nothing ticked yet
    _tick(driver, '#strings input[name="allow"][value="Maren"]')
    _tick(driver, '#near input[name="deny"][value="Quillon"]')
    _tick(driver, '#post-f2 input[name="deny"][value="Brannigan"]')
    assert deny.text == "Download deny list (2)"
    driver.execute_script("arguments[0].scrollIntoView()", allow)
    allow.click()
    deny.click()
    allowed = _downloaded(downloads, "allow.txt")
    denied = _downloaded(downloads, "deny.txt")
    assert allowed.splitlines()[1:] == ["Maren"]
    assert denied.splitlines()[1:] == ["Brannigan", "Quillon"]   # in the page's order
    assert load_terms(os.path.join(downloads, "deny.txt")) == ["Brannigan", "Quillon"]
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []

    # scrub reads them: Maren is kept, Quillon and Brannigan go.
    out = str(work / "scrubbed.jsonl")
    assert main(["scrub", str(work / "dump.jsonl"), "-o", out, "--threshold", THRESHOLD,
                 "--allow", os.path.join(downloads, "allow.txt"),
                 "--deny", os.path.join(downloads, "deny.txt"), "-j", "1", "-q"]) == 0
    texts = " ".join(post["text"] for post in read_jsonl(out))
    assert "Maren" in texts and "Quillon" not in texts and "Brannigan" not in texts
    assert "Oswin" in texts and "Joanne" not in texts
