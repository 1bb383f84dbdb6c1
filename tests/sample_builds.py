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
