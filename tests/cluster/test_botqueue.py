"""Bot decisions on a Redis stream: workers answer, a dead worker's job is taken by another, nodes use them."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

import tapete
from tapete.cluster_worker import cmd_worker
from tapete.server.botpool import decision_args
from tapete.server.cluster import botqueue
from tapete.server.cluster.botqueue import (
    GROUP,
    RECLAIM_MS,
    RemoteDecisions,
    ensure_group,
    serve_decisions,
    stream_name,
)
from tapete.server.cluster.bus import Bus, channel
from tapete.server.errors import ServerError
from tapete.server.jobs import decide
from tapete.server.limits import Limits
from tests.cluster.nodes import Cluster, create_table, open_socket, recv_json

UNREACHED = "redis://127.0.0.1:1/0"
"""A Redis URL for a client whose commands are replaced (it never connects)."""


def observation(seed: int) -> dict[str, Any]:
    game = tapete.new_game("runfast", seed=seed)
    assert game.to_act is not None
    return game.observation(game.to_act)


def job(rid: str, seed: int, ttl: float = 60.0) -> dict[str, Any]:
    """A job as a node writes it, asked now."""
    obs = observation(seed)
    args = decision_args("normal", seed, obs)
    return {"id": rid, "node": "n1", "args": args, "ttl": ttl, "deadline": time.time() + ttl}


def old_job(rid: str, seed: int, deadline: float) -> dict[str, Any]:
    """A job as a node of an earlier version writes it: a deadline on its clock, no ``ttl``."""
    obs = observation(seed)
    return {"id": rid, "node": "n1", "args": decision_args("normal", seed, obs), "deadline": deadline}


def skew_worker_clock(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Set the worker's wall clock ``seconds`` ahead of the others' (behind if negative)."""
    real = time.time
    clock = SimpleNamespace(time=lambda: real() + seconds, monotonic=time.monotonic, sleep=time.sleep)
    monkeypatch.setattr(botqueue, "time", clock)


def replies(pubsub: Any, n: int, timeout: float) -> dict[str, Any]:
    """The first ``n`` replies on ``pubsub`` by request id (fewer if ``timeout`` passes)."""
    got: dict[str, Any] = {}
    end = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < end:
        m = pubsub.get_message(timeout=0.2)
        if m is not None:
            body = json.loads(m["data"])
            got[body["id"]] = body
    return got


def settled(r: Any, stream: str) -> None:
    """Wait until the worker has acknowledged and deleted every job on ``stream``."""
    end = time.monotonic() + 2.0
    while r.xlen(stream) and time.monotonic() < end:
        time.sleep(0.02)
    time.sleep(0.05)  # and waits on the stream again


def worker_thread(url: str, prefix: str, seconds: float, served: list[int]) -> threading.Thread:
    """A worker answering for ``seconds`` in a thread; it appends how many jobs it answered to ``served``."""
    t = threading.Thread(target=lambda: served.append(serve_decisions(url, prefix, "w1", stop_after=seconds)))
    t.start()
    return t


@dataclass
class Working:
    """A worker answering in a thread, and node ``n1``'s inbox, where its replies arrive."""

    r: Any
    inbox: Any
    stream: str
    worker: threading.Thread
    served: list[int]
    """How many jobs the worker answered, once it stopped."""


@contextlib.contextmanager
def working(rd: tuple[str, str], seconds: float) -> Iterator[Working]:
    """A worker answering for ``seconds``, with ``n1``'s inbox open to read its replies."""
    import redis

    url, prefix = rd
    r = redis.Redis.from_url(url)
    inbox: Any = cast(Any, r).pubsub(ignore_subscribe_messages=True)
    inbox.subscribe(channel(prefix, "n1"))
    served: list[int] = []
    w = Working(r, inbox, stream_name(prefix), worker_thread(url, prefix, seconds, served), served)
    try:
        yield w
    finally:
        w.worker.join(5)
        inbox.close()
        r.close()


