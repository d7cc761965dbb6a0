"""The event loop's own asynchronous connection to the log, for commits it awaits.

Opened when a commit first needs it; when it cannot be opened, not tried again for
``RECONNECT_AFTER`` seconds (the caller's database thread writes meanwhile); replaced after a
failed commit that left it unfit (:meth:`tapete.server.db.Store.async_connection_usable`), such as
one that ran out of time (the connection is then closed). Opening it, each statement on it and
closing it take at most ``timeout`` seconds.
Used by the single process's group commit and by a cluster node's fenced log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

from tapete.server.db import LOG_TIMEOUT, Store

log = logging.getLogger("tapete.server")

RECONNECT_AFTER: Final = 5.0
"""Seconds the loop leaves its commits to a thread after its connection could not be opened."""


class LoopConnection:
    """One asynchronous connection of the event loop's, opened on demand."""

    def __init__(self, store: Store, *, retry_after: float = RECONNECT_AFTER, timeout: float = LOG_TIMEOUT) -> None:
        self.store = store
        self.retry_after = retry_after
        self.timeout = timeout
        """Seconds an opening, a statement or the closing may take."""
        self.conn: Any = None
        """The open connection, if any."""
        self._again_at = 0.0
        """When an opening may be tried again (``loop.time()``)."""

    async def get(self) -> Any:
        """The connection, opened if need be; ``None`` within ``retry_after`` of a failed opening."""
        if self.conn is not None:
            return self.conn
        loop = asyncio.get_running_loop()
        if loop.time() < self._again_at:
            return None
        try:
            self.conn = await self.store.open_async_connection(timeout=self.timeout)
        except Exception as exc:
            self._again_at = loop.time() + self.retry_after
            log.warning(
                "the event loop could not connect to the log (%s); a thread commits for %g s",
                type(exc).__name__,
                self.retry_after,
            )
        return self.conn

    async def after_failure(self) -> None:
        """A commit on the connection failed: close it unless it is still fit for the next."""
        conn = self.conn
        if conn is None:
            return
        try:
            usable = self.store.async_connection_usable(conn)
        except Exception:
            usable = False
        if not usable:
            await self.close()

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=self.timeout)


__all__ = ["RECONNECT_AFTER", "LoopConnection"]
