"""The players' tables, on the event log's engine and metadata (SQLite or PostgreSQL).

Five tables, named with the log's prefix: ``accounts`` (name, its skeleton, guest or
not, the Argon2id hash), ``sessions`` (the SHA-256 of each session token, never the
token), ``player_games`` (one row per finished game and account seat: place, score,
players, the family's per-game statistics, the rating after it), ``ratings`` (per
account and family) and ``player_keys`` (the server's cookie-signing secret). The log's
``seats`` table gains ``account_id`` (the account a seat is bound to); a log made before
it existed gets the column added on start (:meth:`PlayersStore.create_schema`).

Calls are synchronous: the server runs them in the hub's database threads.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tapete.server.db import Store, schema_transaction
from tapete.server.errors import ServerError


@dataclass(frozen=True)
class Account:
    """One account as stored (the password hash stays in the store)."""

    id: str
    name: str
    guest: bool
    joined: float

    def public(self) -> dict[str, Any]:
        """The API's ``Player``."""
        return {"name": self.name, "guest": self.guest, "joined": self.joined}


@dataclass(frozen=True)
class GameRow:
    """One finished game of one account seat."""

    account_id: str
    table_id: str
    seat: int
    profile: str
    family: str
    finished_at: float
    place: int
    score: float
    won: bool
    players: list[dict[str, Any]]
    """Every seat: ``{"seat", "name", "bot", "level", "account"}`` (``account``: an account id or null)."""
    stats: dict[str, Any]
    rating_after: float | None = None


@dataclass(frozen=True)
class RatingRow:
    account_id: str
    family: str
    mu: float
    sigma: float
    games: int


