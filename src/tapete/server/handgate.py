"""The pause between two hands: bots wait until the people at the table have seen the summary.

When a hand ends the table opens a :class:`HandGate`; its bots hold their next move until
every connected human seat has sent ``{"type": "next_hand", "hand": n}`` (``n``: the hand
that ended, as in ``hand_over.hand``), or until the gate's deadline
(``create_app(next_hand_wait=…)``, 30 s by default). People may always act: a human's move
counts as that seat's ``next_hand``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class HandGate:
    """Bots wait here after hand ``hand`` until ``ready`` covers the people present, or ``deadline``."""

    hand: int
    deadline: float
    summary: dict[str, Any] = field(default_factory=dict)
    """The ``hand_over`` message, sent again to a person who connects while the bots wait."""
    ready: set[int] = field(default_factory=set)
    opened: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def after(cls, hand: int, wait: float, summary: dict[str, Any]) -> HandGate:
        """A gate after hand ``hand`` (told by ``summary``) that opens by itself ``wait`` seconds from now."""
        return cls(hand, time.monotonic() + wait, dict(summary))

    def left(self) -> float:
        """Seconds until the deadline (0 when it has passed)."""
        return max(0.0, self.deadline - time.monotonic())

    def open_if(self, waiting: set[int]) -> bool:
        """Open the gate when none of ``waiting`` (seats whose people must see the hand's end) is missing."""
        if not waiting - self.ready or self.left() <= 0:
            self.opened.set()
        return self.opened.is_set()

    async def wait(self) -> None:
        """Until the gate opens or its deadline passes."""
        left = self.left()
        if left > 0 and not self.opened.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.opened.wait(), left)
        self.opened.set()


__all__ = ["HandGate"]
