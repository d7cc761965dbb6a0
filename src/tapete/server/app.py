"""The ASGI application: HTTP lobby endpoints, one WebSocket per client, lifespan-owned state."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import tapete
from tapete.errors import TapeteError
from tapete.i18n import translator
from tapete.records import replay
from tapete.rulebook.web import rules_routes
from tapete.server import botpool
from tapete.server.db import SeatRow, Store, TableRow, default_db_url
from tapete.server.hints import hint_reason
from tapete.server.messages import error_message, normalize_lang
from tapete.server.protocol import MAX_BODY_BYTES, ProtocolError, RateLimiter, parse_message
from tapete.server.table import Message, Table, TableConfig, TableError, hash_token
from tapete.web import web_routes

log = logging.getLogger("tapete.server")

Observer = Callable[[Table, int | None, str, Message], None]


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
        await self.db(self.store.create_schema)
        self.executor = botpool.make_executor(self.bot_executor_kind, self.bot_workers)
        rows: list[TableRow] = await self.db(self.store.load_open_tables)
        for row in rows:
            try:
                game = rebuild_game(row)
            except Exception as exc:
                log.error("table %s could not be rebuilt from its log: %s", row.id, exc)
                continue
            table = Table(row, game, self.config())
            self.tables[row.id] = table
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

    async def create_table(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Create a table from a validated request body; returns tokens and invite links."""
        profile, options, seats_spec, seed, name = check_create_request(spec)
        try:
            game = tapete.new_game(profile, seed=seed, options=options)
        except TapeteError as exc:
            raise TableError("bad_message", exc.message) from None
        n = int(game.num_players)
        if len(seats_spec) != n:
            raise TableError("bad_message", f"profile {profile!r} has {n} seats; the seat plan lists {len(seats_spec)}")
        table_id = secrets.token_urlsafe(9)
        creator_token = secrets.token_urlsafe(24)
        seat_rows: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats_spec):
            if s["kind"] == "human":
                tok = secrets.token_urlsafe(24)
                tokens[i] = tok
                seat_rows.append(SeatRow(i, "human", None, hash_token(tok), s.get("name", "")))
            else:
                seat_rows.append(SeatRow(i, "bot", s.get("level", "easy"), None, s.get("name", "")))
        row = TableRow(
            id=table_id,
            profile=profile,
            options=dict(options),
            seed=int(game.seed),
            creator_hash=hash_token(creator_token),
            status="open",
            created_at=time.time(),
            name=name,
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


def rebuild_game(row: TableRow) -> Any:
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


def check_create_request(spec: Any) -> tuple[str, dict[str, Any], list[dict[str, Any]], int | None, str]:
    """Validate ``POST /api/tables``; raises ``TableError('bad_message')``."""
    if not isinstance(spec, dict):
        raise TableError("bad_message", "the body must be a JSON object")
    profile = spec.get("profile", "cutthroat")
    if not isinstance(profile, str) or profile not in tapete.profile_names():
        raise TableError("bad_message", f"unknown profile {str(profile)[:40]!r}")
    options = spec.get("options") or {}
    if not isinstance(options, dict) or len(options) > 32:
        raise TableError("bad_message", "'options' must be an object of option overrides")
    seed = spec.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 62):
        raise TableError("bad_message", "'seed' must be a non-negative integer")
    name = spec.get("name", "")
    if not isinstance(name, str) or len(name) > 100:
        raise TableError("bad_message", "'name' must be a short string")
    seats = spec.get("seats")
    if not isinstance(seats, list) or not 0 < len(seats) <= 8:
        raise TableError(
            "bad_message", "'seats' must list each seat: {'kind': 'human'} or {'kind': 'bot', 'level': ...}"
        )
    plan: list[dict[str, Any]] = []
    for s in seats:
        if isinstance(s, str):
            s = {"kind": "human"} if s == "human" else {"kind": "bot", "level": s}
        if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
            raise TableError("bad_message", "each seat is {'kind': 'human'} or {'kind': 'bot', 'level': ...}")
        level = s.get("level", "easy")
        if s["kind"] == "bot" and level not in botpool.LEVELS:
            raise TableError("bad_message", f"bot level must be one of {list(botpool.LEVELS)}")
        seat_name = s.get("name", "")
        if not isinstance(seat_name, str) or len(seat_name) > 40:
            raise TableError("bad_message", "a seat 'name' must be a short string")
        plan.append({"kind": s["kind"], "level": level if s["kind"] == "bot" else None, "name": seat_name})
    return profile, options, plan, seed, name


