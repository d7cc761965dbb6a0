"""Actions per second of one node against two nodes sharing PostgreSQL and Redis, at their p99.

Starts ``tapete serve --redis …`` nodes on 127.0.0.1 (a fresh table prefix in the local
PostgreSQL and a fresh Redis prefix; bot delay 0), then plays ``--tables`` tables of
``--profile`` whose every seat is a scripted client answering its turn at once with its
first legal action; when a game ends its client opens a new table. Each node gets its
share of the tables, created on it and played through it (a load balancer that keeps a
table's sockets on one node); ``--spread`` connects every socket to a random node instead,
so that most messages are forwarded to the owner. The same clients play whatever the node
count, so that one node is not measured through less client capacity than two, and their
CPU is reported too. By default (``--client native``) they are one process of
``wsload.c`` (built here with gcc): an epoll loop that costs a few microseconds a message,
so that on a 2-core machine the clients do not take the core a second node needs (the
Python clients cost about half of what the server does per action). It offers no
compression, so the nodes send plain frames. ``--client python`` runs ``--clients``
processes (2) of the ``websockets`` client instead (compression on); a client reads
(parses) only the messages that can concern it — its own turn, its acknowledgement, the
end. After ``--warmup`` seconds it measures for ``--seconds``: accepted actions per
second, the action → acknowledgement latency (p50/p99), the nodes' CPU per accepted action
and how busy the whole machine was (other work on it leaves the nodes less), for one node
and for two,
with the CPU of PostgreSQL and Redis when they run on the same machine, and the mean
events a log commit (from the nodes' ``/metrics``). With both node counts it prints their
ratio and the most this machine allows at the CPU an action measured: its cores divided by
what an action cost the two nodes, PostgreSQL, Redis and the clients together, against one
node's actions a second (a bound the server cannot pass by itself on a machine they share).
Every client socket has a source address of its own (127.0.0.x), so that the per-address
limits of a public server are not what is measured. Bounded in count and time.

    nice -n 10 python benchmarks/cluster_load.py --tables 24 --seconds 20

``--warmup`` must cover creating the tables (they are created one by one over HTTP,
about 15 a second here; a warning says when it did not, and the step says
``"warmup_short": true``), or the window measures tables still joining: with ``--p99-ms``
such a step is not counted and ends its node count's ladder.

``--p99-ms 100`` compares them at the same p99 instead: for each node count it tries the
table counts of ``--ladder`` in turn and keeps the most actions per second whose p99 stays
under 100 ms.

Run one after the other, one node and two see the machine minutes apart, and a shared
machine's speed drifts between them. ``--sliced ONE:TWO`` starts one node with ONE tables and
two nodes with TWO at once, each side with its own native client, and loads them in turn:
``--slices`` slices of ``--slice`` seconds a side, the first ``--settle`` seconds of each not
counted, the other side's seats waiting meanwhile (``wsload.c``'s pause and go commands):

    python benchmarks/cluster_load.py --sliced 120:140 --warmup 40

The last line says whether the two nodes' p99 stayed within one node's. More tables make a
node's queue longer and its p99 with it: on a 2-core machine two nodes at 180 tables wait
10–30 ms longer at the p99 than one node at 120, and at 130–140 tables about as long. To
compare at the same p99, give the pair fewer tables until its p99 is within one node's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import math
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from typing import Any

import httpx
from loopback import person_address  # this folder's: the script's own directory is on the path

MAX_TABLES = 300
MAX_SECONDS = 60.0
CORES = os.cpu_count() or 1
"""This machine's cores, which ``ceiling`` lets the two nodes, PostgreSQL, Redis and the clients share."""
PG = os.environ.get("TAPETE_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("TAPETE_REDIS_URL", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_node(
    node_id: str, table_prefix: str, redis_prefix: str, src: str | None = None, quiet: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    """A node on a free port (of the tree ``src``, else the installed one; ``quiet``: its log
    discarded), and its address once it answers."""
    port = free_port()
    cmd = [
        sys.executable, "-m", "tapete", "serve", "--port", str(port), "--db", PG, "--table-prefix", table_prefix,
        "--redis", REDIS, "--redis-prefix", redis_prefix, "--node-id", node_id, "--bot-delay", "0",
        "--next-hand-wait", "0",  # no seat waits for people to read a hand's result: every seat is scripted
    ]  # fmt: skip
    env = None if src is None else {**os.environ, "PYTHONPATH": src}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if quiet else None, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"node {node_id} did not start")


