"""Tables nobody is at are set aside: out of memory and of the open count, not rebuilt at start,
and read back, where they stood, by the first ``hello`` or call that names them."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from tapete.server.limits import Limits
from tests.server.helpers import Player, create_table, make_app

HUMANS = ["human", "human", "human"]


def limits(**kw: Any) -> Limits:
    return Limits(**{"tables_per_client_minute": 1000, "api_per_client_second": 1e6, "abandoned_seconds": 0.4, **kw})


def wait_for(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def act(p: Player) -> int:
    """Play the first legal action of ``p``'s turn; the version it made."""
    assert p.state is not None
    version: int = p.state["version"]
    p.send({"type": "action", "action": p.state["view"]["legal_actions"][0], "version": version})
    while True:
        m = p.recv()
        assert m["type"] != "error", m
        if m["type"] == "state" and m["version"] > version:
            return version + 1


def status(c: TestClient, table_id: str) -> str | None:
    hub = c.app.state.hub  # type: ignore[attr-defined]
    found: str | None = hub.store.status(table_id)
    return found


def test_tables_nobody_is_at_are_set_aside_and_free_their_place(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, limits=limits(open_tables=2))) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        first, second = (create_table(c, "cutthroat", HUMANS) for _ in range(2))
        assert c.post("/api/tables", json={"profile": "cutthroat", "seats": HUMANS}).status_code == 503
        wait_for(lambda: hub.idle.set_aside == 2)  # marked idle, not only out of memory
        assert hub.open_tables() == 0
        assert status(c, first["table"]) == status(c, second["table"]) == "idle"
        assert first["table"] not in {t["id"] for t in c.get("/api/tables").json()}
        create_table(c, "cutthroat", HUMANS)  # room again: server_full no longer
        assert hub.idle.set_aside == 2


def test_a_table_set_aside_is_read_back_where_it_stood(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, limits=limits())) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        t = create_table(c, "cutthroat", HUMANS, seed=11)
        tid, tokens = t["table"], [s["token"] for s in t["seats"]]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, tokens[0])
            assert p.state is not None
            to_act = p.state["view"]["to_act"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, tokens[to_act])
            version = act(p)
        assert c.get(f"/api/tables/{tid}").json()["version"] == version
        wait_for(lambda: hub.idle.set_aside == 1)
        assert tid not in hub.tables and status(c, tid) == "idle"
        r = c.get(f"/api/tables/{tid}")  # read back by a call that names it
        assert r.status_code == 200 and r.json()["version"] == version
        assert status(c, tid) == "open" and tid in hub.tables
        wait_for(lambda: hub.idle.set_aside == 2)
        with c.websocket_connect("/ws") as ws:  # and by a hello: the game goes on
            p = Player(ws)
            assert p.hello(tid, tokens[(to_act + 1) % 3])["version"] == version
            assert p.state is not None and p.state["view"]["to_act"] == (to_act + 1) % 3
            assert act(p) == version + 1
        assert c.get(f"/api/tables/{tid}").json()["version"] == version + 1


def test_a_table_waiting_on_a_bot_or_watched_is_not_set_aside(sqlite_url: str) -> None:
    app = make_app(sqlite_url, limits=limits(), bot_delay=30.0)
    with TestClient(app) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        bots = create_table(c, "cutthroat", ["easy", "human", "human"], seed=0)  # seat 0 acts first
        watched = create_table(c, "cutthroat", HUMANS)
        with c.websocket_connect("/ws") as ws:
            Player(ws).hello(watched["table"])
            time.sleep(1.0)  # over twice the idle time
            table = hub.tables[bots["table"]]
            assert table.game.to_act == 0 and not table.waits_on_a_person()
            assert bots["table"] in hub.tables and watched["table"] in hub.tables
        assert hub.idle.set_aside == 0


def test_tables_set_aside_are_not_rebuilt_at_start(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url, limits=limits())) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        idle = create_table(c, "runfast", HUMANS)["table"]
        wait_for(lambda: hub.idle.set_aside == 1)
    with TestClient(make_app(sqlite_url, limits=limits(abandoned_seconds=600.0))) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert idle not in hub.tables and hub.open_tables() == 0
        assert c.get(f"/api/tables/{idle}").status_code == 200 and idle in hub.tables


def test_a_table_joined_while_another_is_set_aside_is_kept(sqlite_url: str, monkeypatch: Any) -> None:
    """The idle tables are set aside one after the other: one that a socket joined meanwhile is
    no longer idle, and stays (its player is not left at a table gone from memory)."""
    import threading

    with TestClient(make_app(sqlite_url, limits=limits())) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        first, second = (create_table(c, "cutthroat", HUMANS) for _ in range(2))
        entered, release = threading.Event(), threading.Event()
        set_aside = hub.store.set_aside

        def slow_set_aside(table_id: str) -> bool:
            if table_id == first["table"]:
                entered.set()
                release.wait(10)
            return bool(set_aside(table_id))

        monkeypatch.setattr(hub.store, "set_aside", slow_set_aside)
        assert entered.wait(10)  # the sweep marks the first table, the second one due after it
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            assert p.hello(second["table"], second["seats"][0]["token"])["type"] == "welcome"
            release.set()
            wait_for(lambda: hub.idle.set_aside == 1)
            time.sleep(0.3)  # more sweeps
            assert second["table"] in hub.tables and status(c, second["table"]) == "open"
            p.send({"type": "ping", "id": 1})
            assert p.recv_type("pong")["ref"] == 1


def test_a_table_whose_log_no_longer_replays_stays_set_aside(sqlite_url: str, monkeypatch: Any) -> None:
    with TestClient(make_app(sqlite_url, limits=limits())) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        tid = create_table(c, "runfast", HUMANS)["table"]
        wait_for(lambda: hub.idle.set_aside == 1)

        async def broken(table_id: str, record: bytes) -> Any:
            raise ValueError("this log does not replay")

        monkeypatch.setattr(hub, "rebuild", broken)
        assert c.get(f"/api/tables/{tid}").status_code == 404
        assert status(c, tid) == "idle" and tid not in hub.tables


def test_a_seat_handed_over_at_a_table_set_aside_meanwhile_is_refused_busy(sqlite_url: str) -> None:
    """A hand-over that found the table before it was set aside, and got its lock after, is
    refused ``busy`` (not acknowledged at a table gone from memory); asked again, it reads the
    table back and is done."""
    from tapete.server.errors import ServerError

    with TestClient(make_app(sqlite_url, limits=limits())) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        t = create_table(c, "cutthroat", HUMANS)
        old = hub.tables[t["table"]]
        wait_for(lambda: hub.idle.set_aside == 1)
        try:
            c.portal.call(old.hand_to_bot, 1, "easy")  # type: ignore[union-attr]
            raise AssertionError("a hand-over at a table set aside was acknowledged")
        except ServerError as exc:
            assert exc.code == "busy"
        body = {"creator_token": t["creator_token"], "level": "easy"}
        r = c.post(f"/api/tables/{t['table']}/seats/1/bot", json=body)
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["bot_playing"] is True
