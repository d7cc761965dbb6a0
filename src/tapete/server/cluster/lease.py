"""Table ownership in PostgreSQL: one lease per table, fenced writes, node heartbeats.

A lease row ``(table_id, node_id, epoch, expires_at)`` says which node owns a table. A
node takes a lease only when there is none, it has expired or it is its own (``claim``),
which adds one to its epoch; the owner renews it while it lives (``renew``). Times are the database's
clock (``clock_timestamp()``), so the nodes' clocks never have to agree.

Writes are fenced: ``append`` locks the table's lease row (``FOR SHARE``) and checks
that this node still holds it at the same epoch and that it has not expired, in the same
transaction that inserts the event. A claim updates that row, so it waits for an append
in flight and every later append by the former owner fails with ``LeaseLost``. Each
event's writer (node and epoch) is stored in its row of the log (``writer_node``,
``writer_epoch``, columns a cluster adds to ``events``), so the log itself shows that no
table ever had two writers. Logs written before those columns keep their writers in the
``event_writers`` table, which ``writers_of`` still reads.

A lease row must name a table that exists (a foreign key), and every event is written
through its table's lease: so the log's tables are checked once a lease, not once an event,
and a cluster's ``events`` keep no foreign key of their own.

A fenced write on the event loop's connection (``append_many_async``) is given up after
``Leases.write_seconds`` (half a lease by default), by the loop and by the server
(``statement_timeout``): a write stuck on a database that failed over, or on a connection that
died without a word, neither holds its tables' lease rows (and their renewal) until the leases run
out nor stops the node's later writes.

A seat handed to a bot or back is fenced the same way (``set_bot_override_fenced``).

A finished table's lease is deleted when its owner releases it (nothing writes or claims a
finished table), so the leases stay as many as the tables the nodes hold however many games
were ever played; an open table's lease is only ever updated, so that its epoch keeps growing.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tapete.server.db import LogAhead, Store, TableRow, close_timed_out, schema_transaction
from tapete.server.groupcommit import action_text

LEASE_SECONDS = 3.0
"""How long a lease lasts without renewal; a dead owner's tables move after this."""
NODE_SECONDS = 3.0
"""How long a node counts as alive after its last heartbeat."""
NAME_POLL_SECONDS = 0.25
"""How often a node starting looks again at a name a live node holds."""
FORGET_NODES_AFTER = 86400.0
"""Seconds after its last heartbeat that a node that did not leave (killed) is forgotten, by
the next node to start."""


class LeaseLost(Exception):
    """This node no longer holds the table's lease: it must not write."""


@dataclass(frozen=True)
class FencedEvent:
    """One event to append as the holder of its table's lease at ``epoch`` (action and record as JSON text)."""

    table_id: str
    seq: int
    hand: int
    action: str
    epoch: int
    final_record: str | None = None

    @classmethod
    def of(
        cls, table_id: str, seq: int, hand: int, action: dict[str, Any], epoch: int, final: dict[str, Any] | None
    ) -> FencedEvent:
        """The event of an accepted ``action`` (and the final record when it ends the game), as logged."""
        return cls(table_id, seq, hand, action_text(action), epoch, None if final is None else json.dumps(final))


@dataclass(frozen=True)
class Owner:
    """Who holds a table's lease, and whether it is still valid."""

    node_id: str
    epoch: int
    alive: bool


class NodeNameInUse(RuntimeError):
    """A node is alive under the name a process starting asked for (``--node-id``)."""

    def __init__(self, node_id: str, left: float) -> None:
        super().__init__(
            f"another node is running as --node-id {node_id} (alive for {left:.1f} s more): "
            "give every node its own name, or stop that one first"
        )


def _answers(events: list[FencedEvent], held: set[tuple[str, int]]) -> list[BaseException | None]:
    """Per event, ``None`` when its lease was ``held`` at its epoch (``(table_id, epoch)``), or ``LeaseLost``."""
    return [None if (e.table_id, e.epoch) in held else LeaseLost(e.table_id) for e in events]