async def play_tables(
    homes: list[tuple[int, str]],
    urls: list[str],
    profile: str,
    seats: int,
    until: float,
    start: float,
    spread: bool,
) -> tuple[int, list[float]]:
    """One table per ``(number, home node)``, each from a source address of its own, played
    until ``until``; (acks, latencies) after ``start``."""
    from orjson import loads
    from websockets.asyncio.client import connect

    lat: list[float] = []
    acks = 0

    async def seat_loop(ws: Any, seat: int) -> None:
        nonlocal acks
        sent_at = 0.0
        pending = -1
        last_action: Any = None
        mine = f'"to_act":{seat},'
        while time.monotonic() < until:
            raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic()))
            if pending < 0 and mine not in raw and not raw.startswith('{"type":"game_over"'):
                continue  # not this seat's turn and nothing awaited: the client need not read it
            m = loads(raw)
            if m["type"] == "game_over":
                return
            if m["type"] == "error" and m.get("code") == "rate_limited" and pending >= 0:
                # a seat answering faster than the server's per-connection rate: slow down, send again
                await asyncio.sleep(0.05)
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "version": pending, "action": last_action}))
                continue
            if m["type"] != "state":
                continue
            if pending >= 0 and m["version"] == pending + 1:
                now = time.monotonic()
                if now >= start:
                    lat.append(now - sent_at)
                    acks += 1
                pending = -1
            view = m["view"]
            if view["to_act"] == seat and view["legal_actions"] and pending < 0:
                pending = m["version"]
                last_action = view["legal_actions"][0]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "version": pending, "action": last_action}))

    async def table_loop(ip: str, seed: int, home: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=ip)
        async with httpx.AsyncClient(transport=transport, timeout=10) as http:
            while time.monotonic() < until:
                r = await http.post(
                    f"{home}/api/tables", json={"profile": profile, "seats": ["human"] * seats, "seed": seed}
                )
                r.raise_for_status()
                t = r.json()
                socks = []
                for s in range(seats):
                    url = random.choice(urls) if spread else home
                    ws = await connect(url.replace("http", "ws") + "/ws", local_addr=(ip, 0), max_queue=None)
                    await ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["seats"][s]["token"]}))
                    socks.append(ws)
                try:
                    await asyncio.gather(*(seat_loop(ws, s) for s, ws in enumerate(socks)))
                except TimeoutError:
                    pass
                finally:
                    for ws in socks:
                        await ws.close()
                seed += 1

    await asyncio.gather(
        *(table_loop(person_address(k), 1000 * k, home) for k, home in homes),
        return_exceptions=True,
    )
    return acks, lat


def client_process(args: tuple[Any, ...], out: Any) -> None:
    out.put(asyncio.run(play_tables(*args)))


