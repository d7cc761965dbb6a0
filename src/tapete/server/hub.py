"""The hub: what every request shares — the event log, the tables, the worker scheduler.

It creates tables from checked requests (with a secret 128-bit seed unless the creator
chose one), rebuilds unfinished ones from the log on start, reads finished ones back
from the log when they are asked for, and runs every piece of engine work that is more
than one action (bot decisions, hints, replays, rebuilds) in a worker through the fair
scheduler (:mod:`tapete.server.scheduler`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any, Final

import tapete
from tapete.engine.base import JSON, Game
from tapete.errors import ProfileError, TapeteError
from tapete.families import Family, family_of
from tapete.records import replay
from tapete.server.admission import Admission
from tapete.server.botpool import LIGHT_LEVELS, decision_args, search_params
from tapete.server.clientrate import ClientBuckets
from tapete.server.cluster.ownership import LocalOwnership, Ownership
from tapete.server.collector import tune
from tapete.server.db import SeatRow, Store, TableRow
from tapete.server.errors import ServerError
from tapete.server.groupcommit import GroupCommit
from tapete.server.limits import Limits
from tapete.server.metrics import Metrics
from tapete.server.optionerrors import OPTION_CODES, option_refusal
from tapete.server.pool import JobFailed, make_worker
from tapete.server.requests import CreateRequest
from tapete.server.scheduler import Scheduler
from tapete.server.setaside import SetAside
from tapete.server.table import Message, Table, TableConfig, hash_token

log = logging.getLogger("tapete.server")

Observer = Callable[[Table, int | None, str, Message], None]
"""Called with every message queued for a client or shown to a bot: ``(table, seat, role, message)``."""

SEED_BITS: Final = 128
"""Bits of a server-chosen seed (``secrets.randbits``)."""
REBUILD_SECONDS: Final = 60.0
"""Time budget of rebuilding one table from its log in a worker."""
HEALTH_ORDER: Final = ("ok", "degraded", "failing")
"""``/healthz`` statuses from best to worst: the hub's is the worst of its parts'."""
LOG_FAILURES_SHOWN_FOR: Final = 60.0
"""Seconds ``/healthz`` says ``degraded`` after the event log last refused a write."""
LOG_STUCK_AFTER: Final = 5.0
"""Seconds a write of the event log may take before ``/healthz`` says ``degraded`` (the actions
it carries wait unacknowledged meanwhile)."""

_look_counted_ahead: ContextVar[tuple[str, str] | None] = ContextVar("tapete_look_counted_ahead", default=None)
"""The (address, table) whose look a cluster node's ``locate`` counted in this task, for the
handler that then answers the call here (``Hub.charge_lookup``)."""


def new_seed() -> int:
    """A secret deal seed from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


