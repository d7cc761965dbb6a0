"""What the load scripts share to act as many people on this machine: a loopback address for
each person, and a tiny HTTP/1.1 client (no extra dependencies) calling from such an address.

A server counts its per-address allowances (30 API calls a second, 64 sockets) by address, as
people at their own tables come from addresses of their own; a script whose thousands of
players all called from 127.0.0.1 would measure those allowances, not the server.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


def person_address(k: int) -> str:
    """The loopback address the ``k``-th person (table, client) calls and connects from: one each,
    127.0.1.2 onward, 250 to a /24."""
    return f"127.0.{1 + k // 250}.{k % 250 + 2}"


async def http_body(port: int, path: str, body: dict[str, Any] | None = None, local: str | None = None) -> bytes:
    """The body of the answer to ``GET path`` (``POST`` with ``body`` as JSON) on 127.0.0.1:``port``;
    ``local``: the address the call comes from."""
    where = (local, 0) if local is not None else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=where)
    data = json.dumps(body).encode() if body is not None else b""
    method = "POST" if body is not None else "GET"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return raw.split(b"\r\n\r\n", 1)[1]


async def http_json(port: int, path: str, body: dict[str, Any] | None = None, local: str | None = None) -> Any:
    """:func:`http_body`, read as JSON."""
    return json.loads(await http_body(port, path, body, local))
