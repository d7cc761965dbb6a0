"""Bot fairness under a flood, against a live server on 127.0.0.1.

Starts the tapete server (uvicorn, a fresh SQLite file, ``--delay`` seconds per bot move)
in a subprocess, creates ``--flood`` all-hard cutthroat tables, then one all-easy table,
watches the easy table as a spectator for ``--seconds`` and prints its bot turns (p50,
p95, max), the server's ``/healthz`` and, with ``--replays N``, the ping round trip on
that socket while N large records are replayed. Bounded in count and time; stops by itself.

    python benchmarks/bot_flood.py --flood 8 --seconds 15 --replays 4
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx
from websockets.sync.client import connect

MAX_FLOOD = 40
MAX_SECONDS = 60.0
MAX_REPLAYS = 16


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int, delay: float) -> subprocess.Popen[bytes]:
    code = (
        "import uvicorn\n"
        "from tapete.server import create_app\n"
        "from tapete.server.limits import Limits\n"
        "if __name__ == '__main__':\n"
        f"    app = create_app({db!r}, bot_delay={delay!r}, limits=Limits(tables_per_client_minute={MAX_FLOOD + 5}))\n"
        f"    uvicorn.run(app, host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def long_record(hands: int = 900) -> bytes:
    import tapete

    g = tapete.new_game("cutthroat", seed=1, options={"target": 10000, "floor": None})
    rng = random.Random(0)
    while getattr(g, "hand_number", 0) < hands:
        g.apply(rng.choice(g.legal_actions()))
    return json.dumps(g.record()).encode()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flood", type=int, default=8, help=f"all-hard tables (at most {MAX_FLOOD})")
    ap.add_argument("--seconds", type=float, default=15.0, help=f"watching time (at most {MAX_SECONDS:g})")
    ap.add_argument("--delay", type=float, default=0.25, help="bot delay of the server (every table's)")
    ap.add_argument("--replays", type=int, default=0, help=f"large replays posted meanwhile (at most {MAX_REPLAYS})")
    args = ap.parse_args()
    flood, seconds = min(args.flood, MAX_FLOOD), min(args.seconds, MAX_SECONDS)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(f"sqlite:///{os.path.join(tmp, 'flood.db')}", port, args.delay)
        try:
            for i in range(flood):
                httpx.post(
                    f"{base}/api/tables", json={"profile": "cutthroat", "seats": ["hard"] * 3, "seed": i}, timeout=10
                )
            r = httpx.post(f"{base}/api/tables", json={"profile": "cutthroat", "seats": ["easy"] * 3}, timeout=10)
            easy = r.json()["table"]
            record = long_record() if args.replays else b""
            posters = [
                threading.Thread(target=lambda: httpx.post(f"{base}/api/replay", content=record, timeout=60))
                for _ in range(min(args.replays, MAX_REPLAYS))
            ]
            stamps: list[float] = []
            rtts: list[float] = []
            with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "table": easy, "spectate": True}))
                for t in posters:
                    t.start()
                end = time.monotonic() + seconds
                sent: dict[int, float] = {}
                while time.monotonic() < end:
                    if not sent or time.monotonic() - sent[len(sent) - 1] > 0.1:
                        sent[len(sent)] = time.monotonic()
                        ws.send(json.dumps({"type": "ping", "id": len(sent) - 1}))
                    try:
                        m = json.loads(ws.recv(timeout=0.1))
                    except TimeoutError:
                        continue
                    if m["type"] == "state":
                        stamps.append(time.monotonic())
                    elif m["type"] == "pong":
                        rtts.append(time.monotonic() - sent[m["ref"]])
                for t in posters:
                    t.join(60)
            health = httpx.get(f"{base}/healthz", timeout=10).json()
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    turns = sorted(b - a for a, b in itertools.pairwise(stamps[1:]))  # the first state is the welcome's
    if not turns:
        print("no easy-bot turns seen")
        return 1
    p95 = turns[max(0, int(0.95 * len(turns)) - 1)]
    print(f"{flood} all-hard tables, bot delay {args.delay:g} s, {len(turns)} easy-bot turns in {seconds:g} s")
    print(f"easy-bot turn: p50 {statistics.median(turns):.3f} s  p95 {p95:.3f} s  max {turns[-1]:.3f} s")
    if rtts:
        print(
            f"ping round trip: p50 {statistics.median(rtts) * 1000:.1f} ms  max {max(rtts) * 1000:.1f} ms ({len(rtts)} pings)"
        )
    print("healthz:", json.dumps(health))
    return 0


if __name__ == "__main__":
    sys.exit(main())
