"""Calls between nodes: the lobby's list asks each other node once at a time and keeps its
answer a moment, so a burst of calls does not flood a node's inbox; calls routed at once are
bounded; a call is counted against its address's allowance once, where it arrives."""

from __future__ import annotations

import asyncio

import pytest

from tapete.server.cluster import httproute
from tapete.server.cluster.lobby import PeerTables
from tapete.server.limits import Limits
from tests.cluster.inprocess import Nodes, node_of, table_for_seat_zero, wait_until


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_calls_asks_each_node_once_and_later_calls_ask_again() -> None:
    clock = Clock()
    asked: list[str] = []

    async def ask(node: str) -> list[dict[str, object]]:
        asked.append(node)
        await asyncio.sleep(0.05)
        if node == "c":
            raise TimeoutError("c did not answer")
        return [{"id": f"t-{node}-{len(asked)}"}]

    async def scenario() -> None:
        peers = PeerTables(ask, fresh=1.0, clock=clock)
        answers = await asyncio.gather(*(peers.of(["b", "c"]) for _ in range(200)))
        assert sorted(asked) == ["b", "c"] and peers.asked == 2
        assert all(a == [[{"id": "t-b-1"}], []] or a == [[{"id": "t-b-2"}], []] for a in answers)
        assert len({str(a) for a in answers}) == 1  # all from the one answer
        clock.now = 0.9
        await peers.of(["b", "c"])  # still fresh, the failure too
        assert peers.asked == 2
        clock.now = 1.0
        assert (await peers.of(["b"]))[0][0]["id"].startswith("t-b-")
        assert peers.asked == 3 and set(peers._kept) == {"b"}  # c is no longer live: forgotten

    asyncio.run(scenario())


def test_a_caller_that_gives_up_leaves_the_question_to_the_others() -> None:
    async def ask(node: str) -> list[dict[str, object]]:
        await asyncio.sleep(0.1)
        return [{"id": node}]

    async def scenario() -> None:
        peers = PeerTables(ask)
        first = asyncio.ensure_future(peers.of(["b"]))
        second = asyncio.ensure_future(peers.of(["b"]))
        await asyncio.sleep(0.01)
        first.cancel()
        assert await second == [[{"id": "b"}]] and peers.asked == 1

    asyncio.run(scenario())


def test_the_lobby_on_one_node_shows_the_others_tables_asking_each_once(nodes: Nodes) -> None:
    a, b = nodes.start("a"), nodes.start("b")
    tid, _ = table_for_seat_zero(a)
    node_b = node_of(b)
    wait_until(lambda: "a" in node_b.live_others())
    node_b.peer_tables.fresh = 60.0
    for _ in range(20):
        r = b.get("/api/tables")
        assert r.status_code == 200 and tid in {t["id"] for t in r.json()}
    assert node_b.peer_tables.asked == 1


def test_calls_routed_at_once_are_bounded(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = nodes.start("a"), nodes.start("b")
    tid, _ = table_for_seat_zero(a)
    assert b.get(f"/api/tables/{tid}").status_code == 200  # forwarded to a
    monkeypatch.setattr(httproute, "FORWARD_AT_ONCE", 0)
    r = b.get(f"/api/tables/{tid}", headers={"accept-language": "es"})
    assert r.status_code == 503 and r.json()["code"] == "busy"
    assert r.json()["message"].startswith("El servidor está ocupado")
    assert b.get("/api/tables").status_code == 200  # the lobby is not a call about one table
    monkeypatch.setattr(httproute, "FORWARD_AT_ONCE", 64)
    assert b.get(f"/api/tables/{tid}").status_code == 200


def test_a_forwarded_call_is_counted_where_it_arrives_only(nodes: Nodes) -> None:
    limits = Limits(api_per_client_second=0.001, api_burst=3, lookups_per_client_second=0.001, lookups_burst=2)
    a, b = nodes.start("a", limits), nodes.start("b", limits)
    tid, _ = table_for_seat_zero(a)  # one of a's three calls
    # b: three calls; the two about a's table look for it in the database (b's lookups), and a
    # answers them without counting them again (a has two calls left)
    assert [b.get(f"/api/tables/{tid}").status_code for _ in range(2)] == [200, 200]
    assert b.get("/api/tables").status_code == 200
    r = b.get(f"/api/tables/{tid}")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert [a.get(f"/api/tables/{tid}").status_code for _ in range(3)] == [200, 200, 429]


def test_a_table_a_node_answers_itself_is_one_look_against_the_allowance(nodes: Nodes) -> None:
    """A table that is unknown (or finished) is looked for once by the node's ``locate`` and once
    by the handler that answers it there; the address is charged one look, not two."""
    limits = Limits(lookups_per_client_second=0.001, lookups_burst=3)
    b = nodes.start("b", limits)
    assert [b.get(f"/api/tables/nope{n}").status_code for n in range(2)] == [404, 404]
    with b.websocket_connect("/ws") as ws:  # a socket's hello: one look too
        ws.send_json({"type": "hello", "table": "nope2", "spectate": True})
        assert ws.receive_json()["code"] == "no_table"
    r = b.get("/api/tables/nope3")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
