"""A table's life around its players: the pause between hands (``next_hand``), the names in
finished records, abandoned tables leaving the open list, and refused options named with
what they allow (``bad_option``)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

import tapete
from tapete.server.limits import Limits
from tapete.server.messages import explain
from tests.server.helpers import TEST_LIMITS, Player, create_table, make_app, play_hand_as

SEED = 7
"""In cutthroat with seed 7 seat 0 bids first in the second hand: a bot, with the person at seat 1."""


def second_hand_leader() -> int:
    game = tapete.new_game("cutthroat", seed=SEED)
    while getattr(game, "hand_number", 0) == 0:
        game.apply(game.legal_actions()[0])
    assert game.to_act is not None
    return game.to_act


def finish_first_hand(c: TestClient) -> tuple[dict[str, Any], Player, dict[str, Any], Any]:
    """A cutthroat table (bots at 0 and 2, the person at 1) after its first hand; the socket is open."""
    assert second_hand_leader() == 0
    t = create_table(c, "cutthroat", ["easy", "human", "easy"], seed=SEED)
    ctx = c.websocket_connect("/ws")
    ws = ctx.__enter__()
    p = Player(ws)
    welcome = p.hello(t["table"], t["seats"][1]["token"])
    assert welcome["features"] == ["next_hand", "deltas"]
    over = play_hand_as(p)
    assert over["type"] == "hand_over" and over["hand"] == 0
    state = p.recv_type("state")
    assert state["view"]["to_act"] == 0
    return t, p, over, ctx


def version(c: TestClient, table: str) -> int:
    v: int = c.get(f"/api/tables/{table}").json()["version"]
    return v


def next_bot_move(p: Player) -> float:
    """Read until a bot's move of the second hand; its arrival time."""
    while True:
        m = p.recv()
        if m["type"] == "state" and m["last_action"] and m["last_action"]["seat"] != 1:
            return time.monotonic()


def test_bots_wait_for_next_hand_from_the_person(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, next_hand_wait=30.0)) as c:
        t, p, over, ctx = finish_first_hand(c)
        try:
            held = version(c, t["table"])
            time.sleep(0.8)
            assert version(c, t["table"]) == held  # the bot at seat 0 holds its first bid
            p.send({"type": "next_hand", "hand": over["hand"] + 5})  # not the hand that ended: ignored
            p.send({"type": "ping", "id": 1})
            assert p.recv_type("pong")["ref"] == 1
            time.sleep(0.5)
            assert version(c, t["table"]) == held
            with c.websocket_connect("/ws") as ws2:  # the person opens the table again: the end of the hand is told
                p2 = Player(ws2)
                p2.send({"type": "hello", "table": t["table"], "token": t["seats"][1]["token"]})
                assert [p2.recv()["type"] for _ in range(3)] == ["welcome", "hand_over", "state"]
                assert p2.seen[1] == {**over, "version": p2.seen[1]["version"]}
            time.sleep(0.3)
            assert version(c, t["table"]) == held
            p.send({"type": "next_hand", "hand": over["hand"]})
            next_bot_move(p)
            assert version(c, t["table"]) > held
        finally:
            ctx.__exit__(None, None, None)


def test_bots_go_on_after_the_timeout(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, next_hand_wait=1.0)) as c:
        _t, p, _over, ctx = finish_first_hand(c)
        try:
            start = time.monotonic()
            assert next_bot_move(p) - start >= 0.8
        finally:
            ctx.__exit__(None, None, None)


