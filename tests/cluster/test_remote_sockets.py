"""What an owner sends the sockets another node holds: one message for a state many of that
node's sockets get (spectators, most often), once that node has said it reads such messages;
one per socket to a node that has not (an older version in a rolling deploy)."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.server.cluster import node as node_module
from tapete.server.cluster.remote import GATHERED, Outbox
from tests.cluster.inprocess import Nodes, node_of, table_for_seat_zero, wait_until

SPECTATORS = 3


def play_before_spectators(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, Any]], int]:
    """A table on node a, its person on a and ``SPECTATORS`` spectators on b; the person plays
    until the game is over. What a queued for b's sockets after the spectators joined, and the
    number of messages each spectator got meanwhile."""
    a, b = nodes.start("a"), nodes.start("b")
    node_a = node_of(a)
    wait_until(lambda: "b" in node_a.outbox._reads)  # b's links told a what it reads
    tid, token = table_for_seat_zero(a)
    sent: list[dict[str, Any]] = []
    over = False  # the spectators have seen the end: what the sockets' closing sends is not counted
    queue = node_a.bus._queue

    def recording(node_id: str, message: dict[str, Any], request_id: str | None) -> None:
        if node_id == "b" and message.get("k") in ("out", GATHERED) and not over:
            sent.append(message)
        queue(node_id, message, request_id)

    with a.websocket_connect("/ws") as person:
        person.send_json({"type": "hello", "table": tid, "token": token})
        assert person.receive_json()["type"] == "welcome"
        state = person.receive_json()
        while state["type"] != "state" or state["view"]["to_act"] != 0:  # the bots play up to the person
            state = person.receive_json()
        spectators = [b.websocket_connect("/ws") for _ in range(SPECTATORS)]
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
            assert seen[0] == seen[1] == seen[2]  # every spectator saw the whole game the same
            assert sum(m["type"] == "state" for m in seen[0]) == states - 1  # all but the one before they came
            assert seen[0][-1]["type"] == "game_over"
        finally:
            for ws in spectators:
                ws.__exit__(None, None, None)
    return sent, len(seen[0])


def test_a_state_for_many_sockets_of_a_node_goes_there_once(nodes: Nodes, monkeypatch: pytest.MonkeyPatch) -> None:
    sent, messages = play_before_spectators(nodes, monkeypatch)
    assert {m["k"] for m in sent} == {GATHERED}
    assert all(len(m["cids"]) == SPECTATORS == len(set(m["cids"])) for m in sent)
    assert len(sent) == messages > 10  # one for the three


def test_a_node_that_does_not_say_it_reads_them_gets_one_message_a_socket(
    nodes: Nodes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(node_module, "READS", ())  # as a node of the version before says nothing
    sent, messages = play_before_spectators(nodes, monkeypatch)
    assert {m["k"] for m in sent} == {"out"}
    assert len(sent) == SPECTATORS * messages and messages > 10


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