def build_native() -> str:
    """Compile ``wsload.c`` (the native client) into a temporary directory; its path."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wsload.c")
    exe = os.path.join(tempfile.mkdtemp(prefix="wsload-"), "wsload")
    subprocess.run(["gcc", "-O2", "-o", exe, src], check=True)
    return exe


class NativeClients:
    """The tables played through one ``wsload`` process: this driver creates each table over
    HTTP from the table's own source address and hands the client its seats' tokens; the
    client plays it and says when the game is over, and the driver creates the next."""

    def __init__(
        self, exe: str, homes: list[tuple[int, str]], urls: list[str], profile: str, seats: int, warmup: float,
        seconds: float, spread: bool, settle: float = 0.0,
    ) -> None:  # fmt: skip
        self.homes, self.urls, self.profile, self.seats, self.spread = dict(homes), urls, profile, seats, spread
        self.seeds = {k: 1000 * k for k in self.homes}
        self.http: dict[int, httpx.Client] = {}
        self.stdin_lock = threading.Lock()  # tables (the reader thread) and commands (the driver) share stdin
        self.proc = subprocess.Popen(
            [exe, str(warmup), str(seconds), str(seats), str(settle)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.result: tuple[int, float, float, int] | None = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        began = time.monotonic()
        for k in self.homes:
            self._next_table(k)
        self.tables_took = took = time.monotonic() - began
        if took > warmup:  # the measured window began before every table was playing
            print(f"warning: creating the tables took {took:.1f} s, more than --warmup {warmup:g} s", file=sys.stderr)
        self.reader.start()

    def _next_table(self, k: int) -> None:
        ip = person_address(k)
        if k not in self.http:
            self.http[k] = httpx.Client(transport=httpx.HTTPTransport(local_address=ip), timeout=10)
        r = self.http[k].post(
            f"{self.homes[k]}/api/tables",
            json={"profile": self.profile, "seats": ["human"] * self.seats, "seed": self.seeds[k]},
        )
        r.raise_for_status()
        t = r.json()
        self.seeds[k] += 1
        parts = [str(k), ip, t["table"]]
        for s in range(self.seats):
            url = random.choice(self.urls) if self.spread else self.homes[k]
            parts += [url.rsplit(":", 1)[1], t["seats"][s]["token"]]
        self._line(" ".join(parts))

    def command(self, kind: str) -> None:
        """``P`` pause (turns wait, nothing counted), ``G`` go, ``E`` end: report now (``wsload.c``)."""
        self._line(kind)

    def _line(self, text: str) -> None:
        assert self.proc.stdin is not None
        with self.stdin_lock:
            try:
                self.proc.stdin.write(text + "\n")
                self.proc.stdin.flush()
            except BrokenPipeError:  # the client has finished its measured window
                pass

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            kind, *rest = line.split()
            if kind == "D":
                with contextlib.suppress(httpx.HTTPError):  # the nodes are being stopped
                    self._next_table(int(rest[0]))
            elif kind == "R":
                acks, p50, p99, errors = (int(x) for x in rest)
                self.result = (acks, p50 / 1e6, p99 / 1e6, errors)

    def finish(self, timeout: float) -> tuple[int, float, float, int]:
        """(acks, p50 s, p99 s, errors) once the client has measured its window."""
        self.proc.wait(timeout)
        self.reader.join(10)
        for c in self.http.values():
            c.close()
        if self.result is None:
            raise SystemExit("wsload gave no result")
        return self.result


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def service_cpu_seconds(name: str) -> float:
    """CPU seconds of every local process named ``name`` (``postgres``, ``redis-server``), with the
    children they reaped (a PostgreSQL backend that ended); 0 when none runs here."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
        except OSError:
            continue  # ended meanwhile
        if head.split("(", 1)[1] == name:
            fields = tail.split()
            total += sum(int(x) for x in fields[11:15])
    return total / os.sysconf("SC_CLK_TCK")


def services_cpu() -> dict[str, float]:
    return {name: service_cpu_seconds(name) for name in ("postgres", "redis-server")}


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU time of the whole machine so far (``/proc/stat``), in ticks."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]
    return float(sum(ticks) - idle), float(sum(ticks))


def log_counts(urls: list[str]) -> tuple[int, int]:
    """The log's commits and events so far, summed over the nodes' ``/metrics``."""
    commits = events = 0
    for url in urls:
        for line in httpx.get(f"{url}/metrics", timeout=10).text.splitlines():
            if line.startswith("tapete_log_commits_total "):
                commits += int(line.split()[1])
            elif line.startswith("tapete_log_events_total "):
                events += int(line.split()[1])
    return commits, events


