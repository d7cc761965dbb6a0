"""Issue 16, item 4: deals are secret.

A table's seed comes from the CSPRNG (128 bits) and reaches nobody before the game is
over; a seed the creator chose is told to every seat and spectator (``info``,
``welcome``) and the finished record says where the seed came from.
"""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from tapete.server.hub import SEED_BITS, new_seed
from tests.server.helpers import Player, create_table, make_app, play_hand_as


def test_server_seeds_have_128_bits_and_stay_secret_until_the_end(sqlite_url: str) -> None:
    assert SEED_BITS >= 128 and max(new_seed() for _ in range(64)) >= 1 << 120
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "runfast", ["human", "easy", "easy"])
        tid = t["table"]
        assert t["info"]["deal"] == "secret" and "seed" not in t["info"]
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            welcome = p.hello(tid, t["seats"][0]["token"])
            assert welcome["deal"] == "secret" and "seed" not in welcome
            record = c.get(f"/api/tables/{tid}/record")
            assert (record.status_code, record.json()["code"]) == (409, "wrong_phase")
            stored = c.app.state.hub.tables[tid].seed  # type: ignore[attr-defined]
            assert stored.bit_length() > 64
            seen = json.dumps(p.seen) + json.dumps(c.get(f"/api/tables/{tid}").json())
            assert str(stored) not in seen
            play_hand_as(p, stop="game_over")  # the one deal of Run Fast
        final = c.get(f"/api/tables/{tid}/record").json()
        assert final["seed"] == stored and final["seed_source"] == "server"


def test_a_creator_seed_is_told_to_every_seat_and_spectator(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        t = create_table(c, "cutthroat", ["human", "human", "human"], seed=1234)
        tid = t["table"]
        assert (t["info"]["deal"], t["info"]["seed"]) == ("creator_seed", "1234")
        assert c.get(f"/api/tables/{tid}").json()["seed"] == "1234"
        assert {x["id"]: x for x in c.get("/api/tables").json()}[tid]["deal"] == "creator_seed"
        for token in [s["token"] for s in t["seats"]] + [None]:
            with c.websocket_connect("/ws") as ws:
                welcome = Player(ws).hello(tid, token)
                assert (welcome["deal"], welcome["seed"]) == ("creator_seed", "1234"), welcome
