"""Issue 16, item 1: a flood of hard-bot tables does not slow another table's easy bots.

Every table's bots wait in a lane of their own, served round-robin, and easy bots have a
worker of their own; so an easy bot's turn stays within its configured delay plus 100 ms
(p95) while eight all-hard tables keep the general workers busy.
"""

from __future__ import annotations

import itertools
import time

from starlette.testclient import TestClient

from tapete.server.limits import Limits
from tests.server.helpers import Player, create_table, make_app

BOT_DELAY = 0.25
TURNS = 30


def test_a_hard_bot_flood_does_not_slow_an_easy_table(sqlite_url: str) -> None:
    app = make_app(sqlite_url, bot_delay=BOT_DELAY, bot_workers=2, limits=Limits(tables_per_client_minute=100))
    with TestClient(app) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        for seed in range(8):
            create_table(c, "cutthroat", ["hard", "hard", "hard"], seed=100 + seed)
        time.sleep(0.5)  # the flood is under way
        easy = create_table(c, "cutthroat", ["easy", "easy", "easy"], seed=7)["table"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(easy)
            stamps: list[float] = []
            queued: list[int] = []
            while len(stamps) <= TURNS:
                m = p.recv()
                if m["type"] == "state":
                    stamps.append(time.monotonic())
                    queued.append(hub.scheduler.waiting(light=False) + sum(1 for s in hub.scheduler.slots if s.job))
        turns = sorted(b - a for a, b in itertools.pairwise(stamps))
        p95 = turns[int(0.95 * len(turns)) - 1]
        hard_done = hub.metrics.counters["decide_done"]
        m = hub.metrics
        print("easy decision p50/p95", m.quantile("turn_seconds_easy", 0.5), m.quantile("turn_seconds_easy", 0.95))
        print([round(t, 3) for t in turns])
    assert max(queued) >= 2, "the hard tables were not busy"
    assert hard_done > TURNS, hard_done
    print(f"easy-bot turn p95 {p95:.3f} s (delay {BOT_DELAY} s), max {turns[-1]:.3f} s, hard decisions {hard_done}")
    assert p95 <= BOT_DELAY + 0.1, (p95, turns)
