"""Process-level tuning for a long-running bot (``domino run``)."""

from __future__ import annotations

import gc

__all__ = ["tune_gc_for_serving"]


def tune_gc_for_serving() -> None:
    """Tune the garbage collector for a long-running bot process (call once, after start-up).

    Every move replaces a table's immutable state, so many objects live a few hundred
    milliseconds: long enough to reach the oldest generation, whose full collections walk
    every live object (about 200 per table) and pause the event loop for a long time with
    many tables. Freezing the start-up objects and collecting the older generations less
    often keeps those pauses rare (``bench/tables.py --tune-gc`` shows the difference).
    """
    gc.collect()
    gc.set_threshold(700, 50, 100)
    gc.freeze()