class PlayersStore:
    """Accounts, sessions, history and ratings next to the event log."""

    def __init__(self, store: Store) -> None:
        self.log = store
        self.engine = store.engine
        md = store.metadata
        p = store.prefix
        self.prefix = p
        # the seat's account: added to the log's own seats table
        self.seats = sa.Table(
            f"{p}seats", md, sa.Column("account_id", sa.String(32), nullable=True), extend_existing=True
        )
        self.accounts = sa.Table(
            f"{p}accounts",
            md,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("name", sa.String(40), nullable=False, unique=True),
            sa.Column("skeleton", sa.String(80), nullable=False, unique=True),
            sa.Column("guest", sa.Boolean, nullable=False),
            sa.Column("password_hash", sa.String(200), nullable=True),
            sa.Column("joined", sa.Float, nullable=False),
        )
        self.sessions = sa.Table(
            f"{p}sessions",
            md,
            sa.Column("token_hash", sa.String(64), primary_key=True),
            sa.Column("account_id", sa.String(32), nullable=False, index=True),
            sa.Column("created_at", sa.Float, nullable=False),
        )
        self.games = sa.Table(
            f"{p}player_games",
            md,
            sa.Column("table_id", sa.String(64), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("account_id", sa.String(32), nullable=False, index=True),
            sa.Column("profile", sa.String(64), nullable=False),
            sa.Column("family", sa.String(32), nullable=False),
            sa.Column("finished_at", sa.Float, nullable=False),
            sa.Column("place", sa.Integer, nullable=False),
            sa.Column("score", sa.Float, nullable=False),
            sa.Column("won", sa.Boolean, nullable=False),
            sa.Column("players", sa.Text, nullable=False),
            sa.Column("stats", sa.Text, nullable=False),
            sa.Column("rating_after", sa.Float, nullable=True),
        )
        self.ratings = sa.Table(
            f"{p}ratings",
            md,
            sa.Column("account_id", sa.String(32), primary_key=True),
            sa.Column("family", sa.String(32), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
        )
        self.keys = sa.Table(
            f"{p}player_keys",
            md,
            sa.Column("name", sa.String(32), primary_key=True),
            sa.Column("value", sa.String(128), nullable=False),
        )

    # --- schema -----------------------------------------------------------------------
    def create_schema(self) -> None:
        """Create what is missing: the players' tables, and ``seats.account_id`` in an older log."""
        with schema_transaction(self.engine, self.log.prefix) as c:
            self.log.metadata.create_all(c)
            columns = {col["name"] for col in sa.inspect(c).get_columns(self.seats.name)}
            if "account_id" not in columns:
                quoted = self.engine.dialect.identifier_preparer.quote(self.seats.name)
                c.execute(sa.text(f"ALTER TABLE {quoted} ADD COLUMN account_id VARCHAR(32)"))

    def secret(self) -> bytes:
        """The server's signing secret (made once, kept in the database)."""
        with self.engine.begin() as c:
            row = c.execute(sa.select(self.keys.c.value).where(self.keys.c.name == "session")).first()
            if row is not None:
                return bytes.fromhex(str(row[0]))
            value = secrets.token_bytes(32).hex()
        try:
            with self.engine.begin() as c:
                c.execute(self.keys.insert().values(name="session", value=value))
        except sa.exc.IntegrityError:
            pass  # another node starting at the same time made it: that one is read back
        return self.secret()

    # --- accounts ---------------------------------------------------------------------
    def create_guest(self, name: str, skeleton: str) -> Account | None:
        """A new guest account, or ``None`` if the name is taken already."""
        account = Account(secrets.token_hex(16), name, True, time.time())
        try:
            with self.engine.begin() as c:
                c.execute(
                    self.accounts.insert().values(
                        id=account.id,
                        name=name,
                        skeleton=skeleton,
                        guest=True,
                        password_hash=None,
                        joined=account.joined,
                    )
                )
        except sa.exc.IntegrityError:
            return None
        return account

    def account(self, account_id: str) -> Account | None:
        with self.engine.connect() as c:
            row = c.execute(self.accounts.select().where(self.accounts.c.id == account_id)).mappings().first()
        return None if row is None else _account(row)

    def account_by_skeleton(self, skeleton: str) -> tuple[Account, str | None] | None:
        """The account whose name has this skeleton, with its password hash."""
        with self.engine.connect() as c:
            row = c.execute(self.accounts.select().where(self.accounts.c.skeleton == skeleton)).mappings().first()
        return None if row is None else (_account(row), row["password_hash"])

    def password_hash(self, account_id: str) -> str | None:
        with self.engine.connect() as c:
            value = c.execute(
                sa.select(self.accounts.c.password_hash).where(self.accounts.c.id == account_id)
            ).scalar_one_or_none()
        return None if value is None else str(value)

    def claim(self, account_id: str, name: str, skeleton: str, password_hash: str) -> Account:
        """Give a guest account a name and a password (``name_taken``, ``already_claimed``)."""
        try:
            with self.engine.begin() as c:
                done = c.execute(
                    self.accounts.update()
                    .where(self.accounts.c.id == account_id, self.accounts.c.guest == sa.true())
                    .values(name=name, skeleton=skeleton, guest=False, password_hash=password_hash)
                ).rowcount
        except sa.exc.IntegrityError:
            raise ServerError("name_taken", "that name (or one that looks like it) is taken") from None
        if not done:
            raise ServerError("already_claimed", "this account is not a guest")
        found = self.account(account_id)
        assert found is not None
        return found

    def delete_account(self, account_id: str) -> None:
        """Remove the account and everything of it: sessions, ratings, history rows, seat bindings."""
        with self.engine.begin() as c:
            c.execute(self.sessions.delete().where(self.sessions.c.account_id == account_id))
            c.execute(self.ratings.delete().where(self.ratings.c.account_id == account_id))
            c.execute(self.games.delete().where(self.games.c.account_id == account_id))
            c.execute(self.seats.update().where(self.seats.c.account_id == account_id).values(account_id=None))
            c.execute(self.accounts.delete().where(self.accounts.c.id == account_id))

    def names(self, account_ids: Sequence[str]) -> dict[str, str]:
        """The current name of each of these accounts that still exists."""
        ids = sorted(set(account_ids))
        if not ids:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(self.accounts.c.id, self.accounts.c.name).where(self.accounts.c.id.in_(ids))
            ).all()
        return {str(i): str(n) for i, n in rows}

    # --- sessions ---------------------------------------------------------------------
    def add_session(self, token_hash: str, account_id: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                self.sessions.insert().values(token_hash=token_hash, account_id=account_id, created_at=time.time())
            )

    def session_account(self, token_hash: str) -> Account | None:
        a, s = self.accounts, self.sessions
        with self.engine.connect() as c:
            row = (
                c.execute(
                    sa.select(a).select_from(s.join(a, a.c.id == s.c.account_id)).where(s.c.token_hash == token_hash)
                )
                .mappings()
                .first()
            )
        return None if row is None else _account(row)

    def drop_session(self, token_hash: str) -> None:
        with self.engine.begin() as c:
            c.execute(self.sessions.delete().where(self.sessions.c.token_hash == token_hash))

    # --- seats ------------------------------------------------------------------------
    def bind_seat(self, table_id: str, seat: int, account_id: str) -> bool:
        """Bind a human seat nobody holds, at a table still open, to the account; whether it is
        (now) this account's. The table's status is read in the same statement, so a seat of a
        game that has just finished (its history already written) is never bound."""
        s, t = self.seats, self.log.tables
        still_open = sa.select(t.c.id).where(t.c.id == table_id, t.c.status == "open").scalar_subquery()
        with self.engine.begin() as c:
            c.execute(
                s.update()
                .where(
                    s.c.table_id == still_open,
                    s.c.seat == seat,
                    s.c.kind == "human",
                    s.c.account_id.is_(None),
                )
                .values(account_id=account_id)
            )
            held = c.execute(sa.select(s.c.account_id).where(s.c.table_id == table_id, s.c.seat == seat)).scalar()
        return held == account_id

    def seat_accounts(self, table_id: str) -> dict[int, str]:
        s = self.seats
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(s.c.seat, s.c.account_id).where(s.c.table_id == table_id, s.c.account_id.is_not(None))
            ).all()
        return {int(seat): str(acc) for seat, acc in rows}

    def finished_at(self, table_id: str) -> float | None:
        """When the table's last action was logged."""
        e = self.log.events
        with self.engine.connect() as c:
            at = c.execute(sa.select(sa.func.max(e.c.at)).where(e.c.table_id == table_id)).scalar()
        return None if at is None else float(at)

    def unrecorded_tables(self) -> list[str]:
        """Finished tables with a bound seat but no history row for it (finished while the server stopped)."""
        s, g, t = self.seats, self.games, self.log.tables
        q = (
            sa.select(s.c.table_id)
            .select_from(
                s.join(t, t.c.id == s.c.table_id).outerjoin(
                    g, sa.and_(g.c.table_id == s.c.table_id, g.c.seat == s.c.seat)
                )
            )
            .where(t.c.status == "finished", s.c.account_id.is_not(None), g.c.table_id.is_(None))
            .distinct()
        )
        with self.engine.connect() as c:
            return [str(r[0]) for r in c.execute(q).all()]

    # --- history and ratings ------------------------------------------------------------
    def ratings_of(self, c: Connection, account_ids: Sequence[str], family: str) -> dict[str, RatingRow]:
        r = self.ratings
        rows = c.execute(
            r.select().where(r.c.account_id.in_(list(account_ids)), r.c.family == family).with_for_update()
        ).mappings()
        return {str(x["account_id"]): _rating(x) for x in rows}

    def put_rating(self, c: Connection, row: RatingRow) -> None:
        r = self.ratings
        done = c.execute(
            r.update()
            .where(r.c.account_id == row.account_id, r.c.family == row.family)
            .values(mu=row.mu, sigma=row.sigma, games=row.games)
        ).rowcount
        if not done:
            c.execute(
                r.insert().values(
                    account_id=row.account_id, family=row.family, mu=row.mu, sigma=row.sigma, games=row.games
                )
            )

    def has_games(self, c: Connection, table_id: str) -> bool:
        g = self.games
        return c.execute(sa.select(g.c.seat).where(g.c.table_id == table_id).limit(1)).first() is not None

    def add_games(self, c: Connection, rows: Sequence[GameRow]) -> None:
        if rows:
            c.execute(self.games.insert(), [_game_values(r) for r in rows])

    def history(self, account_id: str, offset: int, limit: int) -> tuple[list[GameRow], int]:
        """The account's finished games, latest first, and how many there are."""
        g = self.games
        with self.engine.connect() as c:
            rows = c.execute(
                g.select()
                .where(g.c.account_id == account_id)
                .order_by(g.c.finished_at.desc(), g.c.table_id, g.c.seat)
                .offset(offset)
                .limit(limit)
            ).mappings()
            out = [_game(r) for r in rows]
            total = c.execute(
                sa.select(sa.func.count()).select_from(g).where(g.c.account_id == account_id)
            ).scalar_one()
        return out, int(total)

    def all_games(self, account_id: str) -> list[GameRow]:
        """Every finished game of the account, oldest first (for statistics)."""
        g = self.games
        with self.engine.connect() as c:
            rows = c.execute(
                g.select().where(g.c.account_id == account_id).order_by(g.c.finished_at, g.c.table_id, g.c.seat)
            ).mappings()
            return [_game(r) for r in rows]

    def account_ratings(self, account_id: str) -> list[RatingRow]:
        r = self.ratings
        with self.engine.connect() as c:
            return [_rating(x) for x in c.execute(r.select().where(r.c.account_id == account_id)).mappings()]

    def leaderboard(self, family: str, limit: int) -> list[tuple[str, RatingRow]]:
        """``(name, rating)`` of the family's rated accounts, best displayed rating first."""
        r, a = self.ratings, self.accounts
        with self.engine.connect() as c:
            rows = c.execute(
                sa.select(r, a.c.name)
                .select_from(r.join(a, a.c.id == r.c.account_id))
                .where(r.c.family == family)
                .order_by((r.c.mu - 3 * r.c.sigma).desc(), a.c.name)
                .limit(limit)
            ).mappings()
            return [(str(x["name"]), _rating(x)) for x in rows]


