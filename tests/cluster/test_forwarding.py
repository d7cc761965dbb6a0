"""A socket on one node plays at a table another node owns: messages are forwarded, views come back."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tapete.server.cluster.lease import Leases
from tapete.server.db import Store
from tapete.server.deltas import ViewReader
from tapete.server.errors import ServerError
from tapete.server.messages import error_message
from tests.cluster.nodes import Cluster, create_table, open_socket, recv_json


@pytest.fixture
def cluster(pg: tuple[str, str], rd: tuple[str, str], tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(pg, rd, logs=str(tmp_path))
    yield c
    c.stop_all()


def metric_counts(url: str) -> dict[str, int]:
    """The log's, the bus's and the cluster's figures in a node's ``/metrics``."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    kept = ("tapete_log_", "tapete_bus_", "tapete_cluster_")
    return {line.split()[0]: int(line.split()[1]) for line in text.splitlines() if line.startswith(kept)}


def test_a_socket_plays_through_another_node(cluster: Cluster, pg: tuple[str, str]) -> None:
    a = cluster.start("a")
    b = cluster.start("b")
    t = create_table(a, "runfast", ["human", "human", "easy"], seed=11)
    tid, token = t["table"], t["seats"][0]["token"]
    # HTTP calls about the table are answered by its owner, the lobby lists every node's tables
    info = httpx.get(f"{b}/api/tables/{tid}", timeout=10)
    assert info.status_code == 200 and info.json()["id"] == tid
    assert tid in {x["id"] for x in httpx.get(f"{b}/api/tables", timeout=10).json()}
    assert tid in {x["id"] for x in httpx.get(f"{a}/api/tables", timeout=10).json()}
    handed = httpx.post(
        f"{b}/api/tables/{tid}/seats/1/bot", json={"creator_token": t["creator_token"], "level": "easy"}, timeout=10
    )
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][1]["bot_playing"] is True
    refused = httpx.post(f"{b}/api/tables/{tid}/seats/1/bot", json={"creator_token": "x" * 32, "level": "easy"})
    assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
    with open_socket(b) as ws, open_socket(b) as spectator:
        spectator.send(json.dumps({"type": "hello", "table": tid, "spectate": True}))
        assert recv_json(spectator)["type"] == "welcome"
        ws.send(json.dumps({"type": "hello", "table": tid, "token": token, "lang": "es", "deltas": True}))
        welcome = recv_json(ws)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["role"] == "player"
        health_a, health_b = (httpx.get(f"{u}/healthz", timeout=10).json() for u in (a, b))
        assert health_a["node"] == "a" and health_a["leases"] == 1 and health_a["sockets_of_other_nodes"] == 2
        assert health_b["node"] == "b" and health_b["leases"] == 0 and health_b["sockets_forwarded"] == 2
        state: dict[str, Any] | None = None
        acked = changes = 0
        over = False
        reader = ViewReader()  # states come as changes, through the owner and the bus
        while not over:
            m = recv_json(ws)
            if m["type"] == "state":
                if state is not None and state["view"]["to_act"] == 0 and m["last_action"]["seat"] == 0:
                    acked += 1
                view = reader.read(m)
                assert view is not None, "a change that does not follow the view before it"
                changes += "view" not in m
                state = {**m, "view": view}
                if view["to_act"] == 0 and view["legal_actions"]:
                    ws.send(json.dumps({"type": "action", "version": m["version"], "action": view["legal_actions"][0]}))
            elif m["type"] == "game_over":
                over = True
            else:
                assert m["type"] in ("seats", "hand_over"), m
        # a refusal comes back from the owner, in the socket's language, answering the message
        ws.send(json.dumps({"type": "action", "id": 5, "version": 0, "action": {"seat": 0, "play": "pass"}}))
        refusal = recv_json(ws)
        while refusal["type"] != "error":
            refusal = recv_json(ws)
        assert refusal == {**error_message(ServerError("game_over", "the game is over"), "es", 5)}
        ws.send(json.dumps({"type": "sync"}))  # the whole view equals the one rebuilt from changes
        whole = recv_json(ws)
        while whole["type"] != "state":
            whole = recv_json(ws)
        assert state is not None and whole["version"] == state["version"] and whole["view"] == state["view"]
        assert changes > 10
        ws.send(json.dumps({"type": "ping", "id": 7}))
        pong = recv_json(ws)
        while pong["type"] != "pong":
            pong = recv_json(ws)
        assert pong["ref"] == 7
        # the spectator on node b saw the same game end
        seen = [recv_json(spectator) for _ in range(3)]
        assert "state" in {m["type"] for m in seen}
    assert state is not None and acked > 0
    store = Store(pg[0], prefix=pg[1])
    leases = Leases(store)
    try:
        writers = leases.writers_of(tid)
        assert len(writers) == store.count_events(tid) == state["version"]
        assert {(node, epoch) for _, node, epoch in writers} == {("a", 1)}  # only the owner wrote
        assert leases.store.status(tid) == "finished"
    finally:
        store.dispose()
    # nothing was lost on the bus (every message arrived in its sender's numbering)
    assert [httpx.get(f"{u}/healthz", timeout=10).json()["bus_losses"] for u in (a, b)] == [0, 0]
    # the owner's /metrics count the commits of its fenced log; the other node wrote nothing
    counts = {u: metric_counts(u) for u in (a, b)}
    assert counts[a]["tapete_log_events_total"] == state["version"]
    assert 1 <= counts[a]["tapete_log_commits_total"] <= state["version"]
    assert counts[b]["tapete_log_events_total"] == counts[b]["tapete_log_commits_total"] == 0
    # and say what went through the bus, and that nothing of it was lost
    for u in (a, b):
        assert counts[u]["tapete_cluster_nodes_live"] == 2
        assert counts[u]["tapete_bus_losses_total"] == counts[u]["tapete_bus_dropped_total"] == 0
        assert counts[u]["tapete_bus_published_bytes_total"] > counts[u]["tapete_bus_published_total"] > 0
        assert counts[u]["tapete_bus_received_total"] > 0
    assert counts[a]["tapete_cluster_takeovers_total"] == counts[a]["tapete_cluster_leases_lost_total"] == 0
    # a finished table is read back by whichever node is asked
    with open_socket(b) as ws:
        ws.send(json.dumps({"type": "hello", "table": tid, "spectate": True}))
        assert recv_json(ws)["type"] == "welcome"


