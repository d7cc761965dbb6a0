"""Bot decisions on a Redis stream, answered by ``tapete worker`` processes.

A node that sends its bots' decisions away (``--remote-bots``) adds each one to the stream
``{prefix}decisions`` as a job ``{"id", "node", "args", "ttl", "deadline"}`` and waits for
the reply on its bus inbox. Workers read the stream as one consumer group (``XREADGROUP``),
so each job goes to one worker; a worker answers by publishing ``{"k": "rep", "id",
"action"}`` (or ``"error"``) to the asking node's inbox, then acknowledges the job
(``XACK``) and deletes it. A job a worker took but never acknowledged (the worker died)
is taken by another worker once it has been idle ``RECLAIM_MS`` (``XAUTOCLAIM``). A job
older than its time to live (``ttl`` seconds) is acknowledged unanswered, since its table has
asked again meanwhile. Its age is measured on Redis's clock (its entry ID's time against
``TIME``), so the machines' clocks need not agree. ``deadline`` (the node's clock plus ``ttl``)
is for workers of earlier versions; a job from a node of an earlier version carries only that,
and is judged on the worker's clock.

A decision is a pure function of its arguments (:func:`tapete.server.jobs.decide`), so
whichever worker answers, and however often, the table gets the same action.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Final

from tapete.families import family_of
from tapete.server.botpool import decision_args, search_params
from tapete.server.cluster.bus import Bus, BusTimeout, channel
from tapete.server.errors import ServerError
from tapete.server.jsoncodec import dumps, loads
from tapete.server.limits import Limits

log = logging.getLogger("tapete.server")

GROUP: Final = "workers"
"""The consumer group every worker joins."""
RECLAIM_MS: Final = 5000
"""A job unacknowledged this long (its worker died) is taken by another worker.

Well within a decision's time to live (``Limits.decision_seconds``, 10 s by default), so the
other worker still answers in time; a live worker's search stops far sooner
(``botpool.TIME_BUDGET_SECONDS``)."""
GONE_AFTER_MS: Final = 3_600_000
"""A consumer with no job pending that has not read for this long is a worker gone without
leaving; a worker starting takes it out of the group (``forget_gone_workers``)."""
STREAM_LENGTH: Final = 100_000
"""The stream is trimmed to about this many entries."""
GROUP_GONE: Final = ("NOGROUP", "UNBLOCKED")
"""How Redis's errors begin when the stream or its group is gone (``UNBLOCKED``: deleted
while a worker waited on it)."""
PASSING: Final = ("NOREPLICAS", "BUSY", "MASTERDOWN", "LOADING", "TRYAGAIN")
"""How Redis's errors begin when it cannot take the command for a while (too few replicas to
write, a script running, a replica without its primary, a data set being loaded): waited out."""
RETRY_FIRST: Final = 0.2
"""Seconds a worker pauses after Redis first fails; each further failure doubles it."""
RETRY_MAX: Final = 5.0
"""The longest pause between a worker's tries while Redis fails."""


def stream_name(prefix: str) -> str:
    return f"{prefix}decisions"


def ensure_group(create: Callable[..., Any], prefix: str) -> Any:
    """``XGROUP CREATE … MKSTREAM`` unless the group exists (``create`` is a client's ``xgroup_create``)."""
    try:
        return create(stream_name(prefix), GROUP, id="0", mkstream=True)
    except Exception as exc:
        if "BUSYGROUP" not in str(exc):
            raise
        return None


