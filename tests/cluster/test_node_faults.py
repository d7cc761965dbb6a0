"""Nodes under faults: a takeover in progress, a lost ``bye``, a slow or silent owner, a slow body.

The nodes run in this process (``create_app`` with cluster settings, under Starlette's test
client), on the real PostgreSQL and Redis, so that a test can slow one part down.
"""

from __future__ import annotations

import asyncio
import json
import math
import threading
import time
from typing import Any

import pytest
from starlette.types import Message

from tapete.server.cluster import httproute
from tapete.server.cluster.bus import Bus
from tapete.server.cluster.node import (
    CUT_OFF_AFTER,
    HEARD_AGAIN_FOR,
    HELLO_SECONDS,
    TAKE_WAIT_SECONDS,
    Link,
)
from tapete.server.limits import Limits
from tapete.server.messages import explain
from tests.cluster.inprocess import Nodes, new_table, node_of, table_for_seat_zero, wait_until


@pytest.mark.parametrize("rebuild_seconds", [1.0, 3.0])
def test_a_hello_forwarded_during_a_takeover_waits_for_the_table(
    rebuild_seconds: float, nodes: Nodes, rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket's node forwards ``hello`` to the node taking the table over while it is still
    rebuilding it: the owner answers once the table is rebuilt, not with ``no_table``; a
    rebuild that takes longer than the forwarding node waits is answered ``gone`` in time
    (that node closes the socket, whose client says hello again)."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(a)
    hub_c = c.app.state.hub  # type: ignore[attr-defined]
    rebuild, rebuilding = hub_c.rebuild, threading.Event()

    async def slow_rebuild(table_id: str, record: bytes) -> Any:
        rebuilding.set()
        await asyncio.sleep(rebuild_seconds)
        return await rebuild(table_id, record)

    monkeypatch.setattr(hub_c, "rebuild", slow_rebuild)
    ticker = node_of(a)._ticker
    assert ticker is not None
    a.portal.call(ticker.cancel)  # type: ignore[union-attr]  # a hangs: its lease runs out
    assert rebuilding.wait(15), "node c did not take the table over"

    async def forwarded_hello() -> tuple[dict[str, Any], list[dict[str, Any]], float]:
        outs: list[dict[str, Any]] = []
        b = Bus(rd[0], rd[1], "b")
        await b.start(lambda m: outs.append(json.loads(m["t"])) if m.get("k") == "out" else None)
        try:
            hello = json.dumps({"type": "hello", "table": tid, "token": token})
            began = time.monotonic()
            answer = await b.request("c", {"op": "hello", "cid": "s1", "text": hello}, HELLO_SECONDS)
            took = time.monotonic() - began
            await asyncio.sleep(0.3)
            return answer, outs, took
        finally:
            await b.stop()

    answer, outs, took = asyncio.run(forwarded_hello())
    if rebuild_seconds < TAKE_WAIT_SECONDS:
        assert answer["joined"] is True and answer["seat"] == 0
        assert "welcome" in {m["type"] for m in outs} and "error" not in {m["type"] for m in outs}
    else:
        assert answer.get("gone") is True and outs == [] and took < HELLO_SECONDS
    wait_until(lambda: node_of(c).epochs.get(tid) is not None and tid in hub_c.tables, 10)


def test_a_socket_whose_bye_was_lost_is_forgotten_by_the_owner(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tick a node tells the others which of its sockets are joined to their tables, so
    that an owner forgets a socket whose ``bye`` it never got (and its seat shows it gone)."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(c)
    bus_a = node_of(a).bus
    publish = bus_a.publish

    def without_bye(node_id: str, message: dict[str, Any]) -> None:
        if message.get("k") != "bye":
            publish(node_id, message)

    monkeypatch.setattr(bus_a, "publish", without_bye)
    with a.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": tid, "token": token})
        while ws.receive_json()["type"] != "welcome":
            pass
        assert c.get("/healthz").json()["sockets_of_other_nodes"] == 1
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is True
    wait_until(lambda: c.get("/healthz").json()["sockets_of_other_nodes"] == 0, 5)
    assert c.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is False


def test_a_forwarded_call_waits_for_a_slow_owner_and_a_silent_one_is_busy(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, c = nodes.start("a"), nodes.start("c")
    tid = new_table(a)["table"]
    owner = node_of(a)
    app = owner.app
    assert app is not None
    delay = [3.5]

    async def slow_app(scope: Any, receive: Any, send: Any) -> None:
        await asyncio.sleep(delay[0])
        await app(scope, receive, send)

    monkeypatch.setattr(owner, "app", slow_app)
    began = time.monotonic()
    slow = c.get(f"/api/tables/{tid}")  # longer than a request on the bus used to wait
    assert slow.status_code == 200 and slow.json()["id"] == tid
    assert time.monotonic() - began >= 3.5
    delay[0] = 30.0
    monkeypatch.setattr(httproute, "FORWARD_SECONDS", 1.5)
    silent = c.get(f"/api/tables/{tid}", headers={"accept-language": "es"})
    assert silent.status_code == 503
    assert silent.json()["code"] == "busy" and silent.json()["message"] == explain("busy", "es")


def test_a_body_for_another_nodes_table_must_arrive_in_time(nodes: Nodes) -> None:
    a = nodes.start("a")
    c = nodes.start("c", Limits(body_seconds=0.5))
    tid = new_table(a)["table"]
    sent: list[Message] = []

    async def call() -> None:
        async def receive() -> Message:
            await asyncio.sleep(5)  # the body never comes
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/api/tables/{tid}/seats/1/bot",
            "raw_path": f"/api/tables/{tid}/seats/1/bot".encode(),
            "query_string": b"",
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"40")],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 80),
            "root_path": "",
        }
        await c.app(scope, receive, send)

    began = time.monotonic()
    c.portal.call(call)  # type: ignore[union-attr]
    assert time.monotonic() - began < 3
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 408
    assert json.loads(sent[1]["body"])["code"] == "timeout"


