"""What the server does with players: identities, seat binding, the end of a game, the views.

:class:`Players` wraps :class:`~tapete.players.store.PlayersStore` for the event loop
(database calls in the hub's database threads; Argon2 and replays in other threads).
When a table finishes, :meth:`Players.record_table` replays its stored record once and
writes, in one transaction, a history row per account seat (with the family's per-game
statistics) and the new ratings; a table that finished while the server was down is
recorded on the next start.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import sqlalchemy as sa
from starlette.requests import HTTPConnection

import tapete
from tapete.engine.base import JSON
from tapete.families import families, family
from tapete.players import passwords
from tapete.players.anchors import ANCHOR_SIGMA
from tapete.players.names import GUEST_PREFIX, check_name, skeleton
from tapete.players.ratings import Entry, places, rate_game, shown
from tapete.players.sessions import new_token, presented, sign, token_hash, unsign
from tapete.players.store import Account, GameRow, PlayersStore, RatingRow
from tapete.records import replay
from tapete.server.errors import ServerError
from tapete.server.hub import Hub
from tapete.stats import PlayedGame, StatsFunctions, profile_stats

log = logging.getLogger("tapete.players")

DELETED: Final = "(deleted)"
"""The name history views show for a player whose account is gone."""
SIGN_INS_PER_MINUTE: Final = 10
"""Sign-in attempts an address may make per minute (``rate_limited`` beyond)."""


class SignInLimiter:
    """At most ``per_minute`` sign-in attempts per address over the last minute."""

    def __init__(self, per_minute: int = SIGN_INS_PER_MINUTE, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.tries: dict[str, list[float]] = {}

    def check(self, address: str) -> None:
        now = self.clock()
        recent = [t for t in self.tries.get(address, []) if now - t < 60.0]
        if len(recent) >= self.per_minute:
            self.tries[address] = recent
            raise ServerError("rate_limited", "too many sign-in attempts: wait a minute")
        recent.append(now)
        self.tries[address] = recent
        if len(self.tries) > 10_000:
            self.tries = {a: ts for a, ts in self.tries.items() if ts and now - ts[-1] < 60.0}


class Players:
    """The players' side of the server, attached to a hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = PlayersStore(hub.store)
        self.key = b""
        self.limiter = SignInLimiter()

    # --- life ---------------------------------------------------------------------------
    async def prepare(self) -> None:
        """Before the hub starts: the schema (``seats.account_id`` included) and the signing key."""
        await asyncio.to_thread(self.store.create_schema)
        self.key = await asyncio.to_thread(self.store.secret)

    async def start(self) -> None:
        """Once the hub runs: listen to it, and record tables that finished unrecorded."""
        self.hub.seat_listeners.append(self.seat_taken)
        self.hub.finish_listeners.append(self.record_table)
        for table_id in await self.hub.db(self.store.unrecorded_tables):
            await self.record_table(table_id)

    async def stop(self) -> None:
        """Stop listening to the hub (a game that ends later is recorded on the next start)."""
        if self.seat_taken in self.hub.seat_listeners:
            self.hub.seat_listeners.remove(self.seat_taken)
        if self.record_table in self.hub.finish_listeners:
            self.hub.finish_listeners.remove(self.record_table)

    # --- identity -----------------------------------------------------------------------
    async def identify(self, conn: HTTPConnection) -> tuple[Account, str] | None:
        """The account of the session a request or socket presents, with the signed token."""
        signed = presented(conn)
        token = unsign(self.key, signed) if signed else None
        if token is None or signed is None:
            return None
        account: Account | None = await self.hub.db(self.store.session_account, token_hash(token))
        return None if account is None else (account, signed)

    async def me(self, conn: HTTPConnection) -> tuple[Account, str]:
        """The signed-in account; ``not_signed_in`` otherwise."""
        found = await self.identify(conn)
        if found is None:
            raise ServerError("not_signed_in", "no valid session")
        return found

    async def open_session(self, account: Account) -> str:
        """A new session for ``account``: the signed token."""
        token = new_token()
        await self.hub.db(self.store.add_session, token_hash(token), account.id)
        return sign(self.key, token)

    async def guest(self) -> tuple[Account, str]:
        """A new guest account and its session."""
        for _ in range(20):
            name = GUEST_PREFIX + secrets.token_hex(3)
            account: Account | None = await self.hub.db(self.store.create_guest, name, skeleton(name))
            if account is not None:
                return account, await self.open_session(account)
        raise ServerError("busy", "no free guest name")

    async def claim(self, account: Account, name: object, password: object) -> Account:
        """Give the guest ``account`` a name and a password."""
        if not account.guest:
            raise ServerError("already_claimed", "this account already has a name")
        checked = check_name(name)
        secret = passwords.check_password(password)
        hashed = await asyncio.to_thread(passwords.hash_password, secret)
        claimed: Account = await self.hub.db(self.store.claim, account.id, checked, skeleton(checked), hashed)
        return claimed

    async def sign_in(self, address: str, name: object, password: object) -> tuple[Account, str]:
        """A new session for the named account; ``bad_credentials`` for any mismatch."""
        self.limiter.check(address)
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 64:
            raise ServerError("bad_credentials", "wrong name or password")
        password = password[: passwords.PASSWORD_MAX + 1]
        found = await self.hub.db(self.store.account_by_skeleton, skeleton(name))
        account, stored = found if found is not None else (None, None)
        ok = await asyncio.to_thread(passwords.verify_password, stored, password)
        if not ok or account is None or account.guest:
            raise ServerError("bad_credentials", "wrong name or password")
        return account, await self.open_session(account)

    async def sign_out(self, signed: str) -> None:
        token = unsign(self.key, signed)
        if token is not None:
            await self.hub.db(self.store.drop_session, token_hash(token))

    async def delete(self, account: Account, password: object) -> None:
        """Delete the account and everything of it (a named account confirms with its password)."""
        if not account.guest:
            stored = await self.hub.db(self.store.password_hash, account.id)
            ok = isinstance(password, str) and await asyncio.to_thread(
                passwords.verify_password, stored, password[: passwords.PASSWORD_MAX + 1]
            )
            if not ok:
                raise ServerError("bad_credentials", "wrong password")
        await self.hub.db(self.store.delete_account, account.id)

    # --- seats and finished tables ------------------------------------------------------------
    async def seat_taken(self, conn: HTTPConnection, table_id: str, seat: int) -> None:
        """Bind the seat to the account the connection presents (if the seat is still nobody's
        and its game is not over: a finished game's history is written once). The table may be
        owned by another node (a socket joined through this one): the shared log says whether
        it is still open."""
        table = self.hub.tables.get(table_id)
        if table is not None and table.is_over():
            return
        found = await self.identify(conn)
        if found is not None:
            await self.hub.db(self.store.bind_seat, table_id, seat, found[0].id)

    async def record_table(self, table_id: str) -> None:
        """Write the history rows and ratings of a finished table (once)."""
        try:
            work = await asyncio.to_thread(self._settle_plan, table_id)
            if work is None:
                return
            for attempt in range(3):
                try:
                    await self.hub.db(self._settle_write, table_id, work)
                    return
                except sa.exc.DBAPIError:  # two games of one new player ending at once: the second tries again
                    if attempt == 2:
                        raise
                    await asyncio.sleep(0.05 * (attempt + 1))
        except Exception as exc:
            log.error("table %s: players' history not written (%s)", table_id[:64], type(exc).__name__)

    def _settle_plan(self, table_id: str) -> dict[str, Any] | None:
        """Read and replay a finished table (in a thread): what its account seats get."""
        accounts = self.store.seat_accounts(table_id)
        if not accounts:
            return None
        row = self.store.log.load_finished_table(table_id)
        if row is None or row.record_text is None:
            return None
        record = json.loads(row.record_text)
        result = replay(record)
        if result.exit_status != 0:
            raise ValueError(f"the record of {table_id} does not replay")
        report = result.report
        fam = family(tapete.profile_info(row.profile).family)
        rules = tapete.load_profile(row.profile, row.options)
        names = record.get("players") or [s.name for s in row.seats]
        sides = [fam.side_of(rules, s.seat) for s in row.seats]
        scores = [float(x) for x in report["scores"]]
        winner = report.get("winner")
        side_places = places(scores, winner if isinstance(winner, int) else None)
        stats = fam.load_stats() if fam.load_stats is not None else None
        players = [
            {
                "seat": s.seat,
                "side": sides[s.seat],
                "name": names[s.seat],
                "bot": s.kind == "bot",
                "level": s.level if s.kind == "bot" else None,
                "account": accounts.get(s.seat) if s.kind == "human" else None,
            }
            for s in row.seats
        ]
        entries = [Entry(p["seat"], p["side"], p["account"], p["level"]) for p in players]
        per_seat = {
            seat: (stats.game(report, seat, rules) if stats is not None else {})
            for seat in accounts
            if seat < len(row.seats)
        }
        return {
            "finished_at": self.store.finished_at(table_id) or time.time(),
            "profile": row.profile,
            "family": fam.name,
            "players": players,
            "entries": entries,
            "places": side_places,
            "scores": scores,
            "winner": winner,
            "accounts": accounts,
            "stats": per_seat,
        }

    def _settle_write(self, table_id: str, work: Mapping[str, Any]) -> None:
        """The history rows and ratings of one finished table, in one transaction (in a database thread)."""
        store = self.store
        fam: str = work["family"]
        accounts: dict[int, str] = work["accounts"]
        with store.engine.begin() as c:
            if store.has_games(c, table_id):
                return
            current = store.ratings_of(c, list(accounts.values()), fam)
            stored = {a: (r.mu, r.sigma) for a, r in current.items()}
            new = rate_game(fam, work["entries"], work["places"], stored)
            for account, (mu, sigma) in new.items():
                games = current[account].games + 1 if account in current else 1
                store.put_rating(c, RatingRow(account, fam, mu, sigma, games))
            rows = []
            for seat, account in sorted(accounts.items()):
                player = work["players"][seat]
                side = player["side"]
                after = new.get(account) or stored.get(account)
                rows.append(
                    GameRow(
                        account_id=account,
                        table_id=table_id,
                        seat=seat,
                        profile=work["profile"],
                        family=fam,
                        finished_at=work["finished_at"],
                        place=work["places"][side],
                        score=work["scores"][side],
                        won=work["winner"] == side,
                        players=work["players"],
                        stats=work["stats"].get(seat, {}),
                        rating_after=shown(*after) if after is not None else None,
                    )
                )
            store.add_games(c, rows)

    # --- views --------------------------------------------------------------------------
    async def player(self, name: str) -> Account:
        """The account called ``name`` (compared by skeleton); ``no_player`` otherwise."""
        if not isinstance(name, str) or len(name) > 64:
            raise ServerError("no_player", "no such player")
        found = await self.hub.db(self.store.account_by_skeleton, skeleton(name))
        if found is None:
            raise ServerError("no_player", "no such player")
        account: Account = found[0]
        return account

    async def history(self, account: Account, offset: int, limit: int) -> tuple[list[dict[str, JSON]], int]:
        rows, total = await self.hub.db(self.store.history, account.id, offset, limit)
        ids = [p["account"] for r in rows for p in r.players if p.get("account")]
        names: dict[str, str] = await self.hub.db(self.store.names, ids)
        return [game_view(r, names) for r in rows], total

    async def ratings(self, account: Account) -> dict[str, JSON]:
        rows: list[RatingRow] = await self.hub.db(self.store.account_ratings, account.id)
        return {r.family: rating_view(r.mu, r.sigma, r.games) for r in sorted(rows, key=lambda r: r.family)}

    async def stats(self, account: Account) -> dict[str, JSON]:
        rows: list[GameRow] = await self.hub.db(self.store.all_games, account.id)
        return await asyncio.to_thread(stats_of, rows)

    async def leaderboard(self, fam: str, limit: int) -> dict[str, JSON]:
        names = [f.name for f in families()]
        fam = fam or names[0]
        if fam not in names:
            raise ServerError("bad_message", f"unknown family; one of {names}")
        rated: list[tuple[str, RatingRow]] = await self.hub.db(self.store.leaderboard, fam, limit)
        rows: list[dict[str, Any]] = [
            {"name": name, **rating_view(r.mu, r.sigma, r.games), "bot": False, "level": None} for name, r in rated
        ]
        for level in family(fam).bot_levels:
            mu = family(fam).bot_anchors.get(level)
            if mu is not None:
                view = rating_view(mu, ANCHOR_SIGMA, 0)
                rows.append({"name": f"bot:{level}", **view, "bot": True, "level": level})
        rows.sort(key=lambda r: (-r["rating"], r["bot"], r["name"]))
        rows = rows[:limit]
        for i, r in enumerate(rows):
            r["rank"] = i + 1
        return {"family": fam, "families": list(names), "rows": [dict(r) for r in rows]}


