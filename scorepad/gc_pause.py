"""Holding off Python's cyclic garbage collector during bulk work.

Replaying a match, listing ten thousand stored matches or simulating thousands
of hands makes a great many small objects that hold no reference cycles, so
reference counting frees every one of them. Left running, the cyclic collector
still scans them, and its full collections (each one walking every live
object) can take a quarter of the time. Pausing it for the bulk step and
resuming afterwards loses nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic collector inside the ``with`` block, then restore it as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
