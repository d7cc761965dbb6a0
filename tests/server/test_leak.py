"""No message to a seat, a spectator or a bot ever shows a card hidden from it."""

from __future__ import annotations

import random
import time
from typing import Any

from starlette.testclient import TestClient

from tapete.server.table import Table
from tests.server.helpers import Player, create_table, hidden_cards, make_app, strings_in

GAMES = [
    ("cutthroat", 3),
    ("cutthroat-official", 3),
    ("cutthroat-4p", 4),
    ("cutthroat-5p-2jokers", 5),
    ("spades", 4),
    ("runfast", 3),
]
SEEDS = (1, 2, 3, 4)
ACTIONS_PER_TABLE = 160  # about three hands of the Spades family; a whole Run Fast deal


class LeakChecker:
    """The app's observer: checks every message against the hands at the moment it is queued."""

    def __init__(self) -> None:
        self.by_role: dict[str, int] = {}
        self.face_down_seen = 0
        self.leaks: list[str] = []

    def __call__(self, table: Table, seat: int | None, role: str, message: dict[str, Any]) -> None:
        self.by_role[role] = self.by_role.get(role, 0) + 1
        game = table.game
        if seat is not None and hasattr(game, "hand_visible") and not game.hand_visible(seat):
            self.face_down_seen += 1
        hidden = hidden_cards(game, seat)
        # last_action is the action just played (public); at a hand boundary its card may be
        # in a new hand, so it is checked against the history instead
        body = {k: v for k, v in message.items() if k != "last_action"}
        for s in strings_in(body):
            if s in hidden:
                self.leaks.append(f"{table.profile} v{table.version} {role} seat={seat}: {s} in {message['type']}")
        last = message.get("last_action")
        if last is not None:
            history = [a for h in game.record()["hands"] for a in h["actions"]]
            if last not in history:
                self.leaks.append(f"last_action {last} is not in the history")


def _progress(c: TestClient, tid: str) -> bool:
    info = c.get(f"/api/tables/{tid}").json()
    return bool(info["status"] == "finished" or info["version"] >= ACTIONS_PER_TABLE)


def test_no_hidden_card_reaches_any_seat_or_spectator(sqlite_url: str) -> None:
    checker = LeakChecker()
    with TestClient(make_app(sqlite_url, observer=checker, bot_workers=2)) as c:
        tables = []
        for profile, n in GAMES:
            for seed in SEEDS:
                tables.append(create_table(c, profile, ["easy"] * n, seed=seed)["table"])
        # one table per family with a person (random legal actions) and easy bots
        mixed = [create_table(c, p, ["human"] + ["easy"] * (n - 1), seed=5) for p, n in GAMES[1:2] + GAMES[-1:]]
        rng = random.Random(0)
        for t in mixed:
            with c.websocket_connect("/ws") as ws:
                p = Player(ws, deltas=t is mixed[0])  # one asks for states as changes: checked as sent
                p.hello(t["table"], t["seats"][0]["token"])
                for _ in range(12):
                    if p.wait_turn_or() is not None:
                        break
                    p.act(rng.choice(p.state["view"]["legal_actions"]))  # type: ignore[index]
                    assert p.recv_type("state")["seat"] == 0
        with c.websocket_connect("/ws") as ws:
            spectators = []
            spectator = Player(ws, deltas=True)
            spectator.hello(tables[0])
            spectators.append(spectator)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not all(_progress(c, tid) for tid in tables):
                time.sleep(0.1)
            assert all(_progress(c, tid) for tid in tables)
            spectator.send({"type": "sync"})
            spectator.recv_type("state")
            assert all(s["view"].get("hand") is None for s in spectator.states)
            assert all(m.get("changed", {}).get("hand") is None for m in spectator.seen)
    assert checker.by_role.get("bot", 0) > 1000, checker.by_role
    assert checker.by_role.get("spectator", 0) > 50 and checker.by_role.get("player", 0) > 30
    assert checker.face_down_seen > 0  # blind bidders' face-down hands were exercised
    assert checker.leaks[:5] == []
