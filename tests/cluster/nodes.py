"""Nodes of a test cluster: real ``tapete serve`` processes on one PostgreSQL prefix and one Redis prefix."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import free_port


@dataclass
class Cluster:
    """Where the nodes keep their state: ``(db url, table prefix)`` and ``(redis url, key prefix)``."""

    db: tuple[str, str]
    redis: tuple[str, str]
    nodes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    logs: str = field(default_factory=lambda: tempfile.mkdtemp(prefix="tapete-nodes-"))

    def command(self, node_id: str, port: int, *extra: str) -> list[str]:
        """The ``tapete serve`` command of one node (as ``docs/deploy.md`` gives it)."""
        return [
            sys.executable, "-m", "tapete", "serve", "--port", str(port),
            "--db", self.db[0], "--table-prefix", self.db[1],
            "--redis", self.redis[0], "--redis-prefix", self.redis[1],
            "--node-id", node_id, "--bot-delay", "0", "--next-hand-wait", "0", *extra,
        ]  # fmt: skip

    def start(self, node_id: str, *extra: str) -> str:
        """Start a node; its base URL once ``/healthz`` answers."""
        port = free_port()
        log = f"{self.logs}/{node_id}.log"
        with open(log, "ab") as err:
            proc = subprocess.Popen(self.command(node_id, port, *extra), stdout=subprocess.DEVNULL, stderr=err)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(self.log(node_id))
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    self.nodes[node_id], self.urls[node_id] = proc, url
                    return url
            except httpx.HTTPError:
                time.sleep(0.1)
        proc.kill()
        raise AssertionError(f"node {node_id} did not start")

    def log(self, node_id: str) -> str:
        """What a node wrote on standard error."""
        with open(f"{self.logs}/{node_id}.log", encoding="utf-8", errors="replace") as f:
            return f.read()

    def kill(self, node_id: str) -> None:
        """``kill -9`` a node."""
        proc = self.nodes.pop(node_id)
        proc.kill()
        proc.wait(10)
        self.urls.pop(node_id)

    def stop_all(self) -> None:
        for proc in self.nodes.values():
            proc.terminate()
        for proc in self.nodes.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        self.nodes.clear()


def create_table(url: str, profile: str, seats: list[Any], seed: int) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/tables", json={"profile": profile, "seats": seats, "seed": seed}, timeout=10)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def ws_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/ws"


def open_socket(url: str) -> ClientConnection:
    return connect(ws_url(url), open_timeout=10, close_timeout=1)


def recv_json(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    m: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return m
