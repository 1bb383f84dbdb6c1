#!/usr/bin/env python3
"""A screenshot of the review page (``mmbdeid review --html``) for docs/review-and-audit.md.

Runs the real command on the bundled fictional demo dump, opens the page from ``file://``
in headless Chromium (selenium with ``/usr/bin/chromedriver``) and saves a PNG. Usage::

    python3 tools/screenshot_review.py [--dump DUMP] [-o docs/review.png] [--posts N]
        [--scroll-to ID] [--tick SELECTOR ...]

docs/review-leftovers.png (near-misses, posts with no removal, the list buttons)::

    python3 tools/screenshot_review.py -o docs/review-leftovers.png --scroll-to unremoved \
        --tick '#near input[value="Buddy"]' --tick '#strings input[value="Mr"]' --size 1100x1500
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "corpora_samples", "demo_dump.jsonl")
CHROMEDRIVER = "/usr/bin/chromedriver"


def headless_chromium(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--window-size=%d,%d" % (width, height)):
        options.add_argument(argument)
    service = Service(CHROMEDRIVER) if os.path.exists(CHROMEDRIVER) else Service()
    return webdriver.Chrome(options=options, service=service)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", default=DEMO, help="posts to review (default: the demo dump)")
    parser.add_argument("-o", "--output", default=os.path.join(ROOT, "docs", "review.png"),
                        help="the PNG to write (default docs/review.png)")
    parser.add_argument("--posts", type=int, default=8,
                        help="posts shown on the page (--html-posts; default 8)")
    parser.add_argument("--size", default="1100x1400", help="window WIDTHxHEIGHT in pixels")
    parser.add_argument("--scroll-to", metavar="ID",
                        help="scroll the element of this id to the top (under the filters)")
    parser.add_argument("--tick", metavar="SELECTOR", action="append", default=[],
                        help="click the first element this CSS selector finds (repeatable)")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory(prefix="mmbdeid-shot-") as work:
        page = os.path.join(work, "review.html")
        command = [sys.executable, "-m", "mmbdeid", "review", args.dump,
                   "-o", os.path.join(work, "review.csv"), "--html", page,
                   "--html-posts", str(args.posts), "--jobs", "1", "--quiet"]
        subprocess.run(command, cwd=ROOT, check=True)
        driver = headless_chromium(width, height)
        try:
            driver.get("file://" + page)
            for selector in args.tick:
                box = driver.find_element("css selector", selector)
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
                box.click()
            if args.scroll_to:
                driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()",
                                      args.scroll_to)
            else:
                driver.execute_script("window.scrollTo(0, 0)")
            os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
            driver.save_screenshot(args.output)
        finally:
            driver.quit()
    print("screenshot written to %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
