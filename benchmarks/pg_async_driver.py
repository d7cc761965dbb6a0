"""CPU a commit of the log's batch statement on PostgreSQL: asyncpg against psycopg's asynchronous connection.

The event loop awaits PostgreSQL's log commits (``docs/operations.md``, "The event log"), one
statement a batch (``Store.append_events_async``). This writes ``--commits`` batches of
``--batch`` events through each driver on one event loop, one commit in flight at a time, in
alternated rounds, and prints the process's CPU a commit for each and their ratio.

    python benchmarks/pg_async_driver.py --rounds 3 --batch 8
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import time
import uuid
from typing import Any

import psycopg

from tapete.server.db import EventRow, SeatRow, Store, TableRow

PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
MAX_COMMITS = 20_000
MAX_ROUNDS = 10


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def batches(batch: int, commits: int, first_seq: int) -> list[list[EventRow]]:
    action = '{"play":"QS","seat":1}'
    return [[EventRow(f"t{i}", first_seq + k, 0, action, time.time()) for i in range(batch)] for k in range(commits)]


async def with_asyncpg(store: Store, rows: list[list[EventRow]]) -> float:
    conn = await store.open_async_connection()
    try:
        start = cpu_seconds()
        for events in rows:
            await store.append_events_async(conn, events)
        return cpu_seconds() - start
    finally:
        await conn.close()


async def with_psycopg(store: Store, url: str, rows: list[list[EventRow]]) -> float:
    sql = store._insert_arrays_sql
    for n in range(5, 0, -1):
        sql = sql.replace(f"${n}", "%s")
    conn: Any = await psycopg.AsyncConnection.connect(url, autocommit=True)
    try:
        start = cpu_seconds()
        for events in rows:
            columns = tuple(
                list(column)
                for column in zip(*((e.table_id, e.seq, e.hand, e.action, e.at) for e in events), strict=True)
            )
            await conn.execute(sql, columns)
        return cpu_seconds() - start
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=PG_URL)
    parser.add_argument("--batch", type=int, default=8, help="events a commit (one per table)")
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    commits = max(1, min(args.commits, MAX_COMMITS))
    store = Store(args.url, prefix=f"bench_{uuid.uuid4().hex[:8]}_")
    store.create_schema()
    try:
        seats = [SeatRow(seat, "human") for seat in range(3)]
        for i in range(args.batch):
            store.insert_table(TableRow(f"t{i}", "cutthroat", {}, i, "x", "open", 0.0, seats=seats))
        per_commit: dict[str, list[float]] = {"asyncpg": [], "psycopg": []}
        seq = 0
        for r in range(max(1, min(args.rounds, MAX_ROUNDS))):
            for name in ("psycopg", "asyncpg"):
                rows = batches(args.batch, commits, seq)
                seq += commits
                if name == "asyncpg":
                    spent = asyncio.run(with_asyncpg(store, rows))
                else:
                    spent = asyncio.run(with_psycopg(store, args.url, rows))
                per_commit[name].append(spent / commits * 1e6)
                print(f"round {r + 1} {name:8}: {per_commit[name][-1]:.0f} us CPU a commit of {args.batch}", flush=True)
        a, p = (statistics.median(per_commit[k]) for k in ("asyncpg", "psycopg"))
        print(f"median: asyncpg {a:.0f} us, psycopg {p:.0f} us a commit: asyncpg / psycopg = {a / p:.2f}")
    finally:
        store.drop_schema()
        store.dispose()


if __name__ == "__main__":
    main()
