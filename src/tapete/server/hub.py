"""The hub: what every request shares — the event log, the tables, the bot worker pool.

It creates tables from checked requests, rebuilds unfinished ones from the log on start
(``rebuild_game``) and closes everything on stop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import tapete
from tapete.engine.base import JSON, Game
from tapete.errors import TapeteError
from tapete.families import Family, family_of
from tapete.records import replay
from tapete.server import botpool
from tapete.server.db import SeatRow, Store, TableRow
from tapete.server.errors import ServerError
from tapete.server.requests import CreateRequest
from tapete.server.table import Message, Table, TableConfig, hash_token

log = logging.getLogger("tapete.server")

Observer = Callable[[Table, int | None, str, Message], None]
"""Called with every message queued for a client or shown to a bot: ``(table, seat, role, message)``."""


class Hub:
    """Everything shared by requests: the log, the table registry, the bot worker pool."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float,
        bot_workers: int,
        bot_executor: str,
        bot_extra_delay: float,
        handover_grace: float,
        rate: tuple[float, float],
        observer: Observer | None,
        public_url: str,
    ) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.bot_executor_kind = bot_executor
        self.bot_extra_delay = bot_extra_delay
        self.handover_grace = handover_grace
        self.rate = rate
        self.observer = observer
        self.public_url = public_url.rstrip("/")
        self.executor: Executor | None = None
        db_threads = 1 if store.url.startswith("sqlite") else 8
        self.db_executor = ThreadPoolExecutor(max_workers=db_threads, thread_name_prefix="tapete-db")

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking ``Store`` call in the database thread pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_executor, fn, *args)

    def table(self, table_id: str) -> Table:
        """The table called ``table_id``; ``no_table`` if there is none."""
        table = self.tables.get(table_id)
        if table is None:
            raise ServerError("no_table", f"no table {table_id[:64]!r}")
        return table

    def config(self) -> TableConfig:
        async def append(
            table_id: str, seq: int, hand: int, action: dict[str, Any], final: dict[str, Any] | None
        ) -> None:
            await self.db(self.store.append_event, table_id, seq, hand, action, final)

        async def override(table_id: str, seat: int, level: str | None, on: bool) -> None:
            await self.db(self.store.set_bot_override, table_id, seat, level, on)

        return TableConfig(
            append_event=append,
            set_override=override,
            executor=self.executor,
            bot_delay=self.bot_delay,
            bot_extra_delay=self.bot_extra_delay,
            handover_grace=self.handover_grace,
            observer=self.observer,
        )

    async def start(self) -> None:
        """Create the schema, start the bot pool and rebuild every unfinished table."""
        await self.db(self.store.create_schema)
        self.executor = botpool.make_executor(self.bot_executor_kind, self.bot_workers)
        rows: list[TableRow] = await self.db(self.store.load_open_tables)
        for row in rows:
            try:
                game = rebuild_game(row)
            except Exception as exc:
                log.error("table %s could not be rebuilt from its log: %s", row.id, exc)
                continue
            self.tables[row.id] = Table(row, game, self.config())
        for table in self.tables.values():
            table.kick_bots()
        log.info("restored %d unfinished tables", len(rows))

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.close()
        if self.executor is not None:
            executor = self.executor
            await asyncio.get_running_loop().run_in_executor(None, lambda: executor.shutdown(True, cancel_futures=True))
        self.db_executor.shutdown(wait=True)
        self.store.dispose()

    async def create_table(self, spec: CreateRequest) -> dict[str, JSON]:
        """Create a table from a checked request; returns tokens and invite links."""
        seed = spec.seed if spec.seed is not None else secrets.randbelow(1 << 31)
        try:
            game = tapete.new_game(spec.profile, seed=seed, options=spec.options)
        except TapeteError as exc:
            raise ServerError("bad_message", exc.message) from None
        n = int(game.num_players)
        if len(spec.seats) != n:
            raise ServerError("bad_message", f"profile {spec.profile!r} has {n} seats; the seat plan lists {len(spec.seats)}")
        fam = family_of(game)
        for plan in spec.seats:
            if plan.level is not None:
                check_level(fam, plan.level)
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
        )
        await self.db(self.store.insert_table, row)
        table = Table(row, game, self.config())
        self.tables[table_id] = table
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


def rebuild_game(row: TableRow) -> Game:
    """The game of a stored table: its record (profile, options, seed, actions) replayed."""
    hands: list[dict[str, Any]] = []
    for seq, (expected, (got, hand, action)) in enumerate(zip(range(len(row.events)), row.events, strict=True)):
        if got != expected:
            raise ValueError(f"event {seq} is missing from the log")
        while len(hands) <= hand:
            hands.append({"actions": []})
        hands[hand]["actions"].append(action)
    record = {"format": "tapete-record/1", "profile": row.profile, "options": row.options, "seed": row.seed}
    record["hands"] = hands or [{"actions": []}]
    result = replay(record)
    if result.exit_status != 0 or result.game is None:
        raise ValueError(f"replay failed: {result.report.get('error')}")
    return result.game


__all__ = ["Hub", "Observer", "check_level", "rebuild_game"]
