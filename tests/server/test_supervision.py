"""Issue 16, item 3: workers are supervised and end with their server.

A worker killed in the middle of a decision is replaced and the decision asked again:
every bot still plays its level's own choice (checked against the level run here on the
same seed, observation and search budget), ``/healthz`` shows the loss, and the workers
of a server killed with ``kill -9`` end by themselves (no resource tracker either).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from starlette.testclient import TestClient

from tapete.server.jobs import run_job
from tapete.server.table import Table
from tests.server.helpers import create_table, make_app, start_server


class Decisions:
    """The observer: every bot decision with what it was given."""

    def __init__(self) -> None:
        self.made: list[dict[str, Any]] = []

    def __call__(self, table: Table, seat: int | None, role: str, message: dict[str, Any]) -> None:
        if role == "bot_decision":
            self.made.append(message)


def test_a_worker_killed_mid_decision_is_replaced_and_every_bot_plays_its_level(sqlite_url: str) -> None:
    seen = Decisions()
    app = make_app(sqlite_url, observer=seen, bot_workers=2, bot_extra_delay=0.4)
    with TestClient(app) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        table = create_table(c, "cutthroat", ["hard", "normal", "hard"], seed=5)["table"]
        killed: list[int] = []
        deadline = time.monotonic() + 20
        while len(killed) < 2 and time.monotonic() < deadline:
            busy = [s.worker.pid for s in hub.scheduler.slots if s.job is not None and s.worker and s.worker.pid]
            if busy and busy[0] not in killed:
                time.sleep(0.1)  # well inside the decision
                os.kill(busy[0], signal.SIGKILL)
                killed.append(busy[0])
            time.sleep(0.02)
        assert len(killed) == 2
        while len(seen.made) < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        health = c.get("/healthz").json()
        metrics = c.get("/metrics").text
        version = c.get(f"/api/tables/{table}").json()["version"]
    assert version >= 8
    assert health["worker_restarts"] >= 2 and health["status"] == "degraded", health
    assert "tapete_worker_restarts_total 2" in metrics or "tapete_worker_restarts_total 3" in metrics
    assert len(seen.made) >= 8
    for d in seen.made:
        args = {"level": d["level"], "seed": d["seed"], "observation": d["view"], "params": d["params"]}
        assert run_job("decide", args)[0] == d["action"], d["level"]
    assert {d["level"] for d in seen.made} == {"hard", "normal"}


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text()
        out += [int(x) for x in text.split()]
    return out


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended (nobody reaped it yet)


def test_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    if not Path("/proc/self/task").exists():
        import pytest

        pytest.skip("needs Linux /proc")
    proc = start_server(f"sqlite:///{tmp_path / 't.db'}", bot_workers=2)
    try:
        workers = _children(proc.pid)
        assert len(workers) == 3  # two general workers and the light one; no resource tracker
        for pid in workers:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            assert b"tapete.server.worker" in cmdline and b"resource_tracker" not in cmdline
        assert httpx.get(f"{proc.url}/healthz", timeout=5).json()["status"] == "ok"  # type: ignore[attr-defined]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
    deadline = time.monotonic() + 5
    while any(_running(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in workers if _running(p)]