def test_without_a_wait_bots_go_on_at_once(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:  # next_hand_wait=0 in the tests
        _t, p, _over, ctx = finish_first_hand(c)
        try:
            start = time.monotonic()
            assert next_bot_move(p) - start < 5.0
        finally:
            ctx.__exit__(None, None, None)


@pytest.mark.parametrize(
    ("msg", "code"),
    [
        ({"type": "next_hand"}, "bad_message"),
        ({"type": "next_hand", "hand": "1"}, "bad_message"),
        ({"type": "next_hand", "hand": True}, "bad_message"),
        ({"type": "next_hand", "hand": -1}, "out_of_range"),
        ({"type": "next_hand", "hand": 10**10}, "out_of_range"),
    ],
)
def test_next_hand_is_checked(sqlite_url: str, msg: dict[str, Any], code: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"])
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.send({"type": "next_hand", "hand": 0, "id": 1})
            assert p.recv()["code"] == "not_joined"
            p.hello(t["table"], t["seats"][0]["token"])
            p.send({**msg, "id": 2})
            err = p.recv_type("error")
            assert err["code"] == code


def test_a_spectators_next_hand_changes_nothing(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"])
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            welcome = p.hello(t["table"])
            assert welcome["role"] == "spectator" and welcome["features"] == ["next_hand", "deltas"]
            p.send({"type": "next_hand", "hand": 0, "id": 1})
            p.send({"type": "ping", "id": 2})
            assert p.recv_type("pong")["ref"] == 2
            assert not [m for m in p.seen if m["type"] == "error"]


def test_finished_records_name_the_players(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        seats = [{"kind": "human", "name": "Ana"}, "hard", {"kind": "bot", "level": "easy", "name": "Robo"}]
        t = create_table(c, "runfast", seats, seed=8)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            play_hand_as(p, stop="game_over")
        record = c.get(f"/api/tables/{t['table']}/record").json()
        assert record["players"] == ["Ana", "Bot 2 (hard)", "Robo"]
        assert tapete.records.replay(record).exit_status == 0


def test_a_person_without_a_name_is_their_seat(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["human", "easy", "normal"], seed=8)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            play_hand_as(p, stop="game_over")
        assert c.get(f"/api/tables/{t['table']}/record").json()["players"] == [
            "Seat 1",
            "Bot 2 (easy)",
            "Bot 3 (normal)",
        ]


def test_abandoned_tables_leave_the_open_list(sqlite_url: str) -> None:
    limits = Limits(tables_per_client_minute=1000, abandoned_seconds=0.5)
    with TestClient(make_app(sqlite_url, limits=limits)) as c:
        t = create_table(c, "runfast", ["human", "human", "easy"])

        def listed() -> bool:
            return t["table"] in [x["id"] for x in c.get("/api/tables").json()]

        assert listed()
        with c.websocket_connect("/ws") as ws:
            Player(ws).hello(t["table"], t["seats"][0]["token"])
            time.sleep(0.7)
            assert listed()  # someone is there
        assert listed()  # they left a moment ago
        time.sleep(0.7)
        assert not listed()
        assert c.get(f"/api/tables/{t['table']}").json()["status"] == "open"  # still there by its id
        with c.websocket_connect("/ws") as ws:
            Player(ws).hello(t["table"], t["seats"][1]["token"])
            assert listed()  # back when someone comes back


def test_default_abandon_time_is_ten_minutes() -> None:
    assert Limits().abandoned_seconds == 600.0 == TEST_LIMITS.abandoned_seconds


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
@pytest.mark.parametrize(
    ("profile", "options", "params"),
    [
        ("runfast", {"first_lead": "9Z"}, {"option": "first_lead", "allowed": "'3H', '3S'"}),
        ("cutthroat", {"target": True}, {"option": "target", "allowed": "1 … 10000"}),
        ("spades", {"suicide": True, "partnership": False}, {"option": "suicide", "allowed": "partnership = true"}),
    ],
)
def test_a_bad_option_is_named_with_what_it_allows(
    sqlite_url: str, lang: str, profile: str, options: dict[str, Any], params: dict[str, str]
) -> None:
    n = tapete.new_game(profile, seed=1).num_players
    with TestClient(make_app(sqlite_url)) as c:
        body = {"profile": profile, "options": options, "seats": ["human"] * n}
        r = c.post("/api/tables", json=body, headers={"accept-language": lang})
        assert r.status_code == 400
        err = r.json()
        assert err["code"] == "bad_option" and err["params"] == params
        assert err["message"] == explain("bad_option", lang, params)
        assert params["option"] in err["message"] and "{" not in err["message"]
        assert err["detail"].startswith("option ")  # the engine's own English


def test_an_unknown_option_is_named_with_the_known_ones(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        r = c.post("/api/tables", json={"profile": "runfast", "options": {"nope": 1}, "seats": ["human"] * 3})
        err = r.json()
        assert r.status_code == 400 and err["code"] == "bad_option" and err["params"]["option"] == "nope"
        assert "first_lead" in err["params"]["allowed"].split(", ")
