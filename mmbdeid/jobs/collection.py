"""The cyclic garbage collector's pace while a dump is worked through.

A pass creates millions of small containers (spans, mentions, the workers' unpickled
results) and the main process keeps a store that grows with the dump (who posts where,
the words each thread removed, the names to link). At Python's default pace (a young
collection every 700 new containers) the full collections that follow scan that whole
store again and again, so their cost grows with the square of the dump. The passes free
almost everything by reference counting, so collecting young objects every
``YOUNG_OBJECTS`` new containers loses nothing but that cost. Worker processes forked
inside a pass keep the pace.
"""
import contextlib
import gc
from typing import Iterator

YOUNG_OBJECTS = 50_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block, a young collection every ``YOUNG_OBJECTS`` new containers (or
    the pace already set, if slower); the pace before is restored after. Also a
    decorator."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_OBJECTS) if young else 0, middle, old)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)
