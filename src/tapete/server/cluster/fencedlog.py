"""A node's writes to the log: the events of all its tables gathered, one fenced transaction per batch.

Tables hand their events to ``FencedLog.append`` and wait. While one batch is being
written, the events that arrive gather; when it is done they go together in the next
(:meth:`tapete.server.cluster.lease.Leases.append_many`, one transaction, every event
checked against its lease epoch). Each waiting table is woken with its own answer once
the transaction has committed, so an action is acknowledged only once it is in the log,
and a table whose lease this node lost gets ``LeaseLost`` and writes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final

from tapete.server.cluster.lease import FencedEvent, Leases

MAX_BATCH: Final = 500
"""Most events written in one transaction."""

RunInThread = Callable[..., Awaitable[Any]]


class FencedLog:
    """Batches of fenced appends, one batch in flight at a time."""

    def __init__(self, leases: Leases, node_id: str, run: RunInThread) -> None:
        self.leases = leases
        self.node_id = node_id
        self._run = run
        self._waiting: list[tuple[FencedEvent, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0
        self.events = 0

    async def append(
        self, table_id: str, seq: int, hand: int, action: dict[str, Any], final: dict[str, Any] | None, epoch: int
    ) -> None:
        """Append one event as the holder of ``epoch``; raises ``LeaseLost`` or the write's error."""
        event = FencedEvent.of(table_id, seq, hand, action, epoch, final)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((event, fut))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write(), name="fenced-log")
        await fut

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            try:
                answers = await self._run(self.leases.append_many, [e for e, _ in batch], self.node_id)
            except Exception as exc:
                answers = [exc] * len(batch)
            self.batches += 1
            self.events += len(batch)
            for (_, fut), answer in zip(batch, answers, strict=True):
                if fut.done():
                    continue
                if answer is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(answer)


__all__ = ["MAX_BATCH", "FencedLog"]
