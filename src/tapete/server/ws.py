"""The WebSocket endpoint: read frames, check them, hand each to its handler, answer refusals."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.errors import TapeteError
from tapete.server.connection import Connection
from tapete.server.errors import ServerError
from tapete.server.handlers import HANDLERS
from tapete.server.hub import Hub
from tapete.server.protocol import parse_message


async def websocket_endpoint(ws: WebSocket) -> None:
    """One client's socket: messages in order, answers through the connection's writer task."""
    hub: Hub = ws.app.state.hub
    await ws.accept()
    conn = Connection(ws, hub.rate)
    writer = asyncio.create_task(conn.writer())
    try:
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.error(ServerError("bad_message", "send JSON text frames"))
            elif not conn.limiter.allow():
                conn.error(ServerError("rate_limited", f"at most {hub.rate[0]:g} messages a second"))
            else:
                await handle_text(hub, conn, text)
            if writer.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
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
        await HANDLERS[msg["type"]](hub, conn, msg)
    except TapeteError as exc:
        conn.error(exc, ref)


__all__ = ["handle_text", "websocket_endpoint"]
