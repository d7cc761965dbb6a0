"""CPU an event of the log's group commit: commits on the event loop against commits on the writer thread.

Runs ``--tables`` tasks on one event loop, each doing ``--work`` microseconds of other
work on the loop (what the rest of an action costs the server: checks, rules, views,
frames) and then appending one event to the log and awaiting its commit, as a table does.
SQLite at ``synchronous=NORMAL`` in a temporary file, or PostgreSQL (``--db postgresql``,
tables with a prefix of their own, dropped afterwards), where the loop awaits its commits. The
two ways of committing (``docs/operations.md``, "The event log") alternate in short rounds; the
process's CPU an event is printed for each, and their ratio (loop / thread) over the medians.

    python benchmarks/log_commit.py --rounds 5 --work 100
    python benchmarks/log_commit.py --db postgresql --rounds 5 --work 100

``--sizes 1,3,10,30`` measures instead what one commit costs by its size: batches of each
size appended straight to SQLite's loop connection (events of 200 tables in turn, a
checkpoint every 100 commits as the server makes), the CPU a commit and an event.

    python benchmarks/log_commit.py --sizes 1,3,10,30 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path

from tapete.server.db import EventRow, SeatRow, Store, TableRow
from tapete.server.groupcommit import CHECKPOINT_EVERY, GroupCommit

MAX_ROUNDS = 20
MAX_SECONDS = 20.0
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def busy(microseconds: float) -> None:
    """Keep the interpreter busy (holding the GIL) for ``microseconds``."""
    end = time.perf_counter() + microseconds / 1e6
    while time.perf_counter() < end:
        pass


def open_store(db: str, folder: str, tables: int) -> Store:
    """A log (SQLite in ``folder``, or PostgreSQL at ``db``) with ``tables`` open tables, ``t0``, ``t1``, …"""
    if db == "sqlite":
        store = Store(f"sqlite:///{Path(folder) / 'log.db'}", sqlite_synchronous="NORMAL")
    else:
        store = Store(db, prefix=f"bench_{uuid.uuid4().hex[:8]}_")
    store.create_schema()
    seats = [SeatRow(seat, "human") for seat in range(3)]
    first = TableRow("t0", "cutthroat", {}, 0, "x", "open", 0.0, seats=seats)
    for i in range(tables):
        store.insert_table(replace(first, id=f"t{i}", seed=i))
    return store


async def one_round(db: str, on_loop: bool, tables: int, seconds: float, work: float) -> tuple[int, float, int]:
    """(events, CPU seconds, commits) of one round."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(db, folder, tables)
        writer = GroupCommit(store, on_loop=on_loop)
        writer.start()
        events = 0
        until = time.monotonic() + seconds

        async def table(i: int) -> None:
            nonlocal events
            seq = 0
            while time.monotonic() < until:
                busy(work)
                await writer.append(f"t{i}", seq, seq // 50, {"seat": seq % 3, "play": "AS"}, None)
                seq += 1
                events += 1

        start = cpu_seconds()
        await asyncio.gather(*(table(i) for i in range(tables)))
        spent = cpu_seconds() - start
        await writer.close()
        if db != "sqlite":
            store.drop_schema()
        store.dispose()
        return events, spent, writer.batches


def commit_sizes(sizes: list[int], seconds: float) -> dict[int, float]:
    """CPU seconds a commit on SQLite's loop connection for each batch size in ``sizes``."""
    tables = 200
    with tempfile.TemporaryDirectory() as folder:
        store = open_store("sqlite", folder, tables)
        conn = store.loop_connection()
        seqs = [0] * tables
        nth = 0
        out: dict[int, float] = {}
        for size in sizes:
            commits = 0
            start = cpu_seconds()
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                rows = []
                for _ in range(size):
                    i = nth % tables
                    nth += 1
                    rows.append(EventRow(f"t{i}", seqs[i], 0, '{"card":"AS","seat":0}', time.time(), None))
                    seqs[i] += 1
                store.append_events(conn, rows)
                commits += 1
                if commits % CHECKPOINT_EVERY == 0:
                    store.checkpoint(conn)
            out[size] = (cpu_seconds() - start) / commits
        conn.close()
        store.dispose()
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql, or a postgresql:// URL")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--work", type=float, default=100.0, help="microseconds of other work on the loop an event")
    parser.add_argument("--sizes", help="comma-separated batch sizes: the CPU a SQLite commit by its size")
    args = parser.parse_args()
    db = PG_URL if args.db == "postgresql" else args.db
    rounds = max(1, min(args.rounds, MAX_ROUNDS))
    seconds = max(0.2, min(args.seconds, MAX_SECONDS))
    if args.sizes:
        sizes = [max(1, int(n)) for n in args.sizes.split(",")]
        by_size: dict[int, list[float]] = {n: [] for n in sizes}
        for _ in range(rounds):  # the sizes alternate, round after round
            for size, cost in commit_sizes(sizes, seconds / 2).items():
                by_size[size].append(cost)
        for size, costs in by_size.items():
            cost = statistics.median(costs) * 1e6
            print(
                f"{size:4} events a commit: {cost:.1f} us CPU a commit, {cost / size:.1f} an event (median of {rounds})"
            )
        return
    per_event: dict[str, list[float]] = {"thread": [], "loop": []}
    for r in range(rounds):
        for name in ("thread", "loop"):
            events, spent, commits = asyncio.run(one_round(db, name == "loop", args.tables, seconds, args.work))
            cost = spent / max(events, 1) * 1e6
            per_event[name].append(cost)
            print(
                f"round {r + 1} {name:6}: {events} events in {commits} commits, {cost:.1f} us CPU an event "
                f"({cost - args.work:.1f} beyond the other work)",
                flush=True,
            )
    thread, loop = (statistics.median(per_event[k]) for k in ("thread", "loop"))
    print(
        f"median over {rounds} rounds: thread {thread:.1f} us, loop {loop:.1f} us an event "
        f"(with {args.work:g} us of other work): loop / thread = {loop / thread:.3f}; "
        f"beyond the other work {loop - args.work:.1f} against {thread - args.work:.1f} us"
    )


if __name__ == "__main__":
    main()
