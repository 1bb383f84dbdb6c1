"""The run's detection configuration carries the hash key to the workers (issue 21): hidden
in its repr (a Dask worker logs a failed task's arguments), equal after pickling (how it
travels) and hashable (the Dask engine caches the workers' functions by it)."""
import pickle

from mmbdeid.jobs.config import DetectionConfig
from mmbdeid.output.hash_key import HashKey

KEY = b"fictional hash key 0123456789"


def test_the_key_travels_hidden():
    config = DetectionConfig("model.mmbdeid", mode="hash", hash_key=HashKey(KEY))
    assert "fictional" not in repr(config) and "hash_key=HashKey(<hidden>)" in repr(config)
    copy = pickle.loads(pickle.dumps(config))
    assert copy == config and hash(copy) == hash(config)
    assert copy != DetectionConfig("model.mmbdeid", mode="hash",
                                   hash_key=HashKey(b"another fictional key 42"))
