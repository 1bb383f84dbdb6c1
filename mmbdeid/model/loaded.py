"""The model a thread of this process loaded last, by its file: the command line checks the
model before any work, reads its threshold later and, with one local worker, detects in its
own process, all from one load. Per thread, as a worker thread of a Dask worker keeps its own
(a crfsuite tagger is not to be shared between threads)."""
import os
import threading

from .tagger import NameTagger

_LOADED = threading.local()     # .model: ((path, size, modification time), NameTagger)


def loaded_model(path: str) -> NameTagger:
    """The model at ``path``, loaded on the first call for it in this thread, and again
    when the file has changed since."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return NameTagger.load(path)            # (which says what is wrong)
    key = (os.path.abspath(path), found.st_size, found.st_mtime_ns)
    held = getattr(_LOADED, "model", None)
    if held is None or held[0] != key:
        held = (key, NameTagger.load(path))
        _LOADED.model = held
    return held[1]
