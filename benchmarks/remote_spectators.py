"""What spectators cost when they watch, through other nodes, a table one node owns.

Starts an owner node ``a`` and ``--holders`` other nodes (``b``, ``c``…; ``tapete serve --redis
…`` on 127.0.0.1, a fresh table prefix in the local PostgreSQL and a fresh Redis prefix, bot
delay 0) of the tree ``--src`` and, with ``--against OLD/src``, as many of that tree too,
alternated in each round. On ``a`` it opens ``--tables`` Cutthroat Spades tables, each with a
scripted person at seat 0 (connected to ``a``, playing its first legal action as soon as its
turn comes; bots in the other seats) and ``--spectators`` spectators connected to the holders
in turn (no compression, each from a source address of its own, counting what they get
unread); a table whose game ends is replaced by a new one. For ``--seconds`` a round it counts
the messages the spectators got, Redis's ``PUBLISH`` calls and the bytes it read, and the CPU
of the owner, of the holders and of ``redis-server``, and prints them per message a spectator
got (and the ratio of the trees when there are two). ``--idle`` measures each tree alone, its
spectators joined and nobody playing: what the bus carries a second (the nodes' ``links``
above all), and the nodes' CPU. Redis's figures are the whole server's: the
tree not being measured adds its nodes' `links` (two a second a node), a few publishes in
thousands of messages. Bounded in count and time; talks only to 127.0.0.1.

    python benchmarks/remote_spectators.py --tables 4 --spectators 20 --seconds 6 --rounds 3 \
        --src NEW/src --against OLD/src [--holders 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

import httpx
import redis
from cluster_load import cpu_seconds, drop_tables, service_cpu_seconds, start_node  # this folder's

REDIS = os.environ.get("TAPETE_REDIS_URL", "redis://127.0.0.1:6379/0")
MAX_SPECTATORS = 50
"""A table's own limit on spectators."""
MAX_TABLES = 20
MAX_SECONDS = 30.0
JOIN_SECONDS = 60.0
"""Longest wait for a table's spectators to join (the first tables' spectators join together)."""


class Pair:
    """Two nodes of one tree, with the load that runs through them."""

    def __init__(self, src: str, holders: int) -> None:
        self.src = src
        self.table_prefix = f"bench_{uuid.uuid4().hex[:8]}_"
        self.redis_prefix = f"bench-{uuid.uuid4().hex[:8]}:"
        self.a, self.url_a = start_node("a", self.table_prefix, self.redis_prefix, src, quiet=True)
        started = [start_node(n, self.table_prefix, self.redis_prefix, src, quiet=True) for n in "bcdef"[:holders]]
        self.holders = [proc for proc, _ in started]
        self.holder_urls = [url for _, url in started]
        self.received = 0
        self.joined = 0
        self.go = asyncio.Event()
        self.stop = False
        self.tasks: list[asyncio.Task[None]] = []

    def start_tables(self, tables: int, spectators: int) -> None:
        """Open ``tables`` tables on the owner, each watched by ``spectators`` on the holders."""
        self.tasks = [asyncio.create_task(table_loop(self, k, spectators)) for k in range(tables)]
        for task in self.tasks:
            task.add_done_callback(reported)

    async def shutdown(self) -> None:
        """End the load and the nodes; drop what they stored."""
        self.stop = True
        self.go.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.close()

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the owner and of the holders together."""
        return cpu_seconds(self.a.pid), sum(cpu_seconds(p.pid) for p in self.holders)

    def close(self) -> None:
        for proc in (self.a, *self.holders):
            proc.terminate()
        for proc in (self.a, *self.holders):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        drop_tables(self.table_prefix)
        client = redis.Redis.from_url(REDIS)
        keys = list(client.scan_iter(match=f"{self.redis_prefix}*"))
        if keys:
            client.delete(*keys)
        client.close()


async def person(pair: Pair, table: dict[str, Any]) -> None:
    """Seat 0 of ``table``, on node a, playing as soon as its turn comes, while ``pair.go`` is set."""
    from orjson import loads
    from websockets.asyncio.client import connect

    async with connect(pair.url_a.replace("http", "ws") + "/ws", max_queue=None) as ws:
        sent = json.dumps({"type": "hello", "table": table["table"], "token": table["seats"][0]["token"]})
        await ws.send(sent)
        while not pair.stop:
            raw = await ws.recv()
            if isinstance(raw, bytes):
                continue
            if '"to_act":0,' not in raw and not raw.startswith(('{"type":"game_over"', '{"type":"error"')):
                continue
            m = loads(raw)
            if m["type"] == "game_over":
                return
            if m["type"] == "error" and m.get("code") == "rate_limited":  # faster than a socket may: again
                await asyncio.sleep(0.05)
                await ws.send(sent)
            elif m["type"] == "state" and m["view"]["to_act"] == 0 and m["view"]["legal_actions"]:
                await pair.go.wait()
                action = m["view"]["legal_actions"][0]
                sent = json.dumps({"type": "action", "version": m["version"], "action": action})
                await ws.send(sent)


async def spectator(pair: Pair, table_id: str, number: int, ip: str, joined: asyncio.Event) -> None:
    """Spectator ``number`` of ``table_id``, on a holder (in turn), counting what it gets until the game is over."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    url = pair.holder_urls[number % len(pair.holder_urls)].replace("http", "ws") + "/ws"
    with contextlib.suppress(ConnectionClosed, OSError):  # the nodes stop at the end of the run
        async with connect(url, compression=None, local_addr=(ip, 0), max_queue=None) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table_id, "spectate": True}))
            await ws.recv()  # the welcome
            joined.set()
            pair.joined += 1
            while not pair.stop:
                raw = await ws.recv()
                pair.received += 1
                if isinstance(raw, str) and raw.startswith('{"type":"game_over"'):
                    return


