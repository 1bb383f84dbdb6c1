"""What the tests of the built fictional samples share: the build script as a module, a
JSON Lines file's records, and the digest compared instead of a blind file's text."""
import hashlib
import importlib.util
import json
from pathlib import Path

import paths


def build_script(name: str):
    """``tools/NAME.py`` loaded as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, Path(paths.TOOLS) / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def thread_problems(records):
    """What is wrong with the posts' threads, by post id (never text): ids repeated, a
    first post with a parent or a reply without one, a parent that is not an earlier post
    of the thread, times out of order, a thread of fewer than 4 or more than 8 posts."""
    position = {record["id"]: number for number, record in enumerate(records)}
    problems, sizes = [], {}
    if len(position) != len(records):
        problems.append(("ids", "repeated"))
    for number, record in enumerate(records):
        sizes[record["thread"]] = sizes.get(record["thread"], 0) + 1
        parent = record["parent"]
        first = sizes[record["thread"]] == 1
        if first != (parent is None):
            problems.append((record["id"], "first post and null parent disagree"))
        elif parent is not None and (position.get(parent, number) >= number
                                     or records[position[parent]]["thread"] != record["thread"]):
            problems.append((record["id"], "parent"))
        if not first and records[number - 1]["time"] >= record["time"]:
            problems.append((record["id"], "time"))
    problems.extend((thread, "%d posts" % size) for thread, size in sizes.items()
                    if not 4 <= size <= 8)
    return problems
