"""Load test of the tapete server on loopback, beside a bare Starlette WebSocket echo server.

Starts the tapete server (uvicorn, a fresh SQLite file, bot delay 0) and an echo server
in subprocesses on 127.0.0.1, runs ``--tables`` tables of ``--profile`` where seat 0 is a
scripted client playing its first legal action and the other seats are easy bots, for
``--seconds``; then the same number of clients against the echo server. Prints accepted
actions per second (all seats) and the scripted clients' action → acknowledgement
latency (p50/p99), the echo round trip, and their ratio. Bounded in count and time.

    python benchmarks/server_load.py --tables 20 --seconds 10

``--human-pace``: the load of people, on ``tapete serve`` itself with its whole-process limits
raised (``--limit open_tables=… --limit decision_queue=…``; a tree whose ``serve`` has no
``--limit``, or ``--bot-workers`` other than 2, is served as the default mode serves). ``--tables``
tables (up to 3,000), each with one
scripted person who answers each turn after a random 2–5 s (and says ``next_hand`` after a
hand, as the browser does) from a loopback address of its own, and easy bots in the other
seats at the server's default bot delay (0.6 s). The tables are opened over ``--ramp`` seconds, then measured for
``--seconds``: the person's action → acknowledgement latency (p50/p99/max), accepted
actions per second, and the CPU of the server process and of its bot workers.

    nice -n 10 python benchmarks/server_load.py --human-pace --tables 2000 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from loopback import http_body, http_json, person_address  # this folder's: the script's own directory is on the path

MAX_TABLES = 200
SRC = ""
"""Source folder the server runs from (``--src``; empty: the installed one)."""
DELTAS = True
"""Whether the scripted people ask for states as changes, as the browser table does (``--full-states``: not)."""
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


def serve_tapete(port: int, db: str, bot_delay: float = 0.0, bot_workers: int = 2) -> None:
    import uvicorn

    from tapete.server import create_app
    from tapete.server.limits import Limits

    # an operator serving thousands of tables raises the limits made for a small server (200 open
    # tables, 512 decisions waiting) in proportion
    if os.environ.get("TAPETE_BENCH_GC_STATS"):
        watch_gc()
    if os.environ.get("TAPETE_BENCH_GC_THRESHOLD"):
        import gc

        gc.set_threshold(*(int(x) for x in os.environ["TAPETE_BENCH_GC_THRESHOLD"].split(",")))
    limits = Limits(
        tables_per_client_minute=100_000, open_tables=100_000, connections_per_client=100_000, decision_queue=20_000
    )
    app = create_app(db, bot_delay=bot_delay, bot_workers=bot_workers, rate_limit=(1000.0, 1000.0), limits=limits)
    try:  # uvicorn's settings as ``tapete serve`` has them (a tree before them: its WebSocket protocol, or none)
        from tapete.server.run import served_config
    except ImportError:
        pass
    else:
        config = served_config(app, "127.0.0.1", port, limits)
        config.backlog = 4096
        uvicorn.Server(config).run()
        return
    try:
        from tapete.server.wsprotocol import TableSocketProtocol

        ws: Any = TableSocketProtocol
    except ImportError:
        ws = "auto"
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", backlog=4096, ws=ws)


def watch_gc() -> None:
    """Print the garbage collector's pauses (count, total, longest per generation) every 10 s."""
    import gc
    import threading

    stats: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            stats[info["generation"]].append(time.perf_counter() - began[0])

    def report() -> None:
        while True:
            time.sleep(10)
            parts = [
                f"gen{g}: {len(v)} pauses, {sum(v) * 1e3:.0f} ms, max {max(v, default=0) * 1e3:.1f} ms"
                for g, v in stats.items()
            ]
            print("gc", "; ".join(parts), file=sys.stderr, flush=True)
            for v in stats.values():
                v.clear()

    gc.callbacks.append(callback)
    threading.Thread(target=report, daemon=True).start()


def serve_env() -> dict[str, str]:
    env = dict(os.environ)
    if SRC:
        env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    return env


def serve_takes_limits() -> bool:
    """Whether the tree's ``tapete serve`` takes ``--limit`` (a tree before it is served here)."""
    cmd = [sys.executable, "-m", "tapete", "serve", "--help"]
    return "--limit" in subprocess.run(cmd, env=serve_env(), capture_output=True, text=True, timeout=60).stdout


def start_tapete_serve(port: int, db: str, tables: int) -> subprocess.Popen[bytes]:
    """``tapete serve`` itself (bot delay 0.6 s, two bot workers), its whole-process limits raised
    for ``tables`` tables as ``docs/operations.md`` says."""
    cmd = [sys.executable, "-m", "tapete", "serve", "--port", str(port), "--db", db, "--bot-delay", "0.6"]
    cmd += ["--limit", f"open_tables={tables + 100}", "--limit", f"decision_queue={max(512, 10 * tables)}"]
    proc = subprocess.Popen(cmd, env=serve_env(), stdout=subprocess.DEVNULL)
    wait_listening(proc, port, "tapete serve")
    return proc


