"""The event log: one SQLAlchemy Core schema for SQLite and PostgreSQL.

Four tables: ``tables`` (profile, options, creator token hash, status, final record),
``deals`` (the table's seed, up to 128 bits and more, and whether its creator chose it;
tables logged before it existed keep their 63-bit seed in ``tables.seed``), ``seats``
(who plays each seat) and ``events`` (every accepted action; its primary key
``(table_id, seq)`` makes each sequence number unique per table). ``Store``
is synchronous; the server calls it in a thread pool of its own (``Hub.db``: one thread
for SQLite, eight for PostgreSQL) so the event loop never waits on disk or network. The
exception is the log's commit: on SQLite at ``synchronous=NORMAL`` it writes into the
system's page cache and never waits for a lock (:meth:`Store.loop_connection`); on
PostgreSQL the loop awaits it on an asynchronous connection of its own
(:meth:`Store.append_events_async`).
The schema is created with ``create_all``, which leaves existing tables as they are.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Engine

SQLITE_SYNCHRONOUS = ("NORMAL", "FULL")
"""SQLite ``synchronous`` levels the log may run at (WAL journal): ``NORMAL`` (the default) syncs the
write-ahead log only at checkpoints, so an acknowledged action survives the server's crash
(``kill -9``) but the last commits may be lost if the machine itself stops; ``FULL`` syncs it at
each commit, so an acknowledged action also survives a power cut, at the price of a ``fsync`` per
commit. ``TAPETE_SQLITE_SYNCHRONOUS`` chooses."""
LOG_CONNECTION_SETTINGS: Final = {"enable_seqscan": "off"}
"""PostgreSQL settings of the event loop's log connection (:meth:`Store.open_async_connection`)."""
PG_SESSION_SETTINGS: Final = {
    "idle_in_transaction_session_timeout": "5000",
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
"""PostgreSQL's own settings for every connection a ``Store`` opens, so that the server, too, gives
up on a client that vanished without closing its connection (a machine that lost power or its
route): a transaction left open between two statements ends after 5 s, and a connection that
stops answering is dropped after about 25 s, its locks with it. Otherwise the rows such a
transaction locked (a cluster's lease rows, locked by every renewal and fenced write) stay
locked for as long as the server's system waits on a dead peer (two hours by default), and no
other node could take those tables over."""
PG_CONNECT_ARGS: Final = {
    "connect_timeout": 10,
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 30000,
    "options": " ".join(f"-c {k}={v}" for k, v in PG_SESSION_SETTINGS.items()),
}
"""libpq settings of the database threads' PostgreSQL connections, where the URL gives none of its
own: a connection whose other end vanished without closing it (a failover, a lost route) fails
within about half a minute, waiting for an answer or sending, instead of holding its thread for
the system's default of a quarter of an hour; ``options`` passes :data:`PG_SESSION_SETTINGS`."""
LOG_TIMEOUT: Final = 5.0
"""Seconds the event loop waits for its log connection to open, or for a commit on it, before giving
up (:meth:`Store.open_async_connection`, :meth:`Store.append_events_async`): after a failover or on
a connection that died without a word, a commit would otherwise never return, and nothing after it
would be written."""


@contextlib.contextmanager
def schema_transaction(engine: Engine, prefix: str) -> Iterator[sa.Connection]:
    """A transaction that creates or changes the tables under ``prefix``, one process at a time:
    on PostgreSQL it first takes an advisory lock, so that nodes starting together on a new
    database do not both create a table (the second would fail on the catalogue's unique index)
    or both change one. SQLite lets one writer in at a time by itself."""
    with engine.begin() as c:
        if engine.dialect.name == "postgresql":
            c.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"tapete schema {prefix}"})
        yield c


def default_db_url() -> str:
    """A SQLite file in the user's data folder (``$XDG_DATA_HOME/tapete`` or the platform's)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        folder = Path(xdg) / "tapete"
    else:
        import platformdirs

        folder = Path(platformdirs.user_data_dir("tapete", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tapete.db'}"


def normalize_url(url: str) -> str:
    """Map ``postgresql://`` to the psycopg 3 driver; other URLs are kept."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str  # "human" or "bot"
    level: str | None = None  # bot level (for a bot seat, or a human seat handed to a bot)
    token_hash: str | None = None
    name: str = ""
    bot_override: bool = False  # a human seat currently played by a bot


