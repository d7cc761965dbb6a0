"""uvicorn's server, made to let the application hand its work off as soon as it begins to stop.

uvicorn stops in this order: it closes its listening sockets, asks every connection to close,
waits for the calls in flight (an analysis, a call forwarded to another node may take a long
time), and only then runs the application's shutdown. A node of a cluster should give its tables
to the other nodes at the first of these steps, not after the last: otherwise its tables wait on
the slowest call, and a supervisor that kills a node which takes too long to stop turns a clean
stop into a failover that waits for the leases to run out. ``HandingOffServer`` starts the hub's
:meth:`~tapete.server.hub.Hub.hand_off` when the shutdown begins, and waits for it before the
application's own shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import uvicorn

log = logging.getLogger("tapete.server")


class HandingOffServer(uvicorn.Server):
    """``uvicorn.Server`` that calls ``app.state.hub.hand_off()`` as its shutdown begins (``app``
    is the application ``config`` serves, made by :func:`tapete.server.app.create_app`)."""

    def __init__(self, config: uvicorn.Config, app: Any) -> None:
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        hand_off = asyncio.ensure_future(self._hand_off())
        try:
            await super().shutdown(sockets)
        finally:
            await hand_off

    async def _hand_off(self) -> None:
        hub = getattr(self.app.state, "hub", None)
        if hub is None:  # not started, or stopped already
            return
        try:
            await hub.hand_off()
        except Exception:
            log.exception("handing the tables off failed; their leases run out by themselves")


__all__ = ["HandingOffServer"]
