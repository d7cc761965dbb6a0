"""Nodes of a test cluster run in this process (``create_app`` with cluster settings, under
Starlette's test client), on the real PostgreSQL and Redis, so that a test can slow one part down."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

from starlette.testclient import TestClient

from tapete.server import create_app
from tapete.server.cluster.node import ClusterNode, ClusterSettings
from tapete.server.limits import Limits


class Nodes:
    """In-process nodes of one cluster (one PostgreSQL prefix, one Redis prefix)."""

    def __init__(self, pg: tuple[str, str], rd: tuple[str, str]) -> None:
        self.pg, self.rd = pg, rd
        self.stack = ExitStack()

    def start(self, node_id: str, limits: Limits | None = None) -> TestClient:
        settings = ClusterSettings(self.rd[0], node_id=node_id, redis_prefix=self.rd[1])
        app = create_app(
            self.pg[0],
            table_prefix=self.pg[1],
            bot_delay=0.0,
            bot_executor="thread",
            next_hand_wait=0.0,
            limits=limits,
            cluster=settings,
        )
        return self.stack.enter_context(TestClient(app))


def node_of(client: TestClient) -> ClusterNode:
    node = client.app.state.hub.ownership  # type: ignore[attr-defined]
    assert isinstance(node, ClusterNode)
    return node


def new_table(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/tables", json={"profile": "runfast", "seats": ["human", "easy", "easy"]})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def table_for_seat_zero(client: TestClient) -> tuple[str, str]:
    """A new table (a person in seat 0, two bots) made through ``client``: its id and seat 0's token."""
    t = new_table(client)
    return t["table"], t["seats"][0]["token"]


def wait_until(check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