class RemoteDecisions:
    """A node's side: decisions sent to the stream, replies taken from the bus."""

    def __init__(self, bus: Bus, prefix: str, limits: Limits) -> None:
        self.bus = bus
        self.prefix = prefix
        self.limits = limits
        self.asked_since: dict[str, float] = {}
        """The decisions waiting for a worker, with when (``time.monotonic``) each was asked."""
        self.answered_at = time.monotonic()
        """When a worker last answered (or when the node started)."""

    def unanswered_for(self) -> float:
        """Seconds decisions have waited with no worker answering any (0 while none waits or
        workers answer): over ``Limits.decision_seconds``, no worker is taking the jobs."""
        if not self.asked_since:
            return 0.0
        return time.monotonic() - max(self.answered_at, min(self.asked_since.values()))

    async def start(self) -> None:
        try:
            await self.bus.redis.xgroup_create(stream_name(self.prefix), GROUP, id="0", mkstream=True)
        except Exception as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def decide(
        self, lane: str, level: str, seed: int, observation: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A bot's action for ``observation`` from whichever worker takes the job."""
        params = search_params(family_of(observation).name, level, 0)
        args = decision_args(level, seed, observation)
        args["params"] = params
        timeout = self.limits.decision_seconds
        rid, fut = self.bus.expect()
        job = {"id": rid, "node": self.bus.node_id, "args": args, "ttl": timeout, "deadline": time.time() + timeout}
        try:
            await self.bus.redis.xadd(
                stream_name(self.prefix), {"job": dumps(job)}, maxlen=STREAM_LENGTH, approximate=True
            )
        except BaseException:
            self.bus.abandon(rid)
            raise
        self.asked_since[rid] = time.monotonic()
        try:
            answer = await self.bus.wait_reply(rid, fut, timeout)
        except BusTimeout:
            raise ServerError("busy", "no bot worker answered in time") from None
        finally:
            del self.asked_since[rid]
        self.answered_at = time.monotonic()
        if "error" in answer:
            raise ServerError("busy", f"the bot failed: {str(answer['error'])[:100]}")
        return dict(answer["action"]), dict(params)


def read_job(fields: dict[bytes, bytes]) -> dict[str, Any] | None:
    """A stream entry's job (``id``, ``node``, ``args``, ``ttl`` or ``deadline``); ``None`` if it is malformed."""
    try:
        job = loads(fields[b"job"])
        if isinstance(job, dict) and isinstance(job.get("id"), str) and isinstance(job.get("node"), str):
            float(job["ttl"] if "ttl" in job else job["deadline"])
            if "args" in job:
                return job
    except (KeyError, TypeError, ValueError):
        pass
    return None


def redis_millis(answer: Any) -> float:
    """Redis's time in milliseconds from its answer to ``TIME`` (``(seconds, microseconds)``)."""
    seconds, micros = answer
    return int(seconds) * 1000 + int(micros) / 1000


def is_current(job: dict[str, Any], entry_id: bytes, now_ms: float) -> bool:
    """Whether ``job`` may still be answered: its entry (added at the time its ID starts with)
    is at most ``ttl`` seconds old at Redis's time ``now_ms``; a job with no ``ttl`` (from a
    node of an earlier version) is judged by its ``deadline`` on this machine's clock."""
    if "ttl" not in job:
        return time.time() <= float(job["deadline"])
    added_ms = int(entry_id.split(b"-", 1)[0])
    return now_ms - added_ms <= float(job["ttl"]) * 1000


def default_worker_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def serve_decisions(
    url: str, prefix: str, name: str, *, stop_after: float | None = None, stop: threading.Event | None = None
) -> int:
    """Answer decisions from the stream until interrupted, ``stop`` is set or ``stop_after``
    seconds have passed; the number of jobs answered.

    Once ``stop`` is set, the job being answered is answered and acknowledged, the others this
    worker read stay pending for another worker (``RECLAIM_MS``), and the worker leaves the
    consumer group if it holds no job.

    Redis must answer at the start. Afterwards a lost connection, a Redis that lost the
    stream or its consumer group, or one that cannot take writes for a while (a replica during
    a failover, out of memory, a cluster that is down) is waited out: the worker tries again, pausing
    ``RETRY_FIRST`` seconds and twice as long each time up to ``RETRY_MAX``, creates the
    group again and goes on. A command unanswered for 10 s counts as a lost connection.
    """
    import redis

    from tapete.server.jobs import run_job
    from tapete.server.worker import warm_up

    warm_up()
    r = redis.Redis.from_url(url, socket_timeout=10.0, socket_connect_timeout=5.0, socket_keepalive=True)
    stream = stream_name(prefix)
    ensure_group(r.xgroup_create, prefix)
    forget_gone_workers(r, stream)
    end = None if stop_after is None else time.monotonic() + stop_after
    done = 0
    pause = 0.0  # the pause before the next try while Redis fails, else 0
    stopping = stop if stop is not None else threading.Event()
    try:
        while not stopping.is_set() and (end is None or time.monotonic() < end):
            try:
                if pause:
                    ensure_group(r.xgroup_create, prefix)
                claimed: Any = r.xautoclaim(stream, GROUP, name, min_idle_time=RECLAIM_MS, start_id="0-0", count=8)
                entries = [e for e in claimed[1] if e and e[1]]
                if not entries:
                    got: Any = r.xreadgroup(GROUP, name, {stream: ">"}, count=1, block=500)
                    entries = list(got[0][1]) if got else []
                read_ms = redis_millis(r.time()) if entries else 0.0
                read_at = time.monotonic()
                if pause:
                    log.warning("worker %s: Redis answers again", name)
                    pause = 0.0
                for entry_id, fields in entries:
                    if stopping.is_set():
                        break
                    job = read_job(fields)
                    if job is None:
                        log.warning("worker %s: entry %r of the stream is not a job; dropped", name, entry_id)
                    elif is_current(job, entry_id, read_ms + (time.monotonic() - read_at) * 1000):
                        try:
                            action, _ = run_job("decide", job["args"])
                            answer: dict[str, Any] = {"action": action}
                        except Exception as exc:
                            answer = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
                        body = {"k": "rep", "id": job["id"], **answer}
                        r.publish(channel(prefix, str(job["node"])), dumps(body))
                        done += 1
                    r.xack(stream, GROUP, entry_id)
                    r.xdel(stream, entry_id)
            except (
                redis.exceptions.ConnectionError,
                redis.exceptions.TimeoutError,
                redis.exceptions.ResponseError,
            ) as err:
                passing = (
                    redis.exceptions.ReadOnlyError,  # a replica during a failover
                    redis.exceptions.OutOfMemoryError,
                    redis.exceptions.ClusterDownError,  # MASTERDOWN among them
                    redis.exceptions.TryAgainError,
                )
                if (
                    isinstance(err, redis.exceptions.ResponseError)
                    and not isinstance(err, passing)
                    and not str(err).startswith(GROUP_GONE + PASSING)
                ):
                    raise
                if not pause:
                    log.warning(
                        "worker %s: Redis failed (%s: %s); trying again", name, type(err).__name__, str(err)[:200]
                    )
                pause = min(RETRY_MAX, 2 * pause) if pause else RETRY_FIRST
                left = pause if end is None else end - time.monotonic()
                stopping.wait(max(0.0, min(pause, left)))
        leave_group(r, stream, name)
    finally:
        r.close()
    return done


def forget_gone_workers(r: Any, stream: str, idle_ms: int = GONE_AFTER_MS) -> list[str]:
    """Take out of the group the consumers with no job pending that have not read for
    ``idle_ms``: workers killed without leaving (their jobs were reclaimed by others), whose
    names (host and process id) would otherwise pile up; their names. Nothing if Redis fails."""
    import redis

    gone: list[str] = []
    try:
        for consumer in r.xinfo_consumers(stream, GROUP):
            name = consumer["name"].decode() if isinstance(consumer["name"], bytes) else str(consumer["name"])
            if int(consumer["pending"]) == 0 and int(consumer["idle"]) > idle_ms:
                r.xgroup_delconsumer(stream, GROUP, name)
                gone.append(name)
    except redis.RedisError:
        pass
    return gone


def leave_group(r: Any, stream: str, name: str) -> None:
    """Take consumer ``name`` out of the group if no job waits on it (a worker that stops cleanly
    leaves no name behind); nothing if Redis fails meanwhile."""
    import redis

    try:
        if not r.xpending_range(stream, GROUP, min="-", max="+", count=1, consumername=name):
            r.xgroup_delconsumer(stream, GROUP, name)
    except redis.RedisError:
        pass


__all__ = [
    "GONE_AFTER_MS",
    "GROUP",
    "PASSING",
    "RECLAIM_MS",
    "RETRY_FIRST",
    "RETRY_MAX",
    "RemoteDecisions",
    "default_worker_name",
    "ensure_group",
    "forget_gone_workers",
    "leave_group",
    "serve_decisions",
    "stream_name",
]
