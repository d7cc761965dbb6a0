"""Helpers for the server tests: an app factory, a protocol client, a leak checker."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

from starlette.testclient import TestClient

from tapete.cards import card_name, iter_bits
from tapete.server import create_app
from tapete.server.db import SeatRow, TableRow
from tapete.server.deltas import ViewReader
from tapete.server.limits import Limits

TEST_LIMITS = Limits(
    tables_per_client_minute=1000,
    api_per_client_second=10_000.0,
    api_burst=10_000,
    lookups_per_client_second=10_000.0,
    lookups_burst=10_000,
)
"""The tests create many tables, and call the API often, from one client."""

PG_USERS = ("postgres", "root")


def stored_row(table_id: str, seats: list[SeatRow] | None = None) -> TableRow:
    """A stored open ``runfast`` table (seed 5); its seats three easy bots unless given."""
    return TableRow(
        id=table_id,
        profile="runfast",
        options={},
        seed=5,
        creator_hash="0" * 64,
        status="open",
        created_at=time.time(),
        seats=seats if seats is not None else [SeatRow(i, "bot", "easy") for i in range(3)],
    )


def make_app(db_url: str, **kw: Any) -> Any:
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("bot_workers", 2)
    kw.setdefault("handover_grace", 0.0)
    kw.setdefault("next_hand_wait", 0.0)
    kw.setdefault("limits", TEST_LIMITS)
    return create_app(db_url, **kw)


def create_table(client: TestClient, profile: str, seats: list[Any], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"profile": profile, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server(subprocess.Popen[bytes]):
    """A server process on 127.0.0.1 (``url`` is its base address)."""

    url: str


def start_server(db_url: str, port: int | None = None, **kw: Any) -> Server:
    """``create_app(db_url, **kw)`` run by uvicorn in a subprocess (the server's guarded protocol),
    on ``port`` (a free one if ``None``); returns once ``/healthz`` answers."""
    port = free_port() if port is None else port
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("next_hand_wait", 0.0)
    code = (
        "import uvicorn\n"
        "from tapete.server import create_app\n"
        "from tapete.server.httpguard import guarded_protocol\n"
        "from tapete.server.wsprotocol import TableSocketProtocol\n"
        "from tapete.server.limits import Limits\n"
        "if __name__ == '__main__':\n"
        f"    app = create_app({db_url!r}, **{kw!r})\n"
        f"    uvicorn.run(app, host='127.0.0.1', port={port}, log_level='warning', http=guarded_protocol(2.0),"
        " ws=TableSocketProtocol)\n"
    )
    proc = Server([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    proc.url = f"http://127.0.0.1:{port}"
    wait_until_up(proc, proc.url)
    return proc


def wait_until_up(proc: subprocess.Popen[bytes], url: str, seconds: float = 30) -> None:
    """Return once ``url``'s ``/healthz`` answers; fail if ``proc`` dies or ``seconds`` pass."""
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode() if proc.stderr else "server died")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


