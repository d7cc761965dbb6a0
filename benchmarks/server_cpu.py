"""Server CPU per accepted action, as a ratio to a bare Starlette WebSocket echo round trip.

Starts the tapete server (uvicorn, durable event log on SQLite or PostgreSQL, bot delay 0)
and a bare Starlette echo server in subprocesses on 127.0.0.1 and drives both from this
process with the same number of concurrent WebSocket clients:

- tapete: ``--tables`` tables of ``--profile`` (3 seats by default), every seat a scripted
  client that plays its first legal action as soon as the state says it is its turn (so
  the server does the whole work of an action: check, log commit, a state for each seat);
  a finished game is replaced by a new table;
- echo: ``3 × --tables`` clients (``--echo-clients``), each sending an action-sized text
  frame and waiting for it back. With as many clients as tapete has sockets, the echo has
  three times as many round trips in flight as tapete has actions (one seat of each table
  acts at a time), so each turn of its event loop serves more of them: ``--echo-clients``
  equal to ``--tables`` measures it with as many in flight.

- floor (``--floor``): a bare Starlette app that does an action's I/O and nothing else:
  clients in groups of three, and every frame a client sends is answered with one
  ``--floor-bytes`` text frame to each of the three (what an action costs tapete in frames,
  without rules, views or log); the client whose turn the frame names answers it.

tapete's seat clients ask for states as changes (``"deltas": true``, ``docs/protocol.md``)
as the browser table does, and rebuild each view; ``--full-states`` makes them ask for
whole views.

Server CPU is read from ``/proc/<pid>/stat`` (user + system time of the server process,
all its threads) over the measured window. Rounds alternate tapete / echo (the machine is
shared and noisy); the ratio is the median over rounds. ``--src`` runs the server from
another source tree (to measure an older version in the same run).

On a machine whose speed drifts from one second to the next, a ratio of two windows
measured seconds apart drifts with it. ``--slices N`` starts every server at once and loads
them in turn: each for ``--slice`` seconds while the clients of the others wait, N times a
round, in alternating order; a server's CPU and actions are summed over its slices, so every
server sees the machine as it was over the same stretch of time. ``--against SRC`` adds a
second tapete server from another source tree to the same slices (this tree against an
older one, each with a log of its own). Each server's line says how busy it was (its CPU
over its slices, in percent of a core): the echo runs near 100 %; a tapete server well
under that was held back by its clients or by its log's round trips (PostgreSQL at 20
tables), and pays more for each action in waking up than a busy one would.

    nice -n 10 python benchmarks/server_cpu.py --db sqlite --tables 20 --seconds 8 --rounds 3
    nice -n 10 python benchmarks/server_cpu.py --db postgresql --src /tmp/before/src
    nice -n 10 python benchmarks/server_cpu.py --floor --floor-bytes 300
    python benchmarks/server_cpu.py --slices 10 --rounds 3 --floor --against /tmp/before/src
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from loopback import http_body, http_json, person_address  # this folder's: the script's own directory is on the path

MAX_TABLES = 400
MAX_SECONDS = 60.0
MAX_ROUNDS = 10
MAX_SLICES = 60
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stat_user_system(path: str) -> tuple[float, float]:
    """User and system CPU seconds in a ``/proc`` ``stat`` file (a process's or one thread's)."""
    with open(path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


def stat_cpu(path: str) -> float:
    """User + system CPU seconds in a ``/proc`` ``stat`` file (a process's or one thread's)."""
    return sum(stat_user_system(path))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (every thread)."""
    return stat_cpu(f"/proc/{pid}/stat")


