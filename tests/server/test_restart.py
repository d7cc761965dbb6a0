"""Restart recovery: tables mid-hand survive a clean stop and a SIGKILL, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

from tapete.server.db import Store
from tests.server.helpers import Player, create_table, free_port, make_app, start_server

PLAN = [
    ("cutthroat", ["human", "easy", "easy"]),
    ("spades", ["human", "easy", "easy", "easy"]),
    ("runfast", ["human", "easy", "easy"]),
]


def _play_some(p: Player, moves: int) -> None:
    for _ in range(moves):
        assert p.wait_turn_or() is None
        p.act(p.state["view"]["legal_actions"][0])  # type: ignore[index]
        p.recv_type("state")
    assert p.wait_turn_or() is None  # stopped where this seat is to act: the table waits


def test_restart_resumes_every_table_at_the_same_action(db: tuple[str, str]) -> None:
    url, prefix = db
    before: dict[str, tuple[str, dict[str, Any]]] = {}
    with TestClient(make_app(url, table_prefix=prefix)) as c:
        for profile, seats in PLAN:
            t = create_table(c, profile, seats, seed=17)
            with c.websocket_connect("/ws") as ws:
                p = Player(ws)
                p.hello(t["table"], t["seats"][0]["token"])
                _play_some(p, 3)
                assert p.state is not None
                before[t["table"]] = (t["seats"][0]["token"], p.state)
    store = Store(url, prefix=prefix)
    try:
        for tid, (_, state) in before.items():
            assert store.count_events(tid) == state["version"]
    finally:
        store.dispose()
    with TestClient(make_app(url, table_prefix=prefix)) as c:
        listed = {x["id"]: x for x in c.get("/api/tables").json()}
        for tid, (token, state) in before.items():
            assert listed[tid]["version"] == state["version"]
            with c.websocket_connect("/ws") as ws:
                p = Player(ws)
                p.hello(tid, token)
                assert p.state is not None
                assert p.state["version"] == state["version"] and p.state["view"] == state["view"]
                _play_some(p, 1)  # and play goes on


class WsPlayer:
    """A player over a real socket (websockets' sync client, with timeouts)."""

    def __init__(self, ws: Any, table: str, token: str) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.ws.send(json.dumps({"type": "hello", "table": table, "token": token}))

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
        if m["type"] == "state":
            self.state = m
        assert m["type"] != "error", m
        return m

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"]["legal_actions"] and s["view"]["to_act"] == s["seat"])

    def wait_turn(self) -> None:
        while not self.my_turn():
            self.recv()

    def act_first(self) -> int:
        """Play the first legal action; returns the acknowledged version."""
        self.wait_turn()
        assert self.state is not None
        v = self.state["version"]
        self.ws.send(json.dumps({"type": "action", "version": v, "action": self.state["view"]["legal_actions"][0]}))
        while self.state["version"] <= v:
            self.recv()
        return int(v) + 1


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_loses_no_acknowledged_action(db: tuple[str, str]) -> None:
    url, prefix = db
    port = free_port()
    proc = start_server(url, port, table_prefix=prefix, bot_workers=1)
    acked: dict[str, tuple[str, int, dict[str, Any]]] = {}
    try:
        for profile, seats in PLAN:
            r = httpx.post(
                f"http://127.0.0.1:{port}/api/tables", json={"profile": profile, "seats": seats, "seed": 23}, timeout=10
            )
            t = r.json()
            with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
                p = WsPlayer(ws, t["table"], t["seats"][0]["token"])
                for _ in range(4):
                    p.act_first()
                p.wait_turn()  # the bots have answered; the table waits for this seat
                assert p.state is not None
                acked[t["table"]] = (t["seats"][0]["token"], p.state["version"], p.state["view"])
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
    proc = start_server(url, port, table_prefix=prefix, bot_workers=1)
    try:
        for tid, (token, version, view) in acked.items():
            info = httpx.get(f"http://127.0.0.1:{port}/api/tables/{tid}", timeout=10).json()
            assert info["version"] == version
            with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
                p = WsPlayer(ws, tid, token)
                p.wait_turn()
                assert p.state is not None and p.state["version"] == version and p.state["view"] == view
                assert p.act_first() == version + 1
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