class Player:
    """A protocol client on a TestClient websocket.

    With ``deltas`` it asks for states as changes and rebuilds each whole state from them
    (``state`` is always whole, ``states`` keeps them all; ``seen`` keeps the messages as they came).
    """

    def __init__(self, ws: Any, deltas: bool = False) -> None:
        self.ws = ws
        self.deltas = deltas
        self.state: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self._reader = ViewReader()

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def recv(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        self.seen.append(m)
        if m.get("type") == "state":
            self.state = self._whole(m)
            self.states.append(self.state)
            return self.state
        return m

    def _whole(self, m: dict[str, Any]) -> dict[str, Any]:
        """The whole state a ``state`` message stands for (a delta follows the state before it)."""
        assert "view" in m or self.deltas, f"a delta to a client that did not ask: {m}"
        view = self._reader.read(m)
        assert view is not None, "a delta that does not follow the state before it"
        if "view" in m:
            return m
        whole = {k: v for k, v in m.items() if k not in ("changed", "appended", "gone")}
        return {**whole, "view": view}

    def recv_type(self, kind: str, limit: int = 10_000) -> dict[str, Any]:
        for _ in range(limit):
            m = self.recv()
            if m["type"] == kind:
                return m
        raise AssertionError(f"no {kind} message")

    def hello(self, table: str, token: str | None = None, lang: str = "en") -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "table": table, "lang": lang}
        if self.deltas:
            msg["deltas"] = True
        if token is None:
            msg["spectate"] = True
        else:
            msg["token"] = token
        self.send(msg)
        welcome = self.recv()
        if welcome["type"] == "welcome":
            self.recv_type("state")
        return welcome

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["view"]["legal_actions"] and s["view"]["to_act"] == s["seat"])

    def wait_turn_or(self, stop: str = "game_over", limit: int = 20_000) -> dict[str, Any] | None:
        """Read until it is this seat's turn (returns None) or a ``stop`` message arrives."""
        if self.my_turn():
            return None
        for _ in range(limit):
            m = self.recv()
            if m["type"] == stop:
                return m
            if m["type"] == "state" and self.my_turn():
                return None
        raise AssertionError("neither my turn nor " + stop)

    def act(self, action: dict[str, Any]) -> None:
        assert self.state is not None
        self.send({"type": "action", "version": self.state["version"], "action": action})


def play_hand_as(player: Player, pick: Any = None, stop: str = "hand_over") -> dict[str, Any]:
    """Play (first legal action, or ``pick(legal)``) until a ``stop`` message arrives."""
    while True:
        m = player.wait_turn_or(stop)
        if m is not None:
            return m
        assert player.state is not None
        acted_at = player.state["version"]
        legal = player.state["view"]["legal_actions"]
        player.act(pick(legal) if pick else legal[0])
        # read up to the action's outcome: a message that came first (a seat's arrival, say)
        # leaves the state as it was, and acting on it again would be acting twice
        while True:
            m2 = player.recv()
            if m2["type"] == "error":
                raise AssertionError(f"refused: {m2}")
            if m2["type"] == stop:
                return m2
            if m2["type"] == "state" and m2["version"] > acted_at:
                break


def hidden_cards(game: Any, seat: int | None) -> set[str]:
    """Names of cards that ``seat`` (None: a spectator) must not see now."""
    out: set[str] = set()
    for s, mask in enumerate(game.hands):
        own = seat == s
        if own and (not hasattr(game, "hand_visible") or game.hand_visible(s)):
            continue
        out.update(card_name(c) for c in iter_bits(mask))
    return out


RULE_FIELDS = frozenset({"rules", "options", "draw"})
"""Fields that hold no secret card: the rules (e.g. the prize jacks ``JC JD``) and the seating
draw, whose cards are drawn face up and shuffled back before the deal."""


def strings_in(obj: Any) -> Iterator[str]:
    """Every string value and key in ``obj``, except inside rule descriptions."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            if k not in RULE_FIELDS:
                yield from strings_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings_in(v)


# --- PostgreSQL ----------------------------------------------------------------------------
def postgres_url() -> str | None:
    """A reachable PostgreSQL (127.0.0.1:5432, database test, user postgres or root), or None."""
    try:
        import psycopg
    except ImportError:
        return None
    users = [os.environ["TAPETE_PG_USER"]] if os.environ.get("TAPETE_PG_USER") else list(PG_USERS)
    for user in users:
        with contextlib.suppress(Exception):
            with psycopg.connect(host="127.0.0.1", port=5432, dbname="test", user=user, connect_timeout=3) as c:
                c.execute("select 1")
            return f"postgresql://{user}@127.0.0.1:5432/test"
    return None


def unique_prefix() -> str:
    return f"t{uuid.uuid4().hex[:8]}_{secrets.token_hex(2)}_"


def drop_prefixed(url: str, prefix: str) -> None:
    from tapete.players.store import PlayersStore
    from tapete.server.db import Store

    store = Store(url, prefix=prefix)
    PlayersStore(store)  # the players' tables (accounts, sessions, history, ratings) go too
    try:
        store.drop_schema()
    finally:
        store.dispose()
