"""Issue 16, item 6: a finished table keeps answering ``game_over`` after a restart.

The restarted server reads the finished table back from the log (its record replayed in
a worker) the first time someone asks for it.
"""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from tests.server.helpers import Player, create_table, make_app


def test_a_finished_table_answers_game_over_after_a_restart(db: tuple[str, str]) -> None:
    url, prefix = db
    with TestClient(make_app(url, table_prefix=prefix)) as c:
        t = create_table(c, "runfast", ["human", "easy", "easy"])
        tid, token = t["table"], t["seats"][0]["token"]
        c.post(f"/api/tables/{tid}/seats/0/bot", json={"creator_token": t["creator_token"], "level": "easy"})
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{tid}").json()["status"] != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(tid, token)
            before = p.recv_type("game_over")
        version = c.get(f"/api/tables/{tid}").json()["version"]
        assert version > 0 and before["version"] == version  # the same game_over as those there got
    with TestClient(make_app(url, table_prefix=prefix)) as c:
        info = c.get(f"/api/tables/{tid}").json()
        assert info["status"] == "finished" and info["deal"] == "secret"
        assert info["version"] == version  # its events counted, though not read
        for who in (token, None):
            with c.websocket_connect("/ws") as ws:
                p = Player(ws)
                welcome = p.hello(tid, who)
                assert welcome["type"] == "welcome" and welcome["version"] == version
                after = p.recv_type("game_over")
                assert after == before
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            assert p.hello("no-such-table", token)["code"] == "no_table"
