"""Tables: one game, its seats, its connections, and the single writer that applies actions.

Every action goes through ``Table.submit`` under the table's ``asyncio.Lock``: checked
(version, seat, turn, rules) on a clone of the game, appended to the event log, and
only then made current and fanned out — each seat its own observation, spectators the
public view (as a change from the view before it to clients that ask, see
:mod:`tapete.server.deltas`). Bot seats are driven by one task per table that asks the worker pool
(``TableConfig.decide``); a decision that fails is asked again later, never replaced by
an arbitrary move.

The deal is secret: the seed (128 random bits unless the creator chose one, which every
player is then told in ``info`` and ``welcome``) reaches clients only in the finished
record, which says where the seed came from (``seed_source``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from tapete.engine.base import JSON, Game
from tapete.errors import TapeteError
from tapete.families import Family, family_of
from tapete.server.botpool import bot_seed
from tapete.server.db import LogAhead, SeatRow, TableRow, error_name
from tapete.server.deltas import Delta, joined_delta, view_delta
from tapete.server.errors import ServerError
from tapete.server.handgate import HandGate
from tapete.server.protocol import Shared
from tapete.server.repeats import RepeatedFailure
from tapete.server.views import ViewParts, game_summary, hand_summary, spectator_view

log = logging.getLogger("tapete.server")
APPEND_FAILURES = RepeatedFailure(log, "appending a table's event", "the action is refused")
"""Actions whose event the log refused, in any table of this process: the first logged, then
one line a minute at most (the log's own line says when it takes events again; one table's
success says nothing of another's failure)."""
BOT_FAILURES = RepeatedFailure(log, "a bot's turn", "asking again")
"""Bots' decisions that failed, or whose action the log refused, in any table of this process
(logged as ``APPEND_FAILURES`` is)."""

Message = dict[str, Any]
Decide = Callable[[str, str, int, dict[str, Any]], Awaitable[tuple[dict[str, Any], dict[str, Any]]]]
"""``(lane, level, seed, observation) -> (action, search params used)``: one bot decision in a worker."""

RETRY_PAUSE_MAX = 3.0
"""Longest pause before a bot whose decision failed, or whose action could not be logged, asks
again (so bots go on within seconds of their workers, Redis or the log coming back)."""
FEATURES: tuple[str, ...] = ("next_hand", "deltas")
"""What the server offers beyond the base protocol (``welcome.features``)."""


def hash_token(token: str) -> str:
    """The stored form of a seat or creator token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(hash_token(token), stored)


class Client(Protocol):
    """A connected client as the table sees it."""

    seat: int | None
    lang: str
    deltas: bool
    """Whether the client takes a state as the change from the one before (``hello``'s ``deltas``)."""

    def send(self, message: Message) -> None:
        """Queue a message (never blocks)."""

    def close(self, code: int | None = None) -> None:
        """Close the client's socket with ``code`` (after what is queued)."""


@dataclass(eq=False)
class Seat:
    """One seat at a table."""

    index: int
    kind: str
    level: str | None
    token_hash: str | None
    name: str
    bot_override: bool = False
    clients: set[Client] = field(default_factory=set)
    left_at: float | None = None  # monotonic time when the last client left

    def display_name(self) -> str:
        """The name a record gives this seat: the one chosen, else ``Bot 2 (hard)`` or ``Seat 1``."""
        if self.name:
            return self.name
        if self.kind == "bot":
            return f"Bot {self.index + 1} ({self.level or 'easy'})"
        return f"Seat {self.index + 1}"

    @property
    def bot_level(self) -> str | None:
        """The level of the bot playing this seat now, or ``None`` for a human."""
        if self.kind == "bot" or self.bot_override:
            return self.level or "easy"
        return None

    def public(self) -> dict[str, JSON]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "level": self.level if self.bot_level else None,
            "bot_playing": self.bot_level is not None,
            "connected": bool(self.clients),
        }

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.level, self.token_hash, self.name, self.bot_override)


@dataclass
class TableConfig:
    """Shared settings and hooks a table uses."""

    append_event: Callable[[str, int, int, dict[str, Any], dict[str, Any] | None], Awaitable[None]]
    set_override: Callable[[str, int, str | None, bool], Awaitable[None]]
    decide: Decide
    bot_delay: float = 0.6
    bot_extra_delay: float = 0.0
    handover_grace: float = 30.0
    observer: Callable[[Table, int | None, str, Message], None] | None = None
    connections_per_seat: int = 4
    spectators_per_table: int = 50
    next_hand_wait: float = 30.0
    """Longest time bots wait after a hand for the people's ``next_hand`` (0: no wait)."""
    on_finish: Callable[[str], Coroutine[Any, Any, None]] | None = None
    """Called (in a task of its own) with the table's id once its game is over."""


