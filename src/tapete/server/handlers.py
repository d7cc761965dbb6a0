"""What the server does with each client message type: ``HANDLERS[type](hub, conn, msg)``.

A handler gets a message already checked by :func:`tapete.server.protocol.parse_message`.
A refusal is raised as a ``TapeteError`` and sent back by the socket loop
(:mod:`tapete.server.ws`) as an ``error`` answering the message; it changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from tapete.i18n import negotiate, translator
from tapete.server.botpool import bot_seed
from tapete.server.connection import Connection
from tapete.server.errors import ServerError
from tapete.server.hints import hint_reason
from tapete.server.hub import Hub
from tapete.server.table import Table

Handler = Callable[[Hub, Connection, dict[str, Any]], Awaitable[None]]


def joined(conn: Connection) -> Table:
    """The connection's table; ``not_joined`` before ``hello``."""
    if conn.table is None:
        raise ServerError("not_joined", "send hello first")
    return conn.table


def seated(conn: Connection) -> tuple[Table, int]:
    """The connection's table and seat; ``not_seated`` for a spectator."""
    table = joined(conn)
    if conn.seat is None:
        raise ServerError("not_seated", "spectators cannot act")
    return table, conn.seat


async def on_ping(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    conn.send({"type": "pong", "ref": msg.get("id")})


async def on_hello(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    """Take the seat the token opens, or watch; the language is negotiated from ``lang``, and
    ``deltas: true`` asks for states as changes from the one before."""
    if conn.table is not None:
        raise ServerError("already_joined", "one hello per connection")
    if msg.get("lang") is not None:  # else the socket's opening handshake's (``?lang=``, ``Accept-Language``)
        conn.lang = negotiate(msg.get("lang"))
    table = await hub.find_table(msg["table"], conn.address)
    if table.closed:  # set aside (or moved) while it was being found: read back
        table = await hub.find_table(msg["table"], conn.address)
    if conn.table is not None:  # a second hello while the first one was reading the log
        raise ServerError("already_joined", "one hello per connection")
    token = msg.get("token")
    seat: int | None = None
    if token is not None:
        seat = table.seat_for_token(token)
        if seat is None:
            raise ServerError("bad_token", "the token opens no seat of this table")
    table.check_room(seat)
    conn.seat = seat
    conn.deltas = msg.get("deltas") is True
    conn.table = table
    table.attach(conn)


async def on_sync(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    joined(conn).resync(conn)


async def on_action(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    """Play for the connection's seat (the table checks version, turn and rules)."""
    table, seat = seated(conn)
    action = msg["action"]
    if action["seat"] != seat:
        raise ServerError("wrong_seat", f"you play seat {seat}, not seat {action['seat']}")
    await table.submit(seat, action, msg["version"])


async def on_hint(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    """The normal bot's suggestion for the connection's seat, with a reason in its language."""
    table, seat = seated(conn)
    if table.is_over():
        raise ServerError("game_over", "the game is over")
    version = table.version
    obs = table.game.observation(seat)
    legal = obs.get("legal_actions")
    if not legal:
        raise ServerError("not_your_turn", f"it is seat {table.game.to_act}'s turn")
    # the normal bot in the table's lane (a light job); a failure is "busy", never a made-up hint
    action, _ = await hub.decide(table.id, "normal", bot_seed(table.seed, seat, version), obs)
    if action not in legal:
        raise ServerError("busy", "the hint could not be computed")
    reason = hint_reason(obs, action)
    conn.send(
        {
            "type": "hint",
            "ref": msg.get("id"),
            "table": table.id,
            "version": version,
            "action": action,
            "reason": translator(conn.lang).gettext(reason),
            "reason_msgid": reason,
        }
    )


async def on_next_hand(hub: Hub, conn: Connection, msg: dict[str, Any]) -> None:
    """The person has seen the end of hand ``hand``: the bots need not wait for this seat.

    A spectator's ``next_hand`` (the browser sends it too) changes nothing.
    """
    table = joined(conn)
    if conn.seat is not None:
        table.next_hand(conn.seat, msg["hand"])


HANDLERS: Final[Mapping[str, Handler]] = {
    "hello": on_hello,
    "action": on_action,
    "sync": on_sync,
    "hint": on_hint,
    "ping": on_ping,
    "next_hand": on_next_hand,
}
"""The handler of each client message type (the types ``protocol.CLIENT_TYPES`` accepts)."""

__all__ = ["HANDLERS", "Handler", "joined", "seated"]
