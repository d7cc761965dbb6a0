"""A table nobody is at, set aside on a node of a cluster: its lease given up with it, taken by no
node's tick, and taken by the node a socket or a call asks for it."""

from __future__ import annotations

import time

from tapete.server.limits import Limits
from tests.cluster.inprocess import Nodes, node_of, table_for_seat_zero, wait_until

LIMITS = Limits(abandoned_seconds=0.4)


def test_a_table_set_aside_is_taken_by_the_node_asked_for_it(nodes: Nodes) -> None:
    a, b = nodes.start("a", LIMITS), nodes.start("b", LIMITS)
    tid, token = table_for_seat_zero(a)  # a person at seat 0, who never comes: it waits on them
    node_a, node_b = node_of(a), node_of(b)
    wait_until(lambda: node_a.hub.idle.set_aside == 1)  # marked idle, not only out of memory
    assert tid not in node_a.hub.tables
    assert tid not in node_a.epochs and node_a.leases.store.status(tid) == "idle"
    assert not node_a.leases.owners([tid])[tid].alive
    time.sleep(1.5)  # three ticks of each node: no node takes it over
    assert tid not in node_a.hub.tables and tid not in node_b.hub.tables
    with b.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "table": tid, "token": token})
        assert ws.receive_json()["type"] == "welcome"
        assert tid in node_b.epochs and node_b.leases.store.status(tid) == "open"
