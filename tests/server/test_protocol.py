"""The WebSocket protocol through Starlette's TestClient: play, refusals, reconnects, seats."""

from __future__ import annotations

import json
import pathlib
import time
from typing import Any

from starlette.testclient import TestClient

from tapete.records import replay
from tapete.server.messages import explain
from tests.server.helpers import Player, create_table, make_app, play_hand_as


def _version(client: TestClient, table: str) -> int:
    return int(client.get(f"/api/tables/{table}").json()["version"])


def test_full_hand_cutthroat_against_bots(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", [{"kind": "human", "name": "Ana"}, "easy", "easy"], seed=11)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            welcome = p.hello(t["table"], t["seats"][0]["token"])
            assert welcome["role"] == "player" and welcome["seat"] == 0
            m = play_hand_as(p)
            assert m["hand"] == 0 and len(m["scores"]) == 3
            p.recv_type("state")
            assert p.state is not None and p.state["view"]["hand_number"] == 1
            assert p.state["version"] <= _version(c, t["table"])


def test_full_hand_spades_against_bots(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "spades", ["human", "easy", "easy", "easy"], seed=3)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            m = play_hand_as(p)
            assert m["hand"] == 0 and len(m["scores"]) == 2  # per team
            state = p.recv_type("state")
            assert state["view"]["hand_number"] == 1 and sum(state["view"]["hand_sizes"]) == 52


def test_full_runfast_deal_and_record(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["human", "easy", "easy"], seed=8)
        assert c.get(f"/api/tables/{t['table']}/record").status_code == 409
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            over = play_hand_as(p, stop="game_over")
            assert sum(over["scores"]) == 0 and over["winner"] in (0, 1, 2)
        r = c.get(f"/api/tables/{t['table']}/record")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        record = r.json()
        assert record["format"] == "tapete-record/1"
        result = replay(record)
        assert result.exit_status == 0 and result.report["finished"]
        assert t["table"] not in [x["id"] for x in c.get("/api/tables").json()]


def test_illegal_and_stale_actions_are_refused_with_codes(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "human", "human"], seed=21)
        tid = t["table"]
        players = []
        with (
            c.websocket_connect("/ws") as w0,
            c.websocket_connect("/ws") as w1,
            c.websocket_connect("/ws") as w2,
        ):
            for i, w in enumerate((w0, w1, w2)):
                p = Player(w)
                p.hello(tid, t["seats"][i]["token"], lang="es")
                players.append(p)
            state = players[0].state
            assert state is not None
            to_act = state["view"]["to_act"]
            me, other = players[to_act], players[(to_act + 1) % 3]
            # not your turn (a legal-looking bid by a seat that does not act)
            other.send({"type": "action", "version": 0, "action": {"seat": other.state["seat"], "bid": 3}})  # type: ignore[index]
            err = other.recv_type("error")
            assert err["code"] == "not_your_turn" and err["message"] == explain("not_your_turn", "es")
            assert "detail" in err
            # bid out of range
            me.send({"type": "action", "version": 0, "action": {"seat": to_act, "bid": 99}, "id": 7})
            err = me.recv_type("error")
            assert err["code"] in ("bid_out_of_range", "bad_record") and err["ref"] == 7
            # stale version
            me.send({"type": "action", "version": 5, "action": {"seat": to_act, "bid": 3}})
            assert me.recv_type("error")["code"] == "stale_version"
            # wrong seat
            me.send({"type": "action", "version": 0, "action": {"seat": (to_act + 1) % 3, "bid": 3}})
            assert me.recv_type("error")["code"] == "wrong_seat"
            assert _version(c, tid) == 0
            # a real action, then the same one replayed with the old version
            legal = me.state["view"]["legal_actions"]  # type: ignore[index]
            me.act(legal[0])
            st = me.recv_type("state")
            assert st["version"] == 1 and st["last_action"] == legal[0]
            me.send({"type": "action", "version": 0, "action": legal[0]})
            assert me.recv_type("error")["code"] == "stale_version"
            # play through the bidding to the first trick, then try not following suit
            while True:
                cur = next(p for p in players if p.state and p.state["version"] == _version(c, tid))
                view = cur.state["view"]  # type: ignore[index]
                actor = players[view["to_act"]]
                while actor.state is None or actor.state["version"] != _version(c, tid):
                    actor.recv()
                if actor.state["view"]["phase"] == "play" and actor.state["view"]["trick"]["cards"]:  # type: ignore[index]
                    break
                actor.act(actor.state["view"]["legal_actions"][0])  # type: ignore[index]
                actor.recv_type("state")
            view = actor.state["view"]  # type: ignore[index]
            legal_cards = {a["play"] for a in view["legal_actions"]}
            bad = [card for card in view["hand"] if card not in legal_cards]
            version = _version(c, tid)
            if bad:
                actor.act({"seat": view["seat"], "play": bad[0]})
                err = actor.recv_type("error")
                assert err["code"] in ("must_follow_suit", "spades_not_broken")
            actor.act({"seat": view["seat"], "play": "XJ"})
            assert actor.recv_type("error")["code"] in ("card_not_in_hand", "bad_record")
            assert _version(c, tid) == version


