"""A node that stops hands its tables off at once, and calls about a moving table wait for the move.

A rolling deploy stops one node at a time. The stopping node gives its tables up as soon as
its shutdown begins (not after its calls in flight end), stops counting as alive, and closes
its tables' sockets with 1012; an HTTP call about a table between two owners is answered once
the table has one, never with ``no_table``.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tapete.server.cluster.bus import Bus
from tapete.server.cluster.lease import NODE_SECONDS, Leases, NodeNameInUse
from tapete.server.cluster.node import HELLO_SECONDS, TAKE_WAIT_SECONDS
from tapete.server.db import Store
from tests.cluster.inprocess import Nodes, node_of, table_for_seat_zero, wait_until
from tests.cluster.nodes import Cluster, create_table, open_socket, recv_json
from tests.server.helpers import free_port


@pytest.fixture
def leases(pg: tuple[str, str]) -> Iterator[Leases]:
    store = Store(pg[0], prefix=pg[1])
    try:
        yield Leases(store)
    finally:
        store.dispose()


def test_a_call_about_a_table_given_up_and_not_yet_taken_takes_it(nodes: Nodes) -> None:
    """Between a stopping owner giving a table up and another node taking it, a call about it
    on any node takes the table there and is answered: not ``no_table`` (404)."""
    a, b = nodes.start("a"), nodes.start("b")
    tid, _ = table_for_seat_zero(a)
    node_b = node_of(b)
    node_b.leases.orphans = lambda *_: []  # type: ignore[method-assign]  # b's ticks take nothing
    a.portal.call(node_of(a).hand_off)  # type: ignore[union-attr]
    assert tid not in node_of(a).epochs and tid not in node_b.epochs
    r = b.get(f"/api/tables/{tid}")
    assert r.status_code == 200, r.text
    assert r.json()["id"] == tid
    assert tid in node_b.epochs


@pytest.mark.parametrize("rebuild_seconds", [1.0, 3.0])
def test_a_call_forwarded_during_a_takeover_waits_for_the_table(
    rebuild_seconds: float, nodes: Nodes, rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call forwarded to the node that is rebuilding the table is answered once the table is
    rebuilt; one that would wait longer than its node waits for a hello is answered ``gone`` (its
    node then asks where the table is again)."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, _ = table_for_seat_zero(a)
    hub_c = c.app.state.hub  # type: ignore[attr-defined]
    rebuild = hub_c.rebuild
    started: list[float] = []

    async def slow_rebuild(table_id: str, record: bytes) -> Any:
        started.append(time.monotonic())
        await asyncio.sleep(rebuild_seconds)
        return await rebuild(table_id, record)

    monkeypatch.setattr(hub_c, "rebuild", slow_rebuild)
    a.portal.call(node_of(a).hand_off)  # type: ignore[union-attr]
    wait_until(lambda: bool(started), 15)

    async def forwarded_call() -> dict[str, Any]:
        b = Bus(rd[0], rd[1], "b")
        await b.start(lambda m: None)
        try:
            request = {"method": "GET", "path": f"/api/tables/{tid}", "query": "", "headers": [], "client": ""}
            return await b.request("c", {"op": "http", "request": {**request, "body": ""}}, HELLO_SECONDS + 2)
        finally:
            await b.stop()

    answer = asyncio.run(forwarded_call())
    if rebuild_seconds < TAKE_WAIT_SECONDS:
        assert answer.get("status") == 200, answer
    else:
        assert answer.get("gone") is True and "status" not in answer
    wait_until(lambda: tid in hub_c.tables, 10)


@pytest.fixture
def cluster(pg: tuple[str, str], rd: tuple[str, str], tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(pg, rd, logs=str(tmp_path))
    yield c
    c.stop_all()


def test_a_stopping_node_hands_its_tables_off_before_its_calls_in_flight_end(cluster: Cluster, leases: Leases) -> None:
    """SIGTERM to a node (``tapete serve``) whose call in flight keeps it from exiting for
    seconds (a body that trickles in): its tables go to the other node at once, it stops
    counting as alive, its tables' sockets are closed with 1012, and they play on through the
    other node; calls about the table meanwhile are answered (never 404)."""
    a = cluster.start("a")
    b = cluster.start("b")
    tables = [create_table(a, "runfast", ["human", "easy", "easy"], seed=s) for s in (1, 2, 3)]
    tids = [t["table"] for t in tables]
    hello = f'{{"type": "hello", "table": "{tids[0]}", "token": "{tables[0]["seats"][0]["token"]}"}}'
    with open_socket(a) as ws, socket.create_connection(("127.0.0.1", int(a.rsplit(":", 1)[1])), 5) as slow:
        ws.send(hello)
        assert recv_json(ws)["type"] == "welcome"
        slow.sendall(b"POST /api/tables HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n")
        slow.sendall(b"content-length: 100\r\n\r\n{")
        time.sleep(0.3)
        proc = cluster.nodes["a"]
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        statuses = []
        while time.monotonic() - began < 2.5:
            statuses.append(httpx.get(f"{b}/api/tables/{tids[1]}", timeout=5).status_code)
        owners = leases.owners(tids)
        assert proc.poll() is None, "the call in flight should still hold node a"
        assert {o.node_id for o in owners.values()} == {"b"} and all(o.alive for o in owners.values()), owners
        assert "a" not in leases.live_nodes()
        assert set(statuses) == {200}, statuses
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=5)
        assert ws.close_code == 1012
    with open_socket(b) as again:
        again.send(hello)
        assert recv_json(again)["type"] == "welcome"
    proc.wait(15)


def test_a_node_under_a_name_in_use_refuses_to_start_and_changes_nothing(cluster: Cluster, leases: Leases) -> None:
    """Two processes under one ``--node-id`` would give up each other's leases and share an
    inbox: the second says so and exits 2, the first plays on; once the first is killed the
    name is free again as soon as its last heartbeat runs out."""
    a = cluster.start("a")
    tid = create_table(a, "runfast", ["human", "easy", "easy"], seed=4)["table"]
    before = leases.owners([tid])[tid]
    began = time.monotonic()
    twin = subprocess.run(cluster.command("a", free_port()), capture_output=True, text=True, timeout=60)
    assert twin.returncode == 2, twin.stderr
    assert "another node is running as --node-id a" in twin.stderr and twin.stdout == ""
    assert time.monotonic() - began >= NODE_SECONDS  # it waited for the name to lapse first
    assert leases.owners([tid])[tid] == before and before.alive
    assert httpx.get(f"{a}/api/tables/{tid}", timeout=5).status_code == 200
    cluster.kill("a")
    again = cluster.start("a")  # waits out the killed node's heartbeat, then takes its tables
    wait_until(lambda: (o := leases.owners([tid])[tid]).alive and o.epoch > before.epoch, 15)
    assert httpx.get(f"{again}/api/tables/{tid}", timeout=5).status_code == 200


def test_a_node_started_under_a_live_nodes_name_answers_nothing_and_gives_up(nodes: Nodes, rd: tuple[str, str]) -> None:
    """A second process under a running node's name (here in the test's process, where `tapete
    serve`'s own check is not made) holds its inbox unheard while it waits for the name, then
    gives up: every call forwarded to the running node meanwhile is answered by it alone, and
    no message from it or to it is taken for lost."""
    a = nodes.start("a")
    tid, _ = table_for_seat_zero(a)
    node_a = node_of(a)
    epoch = node_a.epochs[tid]
    answers: list[dict[str, Any]] = []
    done = threading.Event()

    async def calls() -> int:
        b = Bus(rd[0], rd[1], "b")
        await b.start(lambda m: None)
        try:
            request = {"method": "GET", "path": f"/api/tables/{tid}", "query": "", "headers": [], "client": ""}
            while not done.is_set():
                answers.append(await b.request("a", {"op": "http", "request": {**request, "body": ""}}, 5))
                await asyncio.sleep(0.05)
            return b.gaps
        finally:
            await b.stop()

    with ThreadPoolExecutor(1) as pool:
        gaps = pool.submit(asyncio.run, calls())
        began = time.monotonic()
        with pytest.raises(NodeNameInUse, match="another node is running as --node-id a"):
            nodes.start("a")
        assert time.monotonic() - began >= NODE_SECONDS
        done.set()
        assert gaps.result(15) == 0
    assert len(answers) > 20 and all(x.get("status") == 200 for x in answers), answers
    assert node_a.bus.gaps == 0 and node_a.epochs[tid] == epoch
    assert a.get(f"/api/tables/{tid}").status_code == 200
