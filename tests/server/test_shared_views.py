"""One view and one encoding per seat: clients of the same seat (and all spectators) share a state message."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from tapete.server.protocol import Shared, encode, encode_utf8
from tests.server.helpers import Player, create_table, make_app


def test_an_action_makes_one_state_message_per_seat_with_clients(sqlite_url: str) -> None:
    seen: list[tuple[int | None, str, dict[str, Any]]] = []

    def observer(table: Any, seat: int | None, role: str, message: dict[str, Any]) -> None:
        if role != "bot" and role != "bot_decision" and message.get("type") == "state":
            seen.append((seat, role, message))

    with TestClient(make_app(sqlite_url, observer=observer)) as c:
        t = create_table(c, "cutthroat", ["human", "human", "easy"], seed=3)
        tokens = [s["token"] for s in t["seats"][:2]]
        with (
            c.websocket_connect("/ws") as a0,
            c.websocket_connect("/ws") as b0,
            c.websocket_connect("/ws") as a1,
            c.websocket_connect("/ws") as s1,
            c.websocket_connect("/ws") as s2,
        ):
            players = [Player(a0), Player(b0), Player(a1)]
            for p, token in zip(players, [tokens[0], tokens[0], tokens[1]], strict=True):
                p.hello(t["table"], token)
            spectators = [Player(s1), Player(s2)]
            for p in spectators:
                p.hello(t["table"])
            mover = players[0] if players[0].my_turn() else players[2]
            assert mover.state is not None
            after = mover.state["version"] + 1
            seen.clear()
            mover.act(mover.state["view"]["legal_actions"][0])
            for p in players + spectators:
                p.recv_type("state")
            first = [m for _, _, m in seen if m["version"] == after]
    by_seat: dict[int | None, list[dict[str, Any]]] = {}
    for m in first:
        by_seat.setdefault(m["seat"], []).append(m)
    assert sorted(by_seat, key=str) == [0, 1, None]
    assert len(by_seat[0]) == 2 and by_seat[0][0] is by_seat[0][1]  # both sockets of seat 0: one message
    assert len(by_seat[None]) == 2 and by_seat[None][0] is by_seat[None][1]  # the spectators share one
    assert by_seat[0][0] is not by_seat[1][0] and by_seat[0][0]["view"] != by_seat[1][0]["view"]
    assert "hand" not in by_seat[None][0]["view"] or not by_seat[None][0]["view"]["hand"]
    for messages in by_seat.values():
        assert isinstance(messages[0], Shared)
        data = encode_utf8(messages[0])
        assert encode_utf8(messages[0]) is data  # encoded once
        assert json.loads(data) == json.loads(encode(messages[0])) == messages[0]


def test_encode_falls_back_for_what_orjson_refuses() -> None:
    big = {"type": "info", "seed": 1 << 100, "name": "a\ud800b"}
    text = encode(big)
    assert json.loads(text)["seed"] == 1 << 100
    assert "\\ud800" in text  # a lone surrogate is escaped, not fatal
    assert encode({"n": {1: "x"}}) == '{"n":{"1":"x"}}'
    assert json.loads(encode(Shared({"type": "seats", "name": "é"}))) == {"type": "seats", "name": "é"}
