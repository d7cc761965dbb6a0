"""Who owns which table: the questions the hub and the socket loop ask, and the one-process answers.

A single server process owns every table, writes every event, and has every socket's
table at hand: ``LocalOwnership`` answers so, doing nothing. ``ClusterNode``
(:mod:`tapete.server.cluster.node`) answers for a node among several.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from tapete.server.connection import Connection
    from tapete.server.db import TableRow
    from tapete.server.hub import Hub
    from tapete.server.table import Decide

Append = Callable[[str, int, int, dict[str, Any], dict[str, Any] | None], Awaitable[None]]
"""``(table_id, seq, hand, action, final_record)``: write one event to the log."""
StoreTable = Callable[["TableRow"], Awaitable[None]]
"""Store a new table's rows (the hub's way: ``Store.insert_table`` in its database thread)."""
SetOverride = Callable[[str, int, str | None, bool], Awaitable[None]]
"""``(table_id, seat, level, on)``: store that a human seat is (or no longer is) played by a bot."""
Step = Callable[[], Awaitable[bool]]
"""The hub's own way of doing a step (in one process), and whether it was done."""
Figure = tuple[str, Literal["gauge", "counter"], int]
"""A figure for ``/metrics``: its name (without ``tapete_`` and a counter's ``_total``), kind and value."""


class Ownership(Protocol):
    """What the hub needs to know about owning tables."""

    async def start(self, hub: Hub) -> bool:
        """Start; ``True`` when the hub should rebuild every unfinished table itself."""

    async def hand_off(self) -> None:
        """The server begins to stop (before it waits for the calls in flight): what this process
        holds that others could serve goes to them now."""

    async def stop(self) -> None:
        """Give up what this process holds."""

    async def store_table(self, row: TableRow, store: StoreTable) -> None:
        """Store a table created here (``store`` is the hub's own way) and make it this process's."""

    def appender(self, append: Append) -> Append:
        """The way a table's events are written (``append`` is the hub's own)."""

    def decider(self, decide: Decide) -> Decide:
        """The way a table's bots decide (``decide`` is the hub's worker pool)."""

    def overrider(self, set_override: SetOverride) -> SetOverride:
        """The way a seat handed to a bot or back is stored (``set_override`` is the hub's own)."""

    async def intercept(self, conn: Connection, msg: dict[str, Any], text: str) -> bool:
        """Handle a checked client message elsewhere; ``True`` when it was (nothing more to do here)."""

    def joined(self, conn: Connection) -> bool:
        """Whether ``conn`` joined a table through another process (its own ``table`` is then unset)."""

    def health(self) -> dict[str, Any]:
        """What ``/healthz`` says about ownership (nothing for one process); a ``status`` and
        ``reasons`` in it join the hub's (the worse status wins)."""

    def log_counts(self) -> tuple[int, int]:
        """Commits and events written through :meth:`appender`'s own log, not the hub's (``/metrics``)."""

    def metrics(self) -> list[Figure]:
        """Ownership's own figures for ``/metrics`` (none for one process)."""

    async def set_aside(self, table_id: str, mark: Step) -> bool:
        """Store that a table nobody is at is set aside (``idle``; the hub's way: ``mark``), and
        stop holding it; whether it was done (the table then leaves memory)."""

    async def revive(self, table_id: str, load: Step) -> bool:
        """Bring a table set aside (or open but not held here) back into memory (the hub's way:
        ``load``); whether it is now held here."""

    def socket_closed(self, conn: Connection) -> None:
        """A socket of this process closed."""


class LocalOwnership:
    """One process: every table is its own, written through the hub's log, its bots in its workers."""

    async def start(self, hub: Hub) -> bool:
        return True

    async def hand_off(self) -> None:
        return None  # nobody else could serve this process's tables

    async def stop(self) -> None:
        return None

    async def store_table(self, row: TableRow, store: StoreTable) -> None:
        await store(row)

    def appender(self, append: Append) -> Append:
        return append

    def decider(self, decide: Decide) -> Decide:
        return decide

    def overrider(self, set_override: SetOverride) -> SetOverride:
        return set_override

    async def intercept(self, conn: Connection, msg: dict[str, Any], text: str) -> bool:
        return False

    def joined(self, conn: Connection) -> bool:
        return False

    def health(self) -> dict[str, Any]:
        return {}

    def log_counts(self) -> tuple[int, int]:
        return 0, 0

    def metrics(self) -> list[Figure]:
        return []

    async def set_aside(self, table_id: str, mark: Step) -> bool:
        return await mark()

    async def revive(self, table_id: str, load: Step) -> bool:
        return await load()

    def socket_closed(self, conn: Connection) -> None:
        return None


__all__ = ["Append", "Figure", "LocalOwnership", "Ownership", "SetOverride", "Step", "StoreTable"]