def wait_listening(proc: subprocess.Popen[bytes], port: int, what: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{what} server did not start")


def start(kind: str, port: int, db: str = "", bot_delay: float = 0.0, bot_workers: int = 2) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, __file__, "--serve", kind, "--port", str(port), "--db", db, "--bot-delay", str(bot_delay)]
    cmd += ["--bot-workers", str(bot_workers)]
    proc = subprocess.Popen(cmd, env=serve_env())
    wait_listening(proc, port, kind)
    return proc


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def tapete_client(
    port: int, profile: str, seats: int, seed: int, until: float, lat: list[float], address: str = "127.0.0.1"
) -> int:
    from websockets.asyncio.client import connect

    plan = {"profile": profile, "seats": ["human"] + ["easy"] * (seats - 1), "seed": seed}
    t = await http_json(port, "/api/tables", plan, local=address)
    if "table" not in t:
        raise SystemExit(f"the server refused a table: {t}")
    table, token = t["table"], t["seats"][0]["token"]
    version = 0
    from tapete.server.deltas import ViewReader

    reader = ViewReader()
    async with connect(f"ws://127.0.0.1:{port}/ws", local_addr=(address, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token, "deltas": DELTAS}))
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
            except TimeoutError:
                break
            if m["type"] == "game_over":
                break
            if m["type"] == "hand_over":  # the person has seen the hand's result, as the browser says
                await ws.send(json.dumps({"type": "next_hand", "hand": m["hand"]}))
                continue
            if m["type"] != "state":
                continue
            version = m["version"]
            if sent_at is not None and version > sent_version:
                lat.append(time.perf_counter() - sent_at)
                sent_at = None
            view = reader.read(m)
            if view is None:
                raise SystemExit("a change that does not follow the view before it")
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


TICKS = os.sysconf("SC_CLK_TCK")
MAX_HUMAN_TABLES = 3000
MAX_HUMAN_SECONDS = 180.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def children_cpu_seconds(pid: int) -> float:
    """CPU seconds of the live child processes of ``pid`` (the bot workers)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


class Pace:
    """What the scripted people saw while measuring."""

    def __init__(self) -> None:
        self.measuring = False
        self.lat: list[float] = []
        self.actions = 0
        self.errors = 0
        self.games = 0
        self.tables_opened = 0
        self.refused_tables = 0
        """Table creations the server refused (a person asks again a second later)."""


async def person(port: int, profile: str, seats: int, seed: int, pace: Pace, until: float, address: str) -> None:
    """One table: a person answering each turn after 2–5 s, easy bots in the other seats; the
    person's calls and socket come from ``address``."""
    from websockets.asyncio.client import connect

    from tapete.server.deltas import ViewReader

    rng = random.Random(seed)
    while time.monotonic() < until:
        plan = {"profile": profile, "seats": ["human"] + ["easy"] * (seats - 1), "seed": seed}
        t = await http_json(port, "/api/tables", plan, local=address)
        if "table" not in t:  # refused: counted, and asked again a second later
            pace.refused_tables += 1
            await asyncio.sleep(1.0)
            continue
        pace.tables_opened += 1
        seed += 7919
        reader = ViewReader()
        async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None, local_addr=(address, 0)) as ws:
            hello = {"type": "hello", "table": t["table"], "token": t["seats"][0]["token"], "deltas": DELTAS}
            await ws.send(json.dumps(hello))
            sent_at: float | None = None
            sent_version = -1
            last = -1
            act_at: float | None = None
            choice: Any = None
            while time.monotonic() < until:
                timeout = until - time.monotonic()
                if act_at is not None:
                    timeout = min(timeout, act_at - time.monotonic())
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.001, timeout))
                except TimeoutError:
                    raw = None
                if raw is not None:
                    m = json.loads(raw)
                    kind = m["type"]
                    if kind == "game_over":
                        pace.games += 1
                        break
                    if kind == "error":
                        pace.errors += 1
                        sent_at = None
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    if kind == "hand_over":
                        await ws.send(json.dumps({"type": "next_hand", "hand": m["hand"]}))
                        continue
                    if kind != "state":
                        continue
                    version = m["version"]
                    if pace.measuring and last >= 0 and version > last:
                        pace.actions += version - last
                    last = version
                    if sent_at is not None and version > sent_version:
                        if pace.measuring:
                            pace.lat.append(time.perf_counter() - sent_at)
                        sent_at = None
                    view = reader.read(m)
                    if view is None:
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    if view.get("legal_actions") and view.get("to_act") == m["seat"] and sent_at is None:
                        choice = view["legal_actions"][0]  # the person plays the first legal action
                        if act_at is None:
                            act_at = time.monotonic() + rng.uniform(2.0, 5.0)
                    else:
                        act_at = None
                    continue
                if act_at is not None and time.monotonic() >= act_at:
                    act_at = None
                    sent_version = last
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "version": last, "action": choice}))


