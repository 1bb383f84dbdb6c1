"""The review page (``mmbdeid review --html``) and the review list's context columns: the
page builder's escaping, anchors and counts; the snippet form; the command; and, in headless
Chromium, what a person sees and can do on the page."""
import base64
import csv
import hashlib
import html
import os
import re
import stat

import pytest

from browser_session import headless_chromium, requests_and_errors
from jsonl_files import write_jsonl
from mmbdeid.cli import main
from mmbdeid.output.review_page import (Highlight, PageCounts, PageExample, PagePost,
                                        PageString, build_review_page, post_anchors,
                                        probability_band)
from mmbdeid.text.excerpts import context

# Fictional posts: names, a username, an e-mail, a URL, a phone number, markup and odd ids.
POSTS = [
    {"id": "t1/1", "board": "ra", "thread": "t1", "author": "sunnyknits",
     "text": "Hi all, my rheumy Dr Okafor upped my methotrexate again. Thanks Linda for the "
             "tip about heat pads!\nMaggie"},
    {"id": "t1 2", "board": "ra", "thread": "t1", "author": "lindalou", "parent": "t1/1",
     "text": "Glad it helped Maggie! @sunnyknits mail me at linda.l@example.com or call "
             "555-201-3344.\nLinda"},
    {"id": "<b>3</b>", "board": "ra", "thread": "t1", "author": "ronbo",
     "text": "Someone posted <script>alert('x')</script> & more here, see "
             "www.example.org/heat-pads for the pads Linda meant. Hugs, Ron"},
    {"id": 4, "board": "ra", "thread": "t2", "author": "quietday",
     "text": "Nothing new, just tired today."},
]


# --- the snippet form ---------------------------------------------------------------------

LONG = ("Hi all, I just wanted to say a big thanks Linda for the lovely card you sent, it "
        "made my week so much better.")


@pytest.mark.parametrize("text,string,expected", [
    ("Thanks Linda!", "Linda", "Thanks [Linda]!"),
    (LONG, "Linda", "... all, I just wanted to say a big thanks [Linda] for the lovely card "
                    "you sent, it made ..."),
    ("Hugs,\n\nKay", "Kay", "Hugs, [Kay]"),                       # line breaks as spaces
    ("x" * 60 + " Kay", "Kay", "... " + "x" * 39 + " [Kay]"),     # a long word is kept cut
])
def test_context_marks_the_string_within_about_40_characters(text, string, expected):
    start = text.index(string)
    assert context(text, start, start + len(string)).marked() == expected


# --- the page builder -------------------------------------------------------------------

@pytest.mark.parametrize("prob,band", [
    (0.0, "low"), (0.0999, "low"), (0.1, "mid"), (0.4999, "mid"), (0.5, "high"), (1.0, "high"),
])
def test_probability_bands(prob, band):
    assert probability_band(prob) == band


@pytest.mark.parametrize("ids,expected", [
    (["p1", "P-2"], ["post-p1", "post-P_2d_2"]),
    (["a b", "a_b", "a_20_b"], ["post-a_20_b", "post-a_5f_b", "post-a_5f_20_5f_b"]),
    (["x", "x", "x"], ["post-x", "post-x-2", "post-x-3"]),      # a repeated id
    (['"><script>', "ä"], ["post-_22__3e__3c_script_3e_", "post-_e4_"]),
])
def test_post_anchors_are_safe_and_unique(ids, expected):
    anchors = post_anchors(ids)
    assert anchors == expected
    assert len(set(anchors)) == len(anchors)
    assert all(re.fullmatch(r"post-[A-Za-z0-9_-]+", anchor) for anchor in anchors)


def _page(posts_with_removals=3):
    text = "Try <script>alert('x')</script> & ask Tom <tom@example.com>"
    tom = text.index("Tom")
    posts = [PagePost('"><img src=x>', text, [
        Highlight(tom, tom + 3, "NAME", 0.93),
        Highlight(text.index("tom@"), text.index(">", text.index("tom@")), "EMAIL", 1.0)]),
        PagePost("p 2", "Hi Ann&Co", [Highlight(3, 6, "NAME", 0.04)])]
    strings = [
        PageString("Tom", 1, 0.93, "NAME", [PageExample(0, posts[0].post_id,
                                                        context(text, tom, tom + 3))]),
        PageString("Ann", 2, 0.2, "NAME", [PageExample(1, "p 2", context("Hi Ann&Co", 3, 6)),
                                           PageExample(None, "p <9>", context("Ann", 0, 3))]),
    ]
    return build_review_page(posts, strings, PageCounts(0.05, 10, posts_with_removals))