def test_a_decision_that_cannot_be_sent_leaves_no_request_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    async def scenario() -> None:
        bus = Bus(UNREACHED, "p:", "n1")
        calls = 0

        async def refused(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            raise redis.exceptions.ConnectionError("Redis is down")

        monkeypatch.setattr(bus.redis, "xadd", refused)
        bots = RemoteDecisions(bus, "p:", Limits())
        try:
            for _ in range(3):  # a table asks again every few seconds
                with pytest.raises(redis.exceptions.ConnectionError):
                    await bots.decide("t1", "normal", 1, observation(3))
            assert calls == 3
            assert bus._waiting == {}
        finally:
            await bus.redis.aclose()

    asyncio.run(scenario())


def test_a_decision_cancelled_while_sent_leaves_no_request_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        bus = Bus(UNREACHED, "p:", "n1")
        sending = asyncio.Event()

        async def unanswered(*args: Any, **kwargs: Any) -> Any:
            sending.set()
            await asyncio.Event().wait()  # Redis never answers

        monkeypatch.setattr(bus.redis, "xadd", unanswered)
        bots = RemoteDecisions(bus, "p:", Limits())
        try:
            task = asyncio.create_task(bots.decide("t1", "normal", 1, observation(3)))
            await asyncio.wait_for(sending.wait(), 2)
            task.cancel()  # the table closes (as on a takeover)
            with pytest.raises(asyncio.CancelledError):
                await task
            assert bus._waiting == {}
        finally:
            await bus.redis.aclose()

    asyncio.run(scenario())


def test_a_node_knows_how_long_no_worker_has_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions waiting with no worker taking them show in ``unanswered_for`` (which makes the
    node's ``/healthz`` say ``degraded``); a worker's answer, or no decision waiting, sets it to 0."""

    async def scenario() -> None:
        bus = Bus(UNREACHED, "p:", "n1")
        sent: list[dict[str, Any]] = []

        async def xadd(stream: str, fields: dict[str, Any], **kwargs: Any) -> Any:
            sent.append(json.loads(fields["job"]))

        monkeypatch.setattr(bus.redis, "xadd", xadd)
        bots = RemoteDecisions(bus, "p:", Limits(decision_seconds=0.6))
        try:
            assert bots.unanswered_for() == 0.0
            waiting = asyncio.create_task(bots.decide("t1", "normal", 1, observation(3)))
            await asyncio.sleep(0.4)
            assert 0.3 < bots.unanswered_for() < 0.6
            with pytest.raises(ServerError):
                await waiting  # nobody answered in time
            assert bots.unanswered_for() == 0.0
            answered = asyncio.create_task(bots.decide("t1", "normal", 1, observation(3)))
            await asyncio.sleep(0.1)
            action = observation(3)["legal_actions"][0]
            fut = bus._waiting[sent[-1]["id"]]
            fut.set_result({"k": "rep", "id": sent[-1]["id"], "action": action})  # a worker's reply
            assert (await answered)[0] == action
            assert bots.unanswered_for() == 0.0 and time.monotonic() - bots.answered_at < 0.2
        finally:
            await bus.redis.aclose()

    asyncio.run(scenario())


def test_a_nodes_job_carries_its_time_to_live_and_a_deadline_for_older_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import redis

    async def scenario() -> None:
        bus = Bus(UNREACHED, "p:", "n1")
        sent: list[dict[str, Any]] = []

        async def xadd(stream: str, fields: dict[str, Any], **kwargs: Any) -> Any:
            sent.append(json.loads(fields["job"]))
            raise redis.exceptions.ConnectionError("Redis is down")  # no worker answers here

        monkeypatch.setattr(bus.redis, "xadd", xadd)
        bots = RemoteDecisions(bus, "p:", Limits(decision_seconds=7.0))
        try:
            with pytest.raises(redis.exceptions.ConnectionError):
                await bots.decide("t1", "normal", 1, observation(3))
        finally:
            await bus.redis.aclose()
        [sent_job] = sent
        assert sent_job["ttl"] == 7.0
        assert abs(sent_job["deadline"] - (time.time() + 7.0)) < 1.0

    asyncio.run(scenario())


def test_a_worker_whose_clock_runs_ahead_answers_a_fresh_job(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    skew_worker_clock(monkeypatch, 60.0)  # far past the job's deadline on the node's clock
    with working(rd, 1.5) as w:
        j = job("r1", 3, ttl=10.0)
        w.r.xadd(w.stream, {"job": json.dumps(j)})
        got = replies(w.inbox, 1, 3.0)
        assert set(got) == {"r1"} and got["r1"]["action"] == decide(j["args"], b"")[0]


def test_a_worker_whose_clock_runs_behind_drops_a_stale_job(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    skew_worker_clock(monkeypatch, -60.0)  # still before the stale job's deadline on the node's clock
    with working(rd, 1.5) as w:
        seconds, micros = w.r.time()
        asked_ms = seconds * 1000 + micros // 1000 - 20_000  # asked 20 s ago on Redis's clock
        stale = job("r1", 3, ttl=10.0)
        stale["deadline"] -= 20.0
        w.r.xadd(w.stream, {"job": json.dumps(stale)}, id=f"{asked_ms}-0")
        w.r.xadd(w.stream, {"job": json.dumps(job("r2", 4, ttl=10.0))})
        assert set(replies(w.inbox, 1, 3.0)) == {"r2"}  # the jobs are taken in order
        w.worker.join(5)
        assert w.served == [1] and w.r.xlen(w.stream) == 0
        assert w.r.xpending(w.stream, GROUP)["pending"] == 0


def test_a_worker_judges_an_older_nodes_job_by_its_deadline(rd: tuple[str, str]) -> None:
    """A job with no ``ttl`` is answered until its deadline on the worker's clock, however old its entry."""
    with working(rd, 1.5) as w:
        seconds, micros = w.r.time()
        asked_ms = seconds * 1000 + micros // 1000 - 20_000
        w.r.xadd(w.stream, {"job": json.dumps(old_job("r1", 3, time.time() - 1))}, id=f"{asked_ms}-0")
        w.r.xadd(w.stream, {"job": json.dumps(old_job("r2", 4, time.time() + 10))}, id=f"{asked_ms}-1")
        assert set(replies(w.inbox, 1, 3.0)) == {"r2"}
        w.worker.join(5)
        assert w.served == [1] and w.r.xlen(w.stream) == 0


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


def test_a_worker_goes_on_when_redis_loses_the_stream_or_its_group(
    rd: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="tapete.server")
    with working(rd, 3.0) as w:
        r, stream = w.r, w.stream
        jobs = [job("r1", 3), job("r2", 4), job("r3", 5)]
        r.xadd(stream, {"job": json.dumps(jobs[0])})
        assert set(replies(w.inbox, 1, 3.0)) == {"r1"}
        settled(r, stream)
        r.delete(stream)  # a Redis that lost its data: the stream and its group are gone
        r.xadd(stream, {"job": json.dumps(jobs[1])})  # a node asks at once (the stream comes back, no group)
        assert set(replies(w.inbox, 1, 2.0)) == {"r2"}
        settled(r, stream)
        r.xgroup_destroy(stream, GROUP)  # the group alone is gone
        r.xadd(stream, {"job": json.dumps(jobs[2])})
        got = replies(w.inbox, 1, 2.0)
        assert set(got) == {"r3"} and got["r3"]["action"] == decide(jobs[2]["args"], b"")[0]
        w.worker.join(5)
        assert w.served == [3]
        messages = [rec.getMessage() for rec in caplog.records]
        assert sum("Redis failed" in m for m in messages) == 2  # once an outage
        assert sum("Redis answers again" in m for m in messages) == 2


def test_a_worker_drops_an_entry_that_is_not_a_job(rd: tuple[str, str], caplog: pytest.LogCaptureFixture) -> None:
    """Whatever else lands on the stream (no job, not JSON, a job without its fields) is
    acknowledged and dropped with a warning; the worker goes on with the next job."""
    caplog.set_level(logging.WARNING, logger="tapete.server")
    with working(rd, 2.0) as w:
        for fields in ({"other": "x"}, {"job": "{not json"}, {"job": json.dumps({"id": "r0", "node": "n1"})}):
            w.r.xadd(w.stream, fields)
        w.r.xadd(w.stream, {"job": json.dumps(job("r1", 3))})
        assert set(replies(w.inbox, 1, 3.0)) == {"r1"}
        w.worker.join(5)
        assert w.served == [1] and w.r.xlen(w.stream) == 0
        assert sum("is not a job" in rec.getMessage() for rec in caplog.records) == 3


@pytest.mark.parametrize(
    "failure",
    [
        "ConnectionError:Error 111 connecting to 127.0.0.1:6379. Connection refused.",
        "ReadOnlyError:You can't write against a read only replica.",
        "OutOfMemoryError:command not allowed when used memory > 'maxmemory'.",
        "ResponseError:NOREPLICAS Not enough good replicas to write.",
        "ResponseError:BUSY Redis is busy running a script.",
    ],
)
def test_a_worker_waits_out_a_lost_connection(
    failure: str, rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A lost connection, or a Redis that cannot take writes for a while (a replica during a
    failover, out of memory), is waited out with growing pauses."""
    import redis

    kind, _, text = failure.partition(":")
    error = getattr(redis.exceptions, kind)
    caplog.set_level(logging.WARNING, logger="tapete.server")
    real = redis.Redis.xautoclaim
    calls: list[float] = []

    def flaky(self: redis.Redis, *args: Any, **kwargs: Any) -> Any:
        calls.append(time.monotonic())
        if len(calls) <= 3:
            raise error(text)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "xautoclaim", flaky)
    with working(rd, 2.5) as w:
        j = job("r1", 3)
        w.r.xadd(w.stream, {"job": json.dumps(j)})
        got = replies(w.inbox, 1, 3.0)
        assert set(got) == {"r1"} and got["r1"]["action"] == decide(j["args"], b"")[0]
        pauses = [b - a for a, b in itertools.pairwise(calls[:4])]
        assert all(p >= least for p, least in zip(pauses, (0.19, 0.39, 0.79), strict=True)), pauses  # backing off
        w.worker.join(5)
        assert w.served == [1]
        messages = [rec.getMessage() for rec in caplog.records]
        assert sum("Redis failed" in m for m in messages) == 1  # once for the whole outage
        assert sum("Redis answers again" in m for m in messages) == 1


def test_a_stopped_worker_answers_the_job_in_hand_and_leaves_the_group(
    rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stop`` set while a worker searches: the job is answered and acknowledged, the worker
    returns, and its name leaves the consumer group."""
    import redis

    from tapete.server import jobs

    url, prefix = rd
    real, searching, stop = jobs.run_job, threading.Event(), threading.Event()

    def slow(kind: str, args: Any) -> Any:
        searching.set()
        time.sleep(0.5)
        return real(kind, args)

    monkeypatch.setattr(jobs, "run_job", slow)
    r = redis.Redis.from_url(url)
    inbox: Any = cast(Any, r).pubsub(ignore_subscribe_messages=True)
    inbox.subscribe(channel(prefix, "n1"))
    served: list[int] = []
    worker = threading.Thread(target=lambda: served.append(serve_decisions(url, prefix, "w1", stop=stop)))
    try:
        worker.start()
        stream = stream_name(prefix)
        j = job("r1", 3)
        r.xadd(stream, {"job": json.dumps(j)})
        assert searching.wait(5)
        stop.set()
        worker.join(3)
        assert not worker.is_alive() and served == [1]
        got = replies(inbox, 1, 1.0)
        assert got["r1"]["action"] == decide(j["args"], b"")[0]
        assert r.xpending(stream, GROUP)["pending"] == 0
        assert [c["name"] for c in r.xinfo_consumers(stream, GROUP)] == []
    finally:
        stop.set()
        worker.join(5)
        inbox.close()
        r.close()


def test_a_worker_exits_cleanly_on_sigterm(rd: tuple[str, str]) -> None:
    """``tapete worker`` told to stop by its supervisor (SIGTERM) exits with status 0 and leaves
    the consumer group."""
    import redis

    url, prefix = rd
    command = [sys.executable, "-m", "tapete", "worker", "--redis", url, "--redis-prefix", prefix, "--name", "wq"]
    r = redis.Redis.from_url(url)
    inbox: Any = cast(Any, r).pubsub(ignore_subscribe_messages=True)
    inbox.subscribe(channel(prefix, "n1"))
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None and b"answering bot decisions" in proc.stdout.readline()
        stream = stream_name(prefix)
        r.xadd(stream, {"job": json.dumps(job("r1", 3))})
        assert set(replies(inbox, 1, 30.0)) == {"r1"}
        assert [c["name"] for c in r.xinfo_consumers(stream, GROUP)] == [b"wq"]
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=5)
        assert proc.returncode == 0, err
        assert r.xinfo_consumers(stream, GROUP) == []
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=5)
        inbox.close()
        r.close()


def test_a_worker_stops_on_time_while_redis_is_down(rd: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    def refused(self: redis.Redis, *args: Any, **kwargs: Any) -> Any:
        raise redis.exceptions.ConnectionError("Connection refused.")

    monkeypatch.setattr(redis.Redis, "xautoclaim", refused)
    served: list[int] = []
    start = time.monotonic()
    worker = worker_thread(rd[0], rd[1], 1.0, served)
    worker.join(5)
    assert served == [0] and time.monotonic() - start < 2.5


def test_a_worker_with_a_bad_redis_url_exits_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(redis="redis://127.0.0.1:port/0", redis_prefix="p:", name="", seconds=1.0)
    assert cmd_worker(args) == 2
    assert "bad Redis URL" in capsys.readouterr().err


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


def test_workers_gone_without_leaving_are_forgotten_by_the_next_to_start(rd: tuple[str, str]) -> None:
    """A worker killed after reading a job leaves its name in the group (its job reclaimed by
    others); a worker starting takes out such names once they have read nothing for a while,
    never one with a job pending."""
    import redis

    url, prefix = rd
    r = redis.Redis.from_url(url)
    stream = stream_name(prefix)
    try:
        ensure_group(r.xgroup_create, prefix)
        for name in ("killed", "busy"):
            r.xadd(stream, {"job": "x"})
            entries: Any = r.xreadgroup(botqueue.GROUP, name, {stream: ">"}, count=1)
            if name == "killed":  # its job was reclaimed and answered by another worker
                r.xack(stream, botqueue.GROUP, entries[0][1][0][0])
        time.sleep(0.05)
        assert botqueue.forget_gone_workers(r, stream, idle_ms=10_000) == []  # not idle long enough
        assert botqueue.forget_gone_workers(r, stream, idle_ms=10) == ["killed"]
        assert [c["name"] for c in cast(Any, r.xinfo_consumers(stream, botqueue.GROUP))] == [b"busy"]
    finally:
        r.delete(stream)
        r.close()