# --- connections -------------------------------------------------------------------------
class Connection:
    """One WebSocket client: a bounded outbox drained by a writer task."""

    OUTBOX = 1000

    def __init__(self, ws: WebSocket, rate: tuple[float, float]) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.lang = "en"
        self.table: Table | None = None
        self.limiter = RateLimiter(rate[0], rate[1])
        self.outbox: asyncio.Queue[Message | None] = asyncio.Queue(self.OUTBOX)
        self.overflowed = False

    def send(self, message: Message) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            # a client that does not read is dropped rather than slowing its table
            self.overflowed = True

    def error(self, code: str, detail: str | None = None, ref: object = None) -> None:
        self.send(error_message(code, self.lang, detail, ref))

    async def writer(self) -> None:
        while True:
            m = await self.outbox.get()
            if m is None or self.overflowed:
                with contextlib.suppress(Exception):
                    await self.ws.close(1008 if self.overflowed else 1000)
                return
            await self.ws.send_text(json.dumps(m, separators=(",", ":"), ensure_ascii=False))


async def websocket_endpoint(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    await ws.accept()
    conn = Connection(ws, hub.rate)
    writer = asyncio.create_task(conn.writer())
    try:
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                conn.error("bad_message", "send JSON text frames")
                continue
            if not conn.limiter.allow():
                conn.error("rate_limited", f"at most {hub.rate[0]:g} messages a second")
                continue
            await handle_text(hub, conn, text)
            if writer.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        with contextlib.suppress(asyncio.QueueFull):
            conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 1.0)
        if not writer.done():
            writer.cancel()


async def handle_text(hub: Hub, conn: Connection, text: str) -> None:
    """Handle one client message; every refusal is an error message and changes nothing."""
    try:
        msg = parse_message(text)
    except ProtocolError as exc:
        conn.error(exc.code, exc.detail)
        return
    ref = msg.get("id")
    kind = msg["type"]
    if kind == "ping":
        conn.send({"type": "pong", "ref": ref})
        return
    if kind == "hello":
        if conn.table is not None:
            conn.error("already_joined", None, ref)
            return
        conn.lang = normalize_lang(msg.get("lang"))
        table = hub.tables.get(msg["table"])
        if table is None:
            conn.error("no_table", f"no table {msg['table'][:64]!r}", ref)
            return
        token = msg.get("token")
        if token is not None:
            seat = table.seat_for_token(token)
            if seat is None:
                conn.error("bad_token", None, ref)
                return
            conn.seat = seat
        conn.table = table
        table.attach(conn)
        return
    table = conn.table
    if table is None:
        conn.error("not_joined", None, ref)
        return
    if kind == "sync":
        table.resync(conn)
        return
    if kind == "hint":
        await send_hint(table, conn, ref)
        return
    # kind == "action"
    if conn.seat is None:
        conn.error("not_seated", None, ref)
        return
    action = msg["action"]
    if action["seat"] != conn.seat:
        conn.error("wrong_seat", f"you play seat {conn.seat}, not seat {action['seat']}", ref)
        return
    try:
        await table.submit(conn.seat, action, msg["version"])
    except TableError as exc:
        conn.error(exc.code, exc.detail, ref)


async def send_hint(table: Table, conn: Connection, ref: object) -> None:
    """The normal bot's suggestion for the connection's seat, with a reason in its language."""
    seat = conn.seat
    if seat is None:
        conn.error("not_seated", None, ref)
        return
    if table.is_over():
        conn.error("game_over", None, ref)
        return
    version = table.version
    obs = table.game.observation(seat)
    if not obs.get("legal_actions"):
        conn.error("not_your_turn", f"it is seat {table.game.to_act}'s turn", ref)
        return
    try:
        action = await botpool.run_decision(
            table.config.executor, "normal", botpool.bot_seed(table.seed, seat, version), obs
        )
    except Exception as exc:
        log.warning("table %s: hint failed (%s); first legal action", table.id, type(exc).__name__)
        action = dict(obs["legal_actions"][0])
    if action not in obs["legal_actions"]:
        action = dict(obs["legal_actions"][0])
    reason = hint_reason(obs, action)
    conn.send(
        {
            "type": "hint",
            "ref": ref,
            "table": table.id,
            "version": version,
            "action": action,
            "reason": translator(conn.lang).gettext(reason),
            "reason_msgid": reason,
        }
    )


