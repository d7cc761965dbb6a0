"""Who may open what: tables per client per minute, open tables per server, sockets per client.

>>> a = Admission(tables_per_minute=2, open_tables=10, sockets_per_client=1)
>>> a.admit_table("1.2.3.4", open_now=0, now=0.0); a.admit_table("1.2.3.4", open_now=1, now=1.0)
>>> a.admit_table("1.2.3.4", open_now=2, now=2.0)
Traceback (most recent call last):
tapete.server.errors.ServerError: too_many_tables: at most 2 new tables a minute from one address
>>> a.admit_table("1.2.3.4", open_now=2, now=61.0)
>>> a.admit_table("5.6.7.8", open_now=10, now=61.0)
Traceback (most recent call last):
tapete.server.errors.ServerError: server_full: the server has 10 open tables, its limit
"""

from __future__ import annotations

import time
from collections import Counter, deque

from tapete.server.errors import ServerError

WINDOW = 60.0
"""Seconds over which table creations are counted."""
MAX_TRACKED = 10000
"""Addresses remembered at most (the oldest are forgotten first)."""


class Admission:
    """Counts per client address (the socket's peer; a proxy in front counts as one client)."""

    def __init__(self, *, tables_per_minute: int, open_tables: int, sockets_per_client: int) -> None:
        self.tables_per_minute = tables_per_minute
        self.open_tables = open_tables
        self.sockets_per_client = sockets_per_client
        self.created: dict[str, deque[float]] = {}
        self.sockets: Counter[str] = Counter()

    def admit_table(self, client: str, *, open_now: int, now: float | None = None) -> None:
        """Count one new table for ``client``; ``too_many_tables`` / ``server_full`` otherwise."""
        now = time.monotonic() if now is None else now
        if open_now >= self.open_tables:
            raise ServerError("server_full", f"the server has {open_now} open tables, its limit")
        stamps = self.created.pop(client, None) or deque()
        while stamps and now - stamps[0] >= WINDOW:
            stamps.popleft()
        self.created[client] = stamps  # most recent client last
        if len(stamps) >= self.tables_per_minute:
            raise ServerError(
                "too_many_tables", f"at most {self.tables_per_minute} new tables a minute from one address"
            )
        stamps.append(now)
        while len(self.created) > MAX_TRACKED:
            del self.created[next(iter(self.created))]

    def open_socket(self, client: str) -> bool:
        """Count a socket of ``client``; ``False`` (not counted) when it has too many."""
        if self.sockets[client] >= self.sockets_per_client:
            return False
        self.sockets[client] += 1
        return True

    def close_socket(self, client: str) -> None:
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]


__all__ = ["Admission"]
