"""What an owner sends the sockets another node holds: one message for a state many of that
node's sockets get (spectators, most often), once that node has said it reads such messages;
one per socket to a node that has not (an older version in a rolling deploy). What a node tells
an owner of its sockets joined there: their number and sum, the list when they differ."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tapete.server.cluster import node as node_module
from tapete.server.cluster.remote import GATHERED, Outbox, links_sum
from tests.cluster.inprocess import Nodes, node_of, table_for_seat_zero, wait_until

SPECTATORS = 3


def play_before_spectators(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch, holders: tuple[str, ...] = ("b",), old: tuple[str, ...] = ()
) -> tuple[dict[str, list[dict[str, Any]]], int]:
    """A table on node a, its person on a and ``SPECTATORS`` spectators on each of ``holders``
    (joined in turn, so that a's sockets of different nodes interleave); ``old`` holders are taken
    by a for nodes that do not read gathered messages. The person plays until the game is over.
    What a queued for each holder's sockets after the spectators joined, and the number of
    messages each spectator got meanwhile."""
    a = nodes.start("a")
    started = {h: nodes.start(h) for h in holders}
    node_a = node_of(a)
    wait_until(lambda: all(h in node_a.outbox._reads for h in holders))  # their links told a what they read
    reads = node_a.outbox.reads
    monkeypatch.setattr(node_a.outbox, "reads", lambda node, kind: node not in old and reads(node, kind))
    tid, token = table_for_seat_zero(a)
    sent: dict[str, list[dict[str, Any]]] = {h: [] for h in holders}
    over = False  # the spectators have seen the end: what the sockets' closing sends is not counted
    queue = node_a.bus._queue

    def recording(node_id: str, message: dict[str, Any], request_id: str | None) -> None:
        if node_id in sent and message.get("k") in ("out", GATHERED) and not over:
            sent[node_id].append(message)
        queue(node_id, message, request_id)

    with a.websocket_connect("/ws") as person:
        person.send_json({"type": "hello", "table": tid, "token": token})
        assert person.receive_json()["type"] == "welcome"
        state = person.receive_json()
        while state["type"] != "state" or state["view"]["to_act"] != 0:  # the bots play up to the person
            state = person.receive_json()
        spectators = [started[h].websocket_connect("/ws") for _ in range(SPECTATORS) for h in holders]
        try:
            for ws in spectators:
                ws.__enter__()
                ws.send_json({"type": "hello", "table": tid, "spectate": True})
                assert ws.receive_json()["type"] == "welcome"
                assert ws.receive_json()["type"] == "state"  # the view when they came
            monkeypatch.setattr(node_a.bus, "_queue", recording)
            states = 0
            while state["type"] != "game_over":
                if state["type"] == "state":
                    states += 1
                    view = state["view"]
                    if view["to_act"] == 0 and view["legal_actions"]:
                        person.send_json(
                            {"type": "action", "version": state["version"], "action": view["legal_actions"][0]}
                        )
                state = person.receive_json()
            seen = []
            for ws in spectators:
                got = [ws.receive_json()]
                while got[-1]["type"] != "game_over":
                    got.append(ws.receive_json())
                seen.append(got)
            over = True
            assert all(s == seen[0] for s in seen)  # every spectator saw the whole game the same
            assert sum(m["type"] == "state" for m in seen[0]) == states - 1  # all but the one before they came
            assert seen[0][-1]["type"] == "game_over"
        finally:
            for ws in spectators:
                ws.__exit__(None, None, None)
    return sent, len(seen[0])


def test_a_state_for_many_sockets_of_a_node_goes_there_once(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    sent, messages = play_before_spectators(nodes, monkeypatch)
    assert {m["k"] for m in sent["b"]} == {GATHERED}
    assert all(len(m["cids"]) == SPECTATORS == len(set(m["cids"])) for m in sent["b"])
    assert len(sent["b"]) == messages > 10  # one for the three


def test_a_node_that_does_not_say_it_reads_them_gets_one_message_a_socket(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(node_module, "READS", ())  # as a node of the version before says nothing
    sent, messages = play_before_spectators(nodes, monkeypatch)
    assert {m["k"] for m in sent["b"]} == {"out"}
    assert len(sent["b"]) == SPECTATORS * messages and messages > 10


def test_sockets_of_a_node_that_does_not_read_them_do_not_split_another_nodes(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spectators on b (which reads gathered messages) and c (which does not, as in a rolling
    deploy), interleaved at the table: b still gets one message a state."""
    sent, messages = play_before_spectators(nodes, monkeypatch, holders=("b", "c"), old=("c",))
    assert {m["k"] for m in sent["b"]} == {GATHERED}
    assert all(len(m["cids"]) == SPECTATORS for m in sent["b"]) and len(sent["b"]) == messages > 10
    assert {m["k"] for m in sent["c"]} == {"out"} and len(sent["c"]) == SPECTATORS * messages


class FakeBus:
    def __init__(self) -> None:
        self.incarnation = "first"
        self.published: list[tuple[str, dict[str, Any]]] = []

    def incarnation_of(self, node_id: str) -> str | None:
        return self.incarnation

    def publish(self, node_id: str, message: dict[str, Any]) -> None:
        self.published.append((node_id, message))

    def publish_gathered(self, node_id: str, message: dict[str, Any], key: str, item: str, same: object) -> None:
        self.published.append((node_id, {**message, key: [item]}))


def test_what_a_node_reads_is_its_incarnation_s() -> None:
    bus = FakeBus()
    outbox = Outbox(bus, "a")  # type: ignore[arg-type]
    assert not outbox.reads("b", GATHERED)  # not heard yet
    outbox.heard_reads("b", [GATHERED])
    assert outbox.reads("b", GATHERED)
    outbox.send("b", "c1", {"type": "state"})
    assert bus.published[-1] == ("b", {"k": GATHERED, "t": '{"type":"state"}', "from": "a", "cids": ["c1"]})
    bus.incarnation = "second"  # started again under its name, perhaps as an older version
    assert not outbox.reads("b", GATHERED)
    outbox.send("b", "c2", {"type": "state"})
    assert bus.published[-1] == ("b", {"k": "out", "cid": "c2", "t": '{"type":"state"}', "from": "a"})
    outbox.heard_reads("b", "not a list")
    assert not outbox.reads("b", GATHERED)
    outbox.heard_reads("b", [GATHERED])
    outbox.forget("b")
    assert not outbox.reads("b", GATHERED)


def told(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A person on node b joined to a table of node a: what b told a of its sockets (``links``)
    over two seconds, and what a asked of b (``list``)."""
    a, b = nodes.start("a"), nodes.start("b")
    node_a, node_b = node_of(a), node_of(b)
    tid, token = table_for_seat_zero(a)
    links: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []
    queue_a, queue_b = node_a.bus._queue, node_b.bus._queue

    def from_a(node_id: str, message: dict[str, Any], request_id: str | None) -> None:
        if message.get("k") == "list":
            asked.append(message)
        queue_a(node_id, message, request_id)

    def from_b(node_id: str, message: dict[str, Any], request_id: str | None) -> None:
        if node_id == "a" and message.get("k") == "links":
            links.append(message)
        queue_b(node_id, message, request_id)

    with b.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": tid, "token": token})
        assert ws.receive_json()["type"] == "welcome"
        time.sleep(0.6)  # a tick of each: the join is told
        monkeypatch.setattr(node_a.bus, "_queue", from_a)
        monkeypatch.setattr(node_b.bus, "_queue", from_b)
        time.sleep(2.0)
        (cid,) = node_b.links
        assert set(node_a.remotes) == {("b", cid)}
    return links, asked


def test_a_node_tells_an_owner_the_number_and_sum_of_its_sockets_there(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    links, asked = told(nodes, monkeypatch)
    assert len(links) >= 3 and asked == []
    assert all("cids" not in m and m["n"] == 1 for m in links)
    assert len({m["x"] for m in links}) == 1


def test_a_node_tells_an_owner_that_does_not_read_sums_the_list(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(node_module, "READS", (GATHERED,))  # as a node of the version before says
    links, asked = told(nodes, monkeypatch)
    assert len(links) >= 3 and asked == []
    assert all(len(m["cids"]) == 1 and "x" not in m for m in links)


def test_the_sum_of_sockets_does_not_depend_on_their_order() -> None:
    cids = [f"{n:032x}" for n in range(50)]
    assert links_sum(cids) == links_sum(reversed(cids)) != links_sum(cids[1:])
    assert links_sum([]) == 0