def test_a_node_that_lost_a_tables_lease_cannot_hand_its_seats_over(nodes: Nodes, pg: tuple[str, str]) -> None:
    """A node whose lease ran out (it hung) while another took the table over still has the
    table in memory until its next tick; a seat handed over through it is refused ``busy``
    and the seat is not changed in the shared database."""
    from tapete.server.cluster.lease import Leases
    from tapete.server.db import Store

    a, c = nodes.start("a"), nodes.start("c")
    t = new_table(a)
    tid = t["table"]
    ticker, watcher = node_of(a)._ticker, node_of(a)._watcher
    assert ticker is not None and watcher is not None
    a.portal.call(ticker.cancel)  # type: ignore[union-attr]
    a.portal.call(watcher.cancel)  # type: ignore[union-attr]  # a's loop stalled: nothing of it runs
    wait_until(lambda: tid in node_of(c).epochs, 15)
    r = a.post(f"/api/tables/{tid}/seats/0/bot", json={"creator_token": t["creator_token"], "level": "easy"})
    assert r.status_code == 503 and r.json()["code"] == "busy", r.text
    store = Store(pg[0], prefix=pg[1])
    try:
        Leases(store)  # the cluster's tables beside the store's
        with store.engine.connect() as conn:
            seat = conn.execute(
                store.seats.select().where(store.seats.c.table_id == tid, store.seats.c.seat == 0)
            ).one()
        assert seat.bot_override is False and seat.level is None
    finally:
        store.dispose()
    handed = c.post(f"/api/tables/{tid}/seats/0/bot", json={"creator_token": t["creator_token"], "level": "easy"})
    assert handed.status_code == 200 and handed.json()["seats"][0]["bot_playing"] is True


def joined(ws: Any, tid: str, token: str) -> None:
    ws.send_json({"type": "hello", "table": tid, "token": token})
    while ws.receive_json()["type"] != "welcome":
        pass


def closed_with(ws: Any) -> int:
    """The close code of a socket the server closes (what it sent before is skipped)."""
    while True:
        m = ws.receive()
        if m["type"] == "websocket.close":
            return int(m["code"])


