"""Bot decisions on a Redis stream: workers answer, a dead worker's job is taken by another, nodes use them."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import tapete
from tapete.server.botpool import decision_args
from tapete.server.cluster.botqueue import GROUP, RECLAIM_MS, ensure_group, serve_decisions, stream_name
from tapete.server.cluster.bus import channel
from tapete.server.jobs import decide
from tests.cluster.nodes import Cluster, create_table, open_socket, recv_json


def job(rid: str, seed: int) -> dict[str, Any]:
    game = tapete.new_game("runfast", seed=seed)
    assert game.to_act is not None
    obs = game.observation(game.to_act)
    return {"id": rid, "node": "n1", "args": decision_args("normal", seed, obs), "deadline": time.time() + 60}


def test_a_worker_answers_and_takes_over_a_dead_workers_job(rd: tuple[str, str]) -> None:
    import redis

    url, prefix = rd
    r = redis.Redis.from_url(url)
    pubsub: Any = cast(Any, r).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel(prefix, "n1"))
    try:
        ensure_group(r.xgroup_create, prefix)
        stream = stream_name(prefix)
        jobs = [job("r1", 3), job("r2", 4)]
        r.xadd(stream, {"job": json.dumps(jobs[0])})
        taken: Any = r.xreadgroup(GROUP, "dead", {stream: ">"}, count=1)  # a worker takes it, then dies
        assert len(taken[0][1]) == 1
        r.xadd(stream, {"job": json.dumps(jobs[1])})
        worker = threading.Thread(target=serve_decisions, args=(url, prefix, "w1"), kwargs={"stop_after": 8.0})
        start = time.monotonic()
        worker.start()
        answers: dict[str, Any] = {}
        while len(answers) < 2 and time.monotonic() - start < 10:
            m = pubsub.get_message(timeout=0.5)
            if m is not None:
                body = json.loads(m["data"])
                answers[body["id"]] = (body, time.monotonic() - start)
        assert set(answers) == {"r1", "r2"}
        for j in jobs:
            body, _ = answers[j["id"]]
            assert body["k"] == "rep" and body["action"] == decide(j["args"], b"")[0]  # the same decision
        assert answers["r1"][1] >= RECLAIM_MS / 1000 - 0.5  # taken over once idle long enough
        worker.join(10)
        assert r.xpending(stream, GROUP)["pending"] == 0 and r.xlen(stream) == 0
    finally:
        pubsub.close()
        r.close()


@pytest.fixture
def cluster(pg: tuple[str, str], rd: tuple[str, str], tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(pg, rd, logs=str(tmp_path))
    yield c
    c.stop_all()


def test_a_node_plays_its_bots_through_workers(cluster: Cluster, rd: tuple[str, str]) -> None:
    url = cluster.start("a", "--remote-bots")
    t = create_table(url, "runfast", ["easy", "easy", "human"], seed=21)
    worker: subprocess.Popen[bytes] | None = None
    try:
        with open_socket(url) as ws:
            ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["seats"][2]["token"]}))
            assert recv_json(ws)["type"] == "welcome"
            state = recv_json(ws)
            while state["type"] != "state":
                state = recv_json(ws)
            if state["view"]["to_act"] != 2:  # the bots wait: no worker yet
                with pytest.raises(TimeoutError):
                    while True:
                        m = recv_json(ws, timeout=1.5)
                        assert m["type"] != "state", "a bot moved without a worker"
            worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tapete",
                    "worker",
                    "--redis",
                    rd[0],
                    "--redis-prefix",
                    rd[1],
                    "--seconds",
                    "60",
                ],
                stdout=subprocess.DEVNULL,
            )
            over = False
            while not over:
                m = recv_json(ws, timeout=20)
                if m["type"] == "state" and m["view"]["to_act"] == 2 and m["view"]["legal_actions"]:
                    ws.send(
                        json.dumps({"type": "action", "version": m["version"], "action": m["view"]["legal_actions"][0]})
                    )
                over = m["type"] == "game_over"
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(10)