async def human_pace(args: argparse.Namespace) -> None:
    import gc

    # this client holds as many sockets as the server: its own collector pauses would count as latency
    gc.set_threshold(100_000, 50, 100)
    tables = min(args.tables, MAX_HUMAN_TABLES)
    seconds = min(args.seconds, MAX_HUMAN_SECONDS)
    seats = {"runfast": 3, "spades": 4, "cutthroat-4p": 4}.get(args.profile, 3)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = f"sqlite:///{os.path.join(tmp, 'pace.db')}"
        if args.bot_workers == 2 and serve_takes_limits():  # the server as an operator runs it
            proc = start_tapete_serve(port, db, tables)
        else:
            proc = start("tapete", port, db, bot_delay=0.6, bot_workers=args.bot_workers)
        pace = Pace()
        try:
            until = time.monotonic() + args.ramp + seconds + 1.0
            tasks: list[asyncio.Task[None]] = []
            for i in range(tables):
                task = person(port, args.profile, seats, 1 + i, pace, until, person_address(i))
                tasks.append(asyncio.create_task(task))
                await asyncio.sleep(args.ramp / tables)
            c0, w0, t0 = cpu_seconds(proc.pid), children_cpu_seconds(proc.pid), time.monotonic()
            me0 = time.process_time()
            spy = None
            if args.py_spy:
                cmd = ["py-spy", "record", "--pid", str(proc.pid), "--duration", str(int(seconds)), "--rate", "200"]
                cmd += ["--format", "raw" if args.py_spy.endswith(".txt") else "flamegraph", "--output", args.py_spy]
                spy = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
            pace.measuring = True
            await asyncio.sleep(seconds)
            pace.measuring = False
            cpu, workers, wall = cpu_seconds(proc.pid) - c0, children_cpu_seconds(proc.pid) - w0, time.monotonic() - t0
            me = time.process_time() - me0
            counters = (await http_body(port, "/metrics")).decode()
            if spy is not None:
                spy.wait(60)
            failed = [t.exception() for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            proc.terminate()
            proc.wait(30)
    lat = pace.lat
    print(
        f"human pace: {tables} tables of {args.profile} (1 person acting after 2-5 s + {seats - 1} easy bots,"
        f" bot delay 0.6 s), measured {wall:.0f} s after a {args.ramp:.0f} s ramp"
    )
    print(
        f"  tables opened: {pace.tables_opened} (refused {pace.refused_tables}); people whose client failed:"
        f" {len(failed)}{f' ({failed[0]!r})' if failed else ''}"
    )
    print(f"  accepted actions: {pace.actions} ({pace.actions / wall:.0f}/s), errors {pace.errors}")
    print(
        f"  person action -> ack: n={len(lat)} p50={pct(lat, 0.5) * 1e3:.1f} ms p99={pct(lat, 0.99) * 1e3:.1f} ms"
        f" max={max(lat, default=float('nan')) * 1e3:.1f} ms"
    )
    shown = ("refused", "failed", "given_up", "overrun", "retried", "decide_done", "decide_wait_seconds{", "log_")
    for line in counters.splitlines():
        if not line.startswith("#") and any(w in line for w in shown):
            print("  server:", line)
    print(
        f"  server process CPU {cpu / wall:.0%} of one core; its {args.bot_workers} bot workers {workers / wall:.0%};"
        f" this client {me / wall:.0%}; load average {os.getloadavg()[0]:.1f}"
    )


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
                *(
                    tapete_client(port, args.profile, seats, 100 + i, until, lat, person_address(i))
                    for i in range(tables)
                )
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
    p.add_argument("--bot-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    p.add_argument("--bot-workers", type=int, default=2, help="the server's bot worker processes (its default: 2)")
    p.add_argument("--human-pace", action="store_true", help="people acting every 2-5 s, bots filling seats")
    p.add_argument("--py-spy", metavar="OUT", help="--human-pace: record the server with py-spy (.txt: raw stacks)")
    p.add_argument("--ramp", type=float, default=20.0, help="seconds over which the --human-pace tables open")
    p.add_argument("--src", default="", help="run the tapete server from this source folder (PYTHONPATH)")
    p.add_argument("--full-states", action="store_true", help="the scripted people ask for whole views, not changes")
    args = p.parse_args()
    global SRC, DELTAS
    SRC = args.src
    DELTAS = not args.full_states
    if args.serve == "echo":
        serve_echo(args.port)
    elif args.serve == "tapete":
        serve_tapete(args.port, args.db, args.bot_delay, args.bot_workers)
    elif args.human_pace:
        asyncio.run(human_pace(args))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
