"""A socket's read deadline without a timer per message.

``asyncio.timeout`` around each ``receive`` schedules and cancels a timer handle for every
frame. :class:`ReadDeadline` keeps one handle per socket instead: each read only moves the
deadline (a float), and the handle, when it fires early, sleeps again until the deadline it
finds. When a read is still waiting at its deadline, the reading task is cancelled and the
read raises ``TimeoutError``; any other cancellation passes through.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class ReadDeadline:
    """The deadline of the read the task ``task`` is waiting on (one task, one socket)."""

    def __init__(self, task: asyncio.Task[object]) -> None:
        self._task = task
        self._loop = task.get_loop()
        self._deadline = 0.0
        self._reading = False
        self._fired = False
        self._handle: asyncio.TimerHandle | None = None

    async def read(self, awaitable: Awaitable[T], seconds: float) -> T:
        """``await awaitable`` (run by the task), for ``seconds`` at most: ``TimeoutError`` past them."""
        self._start(seconds)
        try:
            result = await awaitable
        except asyncio.CancelledError:
            if self._expired():
                raise TimeoutError from None
            raise
        self._reading = False
        return result

    def _start(self, seconds: float) -> None:
        """A read begins: it may wait ``seconds`` at most."""
        loop = self._loop
        self._deadline = deadline = loop.time() + seconds
        self._reading = True
        handle = self._handle
        if handle is None:
            self._handle = loop.call_at(deadline, self._check)
        elif handle.when() > deadline:  # a shorter wait than the one scheduled
            handle.cancel()
            self._handle = loop.call_at(deadline, self._check)

    def _expired(self) -> bool:
        """Whether the task was cancelled because its read reached the deadline (checked once, in the
        ``CancelledError`` handler: an expiry is then uncancelled and the read is over)."""
        if not self._fired:
            return False
        self._fired = False
        self._reading = False
        return self._task.uncancel() == 0

    def close(self) -> None:
        """No more reads: drop the timer."""
        self._reading = False
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _check(self) -> None:
        self._handle = None
        if not self._reading:
            return  # the next read schedules its own deadline
        if self._loop.time() < self._deadline:
            self._handle = self._loop.call_at(self._deadline, self._check)
            return
        self._fired = True
        self._task.cancel()


__all__ = ["ReadDeadline"]
