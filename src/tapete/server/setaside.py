"""Tables nobody is at, set aside: out of memory and out of the open count until someone asks.

A table whose players all left before the end would otherwise stay in memory, be rebuilt at
every start and count against ``Limits.open_tables`` for ever, until a server that had seen
enough of them refused every new table (``server_full``). Every ``check_every`` seconds, an
unfinished table that nobody (player or spectator) has been connected to for
``Limits.abandoned_seconds``, and that waits on a person (no bot is to act), is marked ``idle``
in the log's database (on a node of a cluster, together with giving its lease up) and leaves
memory. It is not rebuilt at start and no node takes it over; a ``hello`` or a call that names
it reads it back from the log (``Hub.find_table``; on a cluster, the node asked takes it), and
the game goes on from where it stood.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from tapete.server.db import error_name

if TYPE_CHECKING:
    from tapete.server.hub import Hub
    from tapete.server.table import Table

log = logging.getLogger("tapete.server")

CLOSE_SET_ASIDE = 1012
"""The close code of a socket at a table being set aside: it reconnects and reads it back."""


class SetAside:
    """The hub's idle tables: found, marked ``idle`` and let go."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._moving: dict[str, asyncio.Event] = {}
        """Tables being set aside now (set once each is done)."""
        self._task: asyncio.Task[None] | None = None
        self.set_aside = 0
        """Tables set aside since the start."""

    @property
    def check_every(self) -> float:
        """Seconds between two looks for idle tables."""
        return min(60.0, max(0.05, self.hub.limits.abandoned_seconds / 4))

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="set-aside")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def due(self, table: Table) -> bool:
        """Whether ``table`` is idle: unfinished, nobody at it for a while, waiting on a person."""
        after = self.hub.limits.abandoned_seconds
        return not table.closed and not table.is_over() and table.abandoned(after) and table.waits_on_a_person()

    async def settled(self, table_id: str, within: float | None = None) -> None:
        """Wait while ``table_id`` is being set aside (for at most ``within`` seconds, if given)."""
        moving = self._moving.get(table_id)
        if moving is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(moving.wait(), within)

    async def sweep(self) -> int:
        """Set aside every idle table; how many were."""
        done = 0
        for table in [t for t in self.hub.tables.values() if self.due(t)]:
            if not table.lock.locked():  # an action being written: not idle, and not waited on
                done += await self._set_aside(table)
        return done

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.check_every)
            try:
                await self.sweep()
            except Exception as exc:
                log.error("setting idle tables aside failed (%s)", error_name(exc))

    async def _set_aside(self, table: Table) -> bool:
        hub = self.hub
        if table.id in self._moving:
            return False

        async def mark() -> bool:
            return bool(await hub.db(hub.store.set_aside, table.id))

        # under the table's lock, so that an action or a seat's hand-over under way ends first,
        # and due again at the moment it leaves memory: a socket that joined meanwhile keeps it
        async with table.lock:
            if hub.tables.get(table.id) is not table or not self.due(table):
                return False
            moving = self._moving[table.id] = asyncio.Event()
            del hub.tables[table.id]  # whoever asks for it now waits (``settled``), then reads it back
            try:
                done = await hub.ownership.set_aside(table.id, mark)
            except BaseException:
                if hub.tables.setdefault(table.id, table) is not table:  # taken again meanwhile
                    table.closed = True
                raise
            finally:
                del self._moving[table.id]
                moving.set()
            table.closed = True  # before anyone waiting on the lock goes on with it
        for client in table.clients():  # none, being idle; should one be there, it asks again
            client.close(CLOSE_SET_ASIDE)
        await table.close()  # set aside, or no longer this process's (a lease lost meanwhile)
        if done:
            self.set_aside += 1
            hub.metrics.count("tables_set_aside")
            log.info("table %s set aside: nobody at it for %.0f s", table.id, hub.limits.abandoned_seconds)
        return done


__all__ = ["SetAside"]
