"""The annotation page (``mmbdeid annotate``) in headless Chromium: a person tags a span
with the mouse and one with the keyboard, untags and relabels pre-filled spans, gives a
person key, marks a post done, reloads (the work comes back), exports; the export trains
a model, is scored and split, and its offsets are Python's, exact past emoji, combining accents
and CRLF line ends."""
import json
import os
import time

import pytest

from browser_session import headless_chromium, requests_and_errors
from jsonl_files import write_jsonl
from mmbdeid.cli import main

# Fictional posts. Post 0 has an emoji (two UTF-16 units) and a CRLF before a name; post 1
# a decomposed é (e + U+0301); the others give train and evaluate something to read.
POSTS = [
    {"id": "t1/1", "board": "ra", "thread": "t1", "author": "sunnyknits", "score": 1.0,
     "text": "Hi all, Dr Okafor upped my methotrexate. Thanks Linda for the tip "
             "\U0001F600\U0001F44D from the clinic in Leeds too.\r\nMaggie"},
    {"id": 2, "board": "ra", "thread": "t1", "author": "lindalou", "parent": "t1/1",
     "text": "Glad it helped Jose\u0301 and Maggie! @sunnyknits <b>bold</b></script>",
     "extra": {"nested": [1, 2]}},
    {"id": "t2/1", "board": "ra", "thread": "t2", "author": "quietday",
     "text": "Nothing new, just tired today. Ron says hello.\r\nKay"},
    {"id": "t2/2", "board": "ra", "thread": "t2", "author": "ronbo",
     "text": "Thanks Kay, see you at group on Tuesday.\nRon"},
]


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium()


def _marks(driver, post):
    return driver.find_elements("css selector",
                                'article[data-post="%d"] mark.span' % post)


def _mark(driver, post, text):
    found = [m for m in _marks(driver, post) if m.text == text]
    assert len(found) == 1, (text, [m.text for m in _marks(driver, post)])
    return found[0]


def _keys(driver, keys):
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(keys).perform()