def test_a_node_that_cannot_reach_the_database_lets_its_tables_go(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node whose ticks cannot reach PostgreSQL drops each table once its lease may have run
    out, closing its sockets so that their clients reconnect (to the node that takes the table
    over), and says it is failing; it does not keep showing a table that moved on."""
    import sqlalchemy as sa

    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(a)
    node = node_of(a)
    hub_a = a.app.state.hub  # type: ignore[attr-defined]

    def unreachable(*args: Any) -> Any:
        raise sa.exc.OperationalError("SELECT 1", {}, ConnectionError("no route to host"))

    with a.websocket_connect("/ws") as ws:
        joined(ws, tid, token)
        for name in ("beat", "live_nodes", "renew", "orphans", "owners", "whereabouts", "release"):
            monkeypatch.setattr(node.leases, name, unreachable)
        cut = time.monotonic()
        wait_until(lambda: tid not in hub_a.tables, node.settings.lease_seconds + 2)
        assert time.monotonic() - cut < node.settings.lease_seconds + 1.5
        assert closed_with(ws) == 1012
    wait_until(lambda: tid in node_of(c).epochs, 10)
    wait_until(lambda: a.get("/healthz").status_code == 503, 5)
    health = a.get("/healthz").json()
    assert health["status"] == "failing" and any("database" in r for r in health["reasons"])
    assert c.get("/healthz").json()["status"] == "ok"


def test_a_socket_its_owner_forgot_is_closed_so_that_it_reconnects(nodes: Nodes) -> None:
    """An owner that no longer knows a socket joined to its table from another node (it forgot
    it while that node was cut off, and the ``close`` it sent was lost) answers that node's next
    ``links`` with ``close``: the socket reconnects rather than staying joined to nothing."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(c)
    owner = node_of(c)
    with a.websocket_connect("/ws") as ws:
        joined(ws, tid, token)
        assert len(owner.remotes) == 1 and len(node_of(a).links) == 1
        (key,) = owner.remotes
        c.portal.call(lambda: owner._detach(key))  # type: ignore[union-attr]  # forgotten, nothing said
        wait_until(lambda: not node_of(a).links, 3)
        assert closed_with(ws) == 1012


def test_a_node_cut_off_from_redis_gives_its_tables_to_the_others(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node whose inbox hears nothing while another node beats stops beating, gives its tables
    up (closing their sockets) and takes none; its ``/healthz`` fails, so that the load balancer
    sends its sockets elsewhere. Once it hears again, it beats and may take tables again."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(a)
    node = node_of(a)
    hub_a = a.app.state.hub  # type: ignore[attr-defined]
    silent = [60.0]
    monkeypatch.setattr(node.bus, "silent_for", lambda: silent[0])
    with a.websocket_connect("/ws") as ws:
        joined(ws, tid, token)
        wait_until(lambda: tid not in hub_a.tables and tid in node_of(c).epochs, 10)
        assert closed_with(ws) == 1012
    assert node.cut_off and node.epochs == {}
    assert node.leases_lost == 0  # given up, not lost
    health = a.get("/healthz")
    assert health.status_code == 503 and any("Redis" in r for r in health.json()["reasons"])
    wait_until(lambda: "a" not in node.leases.live_nodes(), 4)  # its last beat runs out
    silent[0] = 5.0  # heard once, a while ago: not hearing again yet
    time.sleep(HEARD_AGAIN_FOR + 1)
    assert node.cut_off
    silent[0] = 0.0
    wait_until(lambda: "a" in node.leases.live_nodes(), 3)
    assert node.cut_off  # until it has heard again for a while
    wait_until(lambda: not node.cut_off, HEARD_AGAIN_FOR + 2)
    assert a.get("/healthz").json()["status"] == "ok"


def test_a_lone_node_that_hears_nothing_from_redis_keeps_its_tables(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no other node to take them, a node that hears nothing from Redis keeps its tables (its
    own sockets still play) and says it is degraded, not failing."""
    a = nodes.start("a")
    tid, token = table_for_seat_zero(a)
    node = node_of(a)
    monkeypatch.setattr(node.bus, "silent_for", lambda: 60.0)
    time.sleep(4 * node.settings.tick_seconds)
    with a.websocket_connect("/ws") as ws:
        joined(ws, tid, token)
    assert tid in node.epochs and not node.cut_off
    health = a.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "degraded"


def test_a_node_that_hears_nothing_from_redis_closes_its_sockets_joined_elsewhere(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What an owner sends a socket joined to its table from a node that hears nothing is lost, so
    that node closes the socket (its client reconnects, perhaps to a node that hears), before it
    would count as cut off."""
    a, c = nodes.start("a"), nodes.start("c")
    tid, token = table_for_seat_zero(c)
    node = node_of(a)
    with a.websocket_connect("/ws") as ws:
        joined(ws, tid, token)
        monkeypatch.setattr(node.bus, "silent_for", lambda: 7.0)
        monkeypatch.setattr(node.bus, "_handler", lambda m: None)  # deaf: the owner's close is lost too
        wait_until(lambda: not node.links, 2)
        assert closed_with(ws) == 1012
    assert not node.cut_off


def test_an_owners_close_for_a_socket_it_does_not_know_waits_for_the_hellos_answer(nodes: Nodes) -> None:
    """An owner that does not know a listed socket may just have refused its ``hello``: its
    ``close`` then leaves a socket whose answer has not come (the refusal reaches the client), and
    closes one the owner had joined; a close the owner means closes either."""
    a = nodes.start("a")
    node = node_of(a)
    assert node._ticker is not None
    a.portal.call(node._ticker.cancel)  # type: ignore[union-attr]  # its owners' check is not under test
    closed: list[int] = []

    class Socket:
        ws = None

        def close(self, code: int) -> None:
            closed.append(code)

    def scenario() -> None:
        for cid, was_joined in (("waiting", False), ("joined", True), ("told", False)):
            node.links[cid] = Link(Socket(), "t", "c", 1, joined=was_joined)  # type: ignore[arg-type]
        for cid in ("waiting", "joined"):
            node._on_message({"k": "close", "cid": cid, "unknown": True, "from": "c"})
        node._on_message({"k": "close", "cid": "told", "from": "c"})

    a.portal.call(scenario)  # type: ignore[union-attr]
    assert set(node.links) == {"waiting"} and closed == [1012, 1012]


def test_a_busy_database_pool_holds_back_neither_renewals_nor_the_tables(nodes: Nodes) -> None:
    """The ticks' statements run on a thread of their own, and a renewal's time is taken when it
    starts there: with every thread of the node's database pool busy for longer than a lease, the
    node keeps its table and its lease."""
    a, c = nodes.start("a"), nodes.start("c")
    tid = new_table(a)["table"]
    hub_a = a.app.state.hub  # type: ignore[attr-defined]
    pool = hub_a.db_executor
    busy = [pool.submit(time.sleep, 2 * node_of(a).settings.lease_seconds) for _ in range(2 * pool._max_workers)]
    time.sleep(2 * node_of(a).settings.lease_seconds)
    assert tid in hub_a.tables and tid in node_of(a).epochs and tid not in node_of(c).epochs
    assert node_of(a).leases_lost == 0
    for f in busy:
        f.cancel()


def test_nodes_that_all_stop_hearing_redis_keep_their_tables(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    """When Redis is down for every node, each stops beating, so that by the time any of them
    would count as cut off none sees another alive, though they last heard something a couple of
    seconds apart (a ping's interval): each keeps its tables (their own sockets still play) and
    says it is degraded. When Redis comes back, the node that hears first beats again at once;
    one that hears a moment later does not take that for being cut off alone."""
    a, c = nodes.start("a"), nodes.start("c")
    tables = {new_table(a)["table"]: node_of(a), new_table(c)["table"]: node_of(c)}
    began = time.monotonic()
    heard = {"a": began, "c": began + 2.0}
    for name, node in (("a", node_of(a)), ("c", node_of(c))):
        monkeypatch.setattr(node.bus, "silent_for", lambda n=name: max(0.0, time.monotonic() - heard[n]))
    time.sleep(CUT_OFF_AFTER + 4)
    for tid, node in tables.items():
        assert tid in node.epochs and not node.cut_off
    assert node_of(a).leases.live_nodes() == set()
    assert a.get("/healthz").json()["status"] == "degraded" and c.get("/healthz").json()["status"] == "degraded"
    heard["a"] = math.inf  # Redis is back: a hears at once, c a couple of seconds later
    wait_until(lambda: "a" in node_of(c).leases.live_nodes(), 3)
    time.sleep(2.0)
    heard["c"] = math.inf
    time.sleep(1.0)
    for tid, node in tables.items():
        assert tid in node.epochs and not node.cut_off


def test_a_socket_joined_while_a_tick_reads_the_owners_is_not_taken_for_moved(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tick reads the owners of the tables its sockets are joined to; a socket that joins a table
    elsewhere meanwhile is not among them, and is checked at the next tick rather than closed."""
    a, b = nodes.start("a"), nodes.start("b")
    first, first_token = table_for_seat_zero(a)
    second, second_token = table_for_seat_zero(a)
    node_b = node_of(b)
    owners = node_b.leases.owners
    reading, joined_meanwhile = threading.Event(), threading.Event()

    def slow_owners(table_ids: list[str]) -> Any:
        if not joined_meanwhile.is_set():
            reading.set()
            joined_meanwhile.wait(5)
        return owners(table_ids)

    with b.websocket_connect("/ws") as ws, b.websocket_connect("/ws") as late:
        joined(ws, first, first_token)
        monkeypatch.setattr(node_b.leases, "owners", slow_owners)
        assert reading.wait(5)  # a tick reads the owners of the first table only
        joined(late, second, second_token)
        joined_meanwhile.set()
        time.sleep(1.2)  # that tick ends, and two more check both sockets
        assert len(node_b.links) == 2
        late.send_json({"type": "ping", "id": 3})
        while (m := late.receive_json())["type"] != "pong":
            pass
        assert m["ref"] == 3
