"""A node's writes to the log: the events of all its tables gathered, one fenced commit per batch.

Tables hand their events to ``FencedLog.append`` and wait. While one batch is being
written, the events that arrive gather; when it is done they go together in the next,
every event checked against its lease epoch. A batch is one statement awaited on an
asynchronous connection of the node's event loop
(:meth:`tapete.server.cluster.lease.Leases.append_many_async`: one round trip, no thread
woken; :class:`tapete.server.loopconn.LoopConnection`); a batch that fails there (or takes
longer than the leases' ``write_seconds``: that connection is then replaced), or every batch for a
few seconds after that connection could not be opened, is written by a database thread
(:meth:`tapete.server.cluster.lease.Leases.append_many`, one transaction, where an event at
fault fails alone). Each waiting table is woken with its own answer once the batch has
committed, so an action is acknowledged only once it is in the log, and a table whose lease
this node lost gets ``LeaseLost`` and writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from tapete.server.cluster.lease import FencedEvent, Leases
from tapete.server.loopconn import LoopConnection

log = logging.getLogger("tapete.server")

MAX_BATCH: Final = 500
"""Most events written in one commit."""

RunInThread = Callable[..., Awaitable[Any]]


class FencedLog:
    """Batches of fenced appends, one batch in flight at a time."""

    def __init__(self, leases: Leases, node_id: str, run: RunInThread) -> None:
        self.leases = leases
        self.node_id = node_id
        self._run = run
        self._waiting: list[tuple[FencedEvent, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._conn = LoopConnection(leases.store, timeout=leases.write_seconds)
        """The asynchronous connection the loop's batches are written through (opened at the first;
        a batch, or the opening, that takes more than the leases' ``write_seconds`` is given up)."""
        self.batches = 0
        self.events = 0
        self.thread_batches = 0
        """Batches the database thread wrote (the loop's failed, or it had no connection)."""

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

    async def close(self) -> None:
        """Let the batch in flight finish, then close the loop's connection."""
        writer = self._writer
        if writer is not None and not writer.done():
            with contextlib.suppress(Exception):
                await writer
        await self._conn.close()

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
            try:
                answers = await self._write_batch([e for e, _ in batch])
            except asyncio.CancelledError:
                for _, fut in batch:  # whether it reached the log is not known
                    fut.cancel()
                raise
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

    async def _write_batch(self, events: list[FencedEvent]) -> list[BaseException | None]:
        """Each event's answer: written on the loop's connection, or else by the thread."""
        conn = await self._conn.get()
        if conn is not None:
            try:
                return await self.leases.append_many_async(conn, events, self.node_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # none of the batch is in the log; the thread writes it, and an event at fault fails alone
                log.debug("a fenced batch failed on the loop (%s); the thread writes it", type(exc).__name__)
                await self._conn.after_failure()
        self.thread_batches += 1
        answers: list[BaseException | None] = await self._run(self.leases.append_many, events, self.node_id)
        return answers


__all__ = ["MAX_BATCH", "FencedLog"]