def test_a_seat_taken_through_another_node_is_bound_to_the_account(cluster: Cluster, pg: tuple[str, str]) -> None:
    """A guest whose socket joins on a node that does not own the table gets the seat bound to
    their account (the shared log says the table is open), and its game goes to their history."""
    from websockets.sync.client import connect

    from tapete.players.store import PlayersStore
    from tests.cluster.nodes import ws_url

    a = cluster.start("a")
    b = cluster.start("b")
    t = create_table(a, "runfast", ["human", "easy", "easy"], seed=5)
    tid, token = t["table"], t["seats"][0]["token"]
    guest = httpx.post(f"{b}/api/guest", timeout=10).json()
    bearer = {"Authorization": f"Bearer {guest['token']}"}
    with connect(ws_url(b), open_timeout=10, close_timeout=1, additional_headers=bearer) as ws:
        ws.send(json.dumps({"type": "hello", "table": tid, "token": token}))
        assert recv_json(ws)["type"] == "welcome"
        store = Store(pg[0], prefix=pg[1])
        try:
            players = PlayersStore(store)
            accounts = players.seat_accounts(tid)
            waited = time.monotonic() + 10  # the owner node writes the binding after the forward
            while not accounts and time.monotonic() < waited:
                time.sleep(0.05)
                accounts = players.seat_accounts(tid)
            assert list(accounts) == [0]
            account = players.account(accounts[0])
            assert account is not None and account.name == guest["player"]["name"]
        finally:
            store.dispose()
        while (m := recv_json(ws))["type"] != "game_over":
            if m["type"] == "state" and m["view"]["to_act"] == 0 and m["view"]["legal_actions"]:
                ws.send(
                    json.dumps({"type": "action", "version": m["version"], "action": m["view"]["legal_actions"][0]})
                )
    for _ in range(100):  # the owner writes the history once the game is over
        history = httpx.get(f"{b}/api/players/{guest['player']['name']}/history", timeout=10).json()
        if history["total"]:
            break
        time.sleep(0.1)
    assert [g["table"] for g in history["games"]] == [tid]
