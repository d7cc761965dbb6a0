"""Helpers for the players' tests: a signed-in client plays a game; every stored value read back."""

from __future__ import annotations

import time
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from tapete.players import passwords
from tests.server.helpers import Player


@pytest.fixture
def cheap_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argon2id with small costs, so that the many sign-ins of these tests stay fast on a loaded machine."""
    monkeypatch.setattr(passwords, "_HASHER", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    passwords._dummy_hash.cache_clear()


class Person:
    """One person on a shared ``TestClient``: every request carries this person's session as a bearer
    token, and the client's cookie jar is emptied first (so two people can use one client)."""

    def __init__(self, client: TestClient, token: str | None = None) -> None:
        self.client = client
        self.token = token

    def headers(self) -> dict[str, str]:
        self.client.cookies.clear()
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def request(self, method: str, url: str, **kw: Any) -> Any:
        headers = {**self.headers(), **kw.pop("headers", {})}
        return self.client.request(method, url, headers=headers, **kw)

    def get(self, url: str, **kw: Any) -> Any:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        return self.request("POST", url, **kw)

    def delete(self, url: str, **kw: Any) -> Any:
        return self.request("DELETE", url, **kw)

    def websocket(self) -> Any:
        return self.client.websocket_connect("/ws", headers=self.headers())

    def guest(self) -> dict[str, Any]:
        """Become a new guest (this person's token is the new session's)."""
        self.token = None
        r = self.post("/api/guest")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        self.token = body["token"]
        return body


def play_game(person: Person, profile: str, seats: list[Any], **extra: Any) -> dict[str, Any]:
    """Create a table as ``person`` (the session binds the first human seat), play it out with the
    first legal action at that seat, and return the table's creation answer."""
    r = person.post("/api/tables", json={"profile": profile, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    first = next(s for s in t["seats"] if s["kind"] == "human")
    with person.websocket() as ws:
        p = Player(ws)
        p.hello(t["table"], first["token"])
        play_out(p)
    return t


def play_out(player: Player) -> dict[str, Any]:
    """Play the first legal action whenever it is this seat's turn, until ``game_over``
    (an action that crossed a newer state is refused as stale and tried again on it; one
    refused as too fast is tried again after a pause)."""
    while True:
        m = player.wait_turn_or("game_over")
        if m is not None:
            return m
        assert player.state is not None
        player.act(player.state["view"]["legal_actions"][0])
        reply = player.recv()
        if reply["type"] == "error" and reply["code"] == "rate_limited":
            time.sleep(0.5)  # told to slow down, as a person's client would be: the action is tried again
            continue
        if reply["type"] == "error" and reply["code"] != "stale_version":
            raise AssertionError(f"refused: {reply}")
        if reply["type"] == "game_over":
            return reply


def wait_games(person: Person, name: str, count: int, seconds: float = 20.0) -> dict[str, Any]:
    """``GET /api/players/{name}`` once it lists ``count`` games (the history is written after the game)."""
    deadline = time.monotonic() + seconds
    while True:
        out: dict[str, Any] = person.get(f"/api/players/{name}").json()
        if len(out.get("history", [])) >= count or time.monotonic() > deadline:
            return out
        time.sleep(0.05)


def stored_text(url: str, prefix: str) -> dict[str, list[str]]:
    """Every value of every row of every table with ``prefix``, as text, by table name."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        md = sa.MetaData()
        md.reflect(engine)
        out: dict[str, list[str]] = {}
        with engine.connect() as c:
            for name, table in md.tables.items():
                if not name.startswith(prefix):
                    continue
                out[name] = [str(v) for row in c.execute(table.select()).all() for v in row]
        return out
    finally:
        engine.dispose()
