"""How fast a node's tables move to another node: a clean stop (SIGTERM) against a crash (kill -9).

Starts two nodes (``tapete serve`` on PostgreSQL and Redis at 127.0.0.1, as
``cluster_load.py``), makes ``--tables`` tables on node a, opens a call that keeps a busy
(a request body that trickles in, as a slow client or a long analysis would), then stops a,
either with SIGTERM (a rolling deploy) or with kill -9 (a crash). It measures the seconds from
the signal until node b holds every table's lease, and for SIGTERM also until a has exited.
Rounds alternate the two ways; it prints each round and the medians, and the ratio of a clean
stop's move to a crash's (a crash waits for the leases to run out: about 3 s plus a tick).

    python benchmarks/cluster_handoff.py --rounds 3 --tables 10
    PYTHONPATH=/tmp/before/src python benchmarks/cluster_handoff.py   # an older tree's nodes
"""

from __future__ import annotations

import argparse
import signal
import socket
import statistics
import time
import uuid

from cluster_load import PG, drop_tables, start_node  # this folder's: the script's own directory is on the path

from tapete.server.cluster.lease import Leases
from tapete.server.db import Store

MAX_ROUNDS = 10
MAX_TABLES = 100
MOVE_LIMIT_SECONDS = 30.0


def create_tables(url: str, n: int) -> list[str]:
    import httpx

    ids = []
    for _ in range(n):
        r = httpx.post(f"{url}/api/tables", json={"profile": "runfast", "seats": ["human", "easy", "easy"]}, timeout=10)
        r.raise_for_status()
        ids.append(str(r.json()["table"]))
    return ids


def one_round(way: str, tables: int) -> tuple[float, float | None]:
    """Seconds until node b holds every table after node a is stopped ``way``; and until a exited."""
    table_prefix, redis_prefix = f"h{uuid.uuid4().hex[:8]}_", f"tapete-bench:{uuid.uuid4().hex[:8]}:"
    a, url_a = start_node("a", table_prefix, redis_prefix)
    b, _ = start_node("b", table_prefix, redis_prefix)
    store = Store(PG, prefix=table_prefix)
    try:
        ids = create_tables(url_a, tables)
        leases = Leases(store)
        with socket.create_connection(("127.0.0.1", int(url_a.rsplit(":", 1)[1])), timeout=5) as slow:
            slow.sendall(b"POST /api/tables HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n")
            slow.sendall(b"content-length: 100\r\n\r\n{")
            time.sleep(0.3)
            began = time.monotonic()
            a.send_signal(signal.SIGTERM if way == "sigterm" else signal.SIGKILL)
            while True:
                owners = leases.owners(ids)
                if len(owners) == len(ids) and all(o.node_id == "b" and o.alive for o in owners.values()):
                    break
                if time.monotonic() - began > MOVE_LIMIT_SECONDS:
                    raise SystemExit(f"the tables did not move within {MOVE_LIMIT_SECONDS:g} s")
                time.sleep(0.01)
            moved = time.monotonic() - began
            a.wait(MOVE_LIMIT_SECONDS)
            exited = time.monotonic() - began if way == "sigterm" else None
        return moved, exited
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                proc.kill()
            proc.wait(10)
        store.dispose()
        drop_tables(table_prefix)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help=f"rounds of each way (at most {MAX_ROUNDS})")
    parser.add_argument("--tables", type=int, default=10, help=f"tables on the stopped node (at most {MAX_TABLES})")
    args = parser.parse_args()
    rounds, tables = min(args.rounds, MAX_ROUNDS), min(args.tables, MAX_TABLES)
    moved: dict[str, list[float]] = {"sigterm": [], "kill": []}
    for _ in range(rounds):
        for way in ("sigterm", "kill"):
            took, exited = one_round(way, tables)
            moved[way].append(took)
            tail = f"; the node exited after {exited:.2f} s" if exited is not None else ""
            print(f"{way:8s} {tables} tables moved {took:.2f} s after the signal{tail}", flush=True)
    clean, crash = statistics.median(moved["sigterm"]), statistics.median(moved["kill"])
    print(
        f"median: SIGTERM {clean:.2f} s, kill -9 {crash:.2f} s; a clean stop moves its tables in {clean / crash:.2f} of a crash's time"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
