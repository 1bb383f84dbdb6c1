"""A file a run reads while another run may replace it (a ``--stats`` store, issue 29):
readers hold its lock shared, so they share it with each other, a writer is refused while
they read, and a reader while a writer writes; the last one out removes the lock file."""
import os

import pytest

from mmbdeid.errors import InputError
from mmbdeid.files import locks

IN_USE = "in use by another run, which reads it"
WRITING = "another mmbdeid run is writing this file"

# (the lock held first, the lock then taken, the error it meets or None)
CASES = [
    ("input", "input", None),
    ("input", "output", IN_USE),
    ("output", "input", WRITING),
    ("output", "output", None),        # the same process: the same lock, counted
]
TAKE = {"input": locks.input_lock, "output": locks.output_lock}


@pytest.mark.parametrize("first, second, error", CASES)
def test_readers_share_the_lock_and_exclude_writers(tmp_path, first, second, error):
    store = tmp_path / "shared.stats"
    store.write_bytes(b"")
    with TAKE[first](str(store)):
        if error is None:
            with TAKE[second](str(store)):
                pass
        else:
            with pytest.raises(InputError, match=error) as raised:
                with TAKE[second](str(store)):
                    pass
            assert raised.value.path == str(store)
            assert len(str(raised.value).splitlines()) == 1
    assert os.listdir(tmp_path) == ["shared.stats"]           # no lock file left
    with locks.output_lock(str(store)):                       # free again
        pass


def test_the_lock_file_stays_while_another_reader_holds_it(tmp_path):
    store = tmp_path / "shared.stats"
    store.write_bytes(b"")
    with locks.input_lock(str(store)):
        with locks.input_lock(str(store)):
            pass
        assert os.path.exists(locks.lock_path(str(store)))      # still held: still there
        with pytest.raises(InputError, match=IN_USE):
            with locks.output_lock(str(store)):
                pass
    assert os.listdir(tmp_path) == ["shared.stats"]
