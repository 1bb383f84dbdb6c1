"""Reading back what an annotation page (``mmbdeid annotate``) holds: its data block."""
import json
import re


def page_data(path):
    """The JSON the page's script reads."""
    with open(path, encoding="utf-8") as handle:
        page = handle.read()
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page,
                      re.DOTALL)
    return json.loads(found.group(1))


def page_posts(path):
    return page_data(path)["posts"]