def hand_index(game: Game) -> int:
    """The number of the hand being played (0 for a one-deal game)."""
    return max(0, int(getattr(game, "hand_number", 0)))


class Table:
    """One table: its game, seats, clients and bot driver."""

    def __init__(self, row: TableRow, game: Game, config: TableConfig) -> None:
        self.id = row.id
        self.name = row.name
        self.profile = row.profile
        self.options = row.options
        self.seed = row.seed
        self.seed_chosen = row.seed_chosen
        self.creator_hash = row.creator_hash
        self.created_at = row.created_at
        self.game = game
        self.family: Family = family_of(game)
        self.version = row.version
        self.seats = [Seat(s.seat, s.kind, s.level, s.token_hash, s.name, s.bot_override) for s in row.seats]
        self.spectators: set[Client] = set()
        self.config = config
        self.lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self._finish_task: asyncio.Task[None] | None = None
        self.closed = False
        self.gate: HandGate | None = None
        self._shown: dict[int | None, tuple[int, dict[str, JSON]]] = {}
        """The last view built for each seat (``None``: the spectators'), with its version."""
        self._parts: ViewParts | None = None
        """The watched seats' views at the version of the latest fan-out, in two parts."""
        self.last_seen = time.monotonic()
        """When a client was last connected (monotonic): abandoned tables leave the open list."""

    # --- facts ----------------------------------------------------------------------
    def is_over(self) -> bool:
        return bool(self.game.is_over())

    def public_info(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "name": self.name,
            "profile": self.profile,
            "options": dict(self.options),
            "version": self.version,
            "status": "finished" if self.is_over() else "open",
            "to_act": self.game.to_act,
            "seats": [s.public() for s in self.seats],
            "spectators": len(self.spectators),
            **self.deal_info(),
        }

    def deal_info(self) -> dict[str, JSON]:
        """Where the deals come from: ``{"deal": "secret"}``, or the creator's seed, told to everyone."""
        if self.seed_chosen:
            return {"deal": "creator_seed", "seed": str(self.seed)}
        return {"deal": "secret"}

    def seat_for_token(self, token: str) -> int | None:
        for s in self.seats:
            if token_matches(token, s.token_hash):
                return s.index
        return None

    # --- clients --------------------------------------------------------------------
    def check_room(self, seat: int | None) -> None:
        """``too_many_spectators`` / ``too_many_connections`` when the table or seat is full."""
        if seat is None:
            if len(self.spectators) >= self.config.spectators_per_table:
                raise ServerError("too_many_spectators", f"at most {self.config.spectators_per_table} spectators")
        elif len(self.seats[seat].clients) >= self.config.connections_per_seat:
            raise ServerError("too_many_connections", f"at most {self.config.connections_per_seat} connections a seat")

    def attach(self, client: Client) -> None:
        """Add a client (seat or spectator) and send it the full current view."""
        self.last_seen = time.monotonic()
        newly_connected = False  # a seat that had no socket now has one: the others are told
        if client.seat is None:
            self.spectators.add(client)
        else:
            seat = self.seats[client.seat]
            newly_connected = not seat.clients
            seat.clients.add(client)
            seat.left_at = None
        self._emit(client, self._welcome(client))
        gate = self.gate
        if gate is not None and client.seat is not None and client.seat not in gate.ready and not gate.opened.is_set():
            self._emit(client, dict(gate.summary))  # the end of the hand the bots are waiting on, not lost
        self._emit(client, self._state(client.seat, None))
        if self.is_over():
            over = {"type": "game_over", "table": self.id, "version": self.version, **game_summary(self.game)}
            self._emit(client, over)  # as it was told to those who were there
        if newly_connected:
            self._broadcast_seats()

    def detach(self, client: Client) -> None:
        self.last_seen = time.monotonic()
        if client.seat is None:
            self.spectators.discard(client)
            return
        seat = self.seats[client.seat]
        if client not in seat.clients:
            return
        seat.clients.discard(client)
        if not seat.clients:  # the seat's last socket left: the others are told
            seat.left_at = time.monotonic()
            self._broadcast_seats()
        self._check_gate()

    def resync(self, client: Client) -> None:
        self._emit(client, self._state(client.seat, None))

    def clients(self) -> list[Client]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.clients)
        return out

    def _welcome(self, client: Client) -> Message:
        return {
            "type": "welcome",
            "table": self.id,
            "role": "spectator" if client.seat is None else "player",
            "seat": client.seat,
            "version": self.version,
            "profile": self.profile,
            "options": dict(self.options),
            "seats": [s.public() for s in self.seats],
            "renderer": self.family.renderer,
            "features": list(FEATURES),
            **self.deal_info(),
        }

    def _view(self, seat: int | None) -> dict[str, JSON]:
        """The current view of ``seat`` (``None``: the spectators'), built once per version."""
        shown = self._shown.get(seat)
        if shown is not None and shown[0] == self.version:
            return shown[1]
        parts = self._parts
        if seat is not None and parts is not None and parts.version == self.version and seat in parts.own:
            view = parts.view(seat)
        else:
            view = spectator_view(self.game) if seat is None else self.game.observation(seat)
        self._shown[seat] = (self.version, view)
        return view

    def _state(self, seat: int | None, last: dict[str, JSON] | None) -> Message:
        """The whole current view of ``seat``."""
        return {
            "type": "state",
            "table": self.id,
            "version": self.version,
            "seat": seat,
            "last_action": last,
            "view": self._view(seat),
        }

    def _delta_state(self, seat: int | None, last: dict[str, JSON] | None, delta: Delta) -> Message:
        """The current view of ``seat`` as ``delta``, its change from the version before."""
        changed, appended, gone = delta
        message: Message = {
            "type": "state",
            "table": self.id,
            "version": self.version,
            "seat": seat,
            "last_action": last,
            "changed": changed,
        }
        if appended:
            message["appended"] = appended
        if gone:
            message["gone"] = gone
        return message

    def _emit(self, client: Client, message: Message) -> None:
        observer = self.config.observer
        if observer is not None:
            observer(self, client.seat, "spectator" if client.seat is None else "player", message)
        client.send(message)

    def _broadcast(self, make: Callable[[Client], Message | None]) -> None:
        for c in self.clients():
            m = make(c)
            if m is not None:
                self._emit(c, m)

    def _broadcast_seats(self) -> None:
        message = Shared({"type": "seats", "table": self.id, "seats": [s.public() for s in self.seats]})
        self._broadcast(lambda c: message)

    # --- the single writer ----------------------------------------------------------
    async def submit(self, seat: int, action: dict[str, Any], version: int, *, by_bot: bool = False) -> None:
        """Apply one action for ``seat`` seen at ``version``; raises ``TapeteError``, changing nothing."""
        async with self.lock:
            game = self.game
            if self.closed:
                raise ServerError("no_table", "the table is closed")
            if game.is_over():
                raise ServerError("game_over", "the game is over")
            if version != self.version:
                raise ServerError("stale_version", f"the table is at version {self.version}, not {version}")
            if action.get("seat") != seat:
                raise ServerError("wrong_seat", f"you play seat {seat}")
            seat_state = self.seats[seat]
            if (seat_state.bot_level is not None) != by_bot:
                raise ServerError("seat_is_bot" if not by_bot else "not_seated", f"seat {seat} changed hands")
            if game.to_act != seat:
                raise ServerError("not_your_turn", f"it is seat {game.to_act}'s turn, not seat {seat}'s")
            hand_before = hand_index(game)
            if not by_bot:
                self._seat_ready(seat)
            # the rules' refusal (an ``IllegalAction``, with its params) goes to the client as it is
            parsed = game.parse_action(action)
            record_form = game.action_to_record(parsed, seat)
            new = game.clone()
            new.apply(parsed)
            final = self._final_record(new) if new.is_over() else None
            try:
                await self.config.append_event(self.id, self.version, hand_before, record_form, final)
            except LogAhead as ahead:
                self._catch_up(ahead)
                raise ServerError("stale_version", f"the table is at version {self.version}, not {version}") from None
            except Exception as exc:
                # the exception text may quote the action (a card still in hand): not logged
                APPEND_FAILURES.failed(f"table {self.id[:64]}, event {self.version}: {error_name(exc)}")
                raise ServerError("server_error", "the event log could not be written") from None
            self._advance(new, record_form, hand_before)
        self.kick_bots()

    def _advance(self, new: Game, record_form: dict[str, JSON], hand_before: int) -> None:
        """The table moves on to ``new``, after the action ``record_form``, now in the log."""
        self.game = new
        self.version += 1
        self._fanout(record_form, hand_before)
        if new.is_over() and self.config.on_finish is not None:
            self._finish_task = asyncio.get_running_loop().create_task(self.config.on_finish(self.id))

    def _catch_up(self, ahead: LogAhead) -> None:
        """The log holds an action at this table's version that the table has not applied (an
        earlier action whose commit seemed to fail but reached the log): the table applies it, as
        a restart would from the log, and tells its clients."""
        game = self.game
        hand_before = hand_index(game)
        try:
            new = game.clone()
            new.apply(game.parse_action(ahead.action))
        except TapeteError:
            log.error("table %s: the log's event %d does not apply to the table", self.id, ahead.seq)
            raise ServerError("server_error", "the event log could not be written") from None
        log.warning("table %s: event %d, which seemed not to be logged, is in the log; applied", self.id, ahead.seq)
        self._advance(new, dict(ahead.action), hand_before)
        self.kick_bots()  # the caller is refused as stale: a bot due next must not wait on it

    def _final_record(self, game: Game) -> dict[str, Any]:
        """The finished game's record, saying whether the creator chose the seed."""
        record = dict(game.record([s.display_name() for s in self.seats]))
        record["seed_source"] = "creator" if self.seed_chosen else "server"
        return record

    def _fanout(self, last: dict[str, JSON], hand_before: int) -> None:
        """Tell every connected client: one view and one encoded message per seat with clients."""
        game = self.game
        hand_done = self.family.hand_results and (hand_index(game) != hand_before or game.is_over())
        if hand_done:
            summary = hand_summary(game, hand_before)
            hand_over = {"type": "hand_over", "table": self.id, "version": self.version, **(summary or {})}
            if not game.is_over() and self.config.next_hand_wait > 0:
                self.gate = HandGate.after(hand_before, self.config.next_hand_wait, hand_over)
            shared_over = Shared(hand_over)
            self._broadcast(lambda c: shared_over)
        previous = self.version - 1
        before = {seat: view for seat, (version, view) in self._shown.items() if version == previous}
        prior = self._parts if self._parts is not None and self._parts.version == previous else None
        self._shown = {}  # views of seats nobody watches any more are not kept
        self._parts = None
        watched = [i for i, s in enumerate(self.seats) if s.clients]
        if watched:  # built together: the public facts once
            public, own = game.observation_parts(watched)
            self._parts = ViewParts(self.version, public, own)
        parts = self._parts
        public_change: Delta | None = None  # the change of the public part, found once for every seat
        full: dict[int | None, Message] = {}
        deltas: dict[int | None, Message] = {}

        def change(seat: int | None) -> Delta | None:
            """``seat``'s view as the change from the version before, if that view is known."""
            nonlocal public_change
            if seat is not None and prior is not None and parts is not None and seat in prior.own:
                if public_change is None:
                    public_change = view_delta(prior.public, parts.public)
                return joined_delta(public_change, view_delta(prior.own[seat], parts.own[seat]))
            if seat in before:
                return view_delta(before[seat], self._view(seat))
            return None

        def state(c: Client) -> Message:
            seat = c.seat
            if c.deltas:
                m = deltas.get(seat)
                if m is None:
                    delta = change(seat)
                    if delta is not None:
                        m = deltas[seat] = Shared(self._delta_state(seat, last, delta))
                if m is not None:
                    return m
            m = full.get(seat)
            if m is None:
                m = full[seat] = Shared(self._state(seat, last))
            return m

        self._broadcast(state)
        if game.is_over():
            over = Shared({"type": "game_over", "table": self.id, "version": self.version, **game_summary(game)})
            self._broadcast(lambda c: over)

    # --- between hands ------------------------------------------------------------------
    def waits_on_a_person(self) -> bool:
        """Whether the game waits on a seat no bot plays."""
        seat = self.game.to_act
        return seat is not None and self.seats[seat].bot_level is None

    def abandoned(self, after: float) -> bool:
        """Whether nobody (player or spectator) has been connected for ``after`` seconds."""
        return not self.clients() and time.monotonic() - self.last_seen >= after

    def next_hand(self, seat: int, hand: int) -> None:
        """The person at ``seat`` has seen the end of hand ``hand`` (older hands are ignored)."""
        if self.gate is not None and self.gate.hand == hand:
            self._seat_ready(seat)

    def _seat_ready(self, seat: int) -> None:
        if self.gate is not None:
            self.gate.ready.add(seat)
            self._check_gate()

    def _check_gate(self) -> None:
        """Open the gate when every connected person is ready (or its time is up)."""
        gate = self.gate
        if gate is None:
            return
        waiting = {s.index for s in self.seats if s.clients and s.bot_level is None}
        if gate.open_if(waiting):
            self.gate = None

    async def _hold_for_people(self) -> None:
        """Wait (bots only) until the gate after the last hand opens."""
        self._check_gate()
        gate = self.gate
        if gate is not None:
            await gate.wait()
            if self.gate is gate:
                self.gate = None

    # --- seats handed to bots ----------------------------------------------------------
    async def hand_to_bot(self, seat: int, level: str) -> None:
        """The creator gives an absent human's seat to a bot."""
        async with self.lock:
            self._check_open()
            s = self._human_seat(seat)
            if s.clients:
                raise ServerError("seat_taken", "the player is connected")
            if s.left_at is not None and time.monotonic() - s.left_at < self.config.handover_grace:
                raise ServerError("seat_taken", "the player left a moment ago and is still waited for")
            await self.config.set_override(self.id, seat, level, True)
            s.level, s.bot_override = level, True
            self._broadcast_seats()
            self._check_gate()
        self.kick_bots()

    async def take_back(self, seat: int) -> None:
        """The creator gives a bot-played human seat back to its human."""
        async with self.lock:
            self._check_open()
            s = self._human_seat(seat)
            await self.config.set_override(self.id, seat, None, False)
            s.level, s.bot_override = None, False
            self._broadcast_seats()

    def _check_open(self) -> None:
        """``busy`` once the table has left memory (set aside, or moved to another node)."""
        if self.closed:
            raise ServerError("busy", "the table was just set aside or moved; try again")

    def _human_seat(self, seat: int) -> Seat:
        if not 0 <= seat < len(self.seats):
            raise ServerError("bad_message", f"no seat {seat}")
        s = self.seats[seat]
        if s.kind != "human":
            raise ServerError("bad_message", f"seat {seat} is a bot seat")
        return s

    # --- bots -------------------------------------------------------------------------
    def kick_bots(self) -> None:
        """Start the bot driver if a bot is to act and none is running."""
        if self.closed or self.game.is_over():
            return
        seat = self.game.to_act
        if seat is None or self.seats[seat].bot_level is None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._drive_bots(), name=f"bots-{self.id}")

    async def _drive_bots(self) -> None:
        loop = asyncio.get_running_loop()
        refusals = 0
        failures = 0
        while not self.closed and not self.game.is_over():
            seat = self.game.to_act
            if seat is None or self.seats[seat].bot_level is None:
                return
            await self._hold_for_people()
            seat = self.game.to_act
            if seat is None:
                return
            level = self.seats[seat].bot_level
            if level is None:
                return
            version = self.version
            obs = self.game.observation(seat)
            observer = self.config.observer
            if observer is not None:
                observer(self, seat, "bot", {"type": "state", "view": obs})
            start = loop.time()
            seed = bot_seed(self.seed, seat, version)
            try:
                action, params = await self.config.decide(self.id, level, seed, obs)
                if action not in obs["legal_actions"]:
                    raise ValueError("the bot chose an action that is not legal")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # never an arbitrary move: the table waits and the bot thinks again
                failures += 1
                BOT_FAILURES.failed(f"table {self.id[:64]}, seat {seat}: {type(exc).__name__}")
                await asyncio.sleep(min(RETRY_PAUSE_MAX, 0.25 * 2**failures))
                continue
            failures = 0
            if observer is not None:
                decision = {"type": "bot_decision", "view": obs, "action": action, "level": level}
                observer(self, seat, "bot_decision", {**decision, "seed": seed, "params": params})
            wait = self.config.bot_delay - (loop.time() - start)
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self.submit(seat, action, version, by_bot=True)
                refusals = 0
            except TapeteError as exc:
                if exc.code in ("stale_version", "not_seated", "game_over", "no_table"):
                    continue
                if exc.code == "server_error":  # the log could not be written: asked again, as a failed decision
                    failures += 1
                    BOT_FAILURES.failed(f"table {self.id[:64]}, seat {seat}: its action was not logged")
                    await asyncio.sleep(min(RETRY_PAUSE_MAX, 0.25 * 2**failures))
                    continue
                refusals += 1
                log.warning("table %s: bot action refused (%s)", self.id, exc.code)
                if refusals > 3:
                    return
                await asyncio.sleep(min(1.0, 0.05 * refusals))

    async def close(self) -> None:
        self.closed = True
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