def _account(row: Any) -> Account:
    return Account(str(row["id"]), str(row["name"]), bool(row["guest"]), float(row["joined"]))


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        str(row["account_id"]), str(row["family"]), float(row["mu"]), float(row["sigma"]), int(row["games"])
    )


def _game_values(r: GameRow) -> dict[str, Any]:
    return {
        "table_id": r.table_id,
        "seat": r.seat,
        "account_id": r.account_id,
        "profile": r.profile,
        "family": r.family,
        "finished_at": r.finished_at,
        "place": r.place,
        "score": r.score,
        "won": r.won,
        "players": json.dumps(r.players, sort_keys=True),
        "stats": json.dumps(r.stats, sort_keys=True),
        "rating_after": r.rating_after,
    }


def _game(row: Any) -> GameRow:
    return GameRow(
        account_id=str(row["account_id"]),
        table_id=str(row["table_id"]),
        seat=int(row["seat"]),
        profile=str(row["profile"]),
        family=str(row["family"]),
        finished_at=float(row["finished_at"]),
        place=int(row["place"]),
        score=float(row["score"]),
        won=bool(row["won"]),
        players=json.loads(row["players"]),
        stats=json.loads(row["stats"]),
        rating_after=None if row["rating_after"] is None else float(row["rating_after"]),
    )


__all__ = ["Account", "GameRow", "PlayersStore", "RatingRow"]