@dataclasses.dataclass(frozen=True)
class Usage:
    """CPU seconds and log counts: a reading of them so far, or the change over measured windows."""

    nodes: tuple[float, ...]
    client: float
    busy: float  # the whole machine's busy and total CPU time, in ticks (``/proc/stat``)
    total: float
    postgres: float  # PostgreSQL and Redis when they run on this machine (0 when elsewhere)
    redis: float
    commits: int  # the nodes' log commits and events (``/metrics``)
    events: int

    @classmethod
    def read(cls, node_pids: list[int], client_pids: list[int], urls: list[str]) -> Usage:
        busy, total = machine_busy()
        services = services_cpu()
        commits, events = log_counts(urls)
        return cls(
            tuple(cpu_seconds(pid) for pid in node_pids),
            sum(cpu_seconds(pid) for pid in client_pids),
            busy, total, services["postgres"], services["redis-server"], commits, events,
        )  # fmt: skip

    def __sub__(self, before: Usage) -> Usage:
        return self._combined(before, -1)

    def __add__(self, more: Usage) -> Usage:
        return self._combined(more, 1)

    def _combined(self, other: Usage, sign: int) -> Usage:
        pairs = zip(dataclasses.astuple(self), dataclasses.astuple(other), strict=True)
        return Usage(*(_combine(a, b, sign) for a, b in pairs))


def _combine(a: Any, b: Any, sign: int) -> Any:
    if isinstance(a, tuple):
        return tuple(x + sign * y for x, y in zip(a, b, strict=True))
    return a + sign * b


def report(nodes: int, tables: int, seconds: float, acks: int, p50: float, p99: float, used: Usage) -> dict[str, Any]:
    """One measurement as printed: ``used`` is the change over its ``seconds`` of measured time."""
    s = max(1e-9, seconds)
    return {
        "nodes": nodes,
        "tables": tables,
        "actions_per_s": round(acks / s, 1),
        "ack_p50_ms": round(p50 * 1000, 1),
        "ack_p99_ms": round(p99 * 1000, 1),
        "node_cpu_ms_per_action": round(1000 * sum(used.nodes) / max(1, acks), 2),
        "node_cpu_percent": [round(100 * c / s) for c in used.nodes],
        "client_cpu_percent": round(100 * used.client / s),
        "machine_busy_percent": round(100 * used.busy / max(1e-9, used.total)),
        # PostgreSQL and Redis when they run on this machine (0 when elsewhere), % of one core
        "postgres_cpu_percent": round(100 * used.postgres / s),
        "redis_cpu_percent": round(100 * used.redis / s),
        # the mean batch of the nodes' log commits (None where a node does not count them)
        "log_events_per_commit": round(used.events / used.commits, 1) if used.commits else None,
        # what an action cost each part on this machine, in µs of CPU (what ``ceiling`` adds up)
        "cpu_us_per_action": {
            name: round(1e6 * cpu / max(1, acks), 1)
            for name, cpu in (
                ("nodes", sum(used.nodes)),
                ("postgres", used.postgres),
                ("redis", used.redis),
                ("client", used.client),
            )
        },
    }