class LogAhead(Exception):
    """The log already holds another action at the sequence number an action was to be written at:
    an earlier action of the same table whose commit reached the log although it seemed to fail (its
    answer was lost, and the database could not be asked at once). The table is behind its log by
    that action, which it applies (:meth:`tapete.server.table.Table.submit`)."""

    def __init__(self, table_id: str, seq: int, hand: int, action: dict[str, Any]) -> None:
        super().__init__(f"table {table_id}: the log holds another action at {seq}")
        self.table_id, self.seq, self.hand, self.action = table_id, seq, hand, action


def error_name(exc: BaseException) -> str:
    """A log error's class, with the database's own name for it where the driver gives one
    (``SQLITE_FULL``, ``SQLITE_BUSY``; PostgreSQL's SQLSTATE): never the message, which may quote
    an action (a card still in a hand)."""
    orig = getattr(exc, "orig", exc)
    detail = getattr(orig, "sqlite_errorname", None) or getattr(orig, "sqlstate", None)
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


@dataclass(slots=True)
class EventRow:
    """One accepted action on its way to the log: ``action`` and ``final_record`` already JSON text."""

    table_id: str
    seq: int
    hand: int
    action: str
    at: float
    final_record: str | None = None


@dataclass
class TableRow:
    """One table as stored, with its events when loaded for recovery."""

    id: str
    profile: str
    options: dict[str, Any]
    seed: int
    creator_hash: str
    status: str
    created_at: float
    name: str = ""
    seats: list[SeatRow] = field(default_factory=list)
    events: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)  # (seq, hand, action)
    seed_chosen: bool = False  # the creator chose the seed (and every player is told it)
    record_text: str | None = None  # a finished table's record, as stored
    event_count: int | None = None  # a finished table's events in the log, read without them

    @property
    def version(self) -> int:
        """The table's version: the events in its log."""
        return len(self.events) if self.event_count is None else self.event_count


LEGACY_SEED_LIMIT = 1 << 63
"""Seeds below this are also written to ``tables.seed`` (older readers); larger ones only to ``deals``."""


