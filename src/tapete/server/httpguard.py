"""uvicorn's HTTP/1.1 protocol with a header deadline: slow-header connections are closed.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but waits forever
for a request whose headers trickle in. ``guarded_protocol(seconds)`` is an ``h11``
protocol class that closes a connection whose request headers are not complete
``seconds`` after it opened or after its last answer; the header size is bounded by
h11 (``h11_max_incomplete_event_size``, 16 KiB: a larger head gets a 400).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class HeaderDeadlineProtocol(H11Protocol):
    """An ``H11Protocol`` that closes connections whose request head is late."""

    header_seconds: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.header_seconds, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.conn.their_state in (h11.IDLE,) and (self.cycle is None or self.cycle.response_complete):
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()  # the socket's protocol takes the connection: this one is done with it
        super().handle_websocket_upgrade(event)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


def guarded_protocol(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class to give uvicorn (``http=``) for a header deadline of ``seconds``."""
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), {"header_seconds": seconds})


__all__ = ["HeaderDeadlineProtocol", "guarded_protocol"]
