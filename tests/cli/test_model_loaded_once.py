"""The model is loaded once in the command line's process (issue 32): a run checks it before
any work, reads its threshold later (``review --html`` states it) and, with one local
worker, detects in this process, from the same load, where each of them loaded it again."""
import threading

import pytest

from mmbdeid.cli.entry import main
from mmbdeid.model import loaded
from mmbdeid.model.tagger import NameTagger

from paths import DEMO_DUMP


@pytest.mark.parametrize("command", [
    ["review", DEMO_DUMP, "-o", "{tmp}/list.csv", "--html", "{tmp}/page.html"],
    ["scrub", DEMO_DUMP, "-o", "{tmp}/out.jsonl"],
])
def test_one_load_per_run(tmp_path, monkeypatch, command):
    loads = []
    load = NameTagger.load.__func__

    def counted(cls, path, *args, **kwargs):
        loads.append(path)
        return load(cls, path, *args, **kwargs)

    monkeypatch.setattr(NameTagger, "load", classmethod(counted))
    monkeypatch.setattr(loaded, "_LOADED", threading.local())   # (an earlier test's)
    argv = [part.format(tmp=tmp_path) for part in command]
    assert main(argv + ["--quiet", "--jobs", "1"]) == 0
    # one local worker detects in this process (--jobs 1); more are processes of their own
    assert len(loads) == 1, loads