def test_reconnect_with_token_resumes_and_wrong_token_cannot_act(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=4)
        tid, token = t["table"], t["seats"][0]["token"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, token)
            for _ in range(2):
                assert p.wait_turn_or() is None
                p.act(p.state["view"]["legal_actions"][0])  # type: ignore[index]
                p.recv_type("state")
            assert p.wait_turn_or() is None
            before = p.state
        with c.websocket_connect("/ws") as ws:
            q = Player(ws)
            q.hello(tid, token)
            assert q.state is not None and before is not None
            assert q.state["version"] == before["version"] and q.state["view"] == before["view"]
            q.act(q.state["view"]["legal_actions"][0])
            assert q.recv_type("state")["version"] == before["version"] + 1
            assert q.wait_turn_or() is None  # the bots have moved: the table waits for seat 0 again
        other = create_table(c, "cutthroat", ["human", "human", "human"], seed=5)
        with c.websocket_connect("/ws") as ws:
            r = Player(ws)
            for bad in ("not-a-token", other["seats"][0]["token"]):
                err = r.hello(tid, bad)
                assert err["type"] == "error" and err["code"] == "bad_token"
            v = _version(c, tid)
            r.send({"type": "action", "version": v, "action": {"seat": 0, "bid": 3}})
            assert r.recv()["code"] == "not_joined"
            assert _version(c, tid) == v
        with c.websocket_connect("/ws") as ws:
            s = Player(ws)
            assert s.hello(tid)["role"] == "spectator"
            s.send({"type": "action", "version": _version(c, tid), "action": {"seat": 0, "bid": 3}})
            assert s.recv_type("error")["code"] == "not_seated"
            assert s.state is not None and s.state["view"]["hand"] is None
            assert s.state["view"]["legal_actions"] == [] and len(s.state["view"]["hand_sizes"]) == 3


def test_hostile_input_is_refused_and_changes_nothing(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, rate_limit=(50.0, 30.0))) as c:
        t = create_table(c, "cutthroat", ["human", "human", "human"], seed=9)
        tid = t["table"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, t["seats"][0]["token"])
            cases: list[tuple[Any, str]] = [
                ("x" * 5000, "too_large"),
                ("{not json", "bad_message"),
                ("[1, 2]", "bad_message"),
                (json.dumps({"type": "launch_missiles"}), "unknown_type"),
                (json.dumps({"no": "type"}), "bad_message"),
                (json.dumps({"type": "action", "action": {"seat": 0, "bid": 3}}), "bad_message"),
                (json.dumps({"type": "action", "version": 0, "action": {"seat": 0, "bid": 3, "x": 1}}), "bad_message"),
                (json.dumps({"type": "action", "version": 0, "action": {"seat": 0, "play": {"a": 1}}}), "bad_message"),
                (
                    json.dumps({"type": "action", "version": 0, "action": {"seat": 0, "bid": 3, "play": "AS"}}),
                    "bad_message",
                ),
                (json.dumps({"type": "action", "version": True, "action": {"seat": 0, "bid": 3}}), "bad_message"),
                (json.dumps({"type": "hello", "table": tid, "spectate": True}), "already_joined"),
            ]
            for text, code in cases:
                p.ws.send_text(text)
                assert p.recv_type("error")["code"] == code, text[:60]
            p.ws.send_bytes(b"\x00\x01")
            assert p.recv_type("error")["code"] == "bad_message"
            assert [m for m in p.seen if m["type"] == "state"][-1]["version"] == 0
            assert _version(c, tid) == 0
            # a flood: more than the burst in no time
            for _ in range(60):
                p.send({"type": "ping"})
            kinds = [p.recv()["type"] for _ in range(60)]
            assert "pong" in kinds
            codes = [m.get("code") for m in p.seen[-60:] if m["type"] == "error"]
            assert codes and set(codes) == {"rate_limited"}
            assert _version(c, tid) == 0
        # HTTP side
        assert c.post("/api/tables", json={"profile": "nope", "seats": []}).json()["code"] == "bad_message"
        big = c.post("/api/tables", content=b"x" * 20000)
        assert (big.status_code, big.json()["code"]) == (413, "too_large")  # refused by its Content-Length
        assert c.post("/api/tables", json={"profile": "cutthroat", "seats": ["human"]}).status_code == 400
        assert c.get("/api/tables/nope").status_code == 404