def ceiling(one: dict[str, Any], two: dict[str, Any], cores: int = CORES) -> float:
    """The most ``two`` could serve against ``one``'s actions/s if its parts kept ``cores`` busy at
    the CPU an action they were measured at (``cpu_us_per_action``): with the nodes, PostgreSQL,
    Redis and the clients sharing the machine, two nodes serve at most ``cores`` ÷ their sum an
    action, whatever the server does (docs/performance.md, "Two nodes against one")."""
    per_action = sum(two["cpu_us_per_action"].values())
    if not per_action or not one["actions_per_s"]:
        return math.inf
    return cores * 1e6 / per_action / one["actions_per_s"]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def run(
    nodes: int, tables: int, profile: str, seats: int, warmup: float, seconds: float, spread: bool, clients: int,
    exe: str = "",
) -> dict[str, Any]:  # fmt: skip
    """Start ``nodes`` nodes, load them through ``exe`` (the native client) or ``clients``
    Python processes, stop them; the measured numbers."""
    tag = uuid.uuid4().hex[:8]
    table_prefix, redis_prefix = f"bench_{tag}_", f"bench:{tag}:"
    procs: list[subprocess.Popen[bytes]] = []
    urls: list[str] = []
    try:
        for n in range(nodes):
            proc, url = start_node(f"n{n}", table_prefix, redis_prefix)
            procs.append(proc)
            urls.append(url)
        # table k lives on node k mod nodes; the same clients whatever the node count, so
        # that one node is not measured through less client capacity than two
        homes = [(k, urls[k % nodes]) for k in range(tables)]
        start = time.monotonic() + warmup
        until = start + seconds
        native = None
        workers = []
        out: Any = mp.Queue()
        if exe:
            native = NativeClients(exe, homes, urls, profile, seats, warmup, seconds, spread)
            client_pids = [native.proc.pid, os.getpid()]  # the driver creates the tables
        else:
            for i in range(clients):
                args = (homes[i::clients], urls, profile, seats, until, start, spread)
                p = mp.Process(target=client_process, args=(args, out))
                p.start()
                workers.append(p)
            client_pids = [p.pid for p in workers if p.pid is not None]
        time.sleep(max(0.0, start - time.monotonic()))
        node_pids = [p.pid for p in procs]
        before = Usage.read(node_pids, client_pids, urls)
        time.sleep(max(0.0, until - time.monotonic()))
        used = Usage.read(node_pids, client_pids, urls) - before
        acks = 0
        lat: list[float] = []
        extra: dict[str, Any] = {}
        if native is not None:
            acks, p50, p99, errors = native.finish(timeout=60)
            extra["client_errors"] = errors  # refused upgrades and error answers other than rate_limited
            # the measured window began while tables were still being created: not a measurement of them all
            extra["warmup_short"] = native.tables_took > warmup
        else:
            for _ in workers:
                a, lt = out.get(timeout=warmup + seconds + 60)
                acks += a
                lat.extend(lt)
            for p in workers:
                p.join(10)
            p50, p99 = pct(lat, 0.5), pct(lat, 0.99)
        return {**report(nodes, tables, seconds, acks, p50, p99, used), **extra}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        drop_tables(table_prefix)


class Side:
    """One of the two configurations of a sliced run: its nodes, its client and what its slices measured."""

    def __init__(self, nodes: int, tables: int, procs: list[subprocess.Popen[bytes]], urls: list[str]) -> None:
        self.nodes, self.tables, self.procs, self.urls = nodes, tables, procs, urls
        self.client: NativeClients | None = None
        self.seconds = 0.0  # measured time, summed over its slices
        self.used: Usage | None = None  # what its slices used, summed

    def measure(self, seconds: float) -> None:
        """Add ``seconds`` of this side's load (its client going) to what it measured."""
        assert self.client is not None
        pids, clients = [p.pid for p in self.procs], [self.client.proc.pid]
        before = Usage.read(pids, clients, self.urls)
        began = time.monotonic()
        time.sleep(seconds)
        self.seconds += time.monotonic() - began
        used = Usage.read(pids, clients, self.urls) - before
        self.used = used if self.used is None else self.used + used

    def result(self, acks: int, p50: float, p99: float, errors: int) -> dict[str, Any]:
        assert self.used is not None, "no slice was measured"
        measured = report(self.nodes, self.tables, self.seconds, acks, p50, p99, self.used)
        return {**measured, "client_errors": errors, "measured_s": round(self.seconds, 1)}