class Store:
    """Synchronous access to the log (call it from a worker thread)."""

    def __init__(self, url: str, *, prefix: str = "", sqlite_synchronous: str | None = None) -> None:
        self.url = normalize_url(url)
        self.prefix = prefix
        is_sqlite = self.url.startswith("sqlite")
        self.is_sqlite = is_sqlite
        sync = (sqlite_synchronous or os.environ.get("TAPETE_SQLITE_SYNCHRONOUS") or "NORMAL").upper()
        if sync not in SQLITE_SYNCHRONOUS:
            raise ValueError(f"TAPETE_SQLITE_SYNCHRONOUS must be one of {', '.join(SQLITE_SYNCHRONOUS)}, not {sync!r}")
        self.sqlite_synchronous = sync
        kwargs: dict[str, Any] = {"future": True}
        if is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
            given = sa.engine.make_url(self.url).query
            connect_args = {k: v for k, v in PG_CONNECT_ARGS.items() if k not in given}
            own = given.get("options")
            if isinstance(own, str):  # the URL's own run-time settings come after ours, so they win
                connect_args["options"] = f"{PG_CONNECT_ARGS['options']} {own}"
            kwargs["connect_args"] = connect_args
        self.engine: Engine = sa.create_engine(self.url, **kwargs)
        if is_sqlite:
            sa.event.listen(self.engine, "connect", lambda conn, _rec: _sqlite_pragmas(conn, sync))
        md = sa.MetaData()
        p = prefix
        self.tables = sa.Table(
            f"{p}tables",
            md,
            sa.Column("id", sa.String(64), primary_key=True),
            sa.Column("name", sa.String(200), nullable=False, default=""),
            sa.Column("profile", sa.String(64), nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("creator_hash", sa.String(64), nullable=False),
            sa.Column("status", sa.String(16), nullable=False, index=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("record", sa.Text, nullable=True),
        )
        self.seats = sa.Table(
            f"{p}seats",
            md,
            sa.Column("table_id", sa.String(64), sa.ForeignKey(f"{p}tables.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("level", sa.String(16), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
            sa.Column("name", sa.String(100), nullable=False, default=""),
            sa.Column("bot_override", sa.Boolean, nullable=False, default=False),
        )
        self.deals = sa.Table(
            f"{p}deals",
            md,
            sa.Column("table_id", sa.String(64), sa.ForeignKey(f"{p}tables.id"), primary_key=True),
            sa.Column("seed", sa.String(80), nullable=False),
            sa.Column("chosen", sa.Boolean, nullable=False, default=False),
        )
        self.events = sa.Table(
            f"{p}events",
            md,
            sa.Column("table_id", sa.String(64), sa.ForeignKey(f"{p}tables.id"), nullable=False),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("hand", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.PrimaryKeyConstraint("table_id", "seq", name=f"{p}events_pk"),
        )
        self.metadata = md
        quote = self.engine.dialect.identifier_preparer.quote
        mark = "?" if is_sqlite else "%s"
        self._insert_events_sql = (
            f"INSERT INTO {quote(self.events.name)} (table_id, seq, hand, action, at) VALUES ({', '.join([mark] * 5)})"
        )
        self._event_sql = f"SELECT hand, action FROM {quote(self.events.name)} WHERE table_id = {mark} AND seq = {mark}"
        self._finish_sql = (
            f"UPDATE {quote(self.tables.name)} SET status = 'finished', record = {mark} WHERE id = {mark}"
        )
        # PostgreSQL's commits on the event loop: the batch as one statement (atomic by itself, one
        # round trip outside a transaction), its columns as arrays; the tables it finishes in the same
        # statement. asyncpg's ``$n`` parameters.
        insert_arrays = (
            f"INSERT INTO {quote(self.events.name)} (table_id, seq, hand, action, at) "
            "SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::text[], $5::float8[])"
        )
        self._insert_arrays_sql = insert_arrays
        self._insert_and_finish_arrays_sql = (
            f"WITH logged AS ({insert_arrays}) UPDATE {quote(self.tables.name)} AS t "
            "SET status = 'finished', record = f.record FROM unnest($6::varchar[], $7::text[]) AS f(id, record) "
            "WHERE t.id = f.id"
        )

    def create_schema(self) -> None:
        with schema_transaction(self.engine, self.prefix) as c:
            self.metadata.create_all(c)

    def drop_schema(self) -> None:
        self.metadata.drop_all(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------
    def insert_table(self, row: TableRow) -> None:
        """Store a new table: its row, its deal and its seats, in one transaction."""
        with self.engine.begin() as c:
            self.write_table(c, row)

    def write_table(self, c: sa.Connection, row: TableRow) -> None:
        """:meth:`insert_table` in the transaction of ``c`` (which the caller commits)."""
        c.execute(
            self.tables.insert().values(
                id=row.id,
                name=row.name,
                profile=row.profile,
                options=json.dumps(row.options, sort_keys=True),
                seed=row.seed if 0 <= row.seed < LEGACY_SEED_LIMIT else 0,
                creator_hash=row.creator_hash,
                status=row.status,
                created_at=row.created_at,
            )
        )
        c.execute(self.deals.insert().values(table_id=row.id, seed=str(row.seed), chosen=row.seed_chosen))
        c.execute(
            self.seats.insert(),
            [
                {
                    "table_id": row.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "token_hash": s.token_hash,
                    "name": s.name,
                    "bot_override": s.bot_override,
                }
                for s in row.seats
            ],
        )

    def append_event(
        self, table_id: str, seq: int, hand: int, action: dict[str, Any], final_record: dict[str, Any] | None = None
    ) -> None:
        """Append one accepted action; with ``final_record`` also close the table, atomically."""
        with self.engine.begin() as c:
            c.execute(
                self.events.insert().values(
                    table_id=table_id, seq=seq, hand=hand, action=json.dumps(action, sort_keys=True), at=time.time()
                )
            )
            if final_record is not None:
                c.execute(
                    self.tables.update()
                    .where(self.tables.c.id == table_id)
                    .values(status="finished", record=json.dumps(final_record))
                )

    def writer_connection(self) -> Any:
        """A DBAPI connection of its own for :meth:`append_events` (the group commit's writer keeps one)."""
        return self.engine.raw_connection()

    @property
    def commits_on_loop(self) -> bool:
        """Whether the event loop may commit the log itself, without blocking on the disk or the network.

        True for SQLite at ``synchronous=NORMAL``: a commit appends to the write-ahead log in the
        system's page cache, with no ``fsync``, and is made at once (:meth:`loop_connection`). True
        for PostgreSQL: a commit is a round trip the loop awaits on a connection of its own
        (:attr:`loop_commits_await`). Not for SQLite at ``FULL`` (an ``fsync`` a commit, which only a
        thread may wait for)."""
        return not self.is_sqlite or self.sqlite_synchronous == "NORMAL"

    @property
    def loop_commits_await(self) -> bool:
        """Whether a commit on the event loop is awaited (PostgreSQL: :meth:`open_async_connection`,
        :meth:`append_events_async`) rather than made at once (SQLite: :meth:`loop_connection`)."""
        return not self.is_sqlite

    async def open_async_connection(self, *, timeout: float = LOG_TIMEOUT) -> Any:
        """An asynchronous connection of its own for commits awaited on the event loop (PostgreSQL
        only: asyncpg's, which costs the loop about 0.3 of the CPU of psycopg's asynchronous one a
        commit, ``benchmarks/pg_async_driver.py``).

        Opening it, and each statement on it, fails after ``timeout`` seconds; the server also
        cancels a statement of it that runs longer (``statement_timeout``), so a commit the loop
        gave up on is not made later.

        The connection only writes the log, whose statements find their rows by key (a batch's
        tables, a cluster's leases of them): its planner is told not to scan whole tables
        (``enable_seqscan = off``). Otherwise a table that is small, or whose statistics are old,
        is read from end to end, each row compared with every key of the batch: a cluster's fenced
        batch of 35 events cost PostgreSQL 675 µs of CPU that way against 525 µs through the
        leases' key (180 leases), and the gap grows with the table (docs/performance.md)."""
        import asyncpg

        # libpq's own settings (``PG_CONNECT_ARGS``) are not asyncpg's: asyncpg would send them to the
        # server as run-time settings, which it refuses; ``options`` it sends as libpq does
        given = sa.engine.make_url(self.url)
        libpq_only = [k for k in PG_CONNECT_ARGS if k != "options"]
        url = given.set(drivername="postgresql").difference_update_query(libpq_only)
        own = given.query.get("options")
        found = re.findall(r"(?:-c\s*|--)([\w.-]+)=", own) if isinstance(own, str) else []
        named = {k.lower().replace("-", "_") for k in found}
        settings = {
            **{k: v for k, v in PG_SESSION_SETTINGS.items() if k not in named},  # the URL's own win
            **LOG_CONNECTION_SETTINGS,
            "statement_timeout": str(max(1, round(timeout * 1000))),
        }
        return await asyncpg.connect(
            url.render_as_string(hide_password=False),
            server_settings=settings,
            timeout=timeout,
            command_timeout=timeout,
        )

    async def append_events_async(self, conn: Any, events: list[EventRow], *, timeout: float = LOG_TIMEOUT) -> None:
        """:meth:`append_events` on an :meth:`open_async_connection`: one statement, so one round trip,
        and atomic (the tables finished by ``final_record`` are closed by the same statement). On an
        error none of ``events`` is in the log. A statement that takes more than ``timeout`` seconds
        raises ``TimeoutError`` and the connection is closed (:func:`close_timed_out`): whether the
        events reached the log is then not known."""
        table_ids: list[str] = []
        seqs: list[int] = []
        hands: list[int] = []
        actions: list[str] = []
        times: list[float] = []
        finished_ids: list[str] = []
        records: list[str] = []
        for e in events:
            table_ids.append(e.table_id)
            seqs.append(e.seq)
            hands.append(e.hand)
            actions.append(e.action)
            times.append(e.at)
            if e.final_record is not None:
                finished_ids.append(e.table_id)
                records.append(e.final_record)
        try:
            if finished_ids:
                sql = self._insert_and_finish_arrays_sql
                await conn.execute(sql, table_ids, seqs, hands, actions, times, finished_ids, records, timeout=timeout)
            else:
                await conn.execute(self._insert_arrays_sql, table_ids, seqs, hands, actions, times, timeout=timeout)
        except TimeoutError:
            await close_timed_out(conn, timeout)
            raise

    @staticmethod
    def async_connection_usable(conn: Any) -> bool:
        """Whether an :meth:`open_async_connection` is still fit for the next commit after one failed
        (a refused statement leaves it open and outside any transaction; a lost one is closed)."""
        return not conn.is_closed() and not conn.is_in_transaction()

    def loop_connection(self) -> Any:
        """A DBAPI connection of its own for commits made on the event loop (SQLite only).

        It never waits for a lock (``busy_timeout`` 0: a commit that would wait fails at once, and
        the caller hands it to a thread) and never checkpoints the write-ahead log itself (a
        checkpoint copies and syncs pages: :meth:`checkpoint` does it from a thread)."""
        fairy = self.engine.raw_connection()
        fairy.detach()  # its settings are its own: closing it closes it rather than pooling it
        cur = fairy.cursor()
        try:
            cur.execute("PRAGMA busy_timeout=0")
            cur.execute("PRAGMA wal_autocheckpoint=0")
        finally:
            cur.close()
        return fairy

    @staticmethod
    def lock_was_held(exc: BaseException) -> bool:
        """Whether ``exc`` is SQLite's "busy" or "locked" refusal of a :meth:`loop_connection`: the lock
        was held elsewhere, nothing was written, and the connection is fine."""
        code = getattr(exc, "sqlite_errorcode", None)
        return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)

    def checkpoint(self, conn: Any) -> None:
        """Copy the write-ahead log into the database, so that the next commit writes it from its start.

        SQLite's ``RESTART`` checkpoint: it holds the write lock while it copies (a commit on the
        event loop meanwhile does not wait: it goes to the thread, which makes this checkpoint). A
        checkpoint that let writers go on would never catch up with a log written to all the time,
        and the log would grow without end."""
        cur = conn.cursor()
        try:
            cur.execute("PRAGMA wal_checkpoint(RESTART)")
            cur.fetchall()
        finally:
            cur.close()

    def append_events(self, conn: Any, events: list[EventRow]) -> None:
        """Append many accepted actions (of any tables) in one transaction through the driver's batch insert.

        Tables whose event carries a ``final_record`` are closed in the same transaction. On an error
        the transaction is rolled back and the error raised: none of ``events`` is in the log.
        """
        cur = conn.cursor()
        try:
            cur.executemany(self._insert_events_sql, [(e.table_id, e.seq, e.hand, e.action, e.at) for e in events])
            finals = [(e.final_record, e.table_id) for e in events if e.final_record is not None]
            if finals:
                cur.executemany(self._finish_sql, finals)
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            cur.close()

    def logged_event(self, conn: Any, table_id: str, seq: int) -> tuple[int, str] | None:
        """The hand and action (JSON text) the log holds at sequence number ``seq`` of ``table_id``,
        if any (read on the DBAPI connection ``conn``, which is left outside a transaction)."""
        cur = conn.cursor()
        try:
            cur.execute(self._event_sql, (table_id, seq))
            found = cur.fetchone()
        finally:
            cur.close()
            conn.rollback()
        return None if found is None else (int(found[0]), str(found[1]))

    def set_bot_override(self, table_id: str, seat: int, level: str | None, override: bool) -> None:
        with self.engine.begin() as c:
            c.execute(self.bot_override_update(table_id, seat, level, override))

    def bot_override_update(self, table_id: str, seat: int, level: str | None, override: bool) -> sa.Update:
        """The statement that marks a human seat as played by a bot of ``level`` (or no longer)."""
        return (
            self.seats.update()
            .where(self.seats.c.table_id == table_id, self.seats.c.seat == seat)
            .values(level=level, bot_override=override)
        )

    def set_aside_statement(self, table_id: str) -> sa.Update:
        """The statement that marks an open table ``idle``: set aside, read back when asked for."""
        t = self.tables
        return t.update().where(t.c.id == table_id, t.c.status == "open").values(status="idle")

    def set_aside(self, table_id: str) -> bool:
        """Mark an open table ``idle`` (nobody has been at it for a while, and it waits on a
        person): it is no longer rebuilt at start, nor counted open; whether it was open."""
        with self.engine.begin() as c:
            return bool(c.execute(self.set_aside_statement(table_id)).rowcount)

    def wake(self, table_id: str) -> None:
        """Mark an ``idle`` table open again (it is being read back into memory)."""
        t = self.tables
        with self.engine.begin() as c:
            c.execute(t.update().where(t.c.id == table_id, t.c.status == "idle").values(status="open"))

    # --- reads ----------------------------------------------------------------------
    def status(self, table_id: str) -> str | None:
        """The stored status of a table (``open``, ``idle``, ``finished``), ``None`` when there is none."""
        t = self.tables
        with self.engine.connect() as c:
            v = c.execute(sa.select(t.c.status).where(t.c.id == table_id)).scalar()
        return None if v is None else str(v)

    def load_open_tables(self) -> list[TableRow]:
        """Every open table (not ``idle``) with its seats and events in order."""
        with self.engine.connect() as c:
            rows = c.execute(self._with_deal().where(self.tables.c.status == "open")).mappings().all()
            return [self._with_seats_and_events(c, _table_row(r)) for r in rows]

    def load_open_table(self, table_id: str) -> TableRow | None:
        """One unfinished table (open or set aside) with its seats and events in order, or ``None``."""
        with self.engine.connect() as c:
            unfinished = self.tables.c.status.in_(("open", "idle"))
            r = c.execute(self._with_deal().where(self.tables.c.id == table_id, unfinished)).mappings().first()
            return None if r is None else self._with_seats_and_events(c, _table_row(r))

    def _with_seats_and_events(self, c: sa.Connection, t: TableRow) -> TableRow:
        seats = c.execute(self.seats.select().where(self.seats.c.table_id == t.id).order_by(self.seats.c.seat))
        t.seats = [_seat_row(s) for s in seats.mappings()]
        evs = c.execute(
            sa.select(self.events.c.seq, self.events.c.hand, self.events.c.action)
            .where(self.events.c.table_id == t.id)
            .order_by(self.events.c.seq)
        ).all()
        t.events = [(int(seq), int(hand), json.loads(a)) for seq, hand, a in evs]
        return t

    def _with_deal(self) -> sa.Select[Any]:
        """``tables`` rows with their ``deals`` row's seed and choice (absent for old tables)."""
        t, d = self.tables, self.deals
        return sa.select(t, d.c.seed.label("deal_seed"), d.c.chosen.label("deal_chosen")).select_from(
            t.outerjoin(d, d.c.table_id == t.c.id)
        )

    def load_record(self, table_id: str) -> tuple[str, dict[str, Any] | None] | None:
        """``(status, record)`` of a table, or ``None`` when there is no such table."""
        found = self.load_record_text(table_id)
        if found is None:
            return None
        return found[0], (json.loads(found[1]) if found[1] else None)

    def load_record_text(self, table_id: str) -> tuple[str, str | None] | None:
        """``(status, record as stored)`` of a table (not parsed), or ``None`` when there is no such table."""
        with self.engine.connect() as c:
            r = c.execute(
                sa.select(self.tables.c.status, self.tables.c.record).where(self.tables.c.id == table_id)
            ).first()
        if r is None:
            return None
        return str(r[0]), (str(r[1]) if r[1] else None)

    def load_finished_table(self, table_id: str) -> TableRow | None:
        """A finished table with its seats, stored record and number of events (not the events), or ``None``."""
        with self.engine.connect() as c:
            r = (
                c.execute(self._with_deal().where(self.tables.c.id == table_id, self.tables.c.status == "finished"))
                .mappings()
                .first()
            )
            if r is None:
                return None
            t = _table_row(r)
            seats = c.execute(
                self.seats.select().where(self.seats.c.table_id == t.id).order_by(self.seats.c.seat)
            ).mappings()
            t.seats = [_seat_row(s) for s in seats]
            t.record_text = r["record"]
            t.event_count = self._count_events(c, table_id)
            return t

    def count_events(self, table_id: str) -> int:
        with self.engine.connect() as c:
            return self._count_events(c, table_id)

    def _count_events(self, c: sa.Connection, table_id: str) -> int:
        n = c.execute(
            sa.select(sa.func.count()).select_from(self.events).where(self.events.c.table_id == table_id)
        ).scalar_one()
        return int(n)


async def close_timed_out(conn: Any, seconds: float) -> None:
    """Close an :meth:`Store.open_async_connection` whose statement ran out of time: the server is
    asked to cancel the statement, then the connection ends (dropped if that takes more than
    ``seconds``). It is not used again: it may still be waiting for the statement's answer."""
    with contextlib.suppress(Exception):
        await conn.close(timeout=seconds)


def _sqlite_pragmas(dbapi_conn: Any, synchronous: str) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={synchronous}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"],
        name=r["name"] or "",
        profile=r["profile"],
        options=json.loads(r["options"]),
        seed=int(r["deal_seed"]) if r.get("deal_seed") is not None else int(r["seed"]),
        creator_hash=r["creator_hash"],
        status=r["status"],
        created_at=float(r["created_at"]),
        seed_chosen=bool(r.get("deal_chosen") or False),
    )


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(
        seat=int(r["seat"]),
        kind=r["kind"],
        level=r["level"],
        token_hash=r["token_hash"],
        name=r["name"] or "",
        bot_override=bool(r["bot_override"]),
    )
