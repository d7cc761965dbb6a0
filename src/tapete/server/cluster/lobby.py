"""The other nodes' open tables for the lobby's list: each node asked at most once at a time, and
its answer kept for a moment.

Every ``GET /api/tables`` on a node shows the open tables of every live node. Were each call to
ask every other node, a burst of calls (a client opening hundreds at once) would send as many
requests, and bring back as many lists, each up to a few hundred tables, into one node's inbox:
enough to pass what Redis holds for a subscriber that reads late, which then drops the
subscription and, with it, messages the node's players were waiting for. :class:`PeerTables`
asks each node once at a time, whoever is waiting for its answer, and serves calls from that
answer for ``FRESH_SECONDS``: a node receives at most one list a second from each other node,
however many calls arrive.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final

FRESH_SECONDS: Final = 1.0
"""How long another node's tables are shown from its last answer before it is asked again."""

Tables = list[dict[str, Any]]
AskTables = Callable[[str], Awaitable[Tables]]
"""Ask a node for its open tables (an empty list when it does not answer in time)."""


class PeerTables:
    """The open tables of other nodes, asked through ``ask``: one question in flight a node, each
    answer (or its failure, an empty list) kept for ``fresh`` seconds."""

    def __init__(self, ask: AskTables, *, fresh: float = FRESH_SECONDS, clock: Callable[[], float] = time.monotonic):
        self._ask = ask
        self.fresh = fresh
        self.clock = clock
        self._kept: dict[str, tuple[float, Tables]] = {}
        self._asking: dict[str, asyncio.Future[Tables]] = {}
        self.asked = 0
        """Questions sent to other nodes."""

    async def of(self, nodes: Iterable[str]) -> list[Tables]:
        """The open tables of each of ``nodes`` (the live nodes but this one); the answers kept of
        nodes not among them are forgotten."""
        wanted = list(nodes)
        for gone in set(self._kept) - set(wanted):
            del self._kept[gone]
        return list(await asyncio.gather(*(self._of(n) for n in wanted)))

    async def _of(self, node: str) -> Tables:
        kept = self._kept.get(node)
        if kept is not None and self.clock() - kept[0] < self.fresh:
            return kept[1]
        asking = self._asking.get(node)
        if asking is None:
            asking = self._asking[node] = asyncio.ensure_future(self._ask_and_keep(node))
        # a caller that gives up (its client went away) leaves the question to the others
        return await asyncio.shield(asking)

    async def _ask_and_keep(self, node: str) -> Tables:
        try:
            self.asked += 1
            try:
                tables = await self._ask(node)
            except Exception:
                tables = []
            self._kept[node] = (self.clock(), tables)
            return tables
        finally:
            del self._asking[node]


__all__ = ["FRESH_SECONDS", "PeerTables"]