class Hub:
    """Everything shared by requests: the log, the table registry, the worker scheduler."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float,
        bot_workers: int,
        bot_executor: str,
        bot_extra_delay: float,
        handover_grace: float,
        next_hand_wait: float = 30.0,
        rate: tuple[float, float],
        observer: Observer | None,
        public_url: str,
        limits: Limits | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.ownership: Ownership = ownership or LocalOwnership()
        """Which tables are this process's (all of them, unless it is one node of several)."""
        self.tables: dict[str, Table] = {}
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.bot_executor_kind = bot_executor
        self.bot_extra_delay = bot_extra_delay
        self.handover_grace = handover_grace
        self.next_hand_wait = next_hand_wait
        self.rate = rate
        self.observer = observer
        self.public_url = public_url.rstrip("/")
        self.limits = limits or Limits()
        self.metrics = Metrics()
        self.admission = Admission(
            tables_per_minute=self.limits.tables_per_client_minute,
            open_tables=self.limits.open_tables,
            sockets_per_client=self.limits.connections_per_client,
        )
        self.api_rate = ClientBuckets(self.limits.api_per_client_second, self.limits.api_burst)
        """Calls to the API per address (:class:`tapete.server.apirate.ApiRate`)."""
        self.lookups = ClientBuckets(self.limits.lookups_per_client_second, self.limits.lookups_burst)
        """Tables asked for per address that are not in memory (:meth:`charge_lookup`)."""
        self.scheduler = Scheduler(
            lambda name: make_worker(bot_executor, name), workers=bot_workers, limits=self.limits, metrics=self.metrics
        )
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.idle = SetAside(self)
        """Tables nobody is at, set aside (``tapete.server.setaside``)."""
        self.seat_listeners: list[Callable[[Any, str, int], Awaitable[None]]] = []
        """Told ``(connection, table id, seat)`` when a person takes a seat (``tapete.players`` binds it)."""
        self.finish_listeners: list[Callable[[str], Awaitable[None]]] = []
        """Told a table's id when its game is over (``tapete.players`` records it)."""
        db_threads = 1 if store.url.startswith("sqlite") else 8
        self.db_executor = ThreadPoolExecutor(max_workers=db_threads, thread_name_prefix="tapete-db")
        self.log_writer = GroupCommit(store)
        """Every accepted action goes to the log through it (group commit, see :mod:`tapete.server.groupcommit`)."""

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking ``Store`` call in the database thread pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_executor, fn, *args)

    async def _store_table(self, row: TableRow) -> None:
        await self.db(self.store.insert_table, row)

    # --- tables -------------------------------------------------------------------------
    def table(self, table_id: str) -> Table:
        """The table called ``table_id`` in memory; ``no_table`` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise ServerError("no_table", f"no table {table_id[:64]!r}")
        return table

    def charge_lookup(self, client: str | None, table_id: str, *, ahead: bool = False) -> None:
        """Count one look in the database for table ``table_id`` that ``client`` asked for
        (``None``: asked by another node, which counted it); ``rate_limited`` past the address's
        allowance. ``ahead``: counted by a cluster node's ``locate`` before the call is answered
        here, so the handler's own look at the same table, next in the same task, is not counted
        again."""
        if client is None:
            return
        look = (client, table_id)
        if not ahead and _look_counted_ahead.get() == look:
            _look_counted_ahead.set(None)
            return
        if not self.lookups.allow(client):
            raise ServerError("rate_limited", "too many tables asked for that are not open here")
        if ahead:
            _look_counted_ahead.set(look)

    async def find_table(self, table_id: str, client: str | None = None) -> Table:
        """The table called ``table_id``, a finished or set-aside one read back from the log if
        need be (a look in the database counted against ``client``'s allowance)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        await self.idle.settled(table_id)
        table = self.tables.get(table_id)
        if table is not None:
            return table
        self.charge_lookup(client, table_id)
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                pending.set_result(await self._load(table_id))
            except Exception as exc:
                log.error("table %s could not be read back from the log (%s)", table_id[:64], type(exc).__name__)
                pending.set_result(None)
            finally:
                del self._loading[table_id]
        found = await asyncio.shield(pending)
        if found is None:
            raise ServerError("no_table", f"no table {table_id[:64]!r}")
        return found

    async def _load(self, table_id: str) -> Table | None:
        """A table not in memory, read back from the log: a finished one, or one set aside (or
        open but held by nobody), which this process then holds (``Ownership.revive``)."""
        if len(table_id) > 64:
            return None
        status = await self.db(self.store.status, table_id)
        if status == "finished":
            return await self._load_finished(table_id)
        if status in ("idle", "open") and await self.ownership.revive(table_id, lambda: self._load_open(table_id)):
            if status == "idle":
                self.metrics.count("idle_tables_read_back")
            return self.tables.get(table_id)
        return None

    async def _load_open(self, table_id: str) -> bool:
        """Read an open or set-aside table back into memory (one process: it holds every table);
        marked open once rebuilt (one whose log no longer replays stays set aside)."""
        row: TableRow | None = await self.db(self.store.load_open_table, table_id)
        if row is None:
            return False
        table = await self.rebuilt_table(row)
        await self.db(self.store.wake, table_id)
        self.tables[row.id] = table
        table.kick_bots()
        return True

    async def rebuilt_table(self, row: TableRow) -> Table:
        """The unfinished table ``row`` (its seats and events read), its game replayed from its
        log in a worker; not yet among this process's tables."""
        game = await self.rebuild(row.id, json.dumps(record_of(row)).encode("utf-8"))
        return Table(row, game, self.config())

    async def _load_finished(self, table_id: str) -> Table | None:
        row: TableRow | None = await self.db(self.store.load_finished_table, table_id)
        if row is None or row.record_text is None:
            return None
        game = await self.rebuild(row.id, row.record_text.encode("utf-8"))
        table = self._add(Table(row, game, self.config()))
        self.metrics.count("finished_tables_read_back")
        return table

    def _add(self, table: Table) -> Table:
        """Register a table; the oldest finished tables without clients leave memory beyond the limit."""
        self.tables[table.id] = table
        finished = [t for t in self.tables.values() if t.is_over() and not t.clients()]
        for old in finished[: max(0, len(finished) - self.limits.finished_in_memory)]:
            del self.tables[old.id]
        return table

    def open_tables(self) -> int:
        return sum(1 for t in self.tables.values() if not t.is_over())

    async def seat_taken(self, conn: Any, table_id: str, seat: int) -> None:
        """Tell the seat listeners that the person on ``conn`` (a request or socket) took ``seat``."""
        for listener in self.seat_listeners:
            try:
                await listener(conn, table_id, seat)
            except Exception as exc:
                log.error("table %s: a seat listener failed (%s)", table_id[:64], type(exc).__name__)

    async def table_finished(self, table_id: str) -> None:
        """Tell the finish listeners that a table's game is over."""
        for listener in self.finish_listeners:
            try:
                await listener(table_id)
            except Exception as exc:
                log.error("table %s: a finish listener failed (%s)", table_id[:64], type(exc).__name__)

    # --- work in the workers --------------------------------------------------------------
    async def decide(
        self, lane: str, level: str, seed: int, observation: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A bot's action for ``observation`` from a worker, and the search parameters it used."""
        fam = family_of(observation).name
        used: dict[str, Any] = {}

        def budget(args: dict[str, Any], pressure: int) -> dict[str, Any]:
            used.clear()
            used.update(search_params(fam, level, pressure))
            return {**args, "params": dict(used)}

        args = decision_args(level, seed, observation, self.bot_extra_delay)
        timeout = self.limits.decision_seconds + self.bot_extra_delay
        start = time.monotonic()
        try:
            result, _ = await self.scheduler.submit(
                "decide", lane, args, light=level in LIGHT_LEVELS, timeout=timeout, degrade=budget
            )
        except JobFailed as exc:
            raise ServerError("busy", f"the bot failed: {exc.detail[:100]}") from None
        self.metrics.observe(f"turn_seconds_{level}", time.monotonic() - start)
        if not isinstance(result, dict):
            raise ServerError("busy", "the bot answered nothing")
        return result, dict(used)

    async def replay_record(self, body: bytes, lang: str, client: str) -> bytes:
        """``POST /api/replay``'s answer body, computed in a worker within its time budget."""
        try:
            _, out = await self.scheduler.submit(
                "replay",
                f"replay:{client}",
                {"lang": lang},
                body,
                timeout=self.limits.replay_seconds,
                max_waiting=self.limits.replays_waiting,
            )
        except JobFailed as exc:
            raise ServerError("bad_message", exc.detail[:200]) from None
        return out

    async def analyze_record(self, body: bytes, args: dict[str, Any], client: str) -> bytes:
        """A double-dummy analysis' answer body, computed in a worker within the analysis budget (``Limits``)."""
        seconds = self.limits.analysis_seconds
        job_args = {
            **args,
            "nodes": self.limits.analysis_nodes,
            "lead_nodes": self.limits.analysis_lead_nodes,
            "seconds": seconds,
            "more_seconds": self.limits.analysis_more_seconds,
        }
        try:
            _, out = await self.scheduler.submit(
                "analyze",
                f"analyze:{client}",
                job_args,
                body,
                timeout=2 * seconds + 10.0,
                max_waiting=self.limits.analyses_waiting,
            )
        except JobFailed as exc:
            raise ServerError("bad_message", exc.detail[:200]) from None
        return out

    async def rebuild(self, table_id: str, record: bytes) -> Game:
        """A game replayed from its record in a worker (pickled back)."""
        try:
            _, raw = await self.scheduler.submit("rebuild", f"rebuild:{table_id}", {}, record, timeout=REBUILD_SECONDS)
        except JobFailed as exc:
            raise ValueError(exc.detail) from None
        game: Game = pickle.loads(raw)
        return game

    def health(self) -> dict[str, Any]:
        """The scheduler's health, with the tables' counts."""
        out = self.scheduler.health()
        log_reasons = []
        if self.log_writer.refused_within(LOG_FAILURES_SHOWN_FOR):
            log_reasons.append("the event log refused writes in the last minute")
        stuck = self.log_writer.stuck_for()
        if stuck > LOG_STUCK_AFTER:
            log_reasons.append(f"a write to the event log has waited {stuck:.0f} s")
        if log_reasons:
            out["reasons"] = [*out["reasons"], *log_reasons]
            out["status"] = max(out["status"], "degraded", key=HEALTH_ORDER.index)
        out["open_tables"] = self.open_tables()
        out["tables_in_memory"] = len(self.tables)
        own = dict(self.ownership.health())
        status, reasons = own.pop("status", "ok"), own.pop("reasons", [])
        out.update(own)
        out["reasons"] = [*out["reasons"], *reasons]
        out["status"] = max(out["status"], status, key=HEALTH_ORDER.index)
        return out

    # --- life ---------------------------------------------------------------------------
    def config(self) -> TableConfig:
        async def override(table_id: str, seat: int, level: str | None, on: bool) -> None:
            await self.db(self.store.set_bot_override, table_id, seat, level, on)

        return TableConfig(
            append_event=self.ownership.appender(self.log_writer.append),
            set_override=self.ownership.overrider(override),
            decide=self.ownership.decider(self.decide),
            bot_delay=self.bot_delay,
            bot_extra_delay=self.bot_extra_delay,
            handover_grace=self.handover_grace,
            observer=self.observer,
            connections_per_seat=self.limits.connections_per_seat,
            spectators_per_table=self.limits.spectators_per_table,
            next_hand_wait=self.next_hand_wait,
            on_finish=self.table_finished,
        )

    async def start(self) -> None:
        """Create the schema, start the workers and rebuild every unfinished table (in the workers)."""
        await self.db(self.store.create_schema)
        self.log_writer.start()
        tune()
        await self.scheduler.start()
        self.idle.start()
        try:
            alone = await self.ownership.start(self)
        except BaseException:  # a node that cannot join its cluster (its name in use): nothing left running
            await self.idle.stop()
            await self._stop_workers()
            raise
        if not alone:
            return  # one node of several: tables come to it by their leases
        rows: list[TableRow] = await self.db(self.store.load_open_tables)
        gate = asyncio.Semaphore(max(1, self.bot_workers) * 2)

        async def restore(row: TableRow) -> None:
            async with gate:
                try:
                    self.tables[row.id] = await self.rebuilt_table(row)
                except Exception as exc:
                    log.error("table %s could not be rebuilt from its log: %s", row.id, exc)

        await asyncio.gather(*(restore(row) for row in rows))
        for table in self.tables.values():
            table.kick_bots()
        log.info("restored %d unfinished tables", len(rows))

    async def hand_off(self) -> None:
        """The server begins to stop, before it waits for the calls in flight: a node of a cluster
        gives its tables to the other nodes now (:meth:`Ownership.hand_off`)."""
        await self.idle.stop()
        await self.ownership.hand_off()

    async def stop(self) -> None:
        await self.idle.stop()
        await self.ownership.stop()
        for table in list(self.tables.values()):
            await table.close()
        await self._stop_workers()

    async def _stop_workers(self) -> None:
        """Stop the bots' scheduler and the log's writer, and close the database."""
        await self.scheduler.stop()
        await self.log_writer.close()
        self.db_executor.shutdown(wait=True)
        self.store.dispose()

    async def create_table(self, spec: CreateRequest, client: str = "") -> dict[str, JSON]:
        """Create a table from a checked request; returns tokens and invite links."""
        chosen = spec.seed is not None
        seed = spec.seed if spec.seed is not None else new_seed()
        try:
            game = tapete.new_game(spec.profile, seed=seed, options=spec.options)
        except ProfileError as exc:
            if exc.code in OPTION_CODES:
                raise option_refusal(spec.options, exc) from None
            raise ServerError("bad_message", exc.message) from None
        except TapeteError as exc:
            raise ServerError("bad_message", exc.message) from None
        n = int(game.num_players)
        if len(spec.seats) != n:
            raise ServerError(
                "bad_message", f"profile {spec.profile!r} has {n} seats; the seat plan lists {len(spec.seats)}"
            )
        fam = family_of(game)
        for plan in spec.seats:
            if plan.level is not None:
                check_level(fam, plan.level)
        self.admission.admit_table(client, open_now=self.open_tables())
        table_id = secrets.token_urlsafe(9)
        creator_token = secrets.token_urlsafe(24)
        seat_rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, plan in enumerate(spec.seats):
            if plan.kind == "human":
                tokens[i] = secrets.token_urlsafe(24)
                seat_rows.append(SeatRow(i, "human", None, hash_token(tokens[i]), plan.name))
            else:
                seat_rows.append(SeatRow(i, "bot", plan.level, None, plan.name))
        row = TableRow(
            id=table_id,
            profile=spec.profile,
            options=dict(spec.options),
            seed=seed,
            creator_hash=hash_token(creator_token),
            status="open",
            created_at=time.time(),
            name=spec.name,
            seats=seat_rows,
            seed_chosen=chosen,
        )
        try:
            await self.ownership.store_table(row, self._store_table)
        except Exception as exc:
            log.error("table %s could not be stored (%s)", table_id, type(exc).__name__)
            raise ServerError("storage_error", "the event log could not be written") from None
        table = self._add(Table(row, game, self.config()))
        table.kick_bots()
        base = self.public_url
        return {
            "table": table_id,
            "creator_token": creator_token,
            "seats": [
                {
                    "seat": i,
                    "kind": r.kind,
                    "level": r.level,
                    "token": tokens.get(i),
                    "invite": f"{base}/table/{table_id}#token={tokens[i]}" if i in tokens else None,
                }
                for i, r in enumerate(seat_rows)
            ],
            "spectate": f"{base}/table/{table_id}#spectate",
            "info": table.public_info(),
        }


def check_level(fam: Family, level: object) -> str:
    """``level`` if the family has bots of that level; ``bad_message`` otherwise."""
    if not isinstance(level, str) or level not in fam.bot_levels:
        raise ServerError("bad_message", f"bot level must be one of {list(fam.bot_levels)}")
    return level


def record_of(row: TableRow) -> dict[str, Any]:
    """The record of a stored unfinished table: profile, options, seed and the logged actions."""
    hands: list[dict[str, Any]] = []
    for seq, (expected, (got, hand, action)) in enumerate(zip(range(len(row.events)), row.events, strict=True)):
        if got != expected:
            raise ValueError(f"event {seq} is missing from the log")
        while len(hands) <= hand:
            hands.append({"actions": []})
        hands[hand]["actions"].append(action)
    record: dict[str, Any] = {"format": "tapete-record/1", "profile": row.profile, "options": row.options}
    record["seed"] = row.seed
    record["hands"] = hands or [{"actions": []}]
    return record


def rebuild_game(row: TableRow) -> Game:
    """The game of a stored table: its record replayed (in this process; the hub uses a worker)."""
    result = replay(record_of(row))
    if result.exit_status != 0 or result.game is None:
        raise ValueError(f"replay failed: {result.report.get('error')}")
    return result.game


__all__ = ["SEED_BITS", "Hub", "Observer", "check_level", "new_seed", "rebuild_game", "record_of"]
