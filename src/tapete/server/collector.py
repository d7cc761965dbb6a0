"""The garbage collector tuned for a server holding thousands of tables and sockets.

CPython's default thresholds (700, 10, 10) run a young collection every few hundred
allocations that outlive their statement, so every game state, message and socket object
that lives a few seconds is promoted to the old generation, and the old generation is then
scanned whole, in one pause that grows with everything the server holds: with 2,000 tables
the pauses reached 0.5–1.7 s (``benchmarks/server_load.py --human-pace``). Objects freed by
reference counting do not count towards a collection, so a high first threshold collects
only when the live heap grows.
"""

from __future__ import annotations

import gc
from typing import Final

THRESHOLDS: Final = (100_000, 50, 100)
"""Allocations net of frees before a young collection; young collections before a middle
one; middle ones before a full one (which also waits until a quarter of the old objects are new)."""


def tune() -> None:
    """Set the thresholds (for the whole process: the server starting calls it)."""
    gc.set_threshold(*THRESHOLDS)


__all__ = ["THRESHOLDS", "tune"]
