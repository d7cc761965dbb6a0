"""Load test of the tapete server on loopback, beside a bare Starlette WebSocket echo server.

Starts the tapete server (uvicorn, a fresh SQLite file, bot delay 0) and an echo server
in subprocesses on 127.0.0.1, runs ``--tables`` tables of ``--profile`` where seat 0 is a
scripted client playing its first legal action and the other seats are easy bots, for
``--seconds``; then the same number of clients against the echo server. Prints accepted
actions per second (all seats) and the scripted clients' action → acknowledgement
latency (p50/p99), the echo round trip, and their ratio. Bounded in count and time.

    python benchmarks/server_load.py --tables 20 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

MAX_TABLES = 200
MAX_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_echo(port: int) -> None:
    """A bare Starlette app that echoes every text frame."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await ws.send_text(await ws.receive_text())

    uvicorn.run(Starlette(routes=[WebSocketRoute("/ws", echo)]), host="127.0.0.1", port=port, log_level="warning")


def serve_tapete(port: int, db: str) -> None:
    import uvicorn

    from tapete.server import create_app

    app = create_app(db, bot_delay=0.0, bot_workers=2, rate_limit=(1000.0, 1000.0))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def start(kind: str, port: int, db: str = "") -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, __file__, "--serve", kind, "--port", str(port), "--db", db])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{kind} server did not start")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def http_json(port: int, path: str, body: dict[str, Any] | None = None) -> Any:
    """A tiny HTTP/1.1 client (keeps the benchmark free of extra dependencies)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    data = json.dumps(body).encode() if body is not None else b""
    method = "POST" if body is not None else "GET"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return json.loads(raw.split(b"\r\n\r\n", 1)[1])


async def tapete_client(port: int, profile: str, seats: int, seed: int, until: float, lat: list[float]) -> int:
    from websockets.asyncio.client import connect

    t = await http_json(
        port, "/api/tables", {"profile": profile, "seats": ["human"] + ["easy"] * (seats - 1), "seed": seed}
    )
    table, token = t["table"], t["seats"][0]["token"]
    version = 0
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token}))
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
            except TimeoutError:
                break
            if m["type"] == "game_over":
                break
            if m["type"] != "state":
                continue
            version = m["version"]
            if sent_at is not None and version > sent_version:
                lat.append(time.perf_counter() - sent_at)
                sent_at = None
            view = m["view"]
            if view["legal_actions"] and view["to_act"] == m["seat"] and sent_at is None:
                sent_version = version
                sent_at = time.perf_counter()
                msg = {"type": "action", "version": version, "action": view["legal_actions"][0]}
                await ws.send(json.dumps(msg))
    return int(version)


async def echo_client(port: int, until: float, lat: list[float], size: int) -> int:
    from websockets.asyncio.client import connect

    payload = json.dumps({"type": "action", "version": 1, "action": {"seat": 0, "play": "QS"}, "pad": "x" * size})
    n = 0
    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        while time.monotonic() < until:
            t0 = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            lat.append(time.perf_counter() - t0)
            n += 1
    return n


async def run(args: argparse.Namespace) -> None:
    tables = min(args.tables, MAX_TABLES)
    seconds = min(args.seconds, MAX_SECONDS)
    seats = {"runfast": 3, "spades": 4, "cutthroat-4p": 4}.get(args.profile, 3)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start("tapete", port, f"sqlite:///{os.path.join(tmp, 'load.db')}")
        try:
            lat: list[float] = []
            # warm the bot workers
            await tapete_client(port, args.profile, seats, 0, time.monotonic() + 3, [])
            t0 = time.monotonic()
            until = t0 + seconds
            versions = await asyncio.gather(
                *(tapete_client(port, args.profile, seats, 100 + i, until, lat) for i in range(tables))
            )
            elapsed = time.monotonic() - t0
        finally:
            proc.terminate()
            proc.wait(10)
        actions = sum(versions)
        print(
            f"tapete server: {tables} tables of {args.profile} (1 scripted client + {seats - 1} easy bots each), {elapsed:.1f} s"
        )
        print(f"  accepted actions: {actions}  ({actions / elapsed:.0f} actions/s, all seats)")
        print(
            f"  scripted client action -> ack: n={len(lat)} p50={pct(lat, 0.5) * 1e3:.2f} ms"
            f" p99={pct(lat, 0.99) * 1e3:.2f} ms mean={statistics.fmean(lat) * 1e3 if lat else float('nan'):.2f} ms"
        )
        eport = free_port()
        eproc = start("echo", eport)
        try:
            elat: list[float] = []
            e0 = time.monotonic()
            counts = await asyncio.gather(
                *(echo_client(eport, e0 + min(seconds, 5.0), elat, 2000) for _ in range(tables))
            )
            eelapsed = time.monotonic() - e0
        finally:
            eproc.terminate()
            eproc.wait(10)
        print(f"bare Starlette echo: {tables} clients, {eelapsed:.1f} s")
        print(f"  round trips: {sum(counts)} ({sum(counts) / eelapsed:.0f} msgs/s)")
        print(f"  round trip: p50={pct(elat, 0.5) * 1e3:.2f} ms p99={pct(elat, 0.99) * 1e3:.2f} ms")
        if lat and elat:
            print(
                f"ratio tapete/echo: p50 x{pct(lat, 0.5) / pct(elat, 0.5):.1f}, p99 x{pct(lat, 0.99) / pct(elat, 0.99):.1f}"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--profile", default="cutthroat")
    p.add_argument("--serve", choices=["tapete", "echo"], help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--db", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve == "echo":
        serve_echo(args.port)
    elif args.serve == "tapete":
        serve_tapete(args.port, args.db)
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
