"""Who is connected: the players are told when a seat gets its first socket or loses its last,
and only then (a spectator, or a seat's second socket, changes nothing they see)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.server.helpers import Player, create_table, make_app


def next_message_is_pong(p: Player, n: int) -> None:
    """Nothing reached ``p`` since the last check: a ping's answer comes first."""
    p.send({"type": "ping", "id": n})
    m = p.recv()
    assert m == {"type": "pong", "ref": n}, m


def connected(m: dict[str, Any]) -> list[bool]:
    assert m["type"] == "seats", m
    return [bool(s["connected"]) for s in m["seats"]]


def test_only_a_seat_connecting_or_leaving_is_told(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "human", "human"])
        tid, tokens = t["table"], [s["token"] for s in t["seats"]]
        with c.websocket_connect("/ws") as ws0:
            p0 = Player(ws0)
            p0.send({"type": "hello", "table": tid, "token": tokens[0]})
            assert [p0.recv()["type"] for _ in range(2)] == ["welcome", "state"]
            assert connected(p0.recv()) == [True, False, False]
            with c.websocket_connect("/ws") as watching:
                Player(watching).send({"type": "hello", "table": tid, "spectate": True})
                assert Player(watching).recv()["type"] == "welcome"
                next_message_is_pong(p0, 1)  # a spectator is not news to the players
                with c.websocket_connect("/ws") as again:
                    second = Player(again)
                    second.send({"type": "hello", "table": tid, "token": tokens[0]})
                    welcome = second.recv()
                    assert welcome["type"] == "welcome" and connected({**welcome, "type": "seats"})[0]
                    next_message_is_pong(p0, 2)  # seat 0 was connected already
                    with c.websocket_connect("/ws") as ws1:
                        Player(ws1).send({"type": "hello", "table": tid, "token": tokens[1]})
                        assert connected(p0.recv()) == [True, True, False]
                    assert connected(p0.recv()) == [True, False, False]  # seat 1's only socket left
                next_message_is_pong(p0, 3)  # seat 0 keeps a socket
            next_message_is_pong(p0, 4)  # a spectator leaving is not news either
