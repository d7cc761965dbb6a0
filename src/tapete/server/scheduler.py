"""Fair, supervised scheduling of worker jobs: bot decisions, hints, replays, rebuilds.

Jobs wait in *lanes* (one per table, one per client for replays), each first in, first
out; idle workers serve the lanes round-robin, so a table's bots never wait behind
another table's queue. ``light`` jobs (easy and normal bots, hints) also have workers of
their own, so a flood of hard searches delays them by one light job at most. Replays
and analyses take at most all but one of the general workers.

Supervision: a worker that dies (``kill -9``) or runs over the job's time is replaced and
the job goes back to the head of its lane, up to ``Limits.decision_attempts`` tries.
A job's ``degrade`` hook sets its search budget when it is dispatched: smaller under
pressure (more heavy jobs waiting than workers) and after a try ran over its time.
``health()`` and ``metrics`` show queue lengths, waits, run times and restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapete.server.errors import ServerError
from tapete.server.jobs import JobResult
from tapete.server.limits import Limits
from tapete.server.metrics import Metrics
from tapete.server.pool import JobFailed, Worker, WorkerLost

log = logging.getLogger("tapete.server")

Degrade = Callable[[dict[str, Any], int], dict[str, Any]]
"""``(args, pressure) -> args`` with the search budget for that pressure (0: full)."""

RESTART_PAUSE = 0.5
"""Seconds between restarts of a worker that keeps dying at once."""
BULK_KINDS = frozenset({"replay", "analyze"})
"""Jobs a person asks for (record replays, analyses): together they take at most all but one general worker."""


@dataclass(eq=False)
class Job:
    """One piece of work waiting for, or running in, a worker."""

    kind: str
    lane: str
    args: dict[str, Any]
    raw: bytes
    light: bool
    timeout: float
    future: asyncio.Future[JobResult]
    degrade: Degrade | None = None
    enqueued: float = field(default_factory=time.monotonic)
    attempts: int = 0
    overruns: int = 0
    pressure: int = 0


@dataclass(eq=False)
class Slot:
    """A worker place: the current worker, whether it serves only light jobs, what it runs."""

    name: str
    light_only: bool
    worker: Worker | None = None
    job: Job | None = None
    restarting: bool = False


class Scheduler:
    """Lanes of jobs served round-robin by supervised workers."""

    def __init__(
        self,
        make_worker: Callable[[str], Worker],
        *,
        workers: int,
        light_workers: int = 1,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.make_worker = make_worker
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.slots = [Slot(f"worker-{i}", False) for i in range(max(1, workers))]
        self.slots += [Slot(f"light-{i}", True) for i in range(max(0, light_workers))]
        self.lanes: dict[str, deque[Job]] = {}
        self._waiting: Counter[tuple[bool, str]] = Counter()
        """Jobs waiting in the lanes by (light, kind): counted as they come and go, never by a scan."""
        self.running_replays = 0
        self.stopping = False
        self._tasks: set[asyncio.Task[None]] = set()

    # --- life -------------------------------------------------------------------------
    async def start(self) -> None:
        """Start every worker (in parallel)."""
        await asyncio.gather(*(self._start_slot(s) for s in self.slots))

    async def _start_slot(self, slot: Slot) -> None:
        worker = self.make_worker(slot.name)
        await worker.start()
        slot.worker = worker

    async def stop(self) -> None:
        """Fail the waiting jobs, stop the workers."""
        self.stopping = True
        for lane in self.lanes.values():
            for job in lane:
                if not job.future.done():
                    job.future.set_exception(ServerError("busy", "the server is stopping"))
        self.lanes.clear()
        self._waiting.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await asyncio.gather(*(s.worker.stop() for s in self.slots if s.worker is not None), return_exceptions=True)

    # --- submitting -------------------------------------------------------------------
    def waiting(self, *, light: bool | None = None, kind: str | None = None) -> int:
        """Jobs waiting for a worker (of one class, one kind)."""
        return sum(
            n
            for (is_light, job_kind), n in self._waiting.items()
            if (light is None or is_light == light) and (kind is None or job_kind == kind)
        )

    async def submit(
        self,
        kind: str,
        lane: str,
        args: dict[str, Any],
        raw: bytes = b"",
        *,
        light: bool = False,
        timeout: float = 10.0,
        degrade: Degrade | None = None,
        max_waiting: int | None = None,
    ) -> JobResult:
        """Queue a job on ``lane`` and wait for its answer; ``busy`` when the queues are full.

        Raises ``ServerError`` (``busy`` after the last try, ``too_slow`` when a job that
        cannot be made smaller ran over its time, or the job's own refusal code).
        """
        if self.stopping:
            raise ServerError("busy", "the server is stopping")
        queue = self.lanes.get(lane)
        if (queue is not None and len(queue) >= self.limits.lane_queue) or self.waiting() >= self.limits.decision_queue:
            self.metrics.count("jobs_refused_busy")
            raise ServerError("busy", "too many jobs are waiting for a worker")
        if max_waiting is not None and self.waiting(kind=kind) >= max_waiting:
            self.metrics.count("jobs_refused_busy")
            raise ServerError("busy", f"too many {kind} jobs are waiting")
        job = Job(kind, lane, args, raw, light, timeout, asyncio.get_running_loop().create_future(), degrade)
        self.lanes.setdefault(lane, deque()).append(job)
        self._waiting[job.light, job.kind] += 1
        self._pump()
        return await job.future

    # --- dispatching ------------------------------------------------------------------
    def _pressure(self, job: Job) -> int:
        """0 normally; 1 or 2 when heavy jobs wait beyond the workers; at least the overruns."""
        general = sum(1 for s in self.slots if not s.light_only)
        waiting = self.waiting(light=False)
        load = 0 if waiting < general else (1 if waiting < 4 * general else 2)
        return max(load, job.overruns)

    def _eligible(self, slot: Slot, job: Job) -> bool:
        if slot.light_only and not job.light:
            return False
        if job.kind in BULK_KINDS:
            general = sum(1 for s in self.slots if not s.light_only)
            return self.running_replays < max(1, general - 1)
        return True

    def _pick(self, slot: Slot) -> Job | None:
        """The head job of the first lane (round-robin order) this slot may run.

        The lanes are looked at only up to the first that has such a job (usually the first).
        """
        found: str | None = None
        for name, lane in self.lanes.items():
            if lane and self._eligible(slot, lane[0]):
                found = name
                break
        if found is None:
            return None
        lane = self.lanes.pop(found)
        job = lane.popleft()
        self._waiting[job.light, job.kind] -= 1
        if lane:
            self.lanes[found] = lane  # the lane goes to the back of the round
        return job

    def _pump(self) -> None:
        """Give each idle worker a job; light slots first so light jobs go there."""
        if self.stopping:
            return
        for slot in sorted(self.slots, key=lambda s: not s.light_only):
            if slot.job is not None or slot.restarting or slot.worker is None:
                continue
            job = self._pick(slot)
            if job is None:
                continue
            if job.future.done():  # its caller went away
                continue
            slot.job = job
            self._spawn(self._run(slot, job))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, slot: Slot, job: Job) -> None:
        worker = slot.worker
        assert worker is not None
        job.pressure = self._pressure(job)
        args = job.degrade(job.args, job.pressure) if job.degrade is not None else job.args
        if job.kind in BULK_KINDS:
            self.running_replays += 1
        started = time.monotonic()
        self.metrics.observe(f"{job.kind}_wait_seconds", started - job.enqueued)
        lost = False
        try:
            result = await worker.run(job.kind, args, job.raw, job.timeout)
        except WorkerLost as exc:
            lost = True
            self._lost(slot, job, str(exc), overran="ran over" in str(exc))
        except JobFailed as exc:
            self.metrics.count(f"{job.kind}_failed")
            if not job.future.done():
                job.future.set_exception(_refusal(exc))
        else:
            self.metrics.observe(f"{job.kind}_seconds", time.monotonic() - started)
            self.metrics.count(f"{job.kind}_done")
            if not job.future.done():
                job.future.set_result(result)
        finally:
            if job.kind in BULK_KINDS:
                self.running_replays -= 1
            slot.job = None
            if lost:
                slot.restarting = True
                self._spawn(self._restart(slot))
            self._pump()

    def _lost(self, slot: Slot, job: Job, why: str, *, overran: bool) -> None:
        """A worker is gone mid-job: try the job again (smaller when it ran over), or give up."""
        log.warning("%s lost during a %s job (%s); replacing it", slot.name, job.kind, why)
        self.metrics.count("worker_restarts")
        self.metrics.observe("worker_lost", 1.0)
        job.attempts += 1
        if overran:
            job.overruns += 1
            self.metrics.count(f"{job.kind}_overruns")
        if job.future.done():
            return
        if overran and job.degrade is None:
            job.future.set_exception(ServerError("too_slow", f"the {job.kind} ran over {job.timeout:g} s"))
        elif job.attempts >= self.limits.decision_attempts:
            self.metrics.count(f"{job.kind}_given_up")
            job.future.set_exception(ServerError("busy", f"the {job.kind} failed {job.attempts} times"))
        else:
            self.metrics.count(f"{job.kind}_retried")
            lane = self.lanes.pop(job.lane, deque())
            lane.appendleft(job)
            self._waiting[job.light, job.kind] += 1
            self.lanes = {job.lane: lane, **self.lanes}  # first in the next round

    async def _restart(self, slot: Slot) -> None:
        """Replace a lost worker; pause between tries while it keeps failing to start."""
        old = slot.worker
        if old is not None:
            with contextlib.suppress(Exception):
                await old.stop()
        while not self.stopping:
            try:
                await self._start_slot(slot)
                break
            except Exception as exc:
                log.error("%s could not be restarted (%s)", slot.name, type(exc).__name__)
                self.metrics.count("worker_start_failures")
                await asyncio.sleep(RESTART_PAUSE)
        slot.restarting = False
        self._pump()

    # --- health -----------------------------------------------------------------------
    def pids(self) -> list[int]:
        return [p for s in self.slots if s.worker is not None and (p := s.worker.pid) is not None]

    def health(self) -> dict[str, Any]:
        """``status`` (``ok``, ``degraded``, ``failing``) and the facts behind it."""
        m = self.metrics
        up = [s for s in self.slots if s.worker is not None and s.worker.alive() and not s.restarting]
        general_up = sum(1 for s in up if not s.light_only)
        wait_p95 = m.quantile("decide_wait_seconds", 0.95, seconds=60)
        reasons: list[str] = []
        if len(up) < len(self.slots):
            reasons.append("a worker is being replaced")
        if m.recent("worker_lost", seconds=300):
            reasons.append("a worker was lost in the last 5 minutes")
        if wait_p95 > 1.0:
            reasons.append("bot decisions wait over 1 s for a worker")
        if self.waiting(light=False) >= sum(1 for s in self.slots if not s.light_only):
            reasons.append("heavy searches are queued: search budgets reduced")
        status = "failing" if general_up == 0 else ("degraded" if reasons else "ok")
        return {
            "status": status,
            "reasons": reasons,
            "workers": len(self.slots),
            "workers_up": len(up),
            "busy_workers": sum(1 for s in self.slots if s.job is not None),
            "queue_length": self.waiting(),
            "lanes": len(self.lanes),
            "worker_restarts": m.counters["worker_restarts"],
            "decision_wait_p95": round(wait_p95, 4),
            "decision_seconds_p50": round(m.quantile("decide_seconds", 0.5, seconds=60), 4),
            "decision_seconds_p95": round(m.quantile("decide_seconds", 0.95, seconds=60), 4),
        }


def _refusal(exc: JobFailed) -> Exception:
    """A job's own failure as the caller sees it: its ``TapeteError`` code when it had one."""
    from tapete.errors import ACTION_CODES
    from tapete.server.errors import SERVER_CODES

    if exc.code is not None and (exc.code in SERVER_CODES or exc.code in ACTION_CODES):
        return ServerError(exc.code, exc.detail)
    return exc


__all__ = ["Degrade", "Job", "Scheduler", "Slot"]