def test_page_escapes_everything_from_the_dump():
    page = _page()
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)" in page
    assert "<img" not in page and "&quot;&gt;&lt;img src=x&gt;" in page
    assert "</mark>&amp;Co" in page and "&lt;tom@example.com" in page
    assert "p &lt;9&gt;" in page
    assert page.count("<script") == 1 and "<script>" in page         # ours, inline
    assert not re.search(r"<(?:link|img|iframe|object|embed)\b|<[^>]*\ssrc=|https?://", page)


def test_page_allows_only_its_own_inline_script_and_style():
    page = _page()
    policy = html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"',
                                     page).group(1))
    for tag in ("script", "style"):
        body = re.search(r"<%s>(.*?)</%s>" % (tag, tag), page, re.S).group(1)
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert "%s-src 'sha256-%s'" % (tag, digest) in policy
    assert policy.startswith("default-src 'none'")


def test_page_highlights_each_removal_with_label_band_and_probability():
    page = _page()
    assert ('<mark class="rm" data-label="NAME" data-band="high" data-prob="0.9300" '
            'title="NAME, probability 0.9300 (\u2265 0.5)">Tom<span class="tag">NAME '
            '\u2265 0.5</span></mark>') in page
    assert 'data-label="EMAIL" data-band="high"' in page
    assert 'data-band="low"' in page and "NAME &lt; 0.1" in page
    assert "Threshold <strong>0.05</strong>" in page


@pytest.mark.parametrize("with_removals,left_out", [(2, None), (3, 1), (2000, 1998)])
def test_page_counts_and_left_out_posts(with_removals, left_out):
    page = _page(with_removals)
    assert page.count('<article class="post"') == 2
    assert "10 posts read, %d with removals; 2 shown here" % with_removals in page
    if left_out is None:
        assert "left out" not in page
    else:
        assert '<strong id="left-out">%d left out</strong>' % left_out in page
    assert page.count("<tr data-label=") == 2


def test_table_links_examples_to_shown_posts_only():
    page = _page()
    anchors = post_anchors(['"><img src=x>', "p 2"])
    assert re.findall(r'<article class="post" id="([^"]+)"', page) == anchors
    links = re.findall(r'<a href="#(post-[^"]+)">', page)
    assert links == [anchors[0], anchors[1]]
    assert "(post <code>p &lt;9&gt;</code>, not shown)" in page
    assert ('<a href="#post-_22__3e__3c_img_20_src_3d_x_3e_">Try &lt;script&gt;alert('
            '&#x27;x&#x27;)&lt;/script&gt; &amp; ask <mark>Tom</mark> &lt;tom@example.com&gt;'
            '</a>') in page


