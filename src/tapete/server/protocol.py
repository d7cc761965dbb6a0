"""Limits and schema checks for client messages (``docs/protocol.md``); refusals are ``ServerError``.

Every number has bounds and every string is valid text (:mod:`tapete.server.safejson`)
before a handler sees the message. Server messages leave as JSON text through :func:`encode`;
one sent to many clients (a state for a seat, the spectators' view) is a :class:`Shared`
message, encoded once.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from tapete.server.errors import ServerError
from tapete.server.safejson import loads

MAX_MESSAGE_BYTES: Final = 4096
"""Largest client message accepted (a text frame, UTF-8)."""
CLIENT_TYPES: Final = frozenset({"hello", "action", "sync", "ping", "hint", "next_hand"})
_ACTION_KEYS: Final = frozenset({"seat", "bid", "play", "look", "pass"})
MAX_REF: Final = 1 << 53
"""Largest ``id`` (in magnitude) a message may carry: what a browser's numbers hold exactly."""
MAX_VERSION: Final = 10**9
"""Largest ``version`` an action may name."""
MAX_SEAT: Final = 63
MAX_BID: Final = 1000


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bounded_int(v: object, lo: int, hi: int, what: str) -> None:
    """``bad_message`` unless ``v`` is an integer; ``out_of_range`` unless ``lo <= v <= hi``."""
    if not _is_int(v):
        raise ServerError("bad_message", f"{what} must be an integer")
    assert isinstance(v, int)
    if not lo <= v <= hi:
        raise ServerError("out_of_range", f"{what} must be from {lo} to {hi}")


def _short_str(v: object, n: int) -> bool:
    return isinstance(v, str) and 0 < len(v) <= n


def parse_message(text: str) -> dict[str, Any]:
    """Decode and check one client message; raises ``ServerError``."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ServerError("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    msg = loads(text)
    if not isinstance(msg, dict):
        raise ServerError("bad_message", "a message must be a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ServerError("bad_message", "a message needs a string field 'type'")
    if kind not in CLIENT_TYPES:
        raise ServerError("unknown_type", f"unknown message type {kind[:40]!r}")
    ref = msg.get("id")
    if ref is not None and not (_is_int(ref) or _short_str(ref, 64)):
        raise ServerError("bad_message", "'id' must be an integer or a short string")
    if _is_int(ref):
        _bounded_int(ref, -MAX_REF, MAX_REF, "'id'")
    check = _FIELD_CHECKS.get(kind)
    if check is not None:
        check(msg)
    return msg


def _check_hello(msg: dict[str, Any]) -> None:
    if not _short_str(msg.get("table"), 64):
        raise ServerError("bad_message", "hello needs 'table' (a table id)")
    token = msg.get("token")
    if token is not None and not _short_str(token, 128):
        raise ServerError("bad_message", "'token' must be a string")
    lang = msg.get("lang")
    if lang is not None and not _short_str(lang, 16):
        raise ServerError("bad_message", "'lang' must be a short string such as 'es'")
    if "deltas" in msg and not isinstance(msg["deltas"], bool):
        raise ServerError("bad_message", "'deltas' must be true or false")
    if token is None and msg.get("spectate") is not True:
        raise ServerError("bad_message", "hello needs a seat 'token', or 'spectate': true")


def _check_action_message(msg: dict[str, Any]) -> None:
    if not _is_int(msg.get("version")):
        raise ServerError("bad_message", "an action needs 'version', the action count you saw")
    _bounded_int(msg["version"], 0, MAX_VERSION, "'version'")
    action = msg.get("action")
    if not isinstance(action, dict):
        raise ServerError("bad_message", "an action needs 'action', an object in record form")
    extra = set(action) - _ACTION_KEYS
    if extra:
        raise ServerError("bad_message", f"unknown action fields: {sorted(extra)[:5]}")
    if not _is_int(action.get("seat")):
        raise ServerError("bad_message", "an action needs 'seat', an integer")
    _bounded_int(action["seat"], 0, MAX_SEAT, "'seat'")
    kinds = [k for k in ("bid", "play", "look", "pass") if k in action]
    if len(kinds) != 1:
        raise ServerError("bad_message", "an action has exactly one of 'bid', 'play', 'look', 'pass'")
    value = action[kinds[0]]
    if kinds[0] == "bid":
        if not (_is_int(value) or _short_str(value, 4)):
            raise ServerError("bad_message", "'bid' is an integer or a short string")
        if _is_int(value):
            _bounded_int(value, -MAX_BID, MAX_BID, "'bid'")
    elif kinds[0] == "play":
        ok = _short_str(value, 4) or (
            isinstance(value, list) and 0 < len(value) <= 20 and all(_short_str(c, 4) for c in value)
        )
        if not ok:
            raise ServerError("bad_message", "'play' is a card or a list of cards")
    elif value is not True:
        raise ServerError("bad_message", f"'{kinds[0]}' must be true")


def _check_next_hand(msg: dict[str, Any]) -> None:
    if not _is_int(msg.get("hand")):
        raise ServerError("bad_message", "next_hand needs 'hand', the number of the hand that ended")
    _bounded_int(msg["hand"], 0, MAX_VERSION, "'hand'")


_FIELD_CHECKS: Final[dict[str, Callable[[dict[str, Any]], None]]] = {
    "hello": _check_hello,
    "action": _check_action_message,
    "next_hand": _check_next_hand,
}
"""The fields each message type must have, beyond ``type`` and ``id``."""


@dataclass
class RateLimiter:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def allow(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Shared(dict[str, Any]):
    """A server message sent unchanged to several clients: encoded once, on its first send.

    It must not be changed after it is handed to a client.
    """

    __slots__ = ("data",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.data: bytes | None = None


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (a :class:`Shared` one encoded only the first time)."""
    return encode_utf8(message).decode("utf-8")


def encode_utf8(message: dict[str, Any]) -> bytes:
    """``encode``'s text as UTF-8, what a frame carries (a :class:`Shared` one encoded only the first time)."""
    if type(message) is Shared:
        if message.data is None:
            message.data = _encode(message)
        return message.data
    return _encode(message)


def _encode(message: dict[str, Any]) -> bytes:
    try:
        return orjson.dumps(message)
    except TypeError:
        pass  # keys that are not strings (the slower option below), integers beyond 64 bits, lone surrogates
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        pass  # integers beyond 64 bits, lone surrogates: the standard encoder below
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # characters UTF-8 cannot carry are escaped rather than fatal
        return json.dumps(message, separators=(",", ":")).encode("utf-8")