def test_creator_hands_an_absent_seat_to_a_bot_and_takes_it_back(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "easy", "easy"], seed=13)
        tid, creator = t["table"], t["creator_token"]
        url = f"/api/tables/{tid}/seats/0"
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, t["seats"][0]["token"])
            r = c.post(url + "/bot", json={"creator_token": creator, "level": "easy"})
            assert r.status_code == 409 and r.json()["code"] == "seat_taken"
            assert p.wait_turn_or() is None
            v = p.state["version"]  # type: ignore[index]
        assert c.post(url + "/bot", json={"creator_token": "wrong"}).status_code == 403
        r = c.post(url + "/bot", json={"creator_token": creator, "level": "easy"})
        assert r.status_code == 200 and r.json()["seats"][0]["bot_playing"]
        deadline = time.monotonic() + 20
        while _version(c, tid) < v + 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _version(c, tid) >= v + 6  # the bot played the seat
        r = c.post(url + "/human", json={"creator_token": creator})
        assert r.status_code == 200 and not r.json()["seats"][0]["bot_playing"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, t["seats"][0]["token"])
            assert p.wait_turn_or() is None
            vv = p.state["version"]  # type: ignore[index]
            p.act(p.state["view"]["legal_actions"][0])  # type: ignore[index]
            assert p.recv_type("state")["version"] == vv + 1


def test_a_slow_bot_never_stalls_other_tables(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, bot_extra_delay=2.0)) as c:
        slow = create_table(c, "cutthroat", ["easy", "easy", "easy"], seed=1)["table"]
        t = create_table(c, "cutthroat", ["human", "human", "human"], seed=2)
        time.sleep(0.3)  # the slow table's bot is now thinking in a worker
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            seat = next(i for i in range(3) if i == c.get(f"/api/tables/{t['table']}").json()["to_act"])
            start = time.monotonic()
            p.hello(t["table"], t["seats"][seat]["token"])
            for _ in range(1):
                p.act(p.state["view"]["legal_actions"][0])  # type: ignore[index]
                p.recv_type("state")
            elapsed = time.monotonic() - start
        assert elapsed < 1.0, elapsed
        assert _version(c, slow) == 0  # its bot was still thinking meanwhile
        deadline = time.monotonic() + 10
        while _version(c, slow) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _version(c, slow) >= 1


def test_lobby_page_and_table_listing(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        assert "lobby.js" in c.get("/").text
        names = [p["name"] for p in c.get("/api/profiles").json()]
        assert "runfast" in names and "spades" in names
        t = create_table(c, "cutthroat-official", ["human", "human", "hard"], options={}, name="Friday")
        assert t["seats"][0]["invite"].endswith(t["seats"][0]["token"])
        listed = {x["id"]: x for x in c.get("/api/tables").json()}
        assert listed[t["table"]]["name"] == "Friday"
        assert "token" not in json.dumps(listed[t["table"]])


def test_serve_subcommand_is_registered() -> None:
    from tapete.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "8123", "--db", "sqlite:///x.db", "--bot-delay", "0"])
    assert (args.host, args.port, args.db, args.bot_delay) == ("127.0.0.1", 8123, "sqlite:///x.db", 0.0)


def test_rules_pages_are_served(tmp_path: pathlib.Path) -> None:
    from starlette.testclient import TestClient

    from tapete.server import create_app

    with TestClient(create_app(db_url=f"sqlite:///{tmp_path / 'rules.sqlite3'}")) as client:
        index = client.get("/")
        assert 'href="/rules"' in index.text
        page = client.get("/rules/cutthroat?lang=es")
        assert page.status_code == 200 and "<h1" in page.text
        assert client.get("/rules/nope").status_code == 404
