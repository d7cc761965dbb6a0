"""uvicorn's sans-I/O WebSocket protocol with three changes for many small messages.

- **Reading pauses at a backlog, not at every message.** uvicorn stops reading a socket
  as soon as one message waits for the app and starts again when the app takes it: two
  ``epoll_ctl`` calls (and selector bookkeeping) for every message received. Here reading
  stops only once ``READ_BACKLOG`` messages wait, and starts again when the app has taken
  them all. What a client can make the server hold stays bounded: the backlog plus the
  frames of the one read (asyncio reads at most 256 KiB at a time) that reached it, as with
  uvicorn's own.
- **A frame can be sent without a task switch.** The server offers the ASGI extension
  ``tapete.send_now`` whose ``"send"`` entry sends a text frame (given as UTF-8) at once
  when the socket can take it (handshake done, not closing, the transport not over its
  high-water mark) and says whether it did; otherwise the caller queues the message for
  its writer task as before. ``Connection`` uses it when nothing is queued ahead of the
  message.
- **Short frames go out uncompressed.** A text sent at once that is shorter than
  ``RAW_BELOW`` bytes (a state as a delta, an acknowledgement, a pong) is written as a plain
  frame even where the client agreed to permessage-deflate: RFC 7692 lets any message go
  uncompressed (RSV1 unset), the compressor's window is left as it was, and compressing
  under a kilobyte costs more CPU than the bytes are worth (over random play 8 % of the
  changes are 512–1,023 bytes and none larger; whole views, 1.4–2 KB, stay compressed).
- **Short text frames are read without the parser.** Data that starts where a frame starts
  and is nothing but whole, final text frames under 64 KiB (what a table's client sends)
  is unmasked in one pass (``tapete.server.wsframes``), inflated by the connection's own
  permessage-deflate decoder when compressed, and handed to the app as the parser would
  have, failing the connection as the parser would on bad data; anything else goes to
  websockets' parser as before. Where frames start is followed from the end of the
  handshake request, so the parser is never skipped in the middle of a frame.
- **Sends wait while the transport is over its high-water mark**, on every uvicorn this
  runs on (uvicorn's own protocol does so only from 0.53), so a client that does not read
  fills its bounded outbox rather than the server's memory.

``TableSocketProtocol`` is what ``tapete serve`` gives uvicorn as ``ws=``.
"""

from __future__ import annotations

import contextlib
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState, PayloadTooBig, ProtocolError
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import Protocol, State

from tapete.server.wsframes import FrameBoundaries, short_texts

READ_BACKLOG = 8
"""Messages received and not yet taken by the app at which the socket stops being read."""
RAW_BELOW = 1024
"""Texts sent at once that are shorter than this many bytes are never compressed."""
SEND_NOW = "tapete.send_now"
"""The ASGI extension (in ``scope["extensions"]``) whose ``"send"`` is ``send_text_now``."""


class TableSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` that pauses reading at a backlog, pauses sends at the high-water
    mark and can send synchronously."""

    def connection_made(self, transport: Any) -> None:
        self.boundaries = FrameBoundaries()
        if reads_short_frames(self.conn):
            self.short_limit = frame_limit(self.conn)
            """The largest payload of a frame read on the short path (the limits are the connection's, fixed)."""
        else:  # a websockets without the sizes the short path checks: every frame goes to its parser
            self.boundaries.lost = True
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if self.boundaries.at_boundary and conn.state is State.OPEN and conn.current_size is None:
            texts = short_texts(data, self.short_limit, bool(conn.extensions))
            if texts is not None:
                self.receive_short_texts(texts)
                return
        self.boundaries.feed(data)
        super().data_received(data)

    def receive_short_texts(self, texts: list[tuple[bytes, bool]]) -> None:
        """Hand the app each of ``texts`` as the parent's ``handle_text`` does with a final text frame."""
        conn = self.conn
        for payload, compressed in texts:
            if compressed:
                try:
                    payload = inflate(conn, payload, self.short_limit)
                except Exception as exc:
                    fail_as_parser(conn, exc)
                    self.handle_parser_exception()
                    return
            self.curr_msg_data_type = "text"
            self.frames = [payload]
            self.send_receive_event_to_app()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = {"send": self.send_text_now}

    def pause_writing(self) -> None:
        self.writable.clear()  # the transport is over its high-water mark: sends wait

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.writable.set()  # a send waiting for a paused transport that is gone ends (it finds it closed)
        # the two reference cycles through this protocol, broken, so that it is freed (its
        # compressor's and decompressor's ~50 KiB with it) as soon as its socket's task ends
        # rather than at the next full collection: the scope's hook on it, and the frame of
        # websockets' parser generator
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope.get("extensions", {}).pop(SEND_NOW, None)
        parser = getattr(self.conn, "parser", None)
        if parser is not None:
            with contextlib.suppress(Exception):
                parser.close()

    def send_receive_event_to_app(self) -> None:
        # the parent pauses reading unless it believes reading is paused already
        paused = self.read_paused
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= READ_BACKLOG:
            self.read_paused = True
            self.transport.pause_reading()

    def send_text_now(self, text: bytes) -> bool:
        """Send ``text`` (UTF-8) as one text frame now if the socket can take it; ``False``: nothing was sent."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()  # a lost connection's transport is closing too
        ):
            return False
        conn = self.conn
        if len(text) < RAW_BELOW:
            if conn.state is not State.OPEN:
                return False
            pending = conn.data_to_send()  # whatever the protocol queued goes first
            pending.append(plain_text_frame(text))
            self.transport.write(b"".join(pending) if len(pending) > 1 else pending[0])
            return True
        try:
            conn.send_text(text)
        except InvalidState:
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True


def reads_short_frames(conn: Protocol) -> bool:
    """Whether ``conn`` (its websockets version) has the message sizes the short path checks as its parser does."""
    return all(hasattr(conn, name) for name in ("current_size", "max_message_size", "max_fragment_size"))


def frame_limit(conn: Protocol) -> int | None:
    """The largest payload the parser takes in the frame that starts a message."""
    limits = [n for n in (conn.max_message_size, conn.max_fragment_size) if n is not None]
    return min(limits) if limits else None


def inflate(conn: Protocol, payload: bytes, limit: int | None) -> bytes:
    """The text of a final compressed text frame, through the connection's extensions as its parser
    does (``limit``: the largest text it may inflate to, ``frame_limit(conn)``)."""
    frame = Frame(Opcode.TEXT, payload, True, True)
    for extension in reversed(conn.extensions):
        frame = extension.decode(frame, max_size=limit)
    frame.check()
    return bytes(frame.data)


def fail_as_parser(conn: Protocol, exc: Exception) -> None:
    """Fail the connection for ``exc`` with the close code websockets' parser gives it."""
    if isinstance(exc, ProtocolError):
        conn.fail(CloseCode.PROTOCOL_ERROR, str(exc))
    elif isinstance(exc, PayloadTooBig):
        exc.set_current_size(conn.current_size)
        conn.fail(CloseCode.MESSAGE_TOO_BIG, str(exc))
    else:
        conn.logger.error("reading a frame failed", exc_info=exc)
        conn.fail(CloseCode.INTERNAL_ERROR)  # no details, as the parser: they may be sensitive
    conn.parser_exc = exc


def plain_text_frame(text: bytes) -> bytes:
    """One final, unmasked, uncompressed text frame carrying ``text`` (RFC 6455 §5.2), as a
    server sends it; what ``websockets``' ``Frame(Opcode.TEXT, text).serialize(mask=False)`` gives."""
    n = len(text)
    if n < 126:
        return bytes((0x81, n)) + text
    if n < 1 << 16:
        return bytes((0x81, 126)) + n.to_bytes(2, "big") + text
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + text


__all__ = [
    "RAW_BELOW",
    "READ_BACKLOG",
    "SEND_NOW",
    "TableSocketProtocol",
    "fail_as_parser",
    "frame_limit",
    "inflate",
    "plain_text_frame",
    "reads_short_frames",
]