def _double_click_text(driver, post, word):
    """A real double click in the middle of ``word`` (its first occurrence in a text node
    of the post), at its place in the window: the browser selects the word."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    x, y = driver.execute_script("""
        var box = document.querySelector('article[data-post="' + arguments[0] + '"] .text');
        var walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT), node;
        while ((node = walker.nextNode())) {
          var at = node.data.indexOf(arguments[1]);
          if (at >= 0) {
            var range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + arguments[1].length);
            var r = range.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
          }
        }""", post, word)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(x), int(y)).double_click()
    actions.perform()


def _select_units(driver, post, start, end):
    """Select the post's text from UTF-16 unit ``start`` to ``end`` (as the keyboard
    would: no mouse event)."""
    driver.execute_script("""
        var box = document.querySelector('article[data-post="' + arguments[0] + '"] .text');
        function at(units) {
          var walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT), node;
          while ((node = walker.nextNode())) {
            if (units <= node.data.length) { return [node, units]; }
            units -= node.data.length;
          }
        }
        var a = at(arguments[1]), b = at(arguments[2]);
        window.getSelection().setBaseAndExtent(a[0], a[1], b[0], b[1]);
    """, post, start, end)


def _units(text, start):
    """The UTF-16 offset of code point ``start``."""
    return len(text[:start].encode("utf-16-le")) // 2


def _spans(record):
    return [(record["text"][s["start"]:s["end"]], s["label"], s.get("person"))
            for s in record["spans"]]


@pytest.mark.slow
def test_tag_export_train_and_evaluate(browser, tmp_path):
    dump = write_jsonl(tmp_path / "sample.jsonl", POSTS)
    page = str(tmp_path / "tag.html")
    assert main(["annotate", dump, "-o", page, "-j", "1", "-q"]) == 0
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd("Page.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(downloads)})
    browser.get("file://" + page)
    assert browser.title == "mmbdeid annotate"
    prefilled = {m.text: m.get_attribute("data-label") for m in _marks(browser, 0)}
    assert prefilled == {"Okafor": "NAME", "Linda": "NAME", "Maggie": "NAME"}
    # The post's markup is shown as text, not run.
    text = browser.execute_script(
        "return document.querySelector('article[data-post=\"1\"] .text').textContent")
    assert text == POSTS[1]["text"]
    assert not browser.find_elements("css selector", "b, script[src], link, img, iframe")

    # ? shows the keys, Esc hides them.
    help_panel = browser.find_element("id", "help")
    assert not help_panel.is_displayed()
    _keys(browser, "?")
    assert help_panel.is_displayed() and "person key" in help_panel.text
    _keys(browser, "\ue00c")                                      # Escape
    assert not help_panel.is_displayed()

    # Untag: click a pre-filled span, Delete.
    _mark(browser, 0, "Okafor").click()
    _keys(browser, "\ue017")                                      # Delete
    # Relabel: click, then 2 (USER); and a person key for another (p, then the prompt).
    _mark(browser, 0, "Maggie").click()
    _keys(browser, "2")
    _mark(browser, 0, "Linda").click()
    _keys(browser, "p")
    prompt = browser.switch_to.alert
    prompt.send_keys("lindalou")
    prompt.accept()
    # Tag with the mouse: Esc unselects, 8 makes PLACE the current label, a double click
    # selects a word and the current label tags it.
    _keys(browser, "\ue00c")                                      # Escape
    _keys(browser, "8")
    _double_click_text(browser, 0, "Leeds")
    assert ("Leeds", "PLACE") in [(m.text, m.get_attribute("data-label"))
                                  for m in _marks(browser, 0)]
    # A double click on a span selects it: its label and person key stay.
    _double_click_text(browser, 0, "Linda")
    linda = _mark(browser, 0, "Linda")
    assert (linda.get_attribute("data-label"), linda.get_attribute("data-person")) == (
        "NAME", "lindalou")
    assert "selected" in linda.get_attribute("class")
    # Tag with the keyboard: a selection that splits the accent from its e and begins
    # with a space is widened to the whole é and trimmed; 1 tags it NAME (José was
    # untagged first).
    _mark(browser, 1, "Jose\u0301").click()
    _keys(browser, "\ue003")                                      # Backspace
    text = POSTS[1]["text"]
    start = text.index(" Jose")
    _select_units(browser, 1, _units(text, start), _units(text, start + 5))
    _keys(browser, "1")
    # A selection that begins and ends inside emoji (between the two UTF-16 units of
    # each) takes both emoji whole; Backspace removes the span again.
    first = POSTS[0]["text"]
    emoji = first.index("\U0001F600")
    _select_units(browser, 0, _units(first, emoji) + 1, _units(first, emoji + 1) + 1)
    _keys(browser, "9")
    assert ("\U0001F600\U0001F44D", "ORG") in [(m.text, m.get_attribute("data-label"))
                                                for m in _marks(browser, 0)]
    _keys(browser, "\ue003")
    assert "ORG" not in [m.get_attribute("data-label") for m in _marks(browser, 0)]
    # j moves to post 1, d marks it done, j moves on.
    _keys(browser, "j")
    _keys(browser, "d")
    _keys(browser, "j")
    assert browser.find_element("css selector", "article.post.current").get_attribute(
        "data-post") == "2"
    assert browser.find_element("id", "progress").text == "1 of 4 posts done \u00b7 %d spans" \
        % sum(1 for _ in browser.find_elements("css selector", "mark.span"))

    # The work is saved in the browser: a reload brings it back.
    before = [(m.text, m.get_attribute("data-label")) for m in
              browser.find_elements("css selector", "mark.span")]
    browser.refresh()
    assert [(m.text, m.get_attribute("data-label")) for m in
            browser.find_elements("css selector", "mark.span")] == before
    assert browser.find_element("id", "saved").text == "restored from this browser"
    assert browser.find_element("css selector",
                                'article[data-post="1"] input.done').is_selected()

    # Export: the download is every record, its fields in order as read, plus spans.
    browser.find_element("id", "export").click()
    exported = downloads / "sample.annotated.jsonl"
    for _ in range(100):                 # the download lands asynchronously
        if exported.exists():
            break
        time.sleep(0.1)
    records = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert [{k: v for k, v in r.items() if k != "spans"} for r in records] == POSTS
    assert [list(r) for r in records] == [list(p) + ["spans"] for p in POSTS]
    assert _spans(records[0]) == [("Linda", "NAME", "lindalou"), ("Leeds", "PLACE", None),
                                  ("Maggie", "USER", None)]
    jose = records[1]["spans"][0]
    assert (jose["start"], jose["end"]) == (text.index("Jose"), text.index("Jose") + 5)
    assert _spans(records[1])[0] == ("Jose\u0301", "NAME", None)
    assert records[0]["spans"][2]["start"] == POSTS[0]["text"].index("\r\nMaggie") + 2

    urls, errors = requests_and_errors(browser)
    assert urls and all(url.startswith("file://") or url.startswith("blob:") for url in urls)
    assert errors == []
    browser.save_screenshot(str(tmp_path / "annotate.png"))

    # The export trains a model and is scored, and comes back into the page as it went.
    model = str(tmp_path / "board.mmbdeid")
    assert main(["train", str(exported), "-o", model, "-q"]) == 0
    assert main(["evaluate", str(exported), "--model", model, "-q"]) == 0
    assert main(["sweep", str(exported), "--model", model, "-q"]) == 0
    assert main(["split", str(exported), "-o", str(tmp_path / "train.jsonl"),
                 "--dev", str(tmp_path / "dev.jsonl"), "--dev-share", "0.5"]) == 0
    again = str(tmp_path / "again.html")
    assert main(["annotate", str(exported), "-o", again, "-q"]) == 0
    from annotate_pages import page_posts
    assert [p["spans"] for p in page_posts(again)] == [r["spans"] for r in records]