# --- HTTP ----------------------------------------------------------------------------------
def _err(status: int, code: str, detail: str, lang: str = "en") -> JSONResponse:
    return JSONResponse(error_message(code, lang, detail), status_code=status)


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise TableError("too_large", f"request bodies are limited to {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise TableError("bad_message", "the body is not JSON") from None


def _lang(request: Request) -> str:
    return normalize_lang(request.headers.get("accept-language", "en")[:16])


async def list_profiles(request: Request) -> Response:
    return JSONResponse(
        [{"name": n, "description": tapete.profile_info(n).description} for n in tapete.profile_names()]
    )


async def create_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    try:
        out = await hub.create_table(await _json_body(request))
    except TableError as exc:
        return _err(400, exc.code, exc.detail, _lang(request))
    return JSONResponse(out, status_code=201)


async def list_tables(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    return JSONResponse([t.public_info() for t in hub.tables.values() if not t.is_over()])


async def get_table(request: Request) -> Response:
    hub: Hub = request.app.state.hub
    table = hub.tables.get(request.path_params["table_id"])
    if table is None:
        return _err(404, "no_table", "no such table", _lang(request))
    return JSONResponse(table.public_info())


async def get_record(request: Request) -> Response:
    """The ``tapete-record/1`` of a finished game (unfinished ones would reveal the deal)."""
    hub: Hub = request.app.state.hub
    table_id = request.path_params["table_id"]
    found = await hub.db(hub.store.load_record, table_id)
    if found is None:
        return _err(404, "no_table", "no such table", _lang(request))
    status, record = found
    if status != "finished" or record is None:
        return _err(409, "wrong_phase", "the record is available once the game is over", _lang(request))
    return JSONResponse(record, headers={"content-disposition": f'attachment; filename="tapete-{table_id}.json"'})


async def seat_control(request: Request) -> Response:
    """The creator hands an absent human's seat to a bot (``/bot``) or gives it back (``/human``)."""
    hub: Hub = request.app.state.hub
    lang = _lang(request)
    table = hub.tables.get(request.path_params["table_id"])
    if table is None:
        return _err(404, "no_table", "no such table", lang)
    try:
        body = await _json_body(request)
        token = body.get("creator_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not secrets.compare_digest(hash_token(token), table.creator_hash):
            return _err(403, "bad_token", "only the table's creator can do this", lang)
        seat = request.path_params["seat"]
        to = request.path_params["to"]
        if to not in ("bot", "human"):
            return _err(404, "bad_message", "use /bot or /human", lang)
        if to == "bot":
            level = body.get("level", "easy")
            if level not in botpool.LEVELS:
                raise TableError("bad_message", f"bot level must be one of {list(botpool.LEVELS)}")
            await table.hand_to_bot(seat, level)
        else:
            await table.take_back(seat)
    except TableError as exc:
        return _err(409 if exc.code == "seat_taken" else 400, exc.code, exc.detail, lang)
    return JSONResponse(table.public_info())


def create_app(
    db_url: str | None = None,
    *,
    table_prefix: str = "",
    bot_delay: float = 0.6,
    bot_workers: int = 2,
    bot_executor: str = "process",
    bot_extra_delay: float = 0.0,
    handover_grace: float = 30.0,
    rate_limit: tuple[float, float] = (20.0, 40.0),
    observer: Observer | None = None,
    public_url: str = "",
) -> Starlette:
    """The tapete server as an ASGI app.

    ``db_url``: SQLAlchemy URL (``sqlite:///file``, ``postgresql://…``); default a SQLite
    file in the user's data folder. ``bot_delay``: minimum seconds per bot move (so a
    person can follow). ``bot_extra_delay``: extra thinking time in the worker (tests).
    ``handover_grace``: seconds an absent human is waited for before the creator may hand
    the seat to a bot. ``rate_limit``: (messages per second, burst) per connection.
    ``observer``: called with every message queued for a client or shown to a bot (tests).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db_url or default_db_url(), prefix=table_prefix)
        hub = Hub(
            store,
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            bot_executor=bot_executor,
            bot_extra_delay=bot_extra_delay,
            handover_grace=handover_grace,
            rate=rate_limit,
            observer=observer,
            public_url=public_url,
        )
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        Route("/api/profiles", list_profiles),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/record", get_record),
        Route("/api/tables/{table_id}/seats/{seat:int}/{to:str}", seat_control, methods=["POST"]),
        WebSocketRoute("/ws", websocket_endpoint),
        *rules_routes(),
        *web_routes(),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
