"""Process settings that keep the event loop responsive with many open tables.

Python's cyclic garbage collector stops the whole process while it scans; with a thousand
open matches a full collection stalls the event loop for a tenth of a second or more, and
with the default thresholds it runs about once a second under load (``bench/service.py``
counts them). :func:`tune_gc` is meant to be called once after start-up (after
:meth:`TableService.start`):

* everything alive at that moment (modules, recovered tables) is frozen out of future
  collections (``gc.freeze``): it lives as long as the process anyway;
* young collections run every 20,000 allocations instead of 700, and older generations
  proportionally less often. Almost all garbage is freed by reference counting at once;
  only reference cycles wait for a collection, so memory stays bounded.
"""

from __future__ import annotations

import gc

THRESHOLDS = (20_000, 50, 50)


def tune_gc() -> None:
    """Collect once, freeze the survivors, and raise the collection thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
