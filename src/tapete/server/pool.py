"""Worker handles: a child process (``tapete.server.worker``) or, for debugging, a thread.

A handle runs one job at a time (``run``) and says how it ended: an answer, a refusal
(``JobFailed``), or the worker's end (``WorkerLost``: it died, or ran over its time and
was killed). The scheduler (:mod:`tapete.server.scheduler`) replaces lost workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from tapete.errors import TapeteError
from tapete.server.jobs import JobResult, run_job
from tapete.server.jsoncodec import dumps

READ_LIMIT = 1 << 20
"""Longest answer header line (answers' bodies travel as raw bytes after it)."""
START_SECONDS = 60.0
"""Time a worker has to start and say it is ready."""


class WorkerLost(Exception):
    """The worker died or ran over its time (and was killed); the job may be tried again."""


class JobFailed(Exception):
    """The job itself failed; ``code`` is the ``TapeteError`` code when it was a refusal."""

    def __init__(self, kind: str, detail: str, code: str | None = None) -> None:
        super().__init__(f"{kind}: {detail}")
        self.code = code
        self.detail = detail


class Worker(Protocol):
    """What the scheduler needs of a worker."""

    name: str

    @property
    def pid(self) -> int | None: ...

    async def start(self) -> None: ...

    async def run(self, kind: str, args: dict[str, Any], raw: bytes, timeout: float) -> JobResult: ...

    def alive(self) -> bool: ...

    async def stop(self) -> None: ...


class ProcessWorker:
    """A ``python -m tapete.server.worker`` child talking over its standard input and output."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.proc: asyncio.subprocess.Process | None = None
        self._next = 0

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tapete.server.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=READ_LIMIT,
        )
        assert self.proc.stdout is not None
        try:
            ready = await asyncio.wait_for(self.proc.stdout.readline(), START_SECONDS)
        except TimeoutError:
            ready = b""
        if not ready.startswith(b'{"ready":true'):
            self.kill()
            raise WorkerLost(f"{self.name} did not start")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def run(self, kind: str, args: dict[str, Any], raw: bytes, timeout: float) -> JobResult:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.stdout is None or proc.returncode is not None:
            raise WorkerLost(f"{self.name} is not running")
        self._next += 1
        head = {"id": self._next, "kind": kind, "args": args, "raw": len(raw)}
        try:
            proc.stdin.write(dumps(head) + b"\n" + raw)
            async with asyncio.timeout(timeout):
                await proc.stdin.drain()
                line = await proc.stdout.readline()
                if not line:
                    raise WorkerLost(f"{self.name} ended")
                answer = json.loads(line)  # the worker's short answer line (exact integers)
                size = int(answer.get("raw") or 0)
                body = await proc.stdout.readexactly(size) if size else b""
        except TimeoutError:
            self.kill()
            raise WorkerLost(f"{self.name} ran over {timeout:g} s") from None
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.kill()
            raise WorkerLost(f"{self.name}: {type(exc).__name__}") from None
        if "error" in answer:
            raise JobFailed(str(answer["error"]), str(answer.get("detail", "")), answer.get("code"))
        return answer.get("ok"), body

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()

    async def stop(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.stdin is not None:
            with contextlib.suppress(Exception):
                proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 2.0)
        except TimeoutError:
            self.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 2.0)


class ThreadWorker:
    """A worker thread in the server's process (``bot_executor="thread"``: debugging, in-process families).

    A job over its time is abandoned (a thread cannot be killed) and the thread replaced.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pool: ThreadPoolExecutor | None = None

    @property
    def pid(self) -> int | None:
        return None

    async def start(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"tapete-{self.name}")

    def alive(self) -> bool:
        return self.pool is not None

    async def run(self, kind: str, args: dict[str, Any], raw: bytes, timeout: float) -> JobResult:
        pool = self.pool
        if pool is None:
            raise WorkerLost(f"{self.name} is not running")
        future = asyncio.get_running_loop().run_in_executor(pool, run_job, kind, args, raw)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
            raise WorkerLost(f"{self.name} ran over {timeout:g} s") from None
        except TapeteError as exc:
            raise JobFailed(type(exc).__name__, exc.message, exc.code) from None
        except Exception as exc:
            raise JobFailed(type(exc).__name__, str(exc)[:300]) from None

    async def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


def make_worker(kind: str, name: str) -> Worker:
    """A worker of ``kind``: ``process`` (default) or ``thread``."""
    return ThreadWorker(name) if kind == "thread" else ProcessWorker(name)


__all__ = ["JobFailed", "ProcessWorker", "ThreadWorker", "Worker", "WorkerLost", "make_worker"]
