"""The garbage collector's pace during a dump's passes: slower inside, as before after,
and every command that works through a dump runs at it."""
import gc

import pytest

from mmbdeid.cli import main
from mmbdeid.jobs import first_pass, passes, person_pass, thread_names
from mmbdeid.jobs.chunks import chunked
from mmbdeid.jobs.collection import YOUNG_OBJECTS, fewer_collections
from paths import DEMO_DUMP


@pytest.fixture
def threshold():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


@pytest.mark.parametrize("set_before, inside", [
    ((700, 10, 10), (YOUNG_OBJECTS, 10, 10)),
    ((2 * YOUNG_OBJECTS, 5, 7), (2 * YOUNG_OBJECTS, 5, 7)),     # already slower: kept
    ((0, 10, 10), (0, 10, 10)),                                 # collection off: stays off
])
def test_pace_inside_and_after(threshold, set_before, inside):
    gc.set_threshold(*set_before)
    with fewer_collections():
        assert gc.get_threshold() == inside
    assert gc.get_threshold() == set_before


def test_pace_restored_after_an_error(threshold):
    gc.set_threshold(700, 10, 10)
    with pytest.raises(KeyError):
        with fewer_collections():
            raise KeyError("x")
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("command, passes_chunked", [
    (["scrub", DEMO_DUMP, "-o", "{out}", "-j", "1", "-q"], 3),
    (["scrub", DEMO_DUMP, "-o", "{out}", "-j", "1", "-q", "--mode", "pseudonym"], 3),
    (["link", DEMO_DUMP, "-o", "{out}", "-j", "1", "-q"], 2),
    (["review", DEMO_DUMP, "-o", "{out}", "-j", "1", "-q"], 3),    # as scrub: consistency
    (["stats", DEMO_DUMP, "-o", "{out}", "-j", "1", "-q"], 1),
])
def test_dump_commands_run_at_the_slower_pace(threshold, monkeypatch, tmp_path, command,
                                              passes_chunked):
    gc.set_threshold(700, 10, 10)
    seen = []

    def recording(*args, **kwargs):         # a pass chunking the posts for the workers
        seen.append(gc.get_threshold()[0])
        return chunked(*args, **kwargs)
    for module in (first_pass, passes, person_pass, thread_names):
        monkeypatch.setattr(module, "chunked", recording)
    out = str(tmp_path / "out")
    assert main([part.format(out=out) for part in command]) == 0
    assert seen == [YOUNG_OBJECTS] * passes_chunked
    assert gc.get_threshold() == (700, 10, 10)