NO_STATS: Final = StatsFunctions(lambda report, seat, rules: {}, lambda games, rules: {})
"""A family without statistics of its own: games, wins, levels and series only."""


def rating_view(mu: float, sigma: float, games: int) -> dict[str, JSON]:
    """The API's ``Rating``."""
    return {"mu": round(mu, 4), "sigma": round(sigma, 4), "rating": round(shown(mu, sigma), 4), "games": games}


def game_view(row: GameRow, names: Mapping[str, str]) -> dict[str, JSON]:
    """The API's ``Game``: a history row, account names as they are now (``(deleted)`` when gone)."""
    players: list[JSON] = []
    for p in row.players:
        account = p.get("account")
        name = (names.get(account) or DELETED) if account else p.get("name", "")
        players.append({"seat": p["seat"], "name": name, "bot": bool(p.get("bot")), "level": p.get("level")})
    return {
        "table": row.table_id,
        "profile": row.profile,
        "family": row.family,
        "finished_at": row.finished_at,
        "seat": row.seat,
        "players": players,
        "result": {"place": row.place, "score": row.score, "won": row.won},
        "record_url": f"/api/tables/{row.table_id}/record",
        "replay_url": f"/replay?table={row.table_id}",
    }


def played(row: GameRow) -> PlayedGame:
    """A history row as the statistics read it."""
    mine = next((p for p in row.players if p["seat"] == row.seat), None)
    side = mine["side"] if mine is not None else None
    levels = tuple(str(p["level"]) for p in row.players if p.get("bot") and p.get("side") != side and p.get("level"))
    return PlayedGame(row.won, row.score, levels, row.stats, row.rating_after)


def stats_of(rows: list[GameRow]) -> dict[str, JSON]:
    """``{profile: Stats}`` over an account's games (oldest first)."""
    by_profile: dict[str, list[GameRow]] = {}
    for r in rows:
        by_profile.setdefault(r.profile, []).append(r)
    out: dict[str, JSON] = {}
    for profile, games in sorted(by_profile.items()):
        fam = family(games[0].family)
        rules = tapete.load_profile(profile)
        stats = fam.load_stats() if fam.load_stats is not None else NO_STATS
        out[profile] = profile_stats([played(g) for g in games], stats, rules)
    return out


__all__ = ["DELETED", "Players", "SignInLimiter", "game_view", "rating_view", "stats_of"]