async def table_loop(pair: Pair, number: int, spectators: int) -> None:
    """Table after table on node a, watched from node b."""
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.{1 + number}.1")
    async with httpx.AsyncClient(transport=transport, timeout=10) as http:
        seed = 1000 * number
        while not pair.stop:
            seats = ["human", "easy", "easy"]
            r = await http.post(f"{pair.url_a}/api/tables", json={"profile": "cutthroat", "seats": seats, "seed": seed})
            r.raise_for_status()
            table = r.json()
            seed += 1
            joined = [asyncio.Event() for _ in range(spectators)]
            watching = [
                asyncio.create_task(spectator(pair, table["table"], k, f"127.0.{1 + number}.{k + 2}", joined[k]))
                for k in range(spectators)
            ]
            waited = time.monotonic() + JOIN_SECONDS
            while not all(e.is_set() for e in joined) and time.monotonic() < waited:
                await asyncio.sleep(0.05)
            if not all(e.is_set() for e in joined):
                print(f"table {number}: its spectators did not all join in {JOIN_SECONDS} s", file=sys.stderr)
            await person(pair, table)
            for failure in await asyncio.gather(*watching, return_exceptions=True):
                if isinstance(failure, Exception):
                    print(f"a spectator of table {number}: {failure!r}", file=sys.stderr)


def redis_counts() -> tuple[int, int]:
    """Redis's ``PUBLISH`` calls and bytes read so far."""
    client = redis.Redis.from_url(REDIS)
    try:
        calls = int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
        read = int(client.info("stats")["total_net_input_bytes"])
    finally:
        client.close()
    return calls, read


async def measure(pair: Pair, seconds: float) -> dict[str, float]:
    """Let ``pair`` play for ``seconds`` and what it cost, per message a spectator got."""
    await asyncio.sleep(0.3)  # the tables' first states are out
    got, (calls, read), (cpu_a, cpu_b), redis_cpu = (
        pair.received,
        redis_counts(),
        pair.cpu(),
        service_cpu_seconds("redis-server"),
    )
    pair.go.set()
    await asyncio.sleep(seconds)
    pair.go.clear()
    got2, (calls2, read2), (cpu_a2, cpu_b2), redis_cpu2 = (
        pair.received,
        redis_counts(),
        pair.cpu(),
        service_cpu_seconds("redis-server"),
    )
    n = max(1, got2 - got)
    return {
        "messages_per_second": (got2 - got) / seconds,
        "publishes_per_message": (calls2 - calls) / n,
        "redis_bytes_per_message": (read2 - read) / n,
        "owner_us": 1e6 * (cpu_a2 - cpu_a) / n,
        "holders_us": 1e6 * (cpu_b2 - cpu_b) / n,
        "redis_us": 1e6 * (redis_cpu2 - redis_cpu) / n,
    }


