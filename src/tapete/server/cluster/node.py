"""One node of a cluster: leases and failover, sockets joined to tables owned elsewhere.

Every ``tick`` (half a second) a node says it is alive, renews the leases of its tables
(dropping those it lost), takes the leases of open tables nobody holds (their owner died,
or stopped) and rebuilds them from the log, forgets the sockets of nodes that died,
closes its own sockets whose table's owner changed, so their clients reconnect, and tells
every other live node which of its sockets are joined to that node's tables (``links``), so
that an owner forgets any socket whose ``bye`` it missed, and which kinds of message it reads
(so that one state for many of its sockets can come as one message, ``remote.Outbox``). Between
nodes that read them, ``links`` carry the number and sum of those sockets, and their list only
when the owner, finding the sum not its own, asks for it (and once in a while).

A socket's ``hello`` for an open table that another live node owns is forwarded there
(request/reply on the bus); so is every later message of that socket, one at a time and
in order. The owner runs it through the same handlers as a local socket's, with a
``RemoteConnection`` in place of the socket: everything the table sends that socket comes
back on the bus, addressed to it, and is passed on unread. A ``hello`` for an open table
with no live owner takes the table here. A socket that cannot reach its table's owner
(no reply in ``REQUEST_SECONDS``, or the owner no longer knows it) is closed with code
1012 (so is one whose table's lease changes hands, which ``tick`` sees within half a
second); its client reconnects to any node, says ``hello`` and gets the full current view.
A ``hello`` that arrives while this node rebuilds the table waits for it; one for a table
this node does not hold is answered ``gone``. When the bus says messages from a node were
lost, the sockets they concern are closed the same way; so are those an owner says it does
not know (it answers a ``links`` entry it does not hold with ``close``).

A node cut off keeps nothing it cannot serve. Each table's lease is known good until a lease
after the start of the renewal (or claim) that last kept it; past that, the table leaves
memory and its sockets are closed, whether or not the database answers (``_watch_leases``):
the lease may have moved. A node whose inbox hears nothing (Redis unreachable from it) stops
beating and closes its sockets joined elsewhere; if after ``CUT_OFF_AFTER`` another node has
beaten without a break for ``OTHERS_LIVE_FOR`` (so it is not merely the first to hear again after
an outage for all), it gives its tables up so that they can take them, and takes none until it
has heard again for ``HEARD_AGAIN_FOR``; ``/healthz`` then says ``failing``, so that the load
balancer sends it no sockets. (When Redis is down for every node, none beats, and each keeps
its tables.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from starlette.types import ASGIApp

from tapete.errors import TapeteError
from tapete.server.cluster.botqueue import RemoteDecisions
from tapete.server.cluster.bus import DEAD_AFTER, PING_AFTER, Bus, BusTimeout
from tapete.server.cluster.fencedlog import FencedLog
from tapete.server.cluster.httproute import forwarded_table, run_request
from tapete.server.cluster.lease import LEASE_SECONDS, NODE_SECONDS, LeaseLost, Leases, NodeNameInUse, Owner
from tapete.server.cluster.lobby import PeerTables
from tapete.server.cluster.ownership import Append, Figure, SetOverride, Step, StoreTable
from tapete.server.cluster.remote import (
    GATHERED,
    READS,
    SUMMED_LINKS,
    Outbox,
    RemoteConnection,
    addressed,
    links_sum,
)
from tapete.server.connection import Connection
from tapete.server.db import error_name
from tapete.server.errors import ServerError
from tapete.server.protocol import Shared, parse_message
from tapete.server.repeats import RepeatedFailure
from tapete.server.table import Decide, Table

if TYPE_CHECKING:
    from tapete.server.db import TableRow
    from tapete.server.hub import Hub

log = logging.getLogger("tapete.server")

CLOSE_MOVED: Final = 1012
"""Close code of a socket whose table moved to another node (the client reconnects)."""
HELLO_SECONDS: Final = 3.0
"""How long a forwarded ``hello`` waits for the owner's reply."""
REQUEST_SECONDS: Final = 15.0
"""How long a later forwarded message waits (a hint may take a while; an owner's death is
noticed sooner by its lease, which closes the socket)."""
TAKE_WAIT_SECONDS: Final = HELLO_SECONDS - 1.0
"""How long a forwarded ``hello`` waits here for its table to be rebuilt (less than its node waits
for the answer); then it is answered ``gone`` and the socket reconnects."""
TAKE_AT_ONCE: Final = 4
"""Tables a node rebuilds at the same time when it takes over a dead node's."""
CUT_OFF_AFTER: Final = DEAD_AFTER + NODE_SECONDS + PING_AFTER + 3.0
"""Seconds a node's inbox hears nothing before, if other nodes still beat, the node gives its
tables up: by then any node that stopped hearing at about the same time (Redis down for all)
has stopped beating long enough to count as gone."""
OTHERS_LIVE_FOR: Final = CUT_OFF_AFTER - DEAD_AFTER
"""Seconds another node must have been alive without a break before it shows that this node,
which hears nothing, is cut off alone: after an outage of Redis for every node, the first node
to hear again beats at once, and one that hears a moment later must not take that for being cut
off."""
HEARING_WITHIN: Final = PING_AFTER + 1.5
"""An inbox that heard something this recently hears: a working one is pinged when quiet."""
HEARD_AGAIN_FOR: Final = 5.0
"""Seconds a cut-off node's inbox must keep hearing before it takes tables again (a flaky link
does not make its tables come and go)."""
LIST_SECONDS: Final = 1.0
"""How long the lobby's list waits for another node's tables."""
HAND_OFF_WAIT_SECONDS: Final = 5.0
"""Longest a stopping node waits for a table it is taking over, or for an action being written,
before it gives its tables up."""
FULL_LINKS_EVERY: Final = 60
"""Every this many ticks a node's ``links`` carry the list of its sockets even where the sums agree."""
FORGET_AFTER: Final = 30.0
"""Seconds a node must be gone before this one forgets its messages' numbering (a beat that
flickers does not read as lost messages)."""


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """``fn(*args)``, with the ``time.monotonic`` just before it ran (taken in the thread that runs
    it, so that a wait for a free thread does not count)."""
    began = time.monotonic()
    return began, fn(*args)


