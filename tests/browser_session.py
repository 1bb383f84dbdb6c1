"""Headless Chromium for the tests of the self-contained pages (the review page, the
annotation page): skipped, with the reason, where selenium, a browser or chromedriver is
missing."""
import importlib.util
import os
import shutil

import pytest

CHROMEDRIVER = "/usr/bin/chromedriver"


def browser_missing():
    """Why no browser test can run here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed"
    if not any(shutil.which(name) for name in ("chromium", "chromium-browser",
                                               "google-chrome")):
        return "no chromium or chrome browser on PATH"
    if not (os.path.exists(CHROMEDRIVER) or shutil.which("chromedriver")):
        return "no chromedriver"
    return None


def headless_chromium():
    """A fixture body: a headless Chromium (its network requests and console logged),
    quit afterwards."""
    reason = browser_missing()
    if reason:
        pytest.skip("browser test: " + reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--window-size=1100,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    service = Service(CHROMEDRIVER) if os.path.exists(CHROMEDRIVER) else Service()
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def requests_and_errors(driver):
    """The URLs the page requested and the errors the browser reported (a blocked
    script or style would be one), since the last call."""
    import json
    requests = [json.loads(entry["message"])["message"] for entry in
                driver.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in requests
            if m["method"] == "Network.requestWillBeSent"]
    return urls, [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