# --- the command ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    """``review --html`` on the fictional posts, at a low threshold so that every
    probability band has removals."""
    work = tmp_path_factory.mktemp("review")
    dump = write_jsonl(work / "dump.jsonl", POSTS)
    listed, page = str(work / "review.csv"), str(work / "review.html")
    assert main(["review", dump, "-o", listed, "--html", page, "--threshold", "0.001",
                 "-j", "1", "-q"]) == 0
    return work, listed, page


def test_review_list_gains_an_example_and_the_post_ids(reviewed):
    _, listed, _ = reviewed
    with open(listed, encoding="utf-8") as handle:
        rows = {row["string"]: row for row in csv.DictReader(handle)}
    assert rows["Linda"]["post_ids"] == "t1/1;t1 2;<b>3</b>"
    assert rows["Linda"]["example"] == ("... upped my methotrexate again. Thanks [Linda] "
                                        "for the tip about heat pads! Maggie")


def test_review_post_ids_are_capped_with_a_count_of_the_rest(tmp_path):
    posts = [{"id": "p%d" % i, "board": "b", "thread": "t%d" % i, "author": "kay",
              "text": "Thanks Ron, see you at group.\nKay"} for i in range(23)]
    dump = write_jsonl(tmp_path / "dump.jsonl", posts)
    listed = tmp_path / "review.csv"
    assert main(["review", dump, "-o", str(listed), "-j", "1", "-q"]) == 0
    with open(listed, encoding="utf-8") as handle:
        ron = next(row for row in csv.DictReader(handle) if row["string"] == "Ron")
    assert ron["count"] == "23"
    assert ron["post_ids"].split(";") == ["p%d" % i for i in range(20)] + ["+3 more"]


def test_review_page_is_private_and_caps_the_posts(reviewed, tmp_path):
    work, _, page = reviewed
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
    text = open(page, encoding="utf-8").read()
    assert text.count('<article class="post"') == 3           # post 4 has no removal
    capped = tmp_path / "capped.html"
    assert main(["review", str(work / "dump.jsonl"), "-o", str(tmp_path / "r.csv"),
                 "--html", str(capped), "--html-posts", "1", "--threshold", "0.001",
                 "-j", "1", "-q"]) == 0
    text = capped.read_text(encoding="utf-8")
    assert text.count('<article class="post"') == 1
    assert '<strong id="left-out">2 left out</strong>' in text
    assert "not shown)" in text                                # the table still has all


def test_html_posts_without_html_is_an_error(tmp_path, capsys):
    dump = write_jsonl(tmp_path / "dump.jsonl", POSTS)
    assert main(["review", dump, "-o", str(tmp_path / "r.csv"), "--html-posts", "5"]) == 2
    assert capsys.readouterr().err.strip() == "mmbdeid: error: --html-posts needs --html"
    assert os.listdir(tmp_path) == ["dump.jsonl"]


# --- in a browser -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium()


def _marks(driver, label=None, band=None):
    selector = "mark.rm" + ('[data-label="%s"]' % label if label else "") + (
        '[data-band="%s"]' % band if band else "")
    return driver.find_elements("css selector", selector)


def _tick(driver, name, value, on):
    box = driver.find_element("css selector", 'input[name="%s"][value="%s"]' % (name, value))
    if box.is_selected() != on:
        box.click()


@pytest.mark.slow
def test_page_in_a_browser(browser, reviewed, tmp_path):
    _, _, page = reviewed
    browser.get("file://" + page)
    assert browser.title == "mmbdeid review"

    # Every kind of removal is highlighted and names its label in text.
    for label in ("NAME", "USER", "EMAIL", "URL", "PHONE"):
        marks = _marks(browser, label)
        assert marks, label
        tag = marks[0].find_element("css selector", ".tag")
        assert tag.is_displayed() and tag.text.startswith(label)
    # The post's markup is shown as text, not run.
    shown_text = browser.execute_script(
        "var text = document.getElementById('post-_3c_b_3e_3_3c__2f_b_3e_')"
        "  .querySelector('.text').cloneNode(true);"
        "text.querySelectorAll('.tag').forEach(function (tag) { tag.remove(); });"
        "return text.textContent;")
    assert shown_text == POSTS[2]["text"]
    assert len(browser.find_elements("css selector", "script")) == 1

    # Unticking NAME hides the NAME highlights only.
    _tick(browser, "label", "NAME", False)
    assert all("off" in m.get_attribute("class") for m in _marks(browser, "NAME"))
    assert not any(m.find_element("css selector", ".tag").is_displayed()
                   for m in _marks(browser, "NAME"))
    assert _marks(browser, "USER")[0].find_element("css selector", ".tag").is_displayed()
    _tick(browser, "label", "NAME", True)

    # Unticking the lowest band hides the low-probability highlights only.
    assert _marks(browser, band="low") and _marks(browser, band="high")
    _tick(browser, "band", "low", False)
    assert not any(m.find_element("css selector", ".tag").is_displayed()
                   for m in _marks(browser, band="low"))
    assert all(m.find_element("css selector", ".tag").is_displayed()
               for m in _marks(browser, band="high"))
    _tick(browser, "band", "low", True)

    # With no label ticked, no post is left.
    for label in ("NAME", "USER", "EMAIL", "URL", "PHONE"):
        _tick(browser, "label", label, False)
    posts = browser.find_elements("css selector", "article.post")
    assert posts and not any(post.is_displayed() for post in posts)
    assert browser.find_element("id", "shown").text == "0 of %d posts shown" % len(posts)
    for label in ("NAME", "USER", "EMAIL", "URL", "PHONE"):
        _tick(browser, "label", label, True)
    assert all(post.is_displayed() for post in posts)

    # A string's link in the table goes to its post, which comes into view.
    link = browser.find_element("css selector", "#strings a[href^='#post-']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    target = link.get_attribute("href").split("#", 1)[1]
    link.click()
    assert browser.execute_script("return location.hash") == "#" + target
    assert browser.execute_script("return document.querySelector(':target').id") == target
    top = browser.execute_script(
        "return document.getElementById(arguments[0]).getBoundingClientRect().top", target)
    assert 0 <= top < browser.execute_script("return window.innerHeight")

    # Nothing left the page: every request was for the file itself, and the browser
    # reported no error (a blocked script or style would be one).
    urls, errors = requests_and_errors(browser)
    assert urls and all(url.startswith("file://") for url in urls)
    assert errors == []
    assert not browser.find_elements("css selector", "script[src], link, img, iframe")
    browser.save_screenshot(str(tmp_path / "review.png"))