def reported(task: asyncio.Task[None]) -> None:
    """Say why a table's loop ended before the run did."""
    if not task.cancelled() and task.exception() is not None:
        print(f"a table's loop failed: {task.exception()!r}", file=sys.stderr)


async def idle(src: str, args: argparse.Namespace) -> dict[str, float]:
    """What the bus carries each second while nobody plays, the spectators joined (one tree's
    nodes alone on Redis)."""
    pair = Pair(src, args.holders)
    try:
        await asyncio.sleep(1.5)  # the nodes' links have said what each reads
        pair.start_tables(args.tables, args.spectators)
        waited = time.monotonic() + JOIN_SECONDS
        while pair.joined < args.tables * args.spectators and time.monotonic() < waited:
            await asyncio.sleep(0.1)
        await asyncio.sleep(2.0)  # every spectator joined and got its view; the people wait for ``go``
        (calls, read), cpu = redis_counts(), sum(pair.cpu())
        await asyncio.sleep(args.seconds)
        (calls2, read2), cpu2 = redis_counts(), sum(pair.cpu())
        return {
            "publishes_per_second": (calls2 - calls) / args.seconds,
            "redis_bytes_per_second": (read2 - read) / args.seconds,
            "nodes_cpu_percent": 100 * (cpu2 - cpu) / args.seconds,
        }
    finally:
        await pair.shutdown()


async def idle_runs(args: argparse.Namespace) -> int:
    trees = [args.src] + ([args.against] if args.against else [])
    for src in trees:
        figures = await idle(src, args)
        print(f"{src}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
    return 0


async def main_async(args: argparse.Namespace) -> int:
    if args.idle:
        return await idle_runs(args)
    trees = [args.src] + ([args.against] if args.against else [])
    pairs = [Pair(src, args.holders) for src in trees]
    try:
        await asyncio.sleep(1.5)  # the nodes' links have said what each reads
        for pair in pairs:
            pair.start_tables(args.tables, args.spectators)
        await asyncio.sleep(2.0)  # the spectators joined
        results: dict[str, list[dict[str, float]]] = {src: [] for src in trees}
        for r in range(args.rounds):
            for pair in pairs if r % 2 == 0 else pairs[::-1]:
                results[pair.src].append(await measure(pair, args.seconds))
        for src in trees:
            print(f"{src}:")
            for key in results[src][0]:
                values = [round(x[key], 2) for x in results[src]]
                print(f"  {key:24} {values}  median {statistics.median(values):.2f}")
        if args.against:
            new, old = (results[s] for s in trees)
            for key in ("publishes_per_message", "redis_bytes_per_message", "owner_us", "holders_us", "redis_us"):
                ratio = statistics.median(x[key] for x in new) / max(1e-9, statistics.median(x[key] for x in old))
                print(f"{key:24} new / old {ratio:.2f}")
    finally:
        for pair in pairs:
            await pair.shutdown()
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "src"), help="the tree measured")
    p.add_argument("--against", help="another tree's src, measured alternately in the same run")
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--spectators", type=int, default=20, help="spectators of each table, on the holders in turn")
    p.add_argument("--holders", type=int, default=1, help="nodes holding the spectators (the owner is another)")
    p.add_argument("--seconds", type=float, default=8.0, help="length of each measured window")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument(
        "--idle",
        action="store_true",
        help="nobody plays: what the bus carries a second for the sockets joined elsewhere (each tree alone)",
    )
    args = p.parse_args()
    if not 1 <= args.tables <= MAX_TABLES or not 1 <= args.spectators <= MAX_SPECTATORS:
        raise SystemExit(f"--tables 1..{MAX_TABLES}, --spectators 1..{MAX_SPECTATORS}")
    if not 1 <= args.holders <= 5:
        raise SystemExit("--holders 1..5")
    if not 0 < args.seconds <= MAX_SECONDS or not 1 <= args.rounds <= 10:
        raise SystemExit(f"--seconds up to {MAX_SECONDS}, --rounds 1..10")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
