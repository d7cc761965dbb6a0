"""Issue 16, item 2: nothing CPU-heavy on the event loop.

A 1.6 MB record posted to ``/api/replay`` is replayed in a worker: a ping on another
socket meanwhile is answered within 50 ms. The replay has a time budget (``too_slow``)
and a size limit (``too_large``, by ``Content-Length`` and while streaming), and a
finished table's record is served as stored.
"""

from __future__ import annotations

import json
import random
import threading
import time
from functools import cache
from typing import Any

from starlette.testclient import TestClient

import tapete
from tapete.server.limits import MAX_REPLAY_BODY, Limits
from tests.server.helpers import Player, create_table, make_app


@cache
def long_record() -> bytes:
    """A legal record of 900 hands (random play), about 1.6 MB."""
    g = tapete.new_game("cutthroat", seed=1, options={"target": 10000, "floor": None})
    rng = random.Random(0)
    while getattr(g, "hand_number", 0) < 900:
        g.apply(rng.choice(g.legal_actions()))
    return json.dumps(g.record()).encode()


def test_a_large_replay_does_not_delay_a_ping_on_another_socket(sqlite_url: str) -> None:
    body = long_record()
    assert len(body) > 1_500_000
    with TestClient(make_app(sqlite_url, rate_limit=(1000.0, 1000.0))) as c:
        t = create_table(c, "cutthroat", ["human", "human", "human"])
        answers: list[Any] = []

        def post() -> None:
            answers.append(c.post("/api/replay", content=body, headers={"content-type": "application/json"}))

        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"])
            rtts: list[float] = []
            posters = [threading.Thread(target=post) for _ in range(2)]
            for th in posters:
                th.start()
            while any(th.is_alive() for th in posters) or len(rtts) < 20:
                start = time.monotonic()
                p.send({"type": "ping", "id": len(rtts)})
                assert p.recv_type("pong")["ref"] == len(rtts)
                rtts.append(time.monotonic() - start)
                time.sleep(0.005)
            for th in posters:
                th.join()
    assert all(r.status_code == 200 for r in answers), [r.text[:200] for r in answers]
    out = answers[0].json()
    assert out["exit_status"] == 0 and len(out["report"]["hands"]) >= 900
    print(f"ping round trips during two 1.6 MB replays: max {max(rtts) * 1000:.1f} ms over {len(rtts)} pings")
    assert max(rtts) < 0.05, max(rtts)


def test_replays_have_a_time_budget_and_a_size_limit(sqlite_url: str) -> None:
    body = long_record()
    with TestClient(make_app(sqlite_url, limits=Limits(replay_seconds=0.1))) as c:
        slow = c.post("/api/replay", content=body, headers={"accept-language": "es"})
        assert (slow.status_code, slow.json()["code"]) == (422, "too_slow")
        assert slow.json()["message"] == "Esto le llevaría demasiado tiempo al servidor; no se hizo nada."
        deadline = time.monotonic() + 15  # a new worker process starts in well under a second on a quiet machine
        while c.get("/healthz").json()["workers_up"] != 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert c.get("/healthz").json()["workers_up"] == 3  # the overrunning worker was replaced
    with TestClient(make_app(sqlite_url)) as c:
        big = c.post("/api/replay", content=b" " * (MAX_REPLAY_BODY + 1))
        assert (big.status_code, big.json()["code"]) == (413, "too_large")

        def chunks() -> Any:  # no Content-Length: refused while it streams
            for _ in range(MAX_REPLAY_BODY // 65536 + 2):
                yield b" " * 65536

        streamed = c.post("/api/replay", content=chunks())
        assert (streamed.status_code, streamed.json()["code"]) == (413, "too_large")
        bad = c.post("/api/replay?lang=ru", content=b"{nope")
        assert (bad.status_code, bad.json()["code"], bad.headers["content-language"]) == (400, "bad_record", "ru")


def test_a_finished_record_is_served_as_stored(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["easy", "easy", "easy"], seed=4)["table"]
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{t}").json()["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        r = c.get(f"/api/tables/{t}/record")
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        record = r.json()
        assert record["format"] == "tapete-record/1" and record["seed"] == 4 and record["seed_source"] == "creator"
        replayed = c.post("/api/replay", content=r.content).json()
        assert replayed["exit_status"] == 0 and replayed["report"]["finished"] is True