def run_sliced(
    one: int, two: int, profile: str, seats: int, warmup: float, slices: int, slice_s: float, settle: float,
    spread: bool, exe: str,
) -> list[dict[str, Any]]:  # fmt: skip
    """One node with ``one`` tables and two nodes with ``two``, all started at once and loaded in
    turn: in each slice one side's client goes while the other's seats wait (actions in flight
    complete), for ``slice_s`` seconds of which the first ``settle`` are not counted; the sides
    alternate which goes first. Both see the machine over the same stretch of time, so that its
    drift does not fall between them."""
    tag = uuid.uuid4().hex[:8]
    sides: list[Side] = []
    prefixes: list[str] = []
    try:
        for nodes, tables in ((1, one), (2, two)):
            table_prefix, redis_prefix = f"bench_{tag}_{nodes}_", f"bench:{tag}:{nodes}:"
            prefixes.append(table_prefix)
            procs, urls = [], []
            for n in range(nodes):
                proc, url = start_node(f"s{nodes}n{n}", table_prefix, redis_prefix)
                procs.append(proc)
                urls.append(url)
            sides.append(Side(nodes, tables, procs, urls))
        began = time.monotonic()
        for side in sides:  # created one after the other; both play from then on (warming up)
            homes = [(k, side.urls[k % side.nodes]) for k in range(side.tables)]
            # nothing counts until the first "G" opens the window (a warmup that never ends by itself)
            side.client = NativeClients(exe, homes, side.urls, profile, seats, 1e7, 1e7, spread, settle)
        took = time.monotonic() - began
        if took > warmup:
            print(f"warning: creating the tables took {took:.1f} s, more than --warmup {warmup:g} s", file=sys.stderr)
        time.sleep(max(0.0, warmup - took))
        clients = [side.client for side in sides if side.client is not None]
        for c in clients:
            c.command("P")
        time.sleep(0.5)  # what was in flight completes
        for i in range(slices):
            for side in sides if i % 2 == 0 else sides[::-1]:
                assert side.client is not None
                side.client.command("G")
                time.sleep(settle)
                side.measure(slice_s - settle)
                side.client.command("P")
                time.sleep(0.3)
        out = []
        for side in sides:
            assert side.client is not None
            side.client.command("E")
            out.append(side.result(*side.client.finish(timeout=60)))
        return out
    finally:
        for side in sides:
            for proc in side.procs:
                proc.terminate()
        for side in sides:
            for proc in side.procs:
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        for prefix in prefixes:
            drop_tables(prefix)


