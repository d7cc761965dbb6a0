"""The WebSocket endpoint: read frames, check them, hand each to its handler, answer refusals.

A socket that sends no ``hello`` within ``Limits.hello_seconds``, or nothing at all for
``Limits.idle_seconds``, gets a ``timeout`` error and is closed (code 1008); an address
with ``Limits.connections_per_client`` sockets open gets ``too_many_connections`` and a
close (code 1013). A handler's unexpected failure answers ``server_error`` and the
connection goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.errors import TapeteError
from tapete.server.address import client_address
from tapete.server.connection import Connection
from tapete.server.errors import ServerError
from tapete.server.handlers import HANDLERS
from tapete.server.http import request_language
from tapete.server.hub import Hub
from tapete.server.idle import ReadDeadline
from tapete.server.protocol import parse_message

log = logging.getLogger("tapete.server")

CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013


async def websocket_endpoint(ws: WebSocket) -> None:
    """One client's socket: messages in order, answers through the connection's writer task."""
    hub: Hub = ws.app.state.hub
    address = client_address(ws)
    await ws.accept()
    if not hub.admission.open_socket(address):
        conn = Connection(ws, hub.rate, address)
        conn.lang = request_language(ws)  # no hello yet: the handshake's language
        conn.error(ServerError("too_many_connections", "too many sockets from this address"))
        conn.close(CLOSE_TRY_AGAIN)
        await conn.writer()
        return
    try:
        await serve_socket(hub, ws, address)
    finally:
        hub.admission.close_socket(address)


async def serve_socket(hub: Hub, ws: WebSocket, address: str) -> None:
    conn = Connection(ws, hub.rate, address)
    conn.lang = request_language(ws)  # until a hello names one: refusals before it are in this language
    writer = asyncio.create_task(conn.writer())
    limits = hub.limits
    task = asyncio.current_task()
    assert task is not None
    deadline = ReadDeadline(task)  # one timer per socket, not one per message
    try:
        while True:
            joined = conn.table is not None or hub.ownership.joined(conn)
            wait = limits.idle_seconds if joined else limits.hello_seconds
            try:
                raw = await deadline.read(ws.receive(), wait)
            except TimeoutError:
                what = "nothing" if joined else "no hello"
                conn.error(ServerError("timeout", f"{what} in {wait:g} s: the socket is closed"))
                conn.close(CLOSE_POLICY)
                break
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.error(ServerError("bad_message", "send JSON text frames"))
            elif not conn.limiter.allow():
                conn.error(ServerError("rate_limited", f"at most {hub.rate[0]:g} messages a second"))
            else:
                before = conn.table
                await handle_text(hub, conn, text)
                if before is None and conn.table is not None and conn.seat is not None:
                    await hub.seat_taken(ws, conn.table.id, conn.seat)
            if writer.done() or conn.closing:  # closed by the server: nothing more is read
                break
    except WebSocketDisconnect:
        pass
    finally:
        deadline.close()
        hub.ownership.socket_closed(conn)
        if conn.table is not None:
            conn.table.detach(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 1.0)
        if not writer.done():
            writer.cancel()


async def handle_text(hub: Hub, conn: Connection, text: str) -> None:
    """Handle one client message; every refusal is an ``error`` answering it and changes nothing."""
    ref: object = None
    try:
        msg = parse_message(text)
        ref = msg.get("id")
        if await hub.ownership.intercept(conn, msg, text):
            return  # handled by the node that owns the table
        await HANDLERS[msg["type"]](hub, conn, msg)
    except TapeteError as exc:
        conn.error(exc, ref)
        if exc.code == "rate_limited" and conn.table is None:  # a hello refused: it may try again later
            conn.close(CLOSE_TRY_AGAIN)
    except Exception as exc:
        log.exception("a %s failed", type(exc).__name__)
        conn.error(ServerError("server_error", "the server failed to handle this message"), ref)


__all__ = ["handle_text", "websocket_endpoint"]