class Leases:
    """The lease, writer and node tables beside a ``Store``'s tables (PostgreSQL only)."""

    def __init__(
        self, store: Store, *, lease_seconds: float = LEASE_SECONDS, write_seconds: float | None = None
    ) -> None:
        if not store.url.startswith("postgresql"):
            raise ValueError("several nodes need PostgreSQL (--db postgresql://…)")
        self.store = store
        self.engine = store.engine
        self.lease_seconds = lease_seconds
        self.write_seconds = lease_seconds / 2 if write_seconds is None else write_seconds
        """Seconds a fenced write on the event loop may take (and its connection's opening): well
        within a lease, so that a stuck write gives its lease rows up long before they expire."""
        p = store.prefix
        md = sa.MetaData()
        self.leases = sa.Table(
            f"{p}leases",
            md,
            sa.Column("table_id", sa.String(64), primary_key=True),
            sa.Column("node_id", sa.String(64), nullable=False),
            sa.Column("epoch", sa.BigInteger, nullable=False),
            sa.Column("expires_at", sa.Float, nullable=False),
            sa.ForeignKeyConstraint(["table_id"], [store.tables.c.id], name=f"{p}leases_table_fk"),
        )
        self.writers = sa.Table(  # the writers of events logged before events had writer columns
            f"{p}event_writers",
            md,
            sa.Column("table_id", sa.String(64), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("node_id", sa.String(64), nullable=False),
            sa.Column("epoch", sa.BigInteger, nullable=False),
        )
        self.nodes = sa.Table(
            f"{p}nodes",
            md,
            sa.Column("node_id", sa.String(64), primary_key=True),
            sa.Column("expires_at", sa.Float, nullable=False),
        )
        self.metadata = md
        forget_finished = (
            f"DELETE FROM {p}leases AS l USING {p}tables AS t WHERE t.id = l.table_id AND t.status = 'finished' AND "
        )
        self._q = {
            "claim": sa.text(
                f"INSERT INTO {p}leases (table_id, node_id, epoch, expires_at) "
                "VALUES (:t, :n, 1, extract(epoch from clock_timestamp()) + :ttl) "
                "ON CONFLICT (table_id) DO UPDATE SET node_id = excluded.node_id, "
                f"epoch = {p}leases.epoch + 1, expires_at = excluded.expires_at "
                f"WHERE {p}leases.expires_at < extract(epoch from clock_timestamp()) "
                f"OR {p}leases.node_id = excluded.node_id "
                "RETURNING epoch"
            ),
            "renew": sa.text(
                f"UPDATE {p}leases SET expires_at = extract(epoch from clock_timestamp()) + :ttl "
                f"WHERE table_id IN (SELECT table_id FROM {p}leases WHERE node_id = :n AND table_id = ANY(:ts) "
                "AND expires_at > extract(epoch from clock_timestamp()) ORDER BY table_id FOR UPDATE) "
                "RETURNING table_id, epoch"
            ),
            "orphans": sa.text(
                f"SELECT t.id FROM {p}tables t LEFT JOIN {p}leases l ON l.table_id = t.id "
                "WHERE t.status = 'open' AND (l.table_id IS NULL OR "
                "l.expires_at < extract(epoch from clock_timestamp())) ORDER BY random() LIMIT :limit"
            ),
            # finished tables' leases: one a node gives up, all a node gives up, all expired ones
            "forget_finished": sa.text(forget_finished + "l.table_id = :t AND l.node_id = :n"),
            "forget_finished_of": sa.text(forget_finished + "l.node_id = :n"),
            "forget_all_finished": sa.text(forget_finished + "l.expires_at < extract(epoch from clock_timestamp())"),
            "beat": sa.text(
                f"INSERT INTO {p}nodes (node_id, expires_at) "
                "VALUES (:n, extract(epoch from clock_timestamp()) + :ttl) "
                "ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at"
            ),
            "take_name": sa.text(
                f"INSERT INTO {p}nodes (node_id, expires_at) "
                "VALUES (:n, extract(epoch from clock_timestamp()) + :ttl) "
                "ON CONFLICT (node_id) DO UPDATE SET expires_at = excluded.expires_at "
                f"WHERE {p}nodes.expires_at <= extract(epoch from clock_timestamp()) RETURNING node_id"
            ),
            "name_alive_for": sa.text(
                f"SELECT expires_at - extract(epoch from clock_timestamp()) FROM {p}nodes WHERE node_id = :n"
            ),
            "forget_dead_nodes": sa.text(
                f"DELETE FROM {p}nodes WHERE expires_at < extract(epoch from clock_timestamp()) - :after"
            ),
            "alive": sa.text(f"SELECT node_id FROM {p}nodes WHERE expires_at > extract(epoch from clock_timestamp())"),
            "owners": sa.text(
                f"SELECT table_id, node_id, epoch, expires_at > extract(epoch from clock_timestamp()) "
                f"FROM {p}leases WHERE table_id = ANY(:ts)"
            ),
            "whereabouts": sa.text(
                f"SELECT t.status, l.node_id, l.epoch, l.expires_at > extract(epoch from clock_timestamp()) "
                f"FROM {p}tables t LEFT JOIN {p}leases l ON l.table_id = t.id WHERE t.id = :t"
            ),
            "fence": sa.text(
                f"SELECT epoch FROM {p}leases WHERE table_id = :t AND node_id = :n AND epoch = :e "
                "AND expires_at > extract(epoch from clock_timestamp()) FOR SHARE"
            ),
        }
        quote = self.engine.dialect.identifier_preparer.quote
        events = quote(store.events.name)
        self._add_writer_columns = (
            f"ALTER TABLE {events} ADD COLUMN IF NOT EXISTS writer_node VARCHAR(64), "
            "ADD COLUMN IF NOT EXISTS writer_epoch BIGINT"
        )
        self._q["writers_of"] = sa.text(
            f"SELECT seq, writer_node, writer_epoch FROM {events} WHERE table_id = :t AND writer_node IS NOT NULL "
            f"UNION ALL SELECT seq, node_id, epoch FROM {quote(self.writers.name)} WHERE table_id = :t ORDER BY seq"
        )
        self._raw = {
            "fence_many": (
                f"SELECT table_id, epoch FROM {quote(self.leases.name)} WHERE node_id = %s AND table_id = ANY(%s) "
                "AND expires_at > extract(epoch from clock_timestamp()) ORDER BY table_id FOR SHARE"
            ),
            "events": (
                f"INSERT INTO {events} (table_id, seq, hand, action, at, writer_node, writer_epoch) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)"
            ),
            "finish": store._finish_sql,
            "logged_many": (
                f"SELECT table_id, seq, hand, action, writer_node, writer_epoch FROM {events} "
                "WHERE (table_id, seq) IN (SELECT * FROM unnest(%s::text[], %s::int[]))"
            ),
        }
        """``append_many``'s statements in the driver's own form (``%s`` parameters)."""
        tables = quote(store.tables.name)
        self._append_async_sql = (
            # the fence, the events and the finished tables in one statement: one round trip, atomic
            # by itself; the events (and final records) of the leases held at their epoch only
            f"WITH held AS MATERIALIZED (SELECT table_id, epoch FROM {quote(self.leases.name)} "
            "WHERE node_id = $1 AND table_id = ANY($2::varchar[]) "
            "AND expires_at > extract(epoch from clock_timestamp()) ORDER BY table_id FOR SHARE), "
            f"logged AS (INSERT INTO {events} (table_id, seq, hand, action, at, writer_node, writer_epoch) "
            "SELECT e.table_id, e.seq, e.hand, e.action, e.at, $1, e.epoch FROM unnest($3::varchar[], $4::int[], "
            "$5::int[], $6::text[], $7::float8[], $8::bigint[]) AS e(table_id, seq, hand, action, at, epoch) "
            "JOIN held ON held.table_id = e.table_id AND held.epoch = e.epoch), "
            f"finished AS (UPDATE {tables} AS t SET status = 'finished', record = f.record "
            "FROM unnest($9::varchar[], $10::bigint[], $11::text[]) AS f(table_id, epoch, record) "
            "JOIN held ON held.table_id = f.table_id AND held.epoch = f.epoch WHERE t.id = f.table_id) "
            "SELECT table_id, epoch FROM held"
        )
        """``append_many_async``'s statement (asyncpg's ``$n`` parameters)."""
        self._writer: Any = None
        """The DBAPI connection ``append_many`` writes through (opened at the first write)."""
        self._writer_lock = threading.RLock()

    def create_schema(self) -> None:
        """Create the lease, node and old writer tables, add the writer columns to ``events``, let
        the leases vouch for the log's tables and delete the expired leases of finished tables
        (the store's schema must exist; every step is a no-op when already done)."""
        with schema_transaction(self.engine, self.store.prefix) as c:  # one node at a time
            self.metadata.create_all(c)
            columns = {col["name"] for col in sa.inspect(c).get_columns(self.store.events.name)}
            if not {"writer_node", "writer_epoch"} <= columns:  # ALTER TABLE would lock the log even as a no-op
                c.exec_driver_sql(self._add_writer_columns)
            lease_unkeyed, event_keys = self._table_keys_to_move(c)
            if lease_unkeyed or event_keys:  # checked first: ALTER TABLE would lock the log even as a no-op
                self._move_table_key_to_leases(c, lease_unkeyed, event_keys)
        with self.engine.begin() as c:  # leases released before finished tables' leases were deleted
            c.execute(self._q["forget_all_finished"])
            c.execute(self._q["forget_dead_nodes"], {"after": FORGET_NODES_AFTER})

    def _table_keys_to_move(self, bind: Any) -> tuple[bool, list[str]]:
        """Whether ``leases`` lacks its key to ``tables``, and the names of ``events``' keys to ``tables``."""
        inspector = sa.inspect(bind)
        tables = self.store.tables.name

        def keys(name: str) -> list[str]:
            found = inspector.get_foreign_keys(name)
            return [str(k["name"]) for k in found if k["referred_table"] == tables and k["name"]]

        return not keys(self.leases.name), keys(self.store.events.name)

    def _move_table_key_to_leases(self, c: sa.Connection, lease_unkeyed: bool, event_keys: list[str]) -> None:
        """Check each table once, at its lease, instead of at every event of the log.

        Every event a node writes joins its table's lease, locked ``FOR SHARE`` in the same
        statement, and a lease row must name a table that exists (its foreign key): so every
        logged event's table exists, and none can be deleted while a lease names it. The
        events' own foreign key, checked for each event (PostgreSQL looks the table up and
        locks its row, about a fifth of the database's CPU an action), is then dropped. Leases
        naming no table (left by hand) are deleted first. In the schema's transaction ``c``
        (``lease_unkeyed`` and ``event_keys`` read in it, under its lock), which also takes the
        lock nodes of the previous version took for this, so that nodes starting together, of
        either version, change the schema once."""
        quote = self.engine.dialect.identifier_preparer.quote
        leases, tables, events = (quote(t.name) for t in (self.leases, self.store.tables, self.store.events))
        c.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"{leases} schema"})
        if lease_unkeyed:
            c.exec_driver_sql(
                f"DELETE FROM {leases} AS l WHERE NOT EXISTS (SELECT 1 FROM {tables} AS t WHERE t.id = l.table_id)"
            )
            c.exec_driver_sql(
                f"ALTER TABLE {leases} ADD CONSTRAINT {quote(self.store.prefix + 'leases_table_fk')} "
                f"FOREIGN KEY (table_id) REFERENCES {tables} (id)"
            )
        for name in event_keys:
            c.exec_driver_sql(f"ALTER TABLE {events} DROP CONSTRAINT {quote(name)}")

    # --- leases --------------------------------------------------------------------------
    def claim(self, table_id: str, node_id: str) -> int | None:
        """Take the table's lease if nobody else holds a valid one; its new epoch, or ``None``.

        A node may claim a lease it holds again (it lost the table from memory): the epoch
        still grows, so whatever it held the table with before can no longer write.
        """
        with self.engine.begin() as c:
            row = c.execute(self._q["claim"], {"t": table_id, "n": node_id, "ttl": self.lease_seconds}).first()
        return None if row is None else int(row[0])

    def create_table(self, row: TableRow, node_id: str) -> int:
        """Store a new table (``Store.insert_table``) and take its lease, in one transaction; the
        lease's epoch. Another node sees the table only once it has its owner. (A lease must name
        a table that exists, so none can name one just stored: the claim always takes it.)"""
        with self.engine.begin() as c:
            self.store.write_table(c, row)
            epoch = c.execute(self._q["claim"], {"t": row.id, "n": node_id, "ttl": self.lease_seconds}).scalar_one()
        return int(epoch)

    def renew(self, node_id: str, table_ids: list[str]) -> dict[str, int]:
        """Extend this node's valid leases among ``table_ids``; ``{table_id: epoch}`` of those kept."""
        if not table_ids:
            return {}
        with self.engine.begin() as c:
            rows = c.execute(self._q["renew"], {"n": node_id, "ts": table_ids, "ttl": self.lease_seconds}).all()
        return {str(t): int(e) for t, e in rows}

    def release(self, table_id: str, node_id: str) -> None:
        """Give a lease up at once (a clean stop), so another node need not wait for it to expire.

        A finished table's lease is deleted instead: its log is closed and no node claims a
        finished table, so nothing needs its epoch any more, and the leases stay as many as the
        tables the nodes hold. (An open table's lease is kept, so that its epoch only grows.)"""
        with self.engine.begin() as c:
            c.execute(self._q["forget_finished"], {"t": table_id, "n": node_id})
            c.execute(
                self.leases.update()
                .where(self.leases.c.table_id == table_id, self.leases.c.node_id == node_id)
                .values(expires_at=0.0)
            )

    def release_all(self, node_id: str) -> None:
        """Give up every lease held under ``node_id`` (a node starting again under the same name);
        those of finished tables are deleted, as by :meth:`release`."""
        with self.engine.begin() as c:
            c.execute(self._q["forget_finished_of"], {"n": node_id})
            c.execute(self.leases.update().where(self.leases.c.node_id == node_id).values(expires_at=0.0))

    def owners(self, table_ids: list[str]) -> dict[str, Owner]:
        """The lease of each of ``table_ids`` that has one."""
        if not table_ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(self._q["owners"], {"ts": table_ids}).all()
        return {str(t): Owner(str(n), int(e), bool(a)) for t, n, e, a in rows}

    def orphans(self, limit: int = 20) -> list[str]:
        """Open tables whose lease is missing or expired (in random order, so nodes share them)."""
        with self.engine.connect() as c:
            return [str(r[0]) for r in c.execute(self._q["orphans"], {"limit": limit})]

    def whereabouts(self, table_id: str) -> tuple[str | None, Owner | None]:
        """A table's stored status (``None``: no such table) and its lease, if it has one, read
        together in one statement."""
        with self.engine.connect() as c:
            row = c.execute(self._q["whereabouts"], {"t": table_id}).first()
        if row is None:
            return None, None
        status, node, epoch, alive = row
        return str(status), None if node is None else Owner(str(node), int(epoch), bool(alive))

    def set_aside(self, table_id: str, node_id: str, epoch: int) -> bool:
        """Mark an open table ``idle`` as the holder of its lease at ``epoch`` and give the lease
        up, in one transaction (``Store.set_aside``); whether it held the lease."""
        with self.engine.begin() as c:
            if c.execute(self._q["fence"], {"t": table_id, "n": node_id, "e": epoch}).first() is None:
                return False
            c.execute(self.store.set_aside_statement(table_id))
            c.execute(
                self.leases.update()
                .where(self.leases.c.table_id == table_id, self.leases.c.node_id == node_id)
                .values(expires_at=0.0)
            )
        return True

    # --- fenced writes ---------------------------------------------------------------------
    def append(
        self,
        table_id: str,
        seq: int,
        hand: int,
        action: dict[str, Any],
        final_record: dict[str, Any] | None,
        node_id: str,
        epoch: int,
    ) -> None:
        """Append one event as the holder of the lease at ``epoch``; ``LeaseLost`` writes nothing
        (a batch of one: the same fenced write as ``append_many``)."""
        (answer,) = self.append_many([FencedEvent.of(table_id, seq, hand, action, epoch, final_record)], node_id)
        if answer is not None:
            raise answer

    def append_many(self, events: list[FencedEvent], node_id: str) -> list[BaseException | None]:
        """Append events of many tables in one transaction, each fenced by its lease epoch.

        Answers, per event, ``None`` (written), ``LeaseLost`` (not written: this node no
        longer holds that epoch) or the error that kept it out of the log. Lease rows are
        locked in one order (as ``renew`` does), so the two never deadlock. When the batch
        fails as a whole, each event is written alone, so that one bad event fails alone.
        Events whose fate the log tells are settled by it (:meth:`_settled_by_log`). The batch goes
        through the driver on a connection kept for these writes (the statements of a batch in one
        round trip, no pool check-out or ping per batch).
        """
        try:
            with self._writer_lock:
                held = self._write_fenced(events, node_id)
        except Exception:
            settled = self._settled_by_log(events, node_id)
            if len(events) == 1 and 0 not in settled:
                raise
            return [settled[i] if i in settled else self._append_alone(e, node_id) for i, e in enumerate(events)]
        return _answers(events, held)

    def _settled_by_log(self, events: list[FencedEvent], node_id: str) -> dict[int, BaseException | None]:
        """The answers the log gives, by position in ``events``, for events whose writing failed.

        The log holding an event as it is, written by ``node_id`` at its epoch, is an earlier
        commit of it whose answer was lost (a connection that dropped after the database
        committed): acknowledged (``None``). The log holding another action at its number, written
        by ``node_id`` at its epoch, is an earlier action of the table whose commit seemed to fail
        but reached the log: ``LogAhead``, on which the table applies that action. Events the log
        holds nothing of (or that another writer holds) are left out, as all are when the log
        cannot be read."""
        try:
            with self._writer_lock:
                conn = self._writer
                if conn is None:
                    conn = self._writer = self.engine.raw_connection()
                cur = conn.cursor()
                try:
                    cur.execute(self._raw["logged_many"], ([e.table_id for e in events], [e.seq for e in events]))
                    rows = cur.fetchall()
                finally:
                    cur.close()
                    conn.rollback()
        except Exception:
            self.close()
            return {}
        found = {(str(r[0]), int(r[1])): (int(r[2]), str(r[3]), r[4], r[5]) for r in rows}
        settled: dict[int, BaseException | None] = {}
        for i, e in enumerate(events):
            logged = found.get((e.table_id, e.seq))
            if logged is None or logged[2:] != (node_id, e.epoch):
                continue
            hand, action = logged[:2]
            same = (hand, action) == (e.hand, e.action)
            settled[i] = None if same else LogAhead(e.table_id, e.seq, hand, json.loads(action))
        return settled

    async def append_many_async(
        self, conn: Any, events: list[FencedEvent], node_id: str, *, timeout: float | None = None
    ) -> list[BaseException | None]:
        """:meth:`append_many` on an asynchronous connection (``Store.open_async_connection``): the
        fence, the events and the final records as one statement, so one round trip, atomic by
        itself. Answers ``None`` (written) or ``LeaseLost`` per event; raises when the statement
        fails, and then none of ``events`` is in the log (one bad event fails the batch:
        :meth:`append_many` writes it again, each event alone where it must).

        A statement that takes more than ``timeout`` seconds (default :attr:`write_seconds`)
        raises ``TimeoutError`` and the connection is closed: whether the events reached the log
        is then not known (:meth:`append_many` finds those that did)."""
        seconds = self.write_seconds if timeout is None else timeout
        now = time.time()
        finals = [e for e in events if e.final_record is not None]
        try:
            rows = await conn.fetch(
                self._append_async_sql,
                node_id,
                sorted({e.table_id for e in events}),
                [e.table_id for e in events],
                [e.seq for e in events],
                [e.hand for e in events],
                [e.action for e in events],
                [now] * len(events),
                [e.epoch for e in events],
                [e.table_id for e in finals],
                [e.epoch for e in finals],
                [e.final_record for e in finals],
                timeout=seconds,
            )
        except TimeoutError:
            await close_timed_out(conn, seconds)
            raise
        return _answers(events, {(str(r[0]), int(r[1])) for r in rows})

    def _write_fenced(self, events: list[FencedEvent], node_id: str) -> set[tuple[str, int]]:
        """One transaction: lock and read this node's leases of the events' tables, write the
        events whose epoch still holds (with their writers and final records); the
        ``(table_id, epoch)`` pairs held."""
        conn = self._writer
        if conn is None:
            conn = self._writer = self.engine.raw_connection()
        sql = self._raw
        cur = conn.cursor()
        try:
            cur.execute(sql["fence_many"], (node_id, sorted({e.table_id for e in events})))
            held = {(str(t), int(ep)) for t, ep in cur.fetchall()}
            good = [e for e in events if (e.table_id, e.epoch) in held]
            if good:
                now = time.time()
                cur.executemany(
                    sql["events"], [(e.table_id, e.seq, e.hand, e.action, now, node_id, e.epoch) for e in good]
                )
                finals = [(e.final_record, e.table_id) for e in good if e.final_record is not None]
                if finals:
                    cur.executemany(sql["finish"], finals)
            conn.commit()
        except BaseException:
            self._rollback()
            raise
        finally:
            cur.close()
        return held

    def _rollback(self) -> None:
        """Undo the writer connection's transaction; a connection that cannot is closed (a new one next time)."""
        conn = self._writer
        if conn is None:
            return
        try:
            conn.rollback()
        except Exception:
            self.close()

    def close(self) -> None:
        """Close the connection kept for fenced writes (a later write opens another)."""
        with self._writer_lock:
            conn, self._writer = self._writer, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _append_alone(self, e: FencedEvent, node_id: str) -> BaseException | None:
        """``e`` written in a transaction of its own: its answer (``LeaseLost`` among them)."""
        try:
            return self.append_many([e], node_id)[0]
        except Exception as exc:
            return exc

    def set_bot_override_fenced(
        self, table_id: str, seat: int, level: str | None, override: bool, node_id: str, epoch: int
    ) -> None:
        """``Store.set_bot_override`` as the holder of the table's lease at ``epoch``: the lease row
        is locked and checked (this node, this epoch, not expired) in the transaction that
        updates the seat; ``LeaseLost`` changes nothing."""
        with self.engine.begin() as c:
            if c.execute(self._q["fence"], {"t": table_id, "n": node_id, "e": epoch}).first() is None:
                raise LeaseLost(table_id)
            c.execute(self.store.bot_override_update(table_id, seat, level, override))

    def writers_of(self, table_id: str) -> list[tuple[int, str, int]]:
        """``(seq, node_id, epoch)`` of every event of a table written by a lease holder, in order."""
        with self.engine.connect() as c:
            rows = c.execute(self._q["writers_of"], {"t": table_id}).all()
        return [(int(a), str(b), int(e)) for a, b, e in rows]

    # --- nodes -----------------------------------------------------------------------------
    def beat(self, node_id: str) -> None:
        """This node is alive for ``NODE_SECONDS`` more."""
        with self.engine.begin() as c:
            c.execute(self._q["beat"], {"n": node_id, "ttl": NODE_SECONDS})

    def name_held_for(self, node_id: str) -> float:
        """Seconds the node alive under ``node_id`` has left (0: none is)."""
        with self.engine.connect() as c:
            left = c.execute(self._q["name_alive_for"], {"n": node_id}).scalar()
        return max(0.0, float(left or 0.0))

    def wait_for_name(self, node_id: str, sleep: Callable[[float], None] = time.sleep) -> float:
        """Wait, up to ``NODE_SECONDS`` and a second, for ``node_id`` to be held by no live node:
        a node killed a moment ago counts as alive until its last heartbeat runs out, one that
        stops leaves at once. 0 when it is free; else the seconds its holder, which kept beating
        all along (another process running under that name), has left."""
        deadline = time.monotonic() + NODE_SECONDS + 1.0
        while (left := self.name_held_for(node_id)) > 0 and time.monotonic() < deadline:
            sleep(NAME_POLL_SECONDS)
        return left

    def take_name(self, node_id: str) -> bool:
        """Take ``node_id`` for this process, as alive for ``NODE_SECONDS``, unless a live node
        holds it; whether it was taken. One statement decides, so of processes starting together
        under one name one takes it."""
        with self.engine.begin() as c:
            return c.execute(self._q["take_name"], {"n": node_id, "ttl": NODE_SECONDS}).first() is not None

    def leave(self, node_id: str) -> None:
        """This node stops: it no longer counts as alive (no other node waits on it), and its row
        goes (node names drawn at each start would otherwise pile up)."""
        with self.engine.begin() as c:
            c.execute(self.nodes.delete().where(self.nodes.c.node_id == node_id))

    def live_nodes(self) -> set[str]:
        with self.engine.connect() as c:
            return {str(r[0]) for r in c.execute(self._q["alive"])}


__all__ = [
    "LEASE_SECONDS",
    "NAME_POLL_SECONDS",
    "NODE_SECONDS",
    "FencedEvent",
    "LeaseLost",
    "Leases",
    "NodeNameInUse",
    "Owner",
]