def drop_tables(prefix: str) -> None:
    import sqlalchemy as sa

    from tapete.server.db import Store

    store = Store(PG)
    try:
        with store.engine.begin() as c:
            names = c.execute(
                sa.text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, :p)"
                ),
                {"p": prefix},
            ).scalars()
            for name in list(names):
                c.execute(sa.text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
    finally:
        store.dispose()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=24, help=f"tables played at once (at most {MAX_TABLES})")
    ap.add_argument("--profile", default="cutthroat")
    ap.add_argument("--seconds", type=float, default=20.0, help=f"measured seconds per run (at most {MAX_SECONDS:g})")
    ap.add_argument("--warmup", type=float, default=4.0)
    ap.add_argument("--spread", action="store_true", help="connect each socket to a random node (forwarding)")
    ap.add_argument(
        "--nodes",
        default="1,2",
        help="node counts to measure, in order (default 1,2); 1,2,1,2 measures pairs in turn and prints their ratios",
    )
    ap.add_argument(
        "--p99-ms",
        type=float,
        default=None,
        help="compare at this p99: for each node count, the most actions/s over --ladder whose p99 stays under it",
    )
    ap.add_argument("--ladder", default="6,12,24,48", help="table counts tried with --p99-ms (default 6,12,24,48)")
    ap.add_argument(
        "--clients", type=int, default=2, help="client processes, the same for every node count (default 2, at most 8)"
    )
    ap.add_argument(
        "--client",
        choices=("native", "python"),
        default="native",
        help="native: one wsload process (wsload.c, built with gcc; no compression offered); "
        "python: --clients processes of the websockets client (default native)",
    )
    ap.add_argument(
        "--sliced",
        default=None,
        metavar="ONE:TWO",
        help="one node with ONE tables against two nodes with TWO, started at once and loaded in turn "
        "(native client only; find each side's best table count with --ladder first)",
    )
    ap.add_argument("--slices", type=int, default=8, help="--sliced: slices a side (default 8)")
    ap.add_argument("--slice", type=float, default=3.0, help="--sliced: seconds a slice (default 3)")
    ap.add_argument("--settle", type=float, default=0.5, help="--sliced: seconds not counted at a slice's start")
    args = ap.parse_args()
    clients = max(1, min(8, args.clients))
    exe = build_native() if args.client == "native" or args.sliced is not None else ""
    import tapete

    seats = int(tapete.new_game(args.profile, seed=1).num_players)
    if args.sliced is not None:
        one, _, two = args.sliced.partition(":")
        pair = run_sliced(
            min(MAX_TABLES, int(one)), min(MAX_TABLES, int(two)), args.profile, seats, args.warmup,
            max(1, args.slices), max(1.0, args.slice), max(0.0, min(args.settle, args.slice / 2)), args.spread, exe,
        )  # fmt: skip
        return report_sliced(pair)
    tables = max(1, min(MAX_TABLES, args.tables))
    seconds = max(1.0, min(MAX_SECONDS, args.seconds))
    results = []
    for n in (int(x) for x in args.nodes.split(",")):
        if args.p99_ms is None:
            r = run(n, tables, args.profile, seats, args.warmup, seconds, args.spread, clients, exe)
        else:
            best: dict[str, Any] = {"nodes": n, "tables": 0, "actions_per_s": 0.0}
            for count in (min(MAX_TABLES, int(x)) for x in args.ladder.split(",")):
                try:
                    step = run(n, count, args.profile, seats, args.warmup, seconds, args.spread, clients, exe)
                except httpx.HTTPStatusError as exc:  # more open tables than a node takes (server_full)
                    print(json.dumps({"nodes": n, "tables": count, "refused": exc.response.status_code}), flush=True)
                    break
                print(json.dumps(step), flush=True)
                if step.get("warmup_short"):  # this step and the larger ones need a longer --warmup
                    print(json.dumps({"nodes": n, "tables": count, "not_counted": "--warmup too short"}), flush=True)
                    break
                if step["ack_p99_ms"] > args.p99_ms:
                    break
                if step["actions_per_s"] > best["actions_per_s"]:
                    best = step
            r = {**best, "p99_goal_ms": args.p99_ms}
        results.append(r)
        print(json.dumps(r), flush=True)
    if len(results) >= 2 and results[0]["actions_per_s"]:
        ratio = results[-1]["actions_per_s"] / results[0]["actions_per_s"]
        most = ceiling(results[0], results[-1])
        print(
            f"{results[-1]['nodes']} nodes / {results[0]['nodes']} node: {ratio:.2f}x actions/s "
            f"(at most {most:.2f}x on this machine at the CPU an action measured)",
            flush=True,
        )
    pairs = pair_ratios(results)
    if len(pairs) > 1:  # --nodes 1,2,1,2,…: each pair measured minutes apart, the machine drifting between
        shown = ", ".join(f"{r:.2f}x" for r in pairs)
        print(f"pairs in turn: {shown}; median {statistics.median(pairs):.2f}x", flush=True)
    return 0


def report_sliced(pair: list[dict[str, Any]]) -> int:
    for r in pair:
        print(json.dumps(r), flush=True)
    one, two = pair
    if one["actions_per_s"]:
        ratio = two["actions_per_s"] / one["actions_per_s"]
        within = "within" if two["ack_p99_ms"] <= one["ack_p99_ms"] else "over"
        print(
            f"2 nodes / 1 node, loaded in turn: {ratio:.2f}x actions/s "
            f"(p99 {two['ack_p99_ms']:g} against {one['ack_p99_ms']:g} ms: {within} one node's); "
            f"at most {ceiling(one, two):.2f}x on this machine's {CORES} cores at the CPU an action measured",
            flush=True,
        )
    return 0


def pair_ratios(results: list[dict[str, Any]]) -> list[float]:
    """The ratio of each result to the one before it where the node counts go up (``--nodes 1,2,1,2``)."""
    out = []
    for before, after in itertools.pairwise(results):
        if after["nodes"] > before["nodes"] and before["actions_per_s"]:
            out.append(after["actions_per_s"] / before["actions_per_s"])
    return out


if __name__ == "__main__":
    sys.exit(main())