def serve_echo(port: int, deflate: bool = True) -> None:
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

    app = Starlette(routes=[WebSocketRoute("/ws", echo)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=deflate)


def serve_floor(port: int, size: int, deflate: bool = True) -> None:
    """A bare Starlette app with an action's I/O: each frame in is answered by a frame to each socket of its group."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    groups: dict[str, list[WebSocket]] = {}
    turns: dict[str, int] = {}
    padding = "x" * max(0, size - 40)

    async def fanout(ws: WebSocket) -> None:
        await ws.accept()
        name = ws.query_params["group"]
        group = groups.setdefault(name, [])
        group.append(ws)
        try:
            while True:
                await ws.receive_text()
                turns[name] = turn = turns.get(name, 0) + 1
                text = json.dumps({"type": "state", "to_act": turn % 3, "version": turn, "pad": padding})
                for peer in list(group):
                    await peer.send_text(text)
        except WebSocketDisconnect:
            group.remove(ws)

    app = Starlette(routes=[WebSocketRoute("/ws", fanout)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=deflate)


def serve_tapete(port: int, db: str, prefix: str, deflate: bool = True) -> None:
    import uvicorn

    from tapete.server import create_app
    from tapete.server.limits import Limits

    try:  # the WebSocket protocol ``tapete serve`` runs (a tree before it had none: uvicorn's own)
        from tapete.server.wsprotocol import TableSocketProtocol

        ws: Any = TableSocketProtocol
    except ImportError:
        ws = "auto"

    limits = Limits(tables_per_client_minute=100_000, open_tables=100_000, connections_per_client=100_000)
    app = create_app(
        db,
        table_prefix=prefix,
        bot_delay=0.0,
        bot_workers=1,
        next_hand_wait=0.0,
        rate_limit=(1000.0, 1000.0),
        limits=limits,
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws=ws, ws_per_message_deflate=deflate)


def start(
    kind: str,
    port: int,
    db: str = "",
    prefix: str = "",
    src: str | None = None,
    deflate: bool = True,
    floor_bytes: int = 0,
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, __file__, "--serve", kind, "--port", str(port), "--url", db, "--prefix", prefix]
    if kind == "floor":
        cmd += ["--floor-bytes", str(floor_bytes)]
    if not deflate:
        cmd.append("--no-deflate")
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{kind} server did not start")


async def log_batching(port: int) -> str:
    """Events per commit of the group-committed log so far, from ``/metrics``."""
    values: dict[str, float] = {}
    for line in (await http_body(port, "/metrics")).decode().splitlines():
        name, _, value = line.partition(" ")
        if name in ("tapete_log_commits_total", "tapete_log_events_total"):
            values[name] = float(value)
    commits, events = values.get("tapete_log_commits_total", 0), values.get("tapete_log_events_total", 0)
    return f"log {events:.0f} events in {commits:.0f} commits ({events / max(commits, 1):.1f} a commit)"


class Counter:
    """Actions accepted (counted once per table, by seat 0's states) while ``on``; the clients of
    one server send only while its ``go`` is set (``--slices`` pauses the servers in turn)."""

    def __init__(self) -> None:
        self.on = False
        self.actions = 0
        self.go = asyncio.Event()
        self.go.set()


async def seat_client(
    port: int,
    table: str,
    token: str,
    counter: Counter | None,
    until: float,
    deltas: bool = True,
    gate: Counter | None = None,
) -> None:
    """Play a seat: its first legal action whenever it is to act, until the game ends or time is up."""
    from websockets.asyncio.client import connect

    from tapete.server.deltas import ViewReader

    async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": token, "deltas": deltas}))
        last = -1
        reader = ViewReader()
        while time.monotonic() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
            except TimeoutError:
                return
            kind = m["type"]
            if kind == "game_over":
                return
            if kind != "state":
                continue
            version = m["version"]
            if counter is not None and counter.on and last >= 0 and version > last:
                counter.actions += version - last
            last = version
            view = reader.read(m)
            if view is None:
                raise SystemExit("a change that does not follow the view before it")
            if view.get("legal_actions") and view.get("to_act") == m["seat"]:
                if gate is not None:
                    await gate.go.wait()
                await ws.send(json.dumps({"type": "action", "version": version, "action": view["legal_actions"][0]}))


async def table_loop(
    port: int,
    profile: str,
    seats: int,
    seed: int,
    counter: Counter,
    until: float,
    deltas: bool = True,
    address: str = "127.0.0.1",
) -> None:
    """One table after another (a finished game is replaced), every seat scripted; each table is
    created from ``address`` (one a loop: the server allows an address 30 API calls a second)."""
    n = 0
    while time.monotonic() < until:
        plan = {"profile": profile, "seats": ["human"] * seats, "seed": seed + n}
        t = await http_json(port, "/api/tables", plan, address)
        if "table" not in t:
            raise SystemExit(f"the server refused a table: {t}")
        n += 1
        tokens = [s["token"] for s in t["seats"]]
        await asyncio.gather(
            *(
                seat_client(port, t["table"], tok, counter if i == 0 else None, until, deltas, counter)
                for i, tok in enumerate(tokens)
            )
        )


async def echo_client(port: int, counter: Counter, until: float, payload: str) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        while time.monotonic() < until:
            await counter.go.wait()
            await ws.send(payload)
            await ws.recv()
            if counter.on:
                counter.actions += 1


async def floor_client(
    port: int, group: int, seat: int, counter: Counter | None, until: float, act: str, gate: Counter | None = None
) -> None:
    """One of three sockets of a group: answers each frame that names its turn (the first seat starts)."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws?group={group}", max_size=None) as ws:
        if seat == 0:
            await asyncio.sleep(0.2)  # the other two have joined
            await ws.send(act)
        while time.monotonic() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
            except TimeoutError:
                return
            if counter is not None and counter.on:
                counter.actions += 1
            if m["to_act"] == seat:
                if gate is not None:
                    await gate.go.wait()
                await ws.send(act)


def thread_cpu(pid: int) -> dict[str, tuple[float, float]]:
    """User and system CPU seconds of each thread of ``pid``: ``main`` (the event loop) and the others by id."""
    out: dict[str, tuple[float, float]] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            seconds = stat_user_system(f"/proc/{pid}/task/{tid}/stat")
        except OSError:
            continue  # the thread ended
        out["main" if int(tid) == pid else f"thread {tid}"] = seconds
    return out


async def measure(
    pid: int, counter: Counter, warmup: float, seconds: float, threads: bool = False
) -> tuple[int, float, float]:
    """(count, server CPU seconds, wall seconds) over the window after ``warmup``; with ``threads``
    also prints the CPU of each of the server's threads per counted action."""
    await asyncio.sleep(warmup)
    c0, t0, th0 = cpu_seconds(pid), time.monotonic(), thread_cpu(pid)
    counter.on = True
    await asyncio.sleep(seconds)
    counter.on = False
    n, cpu, wall = counter.actions, cpu_seconds(pid) - c0, time.monotonic() - t0
    if threads and n:
        th1 = thread_cpu(pid)
        parts = {k: (u - th0.get(k, (0.0, 0.0))[0], s - th0.get(k, (0.0, 0.0))[1]) for k, (u, s) in th1.items()}
        shown = ", ".join(
            f"{k} {(u + s) / n * 1e6:.0f} (system {s / n * 1e6:.0f})"
            for k, (u, s) in sorted(parts.items(), key=lambda kv: -sum(kv[1]))[:4]
            if u + s > 0
        )
        print(f"  server threads, us/action (of which in the kernel): {shown}", flush=True)
    return n, cpu, wall


ACTION = json.dumps({"type": "action", "id": 17, "version": 12, "action": {"seat": 0, "play": "QS"}})
"""An action-sized text frame: what the echo and the floor's clients send."""
Clients = Callable[[int, Counter, float], list[Coroutine[Any, Any, None]]]
"""``(port, counter, until) -> the clients of one server``."""


def tapete_clients(args: argparse.Namespace) -> Clients:
    """A table loop for each of ``--tables`` tables, every seat scripted."""
    return lambda port, counter, until: [
        table_loop(
            port,
            args.profile,
            args.seats,
            1000 + 97 * i,
            counter,
            until,
            not args.full_states,
            person_address(i),
        )
        for i in range(args.tables)
    ]


def echo_clients(args: argparse.Namespace) -> Clients:
    """``--echo-clients`` echo clients (default: as many as tapete's sockets)."""
    n = args.echo_clients or args.tables * args.seats
    return lambda port, counter, until: [echo_client(port, counter, until, ACTION) for _ in range(n)]


def floor_clients(args: argparse.Namespace) -> Clients:
    """Three floor clients for each of ``--tables`` groups."""
    return lambda port, counter, until: [
        floor_client(port, g, i, counter if i == 0 else None, until, ACTION, counter)
        for g in range(args.tables)
        for i in range(3)
    ]


async def tapete_round(args: argparse.Namespace, url: str, prefix: str) -> tuple[int, float, float]:
    port = free_port()
    proc = start("tapete", port, url, prefix, args.src, deflate=not args.no_deflate)
    try:
        counter = Counter()
        until = time.monotonic() + args.warmup + args.seconds + 0.5
        loops = [asyncio.create_task(c) for c in tapete_clients(args)(port, counter, until)]
        spy = None
        if args.py_spy:
            spy = subprocess.Popen(
                [
                    "py-spy",
                    "record",
                    "--pid",
                    str(proc.pid),
                    "--duration",
                    str(int(args.warmup + args.seconds)),
                    "--rate",
                    "250",
                    "--format",
                    args.py_spy_format,
                    "--output",
                    args.py_spy,
                    "--threads",
                ],
                stdout=subprocess.DEVNULL,
            )
        result = await measure(proc.pid, counter, args.warmup, args.seconds, threads=True)
        if spy is not None:
            spy.wait(60)
        with contextlib.suppress(Exception):
            print(await log_batching(port), flush=True)
        for task in loops:
            task.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        return result
    finally:
        proc.terminate()
        proc.wait(20)


async def bare_round(args: argparse.Namespace, kind: str, clients_of: Clients) -> tuple[int, float, float]:
    """Start the bare server ``kind`` (echo or floor), run its clients and measure it."""
    port = free_port()
    proc = start(kind, port, deflate=not args.no_deflate, floor_bytes=args.floor_bytes)
    try:
        counter = Counter()
        until = time.monotonic() + args.warmup + args.seconds + 0.5
        clients = [asyncio.create_task(c) for c in clients_of(port, counter, until)]
        result = await measure(proc.pid, counter, args.warmup, args.seconds)
        for task in clients:
            task.cancel()
        await asyncio.gather(*clients, return_exceptions=True)
        return result
    finally:
        proc.terminate()
        proc.wait(20)


async def echo_round(args: argparse.Namespace) -> tuple[int, float, float]:
    return await bare_round(args, "echo", echo_clients(args))


async def floor_round(args: argparse.Namespace) -> tuple[int, float, float]:
    return await bare_round(args, "floor", floor_clients(args))


@dataclass
class Load:
    """One server of a sliced round, its clients and what its slices measured."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    counter: Counter
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    actions: int = 0
    cpu: float = 0.0
    seconds: float = 0.0
    """Time measured (its slices, as the clock saw them)."""

    def per_action(self) -> float:
        return self.cpu / self.actions if self.actions else math.inf

    def busy(self) -> float:
        """Its server's CPU over the time measured, in percent of a core: well under 100, the
        clients or the log's round trips, not the server, set the pace."""
        return 100 * self.cpu / self.seconds if self.seconds else 0.0

    def run(self, clients: Clients, until: float) -> None:
        """Start the clients of this load's server."""
        self.tasks = [asyncio.create_task(c) for c in clients(self.port, self.counter, until)]


async def sliced_round(args: argparse.Namespace, dbs: list[tuple[str, str]]) -> list[Load]:
    """Every server at once, each loaded in turn for ``--slice`` seconds at a time (the others'
    clients paused), ``--slices`` times; a load's CPU and actions are summed over its slices.

    ``dbs``: a log (url, table prefix) for each tapete tree (this one, then ``--against``'s)."""
    trees = [("tapete", args.src)]
    if args.against:
        trees.append((f"tapete@{args.against}", args.against))
    settle = 0.25
    until = time.monotonic() + 3600
    loads: list[Load] = []
    try:
        for (name, src), (url, prefix) in zip(trees, dbs, strict=True):
            port = free_port()
            load = Load(name, port, start("tapete", port, url, prefix, src, deflate=not args.no_deflate), Counter())
            loads.append(load)
            load.run(tapete_clients(args), until)
        bare = [("echo", echo_clients(args))] + ([("floor", floor_clients(args))] if args.floor else [])
        for kind, clients in bare:
            port = free_port()
            load = Load(
                kind, port, start(kind, port, deflate=not args.no_deflate, floor_bytes=args.floor_bytes), Counter()
            )
            loads.append(load)
            load.run(clients, until)
        for load in loads:
            load.counter.go.clear()
        for load in loads:  # each warms up alone
            load.counter.go.set()
            await asyncio.sleep(args.warmup)
            load.counter.go.clear()
            await asyncio.sleep(settle)
        for k in range(args.slices):
            for load in loads if k % 2 == 0 else loads[::-1]:
                load.counter.go.set()
                await asyncio.sleep(settle)
                c0, a0, t0 = cpu_seconds(load.proc.pid), load.counter.actions, time.monotonic()
                load.counter.on = True
                await asyncio.sleep(args.slice)
                load.counter.on = False
                load.cpu += cpu_seconds(load.proc.pid) - c0
                load.seconds += time.monotonic() - t0
                load.actions += load.counter.actions - a0
                load.counter.go.clear()
                await asyncio.sleep(settle)
        for load in loads[: len(trees)]:
            with contextlib.suppress(Exception):
                print(f"  {load.name}: {await log_batching(load.port)}", flush=True)
        return loads
    finally:
        for load in loads:
            for task in load.tasks:
                task.cancel()
            await asyncio.gather(*load.tasks, return_exceptions=True)
            load.proc.terminate()
            load.proc.wait(20)


async def run_sliced(args: argparse.Namespace) -> None:
    """``--slices``: each round runs every server at once and loads them in turn, many times."""
    rounds = min(args.rounds, MAX_ROUNDS)
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            dbs: list[tuple[str, str]] = []
            for t in range(2 if args.against else 1):
                if args.db == "postgresql":
                    dbs.append((args.pg_url, f"bench{uuid.uuid4().hex[:8]}_"))
                else:
                    dbs.append((f"sqlite:///{os.path.join(tmp, f'cpu{r}-{t}.db')}", ""))
            try:
                loads = await sliced_round(args, dbs)
            finally:
                for url, prefix in dbs:
                    if prefix:
                        drop_pg_tables(url, prefix)
            echo = next(load for load in loads if load.name == "echo")
            e = echo.per_action()
            parts = []
            for load in loads:
                us = load.per_action() * 1e6
                if load is echo:
                    parts.append(f"echo {load.actions} round trips, {us:.0f} us/echo, {load.busy():.0f}% busy")
                    continue
                ratio = load.per_action() / e
                ratios.setdefault(load.name, []).append(ratio)
                parts.append(
                    f"{load.name} {load.actions} actions, {us:.0f} us/action = {ratio:.2f} echoes, {load.busy():.0f}% busy"
                )
            print(f"round {r + 1} ({args.slices} slices of {args.slice:g} s each): " + " | ".join(parts), flush=True)
    for name, values in ratios.items():
        print(
            f"{args.db}, {args.tables} tables x {args.seats} seats ({args.profile}), {name}: "
            f"median {statistics.median(values):.2f} echoes/action over {len(values)} rounds "
            f"({', '.join(f'{v:.2f}' for v in values)})"
            + (" (whole states)" if args.full_states else " (states as changes)")
        )


def drop_pg_tables(url: str, prefix: str) -> None:
    """Drop the tables the run's server made: the log's and the players' (which join its metadata)."""
    from tapete.players.store import PlayersStore
    from tapete.server.db import Store

    store = Store(url, prefix=prefix)
    try:
        PlayersStore(store)
        store.drop_schema()
    finally:
        store.dispose()


async def run(args: argparse.Namespace) -> None:
    args.tables = min(args.tables, MAX_TABLES)
    args.echo_clients = min(args.echo_clients, 3 * MAX_TABLES)
    args.seconds = min(args.seconds, MAX_SECONDS)
    rounds = min(args.rounds, MAX_ROUNDS)
    ratios: list[float] = []
    per_action: list[float] = []
    per_echo: list[float] = []
    floors: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            prefix = ""
            if args.db == "postgresql":
                url, prefix = args.pg_url, f"bench{uuid.uuid4().hex[:8]}_"
            else:
                url = f"sqlite:///{os.path.join(tmp, f'cpu{r}.db')}"
            try:
                n, cpu, wall = await tapete_round(args, url, prefix)
            finally:
                if prefix:
                    drop_pg_tables(url, prefix)
            en, ecpu, ewall = await echo_round(args)
            if not n or not en:
                print(f"round {r + 1}: nothing measured (actions {n}, echoes {en})")
                continue
            a, e = cpu / n, ecpu / en
            per_action.append(a)
            per_echo.append(e)
            ratios.append(a / e)
            floor = ""
            if args.floor:
                fn, fcpu, fwall = await floor_round(args)
                if fn:
                    f = fcpu / fn
                    floors.append(f / e)
                    floor = (
                        f" | floor {fn} actions ({fn / fwall:.0f}/s), {f * 1e6:.0f} us/action = {f / e:.2f} echoes; "
                        f"tapete = {a / f:.2f} floors"
                    )
            print(
                f"round {r + 1}: tapete {n} actions in {wall:.1f} s ({n / wall:.0f}/s), server CPU {cpu:.2f} s "
                f"({cpu / wall:.0%}) = {a * 1e6:.0f} us/action | echo {en} round trips ({en / ewall:.0f}/s), "
                f"CPU {ecpu:.2f} s ({ecpu / ewall:.0%}) = {e * 1e6:.0f} us/echo | ratio {a / e:.2f} echoes/action{floor}",
                flush=True,
            )
    if ratios:
        print(
            f"{args.db}, {args.tables} tables x {args.seats} seats ({args.profile}), {len(ratios)} rounds: "
            f"median {statistics.median(per_action) * 1e6:.0f} us/action, "
            f"{statistics.median(per_echo) * 1e6:.0f} us/echo, ratio {statistics.median(ratios):.2f} echoes/action"
            + (
                f"; the floor (3 x {args.floor_bytes} B out a frame in) {statistics.median(floors):.2f} echoes"
                if floors
                else ""
            )
            + (" (whole states)" if args.full_states else " (states as changes)")
        )


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    p.add_argument("--pg-url", default=os.environ.get("TAPETE_BENCH_PG", PG_URL))
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--seats", type=int, default=3)
    p.add_argument("--profile", default="cutthroat")
    p.add_argument(
        "--echo-clients", type=int, default=0, help="echo clients (default: as many as tapete's sockets, 3 x --tables)"
    )
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--src", default=None, help="run the tapete server from this source folder (PYTHONPATH)")
    p.add_argument("--py-spy", metavar="OUT", help="record the tapete server with py-spy into OUT")
    p.add_argument("--py-spy-format", default="flamegraph", choices=["flamegraph", "raw", "speedscope"])
    p.add_argument(
        "--no-deflate", action="store_true", help="both servers without permessage-deflate (uvicorn's default is on)"
    )
    p.add_argument("--full-states", action="store_true", help="seat clients ask for whole views, not changes")
    p.add_argument(
        "--floor", action="store_true", help="also measure the bare fan-out floor (one frame in, three out) each round"
    )
    p.add_argument("--floor-bytes", type=int, default=300, help="size of each frame the floor sends")
    p.add_argument(
        "--slices",
        type=int,
        default=0,
        help="run every server at once and load them in turn, this many times a round (robust to a noisy machine)",
    )
    p.add_argument("--slice", type=float, default=1.0, help="seconds each load runs in a slice")
    p.add_argument("--against", metavar="SRC", help="with --slices: also a tapete server from this source folder")
    p.add_argument("--serve", choices=["tapete", "echo", "floor"], help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--prefix", default="", help=argparse.SUPPRESS)
    p.add_argument("--url", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve == "echo":
        serve_echo(args.port, not args.no_deflate)
    elif args.serve == "floor":
        serve_floor(args.port, args.floor_bytes, not args.no_deflate)
    elif args.serve == "tapete":
        serve_tapete(args.port, args.url, args.prefix, not args.no_deflate)
    elif args.slices > 0:
        args.tables = min(args.tables, MAX_TABLES)
        args.slices = min(args.slices, MAX_SLICES)
        args.slice = min(args.slice, MAX_SECONDS)
        asyncio.run(run_sliced(args))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
