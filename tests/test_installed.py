"""The installed package carries its word lists and default model (nothing is read from
the source tree at run time). Runs in a subprocess from a temporary directory, so the
import resolves to the installed package, as it does for a user."""
import json
import os
import subprocess
import sys

import pytest

from paths import DEMO_DUMP as SAMPLE, REPO

CHECK = """
import json, os, mmbdeid
from importlib import resources
from mmbdeid.lexicon.wordlists import WORDLISTS, load_wordlist
from mmbdeid.model.tagger import NameTagger, default_model_path
lexicons = resources.files("mmbdeid.lexicons")
print(json.dumps({
    "package": os.path.dirname(mmbdeid.__file__),
    "lexicons": str(lexicons),
    "sizes": {name: len(load_wordlist(name)) for name in WORDLISTS},
    "model": default_model_path(),
    "threshold": NameTagger.load(default_model_path()).threshold,
}))
"""


def run_installed(code, cwd):
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, env={k: v for k, v in os.environ.items()
                                          if k != "PYTHONPATH"})


def test_installed_package_has_word_lists_and_default_model(tmp_path):
    result = run_installed(CHECK, str(tmp_path))
    assert result.returncode == 0, result.stderr
    facts = json.loads(result.stdout)
    assert not facts["package"].startswith(REPO), "tests must run against the installed package"
    assert not facts["lexicons"].startswith(REPO)
    assert all(size > 50 for size in facts["sizes"].values())
    assert os.path.isfile(facts["model"]) and 0 < facts["threshold"] < 1


@pytest.mark.slow
def test_installed_command_scrubs_the_demo_dump(tmp_path):
    out = tmp_path / "scrubbed.jsonl"
    result = subprocess.run([sys.executable, "-m", "mmbdeid", "scrub", SAMPLE, "-o", str(out)],
                            cwd=str(tmp_path), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    with open(SAMPLE, encoding="utf-8") as handle:
        original = [json.loads(line) for line in handle]
    with open(out, encoding="utf-8") as handle:
        scrubbed = [json.loads(line) for line in handle]
    assert [r["id"] for r in scrubbed] == [r["id"] for r in original]
    assert any("[NAME]" in r["text"] for r in scrubbed)
