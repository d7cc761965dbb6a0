"""Accounts and sessions: guest → claim → sign in elsewhere, names, passwords, privacy, deletion.

Every test runs on SQLite and on PostgreSQL when one is reachable (``db`` fixture).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from tapete.players.names import check_name, skeleton
from tapete.players.service import SignInLimiter
from tapete.players.sessions import COOKIE
from tapete.server.db import SeatRow, Store, TableRow
from tapete.server.errors import ServerError
from tests.server.helpers import Player, make_app, play_hand_as, stored_row
from tests.server.playing import Person, cheap_argon2, play_game, stored_text, wait_games  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("cheap_argon2")

PASSWORD = "correct horse battery staple 7Q!"
FAST = {"bot_executor": "thread"}


def app(db: tuple[str, str]) -> Any:
    url, prefix = db
    return make_app(url, table_prefix=prefix, **FAST)


def guest(person: Person) -> dict[str, Any]:
    body = person.guest()
    assert body["player"]["guest"] is True and body["player"]["name"].startswith("guest-")
    return body


def create(person: Person, profile: str, seats: list[Any], **extra: Any) -> dict[str, Any]:
    r = person.post("/api/tables", json={"profile": profile, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_guest_claims_and_signs_in_elsewhere_keeping_history_and_ratings(db: tuple[str, str]) -> None:
    with TestClient(app(db)) as c:
        r = c.post("/api/guest")  # a browser: the session comes as a cookie
        assert r.status_code == 200 and c.cookies.get(COOKIE) == r.json()["token"]
        assert "httponly" in r.headers["set-cookie"].lower() and "samesite=lax" in r.headers["set-cookie"].lower()
        assert c.post("/api/guest").json()["player"] == r.json()["player"]  # the session is kept, no second guest
        me = Person(c, r.json()["token"])
        t = play_game(me, "runfast", ["human", "easy", "normal"], seed=11)
        before = wait_games(me, r.json()["player"]["name"], 1)
        assert [g["table"] for g in before["history"]] == [t["table"]]
        assert before["ratings"]["runfast"]["games"] == 1
        claimed = me.post("/api/account/claim", json={"name": "Ana_Maria", "password": PASSWORD})
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["player"]["name"] == "Ana_Maria" and claimed.json()["player"]["guest"] is False
        assert me.get("/api/me").json()["player"]["name"] == "Ana_Maria"

        other = Person(c)  # another device: no session yet
        assert other.get("/api/me").status_code == 401
        signed = other.post("/api/session", json={"name": "ana_maria", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        assert c.cookies.get(COOKIE) == signed.json()["token"]
        other.token = signed.json()["token"]
        assert other.token != me.token
        assert other.get("/api/me").json()["player"]["name"] == "Ana_Maria"
        page = other.get("/api/players/Ana_Maria").json()
        assert page["history"] == [{**before["history"][0], "players": page["history"][0]["players"]}]
        assert page["history"][0]["players"][0]["name"] == "Ana_Maria"
        assert page["ratings"] == before["ratings"]
        assert page["stats"] == before["stats"]
        # the session of the new device plays, and its game joins the same history
        play_game(other, "runfast", ["human", "easy", "easy"], seed=12)
        after = wait_games(me, "Ana_Maria", 2)
        assert after["ratings"]["runfast"]["games"] == 2


def test_name_rules_and_lookalikes(db: tuple[str, str]) -> None:
    with TestClient(app(db)) as c:
        a, b = Person(c), Person(c)
        guest(a)
        guest(b)
        assert a.post("/api/account/claim", json={"name": "Ana", "password": PASSWORD}).status_code == 200
        cases = {
            "\u0410NA": "name_taken",  # Cyrillic А
            "ana": "name_taken",
            "AN\u0391": "name_taken",  # Greek Alpha
            "ab": "name_invalid",
            "a" * 21: "name_invalid",
            "has space": "name_invalid",
            "guest-123abc": "name_invalid",
            "<script>": "name_invalid",
        }
        for name, code in cases.items():
            r = b.post("/api/account/claim", json={"name": name, "password": PASSWORD})
            assert r.json()["code"] == code, (name, r.text)
            assert r.status_code == (409 if code == "name_taken" else 400)
        weak = b.post("/api/account/claim", json={"name": "Bruno", "password": "short"})
        assert weak.status_code == 400 and weak.json()["code"] == "password_weak"
        assert b.post("/api/account/claim", json={"name": "Bruno", "password": PASSWORD}).status_code == 200
        again = b.post("/api/account/claim", json={"name": "Bruno2", "password": PASSWORD})
        assert again.status_code == 409 and again.json()["code"] == "already_claimed"
        es = Person(c).post("/api/account/claim", json={"name": "x"}, headers={"Accept-Language": "es"})
        assert es.status_code == 401 and es.json()["code"] == "not_signed_in"
        assert es.json()["message"] == "No has iniciado sesión."


def test_skeletons() -> None:
    assert skeleton("Ana") == skeleton("\u0410NA") == skeleton("ana")
    assert skeleton("Paul") == skeleton("PAU1") == skeleton("pau|")
    assert skeleton("Jose") == skeleton("José") == skeleton("ＪＯＳＥ")  # marks and full width
    assert skeleton("a_b") == skeleton("a-b")
    assert skeleton("Ana") != skeleton("Anna")
    assert check_name("Zoë_9") == "Zoë_9"
    with pytest.raises(ServerError):
        check_name("Zoë 9")


def test_bad_credentials_look_the_same_and_are_rate_limited(db: tuple[str, str]) -> None:
    with TestClient(app(db)) as c:
        carla = Person(c)
        guest(carla)
        carla.post("/api/account/claim", json={"name": "Carla", "password": PASSWORD})
        anon = Person(c)
        wrong = anon.post("/api/session", json={"name": "Carla", "password": PASSWORD + "x"})
        unknown = anon.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 401
        assert {k: v for k, v in wrong.json().items()} == {k: v for k, v in unknown.json().items()}
        codes = [
            anon.post("/api/session", json={"name": "Carla", "password": "nope-nope"}).status_code for _ in range(12)
        ]
        assert 429 in codes
        assert anon.post("/api/session", json={"name": "Carla", "password": PASSWORD}).status_code == 429


def test_sign_in_limiter_forgets_after_a_minute() -> None:
    now = [0.0]
    limiter = SignInLimiter(per_minute=2, clock=lambda: now[0])
    limiter.check("a")
    limiter.check("a")
    limiter.check("b")
    with pytest.raises(ServerError):
        limiter.check("a")
    now[0] = 61.0
    limiter.check("a")


def test_sign_out_revokes_the_session(db: tuple[str, str]) -> None:
    with TestClient(app(db)) as c:
        r = c.post("/api/guest")
        token = r.json()["token"]
        assert c.get("/api/me").status_code == 200  # the cookie
        out = c.delete("/api/session")
        assert out.status_code == 204 and 'tapete_session=""' in out.headers["set-cookie"]
        assert c.get("/api/me").status_code == 401
        bearer = Person(c, token).get("/api/me")
        assert bearer.status_code == 401 and bearer.json()["code"] == "not_signed_in"
        live = Person(c)
        live_token = guest(live)["token"]
        assert live.get("/api/me").status_code == 200
        forged = Person(c, live_token[:-2] + ("xx" if not live_token.endswith("xx") else "yy"))
        assert forged.get("/api/me").status_code == 401


def test_passwords_are_never_logged_or_stored(db: tuple[str, str], caplog: pytest.LogCaptureFixture) -> None:
    url, prefix = db
    caplog.set_level(logging.DEBUG)
    with TestClient(app(db)) as c:
        dora = Person(c)
        token = guest(dora)["token"]
        dora.post("/api/account/claim", json={"name": "Dora", "password": PASSWORD})
        Person(c).post("/api/session", json={"name": "Dora", "password": PASSWORD + "wrong"})
        signed = Person(c).post("/api/session", json={"name": "Dora", "password": PASSWORD}).json()["token"]
        dora.delete("/api/account", json={"password": PASSWORD + "typo"})
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    stored = stored_text(url, prefix)
    assert f"{prefix}accounts" in stored and f"{prefix}sessions" in stored
    everything = logged + repr(stored)
    assert PASSWORD not in everything and PASSWORD + "wrong" not in everything
    for signed_token in (token, signed):  # sessions are kept as hashes only
        assert signed_token.split(".")[0] not in repr(stored)
    hashes = [v for v in stored[f"{prefix}accounts"] if v.startswith("$argon2id$")]
    assert len(hashes) == 1


def test_no_endpoint_shows_another_accounts_secrets_or_unfinished_games(db: tuple[str, str]) -> None:
    with TestClient(app(db)) as c:
        a, b = Person(c), Person(c)
        a_token = guest(a)["token"]
        a.post("/api/account/claim", json={"name": "Eva", "password": PASSWORD})
        unfinished = create(a, "runfast", ["human", "human", "easy"], seed=4)
        play_game(a, "runfast", ["human", "easy", "easy"], seed=5)
        wait_games(a, "Eva", 1)
        b_token = guest(b)["token"]
        # b, as itself, looks at everything public about a
        views = [
            b.get("/api/players/Eva"),
            b.get("/api/players/eva/history?offset=0&limit=50"),
            b.get("/api/leaderboard?family=runfast"),
            b.get("/api/me"),
        ]
        for r in views:
            assert r.status_code == 200, r.text
            text = r.text
            assert a_token.split(".")[0] not in text and "$argon2" not in text and PASSWORD not in text
            assert unfinished["table"] not in text
            assert unfinished["creator_token"] not in text
            assert all(s["token"] is None or s["token"] not in text for s in unfinished["seats"])
        assert b.get("/api/me").json()["player"]["name"] != "Eva"
        assert b.get("/api/players/Eva").json()["history"][0]["players"][0]["name"] == "Eva"
        # b cannot act as a: claiming, signing out or deleting touch only b
        assert b.post("/api/account/claim", json={"name": "Eva", "password": PASSWORD}).json()["code"] == "name_taken"
        assert b.delete("/api/account", json={"password": PASSWORD}).status_code == 204
        assert b.get("/api/me").status_code == 401
        assert a.get("/api/me").json()["player"]["name"] == "Eva"
        assert Person(c, b_token).get("/api/me").status_code == 401
        assert len(a.get("/api/players/Eva").json()["history"]) == 1
        assert b.get("/api/players/nobody-here").status_code == 404


def test_deleting_an_account_removes_it_everywhere(db: tuple[str, str]) -> None:
    url, prefix = db
    with TestClient(app(db)) as c:
        a, b = Person(c), Person(c)
        guest(a)
        a.post("/api/account/claim", json={"name": "Fiona", "password": PASSWORD})
        guest(b)
        b_name = b.get("/api/me").json()["player"]["name"]
        t = create(a, "runfast", ["human", "human", "easy"], seed=9)
        with b.websocket() as wb:  # b takes seat 1 (bound to b's account) and leaves; a bot plays it
            pb = Player(wb)
            pb.hello(t["table"], t["seats"][1]["token"])
            pb.send({"type": "ping", "id": 1})  # answered once the seat is bound (messages are handled in order)
            pb.recv_type("pong")
        handed = a.post(f"/api/tables/{t['table']}/seats/1/bot", json={"creator_token": t["creator_token"]})
        assert handed.status_code == 200, handed.text
        with a.websocket() as wa:
            pa = Player(wa)
            pa.hello(t["table"], t["seats"][0]["token"])
            play_hand_as(pa, stop="game_over")
        wait_games(a, "Fiona", 1)
        wait_games(b, b_name, 1)
        account_id = _account_id(url, prefix, "Fiona")
        bad = a.delete("/api/account", json={"password": "not it at all"})
        assert bad.status_code == 401 and bad.json()["code"] == "bad_credentials"
        assert a.delete("/api/account", json={"password": PASSWORD}).status_code == 204
        assert a.get("/api/me").status_code == 401
        assert b.get("/api/players/Fiona").status_code == 404
        everything = stored_text(url, prefix)
        for table, values in everything.items():
            assert account_id not in values and "Fiona" not in values, table
        # the finished record stays for the other player, the name shown as (deleted)
        game = b.get(f"/api/players/{b_name}").json()["history"][0]
        assert game["table"] == t["table"]
        assert [p["name"] for p in game["players"]][:2] == ["(deleted)", b_name]
        assert b.get(game["record_url"]).status_code == 200
        # the name is free again
        guest(a)
        assert a.post("/api/account/claim", json={"name": "Fiona", "password": PASSWORD}).status_code == 200


def _account_id(url: str, prefix: str, name: str) -> str:
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as c:
            row = c.execute(sa.text(f"SELECT id FROM {prefix}accounts WHERE name = :n"), {"n": name}).first()
        assert row is not None
        return str(row[0])
    finally:
        engine.dispose()


def test_an_older_log_gains_the_account_column(db: tuple[str, str]) -> None:
    """A log written before accounts existed (``seats`` without ``account_id``) still loads, and binds seats."""
    url, prefix = db
    old = Store(url, prefix=prefix)
    try:
        old.create_schema()
        seats = [SeatRow(0, "human", None, "1" * 64), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")]
        old.insert_table(stored_row("old1", seats))
        columns = {c["name"] for c in sa.inspect(old.engine).get_columns(f"{prefix}seats")}
        assert "account_id" not in columns
    finally:
        old.dispose()
    with TestClient(app(db)) as c:
        assert c.get("/api/tables/old1").status_code == 200
        me = Person(c)
        guest(me)
        t = create(me, "runfast", ["human", "easy", "easy"], seed=2)
        assert t["table"]
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            bound = conn.execute(
                sa.text(f"SELECT seat, account_id FROM {prefix}seats WHERE table_id = :t"), {"t": t["table"]}
            ).all()
    finally:
        engine.dispose()
    assert [(s, a is not None) for s, a in sorted(bound)] == [(0, True), (1, False), (2, False)]


def test_a_game_left_unrecorded_is_recorded_on_the_next_start(db: tuple[str, str]) -> None:
    url, prefix = db
    with TestClient(app(db)) as c:
        me = Person(c)
        name = guest(me)["player"]["name"]
        play_game(me, "runfast", ["human", "easy", "easy"], seed=14)
        first = wait_games(me, name, 1)
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.begin() as conn:  # as if the server had stopped before writing them
            conn.execute(sa.text(f"DELETE FROM {prefix}player_games"))
            conn.execute(sa.text(f"DELETE FROM {prefix}ratings"))
    finally:
        engine.dispose()
    with TestClient(app(db)) as c:
        me = Person(c, me.token)
        again = me.get(f"/api/players/{name}").json()
        assert [g["table"] for g in again["history"]] == [g["table"] for g in first["history"]]
        assert again["ratings"] == first["ratings"] and again["stats"] == first["stats"]
        # a seat of a finished table is not bound afterwards (its history was written once)
        t = create(me, "runfast", ["human", "human", "easy"], seed=15)
        handed = me.post(f"/api/tables/{t['table']}/seats/1/bot", json={"creator_token": t["creator_token"]})
        assert handed.status_code == 200, handed.text
        with me.websocket() as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            play_hand_as(p, stop="game_over")
        wait_games(me, name, 2)
        late = Person(c)
        guest(late)
        with late.websocket() as ws:
            p = Player(ws)
            assert p.hello(t["table"], t["seats"][1]["token"])["type"] == "welcome"
            p.send({"type": "ping", "id": 1})
            p.recv_type("pong")
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            bound = conn.execute(
                sa.text(f"SELECT seat FROM {prefix}seats WHERE table_id = :t AND account_id IS NOT NULL"),
                {"t": t["table"]},
            ).all()
    finally:
        engine.dispose()
    assert [r[0] for r in bound] == [0]


def test_a_seat_is_bound_only_while_its_table_is_open(db: tuple[str, str]) -> None:
    """The store binds a seat only when the shared log says the table is open, so a seat of a
    game that has finished (its history written once) is never bound, whichever node asks."""
    from tapete.players.store import PlayersStore

    url, prefix = db
    store = Store(url, prefix=prefix)
    try:
        players = PlayersStore(store)
        players.create_schema()
        for tid, status in (("open1", "open"), ("done1", "finished")):
            store.insert_table(
                TableRow(
                    id=tid,
                    profile="runfast",
                    options={},
                    seed=5,
                    creator_hash="0" * 64,
                    status=status,
                    created_at=time.time(),
                    seats=[SeatRow(0, "human", None, "1" * 64), SeatRow(1, "bot", "easy"), SeatRow(2, "bot", "easy")],
                )
            )
        account = players.create_guest("guest-abc123", skeleton("guest-abc123"))
        assert account is not None
        assert players.bind_seat("open1", 0, account.id) is True
        assert players.bind_seat("open1", 1, account.id) is False  # a bot's seat
        assert players.bind_seat("done1", 0, account.id) is False
        assert players.seat_accounts("open1") == {0: account.id}
        assert players.seat_accounts("done1") == {}
    finally:
        store.dispose()