def hello_table(text: str) -> str | None:
    """The table a ``hello`` message names (``None`` if it is not one: its handler answers)."""
    try:
        msg = parse_message(text)
    except TapeteError:
        return None
    table = msg.get("table") if msg.get("type") == "hello" else None
    return table if isinstance(table, str) else None


def as_sent(text: str) -> Shared:
    """A message that goes to its socket as ``text``, exactly as its owner encoded it."""
    message = Shared()
    message.data = text.encode("utf-8")
    return message


@dataclass(frozen=True)
class ClusterSettings:
    """How a node joins its cluster."""

    redis_url: str
    node_id: str = ""
    """This node's name (default: a random one); unique in the cluster."""
    redis_prefix: str = "tapete:"
    """Prefix of every Redis key and channel (one cluster per prefix)."""
    remote_bots: bool = False
    """Bot decisions go to ``tapete worker`` processes through Redis instead of this node's workers."""
    lease_seconds: float = LEASE_SECONDS
    tick_seconds: float = 0.5


@dataclass
class Link:
    """A socket of this node joined to a table owned by another node."""

    conn: Connection
    table_id: str
    owner: str
    epoch: int
    joined: bool = False
    """The owner answered the ``hello``: the socket is joined there."""


class ClusterNode:
    """The ``Ownership`` of a node among several (see the module's description)."""

    def __init__(self, settings: ClusterSettings) -> None:
        self.settings = settings
        self.node_id = settings.node_id or f"n-{uuid.uuid4().hex[:10]}"
        self._hub: Hub | None = None
        self._leases: Leases | None = None
        self._bus: Bus | None = None
        self._log: FencedLog | None = None
        self.bots: RemoteDecisions | None = None
        self.epochs: dict[str, int] = {}
        """The tables this node holds a lease on, with its epoch."""
        self._good_until: dict[str, float] = {}
        """When (``time.monotonic``) each held lease may have run out, unless renewed meanwhile."""
        self._db_answered_at = time.monotonic()
        """When the last tick that reached the database began."""
        self.cut_off = False
        """This node's inbox hears nothing while other nodes live: it holds no tables."""
        self.stopping = False
        """The node began to stop (:meth:`hand_off`): it holds and takes no tables."""
        self._hearing_since: float | None = time.monotonic()
        """Since when the inbox hears again (``None`` while it hears nothing)."""
        self._live_since: dict[str, float] = {}
        """Since when (``time.monotonic``) each live node has been seen alive without a break."""
        self._absent_since: dict[str, float] = {}
        """Nodes this one has numbered messages with that are not live, since when."""
        self._lease_pool = ThreadPoolExecutor(1, thread_name_prefix="tapete-leases")
        """The thread of the ticks' statements (heartbeats, renewals, the search for orphans), so
        that a busy database pool does not hold them back until the leases run out."""
        self._taking: dict[str, asyncio.Future[bool]] = {}
        self.links: dict[str, Link] = {}
        self._outbox: Outbox | None = None
        self._links_told = 0
        """Ticks that told the other nodes this node's sockets joined to their tables."""
        self._lists_asked: set[str] = set()
        """Nodes that asked for the list of this node's sockets joined to their tables."""
        self._conn_ids: dict[Connection, str] = {}
        self.remotes: dict[tuple[str, str], RemoteConnection] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._gate = asyncio.Semaphore(TAKE_AT_ONCE)
        self.app: ASGIApp | None = None
        """The node's ASGI application, which answers HTTP calls forwarded from other nodes."""
        self.takeovers = 0
        """Tables this node took over from another node (or rebuilt after losing them)."""
        self.leases_lost = 0
        """Tables this node lost because their lease was gone when it wrote or renewed."""
        self.peer_tables = PeerTables(self._tables_of)
        """Other nodes' open tables for the lobby's list."""
        self._ticking = RepeatedFailure(log, "the cluster's tick", "trying again at the next")
        self._watching = RepeatedFailure(log, "watching the leases", "trying again")

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the node has not started"
        return self._hub

    @property
    def leases(self) -> Leases:
        assert self._leases is not None, "the node has not started"
        return self._leases

    @property
    def bus(self) -> Bus:
        assert self._bus is not None, "the node has not started"
        return self._bus

    @property
    def outbox(self) -> Outbox:
        assert self._outbox is not None, "the node has not started"
        return self._outbox

    # --- life -------------------------------------------------------------------------------
    async def start(self, hub: Hub) -> bool:
        self._hub = hub
        self._leases = Leases(hub.store, lease_seconds=self.settings.lease_seconds)
        await hub.db(self.leases.create_schema)
        self._log = FencedLog(self.leases, self.node_id, hub.db)
        self._bus = Bus(self.settings.redis_url, self.settings.redis_prefix, self.node_id)
        self._outbox = Outbox(self._bus, self.node_id)
        await self.bus.start(self._on_message, self._lost_messages, listening=False)
        await self._take_name()
        if self.settings.remote_bots:
            self.bots = RemoteDecisions(self.bus, self.settings.redis_prefix, hub.limits)
            await self.bots.start()
        await hub.db(self.leases.beat, self.node_id)
        self._db_answered_at = time.monotonic()
        self._ticker = asyncio.create_task(self._tick_loop(), name="cluster-tick")
        self._watcher = asyncio.create_task(self._watch_leases(), name="cluster-lease-watch")
        log.info("node %s joined the cluster", self.node_id)
        return False

    async def _take_name(self) -> None:
        """Make ``node_id`` this process's, or raise ``NodeNameInUse``. Its inbox is held first,
        unheard, so that nothing sent once the name is taken (and the node alive to the others)
        is missed, and nothing sent to another process under that name meanwhile is answered or
        judged; the leases a former holder left are given up."""
        left = await self.hub.db(self.leases.wait_for_name, self.node_id)
        if left == 0:
            await self.hub.db(self.leases.release_all, self.node_id)
            self.bus.listen()
            if await self.hub.db(self.leases.take_name, self.node_id):
                return
            left = NODE_SECONDS  # another process took it meanwhile
        await self.bus.stop()
        raise NodeNameInUse(self.node_id, left)

    async def hand_off(self) -> None:
        """The node begins to stop: it gives every table up at once, so that the other nodes take
        them while this one still finishes the calls in flight. It beats, renews and takes no
        more; each table stops taking actions and bots, an action being written reaches the log
        and its sockets first, then the leases are given up together, the node stops counting as
        alive, and the tables' sockets (and this node's sockets joined elsewhere) are closed with
        1012, so that they reconnect to the node that takes each table. Later messages for those
        tables are answered ``gone``, as for any table not held here."""
        if self.stopping:
            return
        self.stopping = True
        for task in (self._ticker, self._watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        pending = list(self._taking.values())
        if pending:  # a take already past its claim ends with the table here, and given up below
            await asyncio.wait(pending, timeout=HAND_OFF_WAIT_SECONDS)
        tables = [t for table_id in list(self.epochs) if (t := self.hub.tables.pop(table_id, None)) is not None]
        for table in tables:
            await table.close()
        for table in tables:
            try:
                async with asyncio.timeout(HAND_OFF_WAIT_SECONDS):
                    async with table.lock:  # the action being written, if any, is in the log now
                        pass
            except TimeoutError:
                pass
        try:
            await self.hub.db(self.leases.release_all, self.node_id)
            await self.hub.db(self.leases.leave, self.node_id)
        except Exception as exc:  # the leases run out by themselves
            log.warning("node %s could not give its tables up (%s)", self.node_id, type(exc).__name__)
        self.epochs.clear()
        self._good_until.clear()
        for table in tables:
            self._close_sockets(table)
        for cid in list(self.links):
            self._unlink(cid, close=True)
        log.info("node %s gave up %d tables as it stops", self.node_id, len(tables))

    async def stop(self) -> None:
        await self.hand_off()
        for t in list(self._tasks):
            t.cancel()
        for cid in list(self.links):
            self._unlink(cid, close=True)
        for table_id in list(self.epochs):  # taken while the node stopped
            with contextlib.suppress(Exception):
                await self.hub.db(self.leases.release, table_id, self.node_id)
        self.epochs.clear()
        if self._log is not None:
            await self._log.close()
        if self._leases is not None:
            await self.hub.db(self._leases.close)
        if self._bus is not None:
            await asyncio.sleep(0.05)  # let the publisher send the last messages
            await self._bus.stop()
        self._lease_pool.shutdown(wait=False)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the hub's hooks ----------------------------------------------------------------------
    async def store_table(self, row: TableRow, store: StoreTable) -> None:
        # the table and its lease in one transaction: no node sees it open without an owner, and
        # the hub adds it to its tables before this node's next tick looks for tables it lacks
        began, epoch = await self.hub.db(timed, self.leases.create_table, row, self.node_id)
        self._good_until[row.id] = began + self.leases.lease_seconds
        self.epochs[row.id] = epoch

    def log_counts(self) -> tuple[int, int]:
        return (0, 0) if self._log is None else (self._log.batches, self._log.events)

    def metrics(self) -> list[Figure]:
        """The node's leases, sockets and bus in ``/metrics``, as ``/healthz`` has most of them."""
        bus = self.bus
        return [
            ("cluster_nodes_live", "gauge", len(self._live_since)),
            ("cluster_leases", "gauge", len(self.epochs)),
            ("cluster_sockets_forwarded", "gauge", len(self.links)),
            ("cluster_sockets_of_other_nodes", "gauge", len(self.remotes)),
            ("cluster_takeovers", "counter", self.takeovers),
            ("cluster_leases_lost", "counter", self.leases_lost),
            ("bus_published", "counter", bus.published),
            ("bus_published_bytes", "counter", bus.published_bytes),
            ("bus_received", "counter", bus.received),
            ("bus_losses", "counter", bus.gaps),
            ("bus_dropped", "counter", bus.dropped),
        ]

    async def set_aside(self, table_id: str, mark: Step) -> bool:
        # marked idle and the lease given up together, as its holder: no other node's tick takes
        # it (it is not open), and the node a socket asks for it takes it (``locate``)
        # no longer renewed nor judged by the ticks meanwhile; a lease this node lost is no loss here
        epoch, good_until = self.epochs.pop(table_id, None), self._good_until.pop(table_id, None)
        if epoch is None:
            return False
        try:
            return bool(await self.hub.db(self.leases.set_aside, table_id, self.node_id, epoch))
        except BaseException:
            if table_id not in self.epochs:  # nothing changed: the table stays this node's
                self.epochs[table_id] = epoch
                if good_until is not None:
                    self._good_until[table_id] = good_until
            raise

    async def revive(self, table_id: str, load: Step) -> bool:
        return await self.take(table_id)

    def appender(self, append: Append) -> Append:
        async def fenced(
            table_id: str, seq: int, hand: int, action: dict[str, Any], final: dict[str, Any] | None
        ) -> None:
            epoch = self.epochs.get(table_id)
            if epoch is None or self._log is None:
                raise LeaseLost(table_id)
            try:
                await self._log.append(table_id, seq, hand, action, final, epoch)
            except LeaseLost:
                self._lease_lost(table_id, epoch)
                raise

        return fenced

    def decider(self, decide: Decide) -> Decide:
        return self.bots.decide if self.bots is not None else decide

    def overrider(self, set_override: SetOverride) -> SetOverride:
        """Seats handed over as the holder of the table's lease (checked in the same transaction)."""

        async def fenced(table_id: str, seat: int, level: str | None, on: bool) -> None:
            epoch = self.epochs.get(table_id)
            try:
                if epoch is None:
                    raise LeaseLost(table_id)
                await self.hub.db(self.leases.set_bot_override_fenced, table_id, seat, level, on, self.node_id, epoch)
            except LeaseLost:
                if epoch is not None:
                    self._lease_lost(table_id, epoch)
                raise ServerError("busy", "the table is moving between nodes; try again") from None

        return fenced

    def _lease_lost(self, table_id: str, epoch: int) -> None:
        """A write found the table's lease at ``epoch`` gone: the table leaves this node."""
        log.warning("table %s: lease lost at epoch %d; the table leaves this node", table_id, epoch)
        if self.epochs.get(table_id) == epoch:
            self._spawn(self.drop(table_id))

    def joined(self, conn: Connection) -> bool:
        return conn in self._conn_ids

    def health(self) -> dict[str, Any]:
        """This node in ``/healthz``: its name, its leases, its sockets joined elsewhere and others'
        joined here; ``failing`` when it cannot reach the database or is cut off from the bus while
        other nodes are not, ``degraded`` when no node hears the bus."""
        reasons = []
        late = time.monotonic() - self._db_answered_at > self.settings.lease_seconds + self.settings.tick_seconds
        if late:
            reasons.append("the database has not answered this node's ticks for over a lease")
        if self.cut_off:
            reasons.append("this node hears nothing from Redis while other nodes do: it holds no tables")
        elif self.bus.silent_for() > DEAD_AFTER:
            reasons.append("this node hears nothing from Redis")
        elif self.bots is not None and self.bots.unanswered_for() > self.hub.limits.decision_seconds:
            reasons.append("no bot worker answers this node's decisions (is a 'tapete worker' running?)")
        return {
            "status": "failing" if late or self.cut_off else "degraded" if reasons else "ok",
            "reasons": reasons,
            "node": self.node_id,
            "leases": len(self.epochs),
            "takeovers": self.takeovers,
            "leases_lost": self.leases_lost,
            "sockets_forwarded": len(self.links),
            "sockets_of_other_nodes": len(self.remotes),
            "bus_losses": self.bus.gaps,
            "bus_dropped": self.bus.dropped,
        }

    async def intercept(self, conn: Connection, msg: dict[str, Any], text: str) -> bool:
        if isinstance(conn, RemoteConnection):
            return False
        cid = self._conn_ids.get(conn)
        if cid is not None:
            link = self.links.get(cid)
            if link is not None:
                await self._forward(cid, link, "msg", text)
            return True
        if msg.get("type") != "hello" or conn.table is not None:
            return False
        table_id = str(msg["table"])
        owner = await self.locate(table_id, conn.address)
        if owner is None:
            return False
        await self._join_remote(conn, table_id, owner.node_id, owner.epoch, text)
        return True

    async def locate(self, table_id: str, client: str | None = None) -> Owner | None:
        """Where a socket's ``hello`` or an HTTP call about ``table_id`` is answered: the live node
        that owns the open table when it is another, or ``None`` when it is answered here (the table
        is held here, is taken over here now, or is unknown or finished). While the table moves
        (this node rebuilds it, or its lease was given up and nobody holds it yet) this waits for
        the move; ``busy`` if the table keeps moving. A look in the database is counted against
        ``client``'s allowance (``Hub.charge_lookup``)."""
        charged = False
        for _ in range(3):
            await self.hub.idle.settled(table_id, TAKE_WAIT_SECONDS)  # being set aside here: then taken back
            table = self.hub.tables.get(table_id)
            if table is not None and not table.closed:
                return None
            if table_id in self._taking:
                await self.settled(table_id)
                continue
            if not charged:
                self.hub.charge_lookup(client, table_id, ahead=True)
                charged = True
            if len(table_id) > 64:
                return None  # no such table: answered here
            found: tuple[str | None, Owner | None] = await self.hub.db(self.leases.whereabouts, table_id)
            status, owner = found
            if status not in ("open", "idle"):
                return None  # unknown or finished: answered here
            if owner is not None and owner.alive and owner.node_id != self.node_id:
                return owner
            if await self.take(table_id):
                return None
        raise ServerError("busy", "the table is moving between nodes; try again")

    def live_others(self) -> list[str]:
        """The other nodes alive at the last tick."""
        return sorted(n for n in self._live_since if n != self.node_id)

    async def _tables_of(self, node_id: str) -> list[dict[str, Any]]:
        """Another node's open tables (its ``GET /api/tables``), waited for ``LIST_SECONDS``."""
        request = {"method": "GET", "path": "/api/tables", "query": "", "headers": [], "client": "", "body": ""}
        answer = await self.bus.request(node_id, {"op": "http", "request": request}, LIST_SECONDS)
        if answer.get("status") != 200:
            return []
        tables = json.loads(str(answer["body"]).encode("latin-1"))
        return [t for t in tables if isinstance(t, dict)] if isinstance(tables, list) else []

    async def owner_elsewhere(self, table_id: str) -> str | None:
        """The live node that owns open table ``table_id`` when it is not this one; ``None`` otherwise."""
        table = self.hub.tables.get(table_id)
        if (table is not None and not table.closed) or table_id in self._taking:
            return None
        found: tuple[str | None, Owner | None] = await self.hub.db(self.leases.whereabouts, table_id)
        status, owner = found
        if status != "open" or owner is None or not owner.alive or owner.node_id == self.node_id:
            return None
        return owner.node_id

    async def settled(self, table_id: str, within: float | None = None) -> None:
        """Wait while this node takes ``table_id`` over (rebuilds it from the log), if it is doing so
        (for at most ``within`` seconds, if given)."""
        pending = self._taking.get(table_id)
        if pending is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(pending), within)

    def socket_closed(self, conn: Connection) -> None:
        cid = self._conn_ids.pop(conn, None)
        if cid is not None:
            self._unlink(cid, close=False)

    # --- sockets joined elsewhere ---------------------------------------------------------------
    async def _join_remote(self, conn: Connection, table_id: str, owner: str, epoch: int, text: str) -> None:
        cid = uuid.uuid4().hex
        self._conn_ids[conn] = cid
        self.links[cid] = Link(conn, table_id, owner, epoch)
        answer = await self._forward(cid, self.links[cid], "hello", text)
        if not answer.get("joined"):
            self._conn_ids.pop(conn, None)
            self.links.pop(cid, None)
            return
        link = self.links.get(cid)
        if link is None:  # closed meanwhile
            return
        link.joined = True
        seat = answer.get("seat")
        if isinstance(seat, int):  # the seat is bound to the account this socket presents, as on the owner
            await self.hub.seat_taken(conn.ws, table_id, seat)

    async def _forward(self, cid: str, link: Link, op: str, text: str) -> dict[str, Any]:
        try:
            wait = HELLO_SECONDS if op == "hello" else REQUEST_SECONDS
            answer = await self.bus.request(link.owner, {"op": op, "cid": cid, "text": text}, wait)
        except BusTimeout:
            answer = {"gone": True}
        if answer.get("gone"):
            self._unlink(cid, close=True)
        return answer

    def _lost_messages(self, sender: str) -> None:
        """Messages from ``sender`` were lost: the sockets joined to its tables reconnect to a full
        view, and its sockets joined here are closed (they may have missed a state, or their
        node a reply)."""
        for cid, link in list(self.links.items()):
            if link.owner == sender:
                self._unlink(cid, close=True)
        for key in [k for k in self.remotes if k[0] == sender]:
            self._detach(key, close=True)

    def _unlink(self, cid: str, *, close: bool) -> None:
        """Part socket ``cid`` from its table elsewhere (closing it if ``close``) and tell the owner."""
        link = self.links.pop(cid, None)
        if link is None:
            return
        self._conn_ids.pop(link.conn, None)
        self.bus.publish(link.owner, {"k": "bye", "cid": cid, "from": self.node_id})
        if close:
            link.conn.close(CLOSE_MOVED)

    def _announce_links(self, live: set[str]) -> None:
        """Tell every other live node which of this node's sockets are joined to its tables, so
        that it forgets any whose ``bye`` it missed, and which kinds of message this node reads
        (``remote.READS``). To a node that reads them, as their number and sum, the list itself
        only when it asked for it (it found the sum not its own) and every ``FULL_LINKS_EVERY``
        ticks."""
        self._links_told += 1
        held: dict[str, list[str]] = {n: [] for n in live if n != self.node_id}
        for cid, link in self.links.items():
            held.setdefault(link.owner, []).append(cid)
        for owner, cids in held.items():
            message: dict[str, Any] = {"k": "links", "from": self.node_id, "reads": list(READS)}
            listed = owner in self._lists_asked or self._links_told % FULL_LINKS_EVERY == 0
            if listed or not self.outbox.reads(owner, SUMMED_LINKS):
                message["cids"] = cids
            else:
                message["n"], message["x"] = len(cids), links_sum(cids)
            self.bus.publish(owner, message)
        self._lists_asked.clear()

    # --- the bus ----------------------------------------------------------------------------
    def _on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("k")
        if kind == "req":
            self._spawn(self._serve(m))
        elif kind == "out" or kind == GATHERED:
            message = as_sent(str(m["t"]))  # one for all the sockets it is for
            for cid in addressed(m):
                link = self.links.get(cid)
                if link is not None:
                    link.conn.send(message)
                elif m.get("from"):  # a socket gone from here whose "bye" the owner missed
                    self.bus.publish(str(m["from"]), {"k": "bye", "cid": cid, "from": self.node_id})
        elif kind == "close":
            cid = str(m.get("cid"))
            link = self.links.get(cid)
            # an owner that does not know the socket may have just refused its hello: its answer says
            if link is not None and (link.joined or not m.get("unknown")):
                self._unlink(cid, close=True)
        elif kind == "bye":
            self._detach((str(m.get("from")), str(m.get("cid"))))
        elif kind == "list":  # an owner found this node's sum of sockets not its own
            self._lists_asked.add(str(m.get("from")))
        elif kind == "links":
            holder, listed = str(m.get("from")), m.get("cids")
            self.outbox.heard_reads(holder, m.get("reads"))
            if "x" in m and not isinstance(listed, list):
                mine = [k[1] for k in self.remotes if k[0] == holder]
                if m.get("n") != len(mine) or m.get("x") != links_sum(mine):
                    self.bus.publish(holder, {"k": "list", "from": self.node_id})
            if isinstance(listed, list):
                kept = {str(c) for c in listed}
                for key in [k for k in self.remotes if k[0] == holder and k[1] not in kept]:
                    self._detach(key)
                # sockets its node thinks joined here that are not: they reconnect (a socket whose
                # hello is still on its way is not closed by this: its node waits for the answer)
                for cid in kept:
                    if (holder, cid) not in self.remotes:
                        self.bus.publish(holder, {"k": "close", "cid": cid, "unknown": True, "from": self.node_id})

    async def _serve(self, m: dict[str, Any]) -> None:
        """Run a socket's message forwarded by its node, and reply when it is handled."""
        from tapete.server.ws import handle_text

        if m.get("op") == "http":
            table_id = forwarded_table(m["request"])
            if table_id is not None and not await self._holds_once_settled(table_id):
                self.bus.reply(m, {"gone": True})  # not here (any more): its node asks again
                return
            try:
                answer = await run_request(self.app, m["request"]) if self.app is not None else {}
            except Exception:
                log.exception("a forwarded HTTP call failed")
                answer = {}
            self.bus.reply(m, answer)
            return
        key = (str(m["from"]), str(m["cid"]))
        try:
            if m.get("op") == "hello":
                table_id = hello_table(str(m["text"]))
                if table_id is not None and not await self._holds_once_settled(table_id):
                    self.bus.reply(m, {"gone": True})  # not here (any more): its node asks again
                    return
                rc = RemoteConnection(key[0], key[1], self.outbox, self.hub.rate)
                self.remotes[key] = rc
                await handle_text(self.hub, rc, str(m["text"]))
                joined = rc.table is not None
                if not joined:
                    self.remotes.pop(key, None)
                self.bus.reply(m, {"joined": joined, "seat": rc.seat})
                return
            found = self.remotes.get(key)
            if found is None or found.table is None or found.table.closed:
                self.bus.reply(m, {"gone": True})
                return
            await handle_text(self.hub, found, str(m["text"]))
            self.bus.reply(m, {})
        except Exception:
            log.exception("a forwarded message failed")
            self.bus.reply(m, {"gone": True})

    async def _holds_once_settled(self, table_id: str) -> bool:
        """Whether this node holds ``table_id``, once a takeover of it under way here has ended (or
        ``TAKE_WAIT_SECONDS`` have passed): what another node forwards about it is handled here."""
        await self.hub.idle.settled(table_id, TAKE_WAIT_SECONDS)
        await self.settled(table_id, TAKE_WAIT_SECONDS)
        table = self.hub.tables.get(table_id)
        return table is not None and not table.closed

    def _detach(self, key: tuple[str, str], *, close: bool = False) -> None:
        """Forget another node's socket ``key`` joined here (asking its node to close it if ``close``)."""
        rc = self.remotes.pop(key, None)
        if rc is None:
            return
        if rc.table is not None:
            rc.table.detach(rc)
        if close:
            rc.close(CLOSE_MOVED)

    # --- leases -----------------------------------------------------------------------------
    async def take(self, table_id: str) -> bool:
        """Take an open table's lease if nobody holds it, and rebuild the table here from the log."""
        pending = self._taking.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        if self.cut_off or self.stopping:  # other nodes can serve it; this one cannot reach them, or stops
            return False
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._taking[table_id] = fut
        ok = False
        try:
            async with self._gate:
                ok = await self._take(table_id)
        except Exception as exc:
            log.error("table %s could not be taken over (%s)", table_id, type(exc).__name__)
        finally:
            del self._taking[table_id]
            fut.set_result(ok)  # also when cancelled: whoever waits learns the table was not taken
        return ok

    async def _take(self, table_id: str) -> bool:

        hub = self.hub
        if self.cut_off or self.stopping:  # it came about while this take waited for its turn
            return False
        began, epoch = await hub.db(timed, self.leases.claim, table_id, self.node_id)
        if epoch is None:
            return False
        self._good_until[table_id] = began + self.leases.lease_seconds
        self.epochs[table_id] = epoch
        old = hub.tables.pop(table_id, None)
        if old is not None:
            await self._close_table(old)
        row = await hub.db(hub.store.load_open_table, table_id)
        if row is None:
            self.epochs.pop(table_id, None)
            await hub.db(self.leases.release, table_id, self.node_id)
            return False
        try:
            table = await hub.rebuilt_table(row)
        except Exception:
            self.epochs.pop(table_id, None)
            await hub.db(self.leases.release, table_id, self.node_id)
            raise
        await hub.db(hub.store.wake, table_id)  # set aside, it is open again (once it replays)
        if self.epochs.get(table_id) != epoch:  # lost while it was rebuilt: another node's now
            return False
        hub.tables[table_id] = table
        table.kick_bots()
        self.takeovers += 1
        log.info("table %s taken over at epoch %d with %d events", table_id, epoch, len(row.events))
        return True

    async def drop(self, table_id: str, *, lost: bool = True) -> None:
        """This node lost the table's lease (or gives it up, if not ``lost``): it leaves memory and
        its sockets reconnect elsewhere."""
        if self.epochs.pop(table_id, None) is not None and lost:
            self.leases_lost += 1
        table = self.hub.tables.pop(table_id, None)
        if table is not None:
            await self._close_table(table)

    async def _close_table(self, table: Table) -> None:
        await table.close()
        self._close_sockets(table)

    def _close_sockets(self, table: Table) -> None:
        """Close the sockets of a table that left this node (with 1012: they reconnect)."""
        for c in table.clients():
            if isinstance(c, RemoteConnection):
                self.remotes.pop((c.node_id, c.conn_id), None)
            if isinstance(c, Connection):
                c.close(CLOSE_MOVED)

    async def _tick_loop(self) -> None:
        while True:
            try:
                await self.tick()
                self._ticking.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._ticking.failed(error_name(exc), exc)
            await asyncio.sleep(self.settings.tick_seconds)

    async def _watch_leases(self) -> None:
        """Drop every table whose lease may have run out unrenewed (the database unreachable, a
        renewal stuck): another node may hold it now, so this one must not show it any more."""
        while True:
            await asyncio.sleep(self.settings.tick_seconds / 2)
            try:
                now = time.monotonic()
                for t in [t for t in self._good_until if t not in self.epochs]:
                    del self._good_until[t]
                for t in [t for t in self.epochs if self._good_until.get(t, math.inf) <= now]:
                    log.warning("table %s: its lease was not renewed in time; the table leaves this node", t)
                    await self.drop(t)
                self._watching.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._watching.failed(error_name(exc), exc)

    async def _lease_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run one of the tick's statements on the leases' own thread."""
        return await asyncio.get_running_loop().run_in_executor(self._lease_pool, fn, *args)

    def _note_hearing(self, silent: float) -> None:
        """Since when the inbox has kept hearing (``None`` while it does not)."""
        if silent > HEARING_WITHIN:
            self._hearing_since = None
        elif self._hearing_since is None:
            self._hearing_since = time.monotonic()

    def _judge_cut_off(self, silent: float, live: set[str]) -> None:
        """Whether this node is cut off from the bus (see the module's description), from how long
        its inbox has heard nothing and which nodes live."""
        now = time.monotonic()
        for node in set(self._live_since) - live:
            del self._live_since[node]
        for node in live:
            self._live_since.setdefault(node, now)
        if not self.cut_off:
            hearing = [n for n in live - {self.node_id} if now - self._live_since[n] >= OTHERS_LIVE_FOR]
            if silent > CUT_OFF_AFTER and hearing:
                log.error(
                    "node %s hears nothing from the bus while other nodes live: it gives its tables up", self.node_id
                )
                self.cut_off = True
        elif self._hearing_since is not None and now - self._hearing_since >= HEARD_AGAIN_FOR:
            log.warning("node %s hears the bus again", self.node_id)
            self.cut_off = False

    def _beat_if_hearing(self) -> None:
        """Say this node lives, unless its inbox has stopped hearing (checked again in the thread,
        just before the statement)."""
        if self.bus.silent_for() <= DEAD_AFTER:
            self.leases.beat(self.node_id)

    async def tick(self) -> None:
        """Heartbeat, renew, take orphans, forget dead nodes' sockets, close sockets whose owner
        changed; give every table up while cut off from the bus (see the module's description)."""
        hub, leases, me = self.hub, self.leases, self.node_id
        began = time.monotonic()
        silent = self.bus.silent_for()
        self._note_hearing(silent)
        await self._lease_db(self._beat_if_hearing)
        held = dict(self.epochs)
        renewed, kept = await self._lease_db(timed, leases.renew, me, list(held))
        for t, epoch in held.items():
            if self.epochs.get(t) != epoch:
                continue  # dropped, or taken again, meanwhile
            if kept.get(t) == epoch:
                self._good_until[t] = renewed + leases.lease_seconds
            else:
                log.warning("table %s: lease at epoch %d lost", t, epoch)
                await self.drop(t)
        live = set(await self._lease_db(leases.live_nodes))
        self._db_answered_at = began
        self._judge_cut_off(self.bus.silent_for(), live)
        for t in list(self.epochs):
            if self.cut_off:
                await self.drop(t, lost=False)
            elif t in hub.tables or t in self._taking:
                continue
            else:
                self.epochs.pop(t, None)
            await self._lease_db(leases.release, t, me)
        if not self.cut_off:
            for t in await self._lease_db(leases.orphans, 2 * TAKE_AT_ONCE):
                if t not in self._taking and t not in self.epochs:
                    self._spawn(self.take(t))
        if silent > DEAD_AFTER:  # whatever their owners send them is lost: they reconnect
            for cid in list(self.links):
                self._unlink(cid, close=True)
        for key in [k for k in self.remotes if k[0] not in live]:
            self._detach(key, close=True)  # in case that node is only late: its socket reconnects
        now = time.monotonic()
        for node in list(self._absent_since):
            if node in live:
                del self._absent_since[node]
        for node in self.bus.peers() - live:
            if now - self._absent_since.setdefault(node, now) > FORGET_AFTER:
                self.bus.forget(node)
                self.outbox.forget(node)
                del self._absent_since[node]
        self._announce_links(live)
        if self.links:
            checked = dict(self.links)  # a socket joined while the owners are read is checked next tick
            owners = await self._lease_db(leases.owners, list({link.table_id for link in checked.values()}))
            for cid, link in checked.items():
                if self.links.get(cid) is not link:
                    continue  # gone meanwhile
                o = owners.get(link.table_id)
                if o is None or not o.alive or o.node_id != link.owner or o.epoch != link.epoch:
                    self._unlink(cid, close=True)


__all__ = ["CLOSE_MOVED", "ClusterNode", "ClusterSettings", "Link"]
