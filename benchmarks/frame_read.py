"""CPU to take one client text frame in: the server's short path against websockets' parser.

Drives ``TableSocketProtocol`` byte for byte (no sockets): a websockets client makes the
handshake and action-sized frames (compressed or not), and each frame goes through
``data_received`` to the app's queue, once with the short path of ``tapete.server.wsframes``
and once with the stream marked unfollowed, so that every frame goes to websockets' parser
as in uvicorn's own protocol. Rounds alternate; the best round of each is printed with
their ratio.

    python benchmarks/frame_read.py --frames 3000 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.uri import parse_uri

from tapete.server.wsprotocol import TableSocketProtocol


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()

    def write(self, data: Any) -> None:
        self.written += data

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


async def connected(deflate: bool, done: asyncio.Event) -> tuple[TableSocketProtocol, ClientProtocol]:
    """A protocol past its handshake (its app accepts, then waits for ``done``) and the client that made it."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await done.wait()

    config = Config(app, ws=TableSocketProtocol, log_level="warning", lifespan="off")
    config.load()
    protocol = TableSocketProtocol(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    client = ClientProtocol(
        parse_uri("ws://127.0.0.1/ws"), extensions=[ClientPerMessageDeflateFactory()] if deflate else None
    )
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    for _ in range(20):
        await asyncio.sleep(0)
    client.receive_data(bytes(transport.written))
    assert client.handshake_exc is None
    return protocol, client


async def one_round(frames: int, deflate: bool, short: bool) -> float:
    """Microseconds a frame, from ``data_received`` to the message in the app's queue."""
    done = asyncio.Event()
    protocol, client = await connected(deflate, done)
    data = []
    for v in range(frames):
        action = {"type": "action", "version": v, "action": {"card": "QS", "seat": v % 3, "type": "play"}}
        client.send_text(json.dumps(action).encode())
        data.append(b"".join(client.data_to_send()))
    protocol.boundaries.lost = not short  # unfollowed: every frame goes to the parser
    queue = protocol.queue
    start = time.perf_counter()
    for d in data:
        protocol.data_received(d)
        queue.get_nowait()
    took = time.perf_counter() - start
    done.set()
    for _ in range(20):
        await asyncio.sleep(0)
    return took / frames * 1e6


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    frames, rounds = min(args.frames, 100_000), min(args.rounds, 20)
    for deflate in (False, True):
        best = {True: float("inf"), False: float("inf")}
        for _ in range(rounds):
            for short in (True, False):
                best[short] = min(best[short], await one_round(frames, deflate, short))
        kind = "compressed" if deflate else "plain"
        print(
            f"{kind:10s} short path {best[True]:.2f} us a frame, parser {best[False]:.2f} us: "
            f"{best[False] / best[True]:.2f}x"
        )


if __name__ == "__main__":
    asyncio.run(main())
