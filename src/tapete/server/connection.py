"""One WebSocket client: its seat, language and rate limit, and a bounded outbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from starlette.websockets import WebSocket

from tapete.errors import TapeteError
from tapete.i18n import DEFAULT_LANGUAGE
from tapete.server.messages import error_message
from tapete.server.protocol import RateLimiter, encode, encode_utf8
from tapete.server.table import Message, Table
from tapete.server.wsprotocol import SEND_NOW


class Connection:
    """One WebSocket client: a bounded outbox drained by a writer task.

    A message with nothing queued ahead of it is sent at once where the server offers
    ``tapete.send_now`` (``tapete.server.wsprotocol``) and the socket can take it; the
    outbox and its writer take the rest, in order.
    """

    OUTBOX = 1000

    def __init__(self, ws: WebSocket, rate: tuple[float, float], address: str | None = None) -> None:
        self.ws = ws
        self.address = address
        """The client's address (``None`` for a socket another node holds, which counts its asks)."""
        self.seat: int | None = None
        self.lang: str = DEFAULT_LANGUAGE
        self.deltas = False
        """Whether states after the first come as changes (``hello``'s ``deltas``)."""
        self.table: Table | None = None
        self.limiter = RateLimiter(rate[0], rate[1])
        self.outbox: asyncio.Queue[Message | None] = asyncio.Queue(self.OUTBOX)
        self.overflowed = False
        self.close_code = 1000
        self.closing = False
        self._writing = False
        self._send_now = _send_now_of(ws)

    def send(self, message: Message) -> None:
        """Send or queue a message; a client that does not read is dropped rather than slowing its table."""
        now = self._send_now
        busy = self._writing or self.closing or self.overflowed or not self.outbox.empty()
        if now is not None and not busy and self._sent_now(now, message):
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True

    @staticmethod
    def _sent_now(now: Callable[[bytes], bool], message: Message) -> bool:
        """Whether ``message`` went out at once; a message that fails to encode or send is left to
        the writer task, where a failure ends this socket alone, not the caller's broadcast."""
        try:
            return now(encode_utf8(message))
        except Exception:
            return False

    def error(self, error: TapeteError, ref: object = None) -> None:
        """Send a refusal in this client's language."""
        self.send(error_message(error, self.lang, ref))

    def close(self, code: int | None = None) -> None:
        """Ask the writer to close the socket (with ``code``) once the queued messages are sent."""
        if code is not None:
            self.close_code = code
        self.closing = True
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)

    async def writer(self) -> None:
        """Send queued messages in order until ``close`` (or an overflow)."""
        while True:
            m = await self.outbox.get()
            if m is None or self.overflowed:
                with contextlib.suppress(Exception):
                    await self.ws.close(1008 if self.overflowed else self.close_code)
                return
            self._writing = True
            try:
                await self.ws.send_text(encode(m))
            finally:
                self._writing = False


def _send_now_of(ws: WebSocket | None) -> Callable[[bytes], bool] | None:
    """The server's synchronous text send for ``ws`` (``tapete.send_now``), if it offers one."""
    scope = getattr(ws, "scope", None) or {}
    offer: dict[str, Callable[[bytes], bool]] | None = scope.get("extensions", {}).get(SEND_NOW)
    return offer["send"] if offer else None


__all__ = ["Connection", "encode"]
