"""HTTP request bodies read and checked (``docs/protocol.md``, *HTTP*); refusals are ``ServerError``.

>>> plan = check_create_request({"profile": "runfast", "seats": ["human", "easy", {"kind": "bot", "level": "hard"}]})
>>> plan.profile, [(s.kind, s.level) for s in plan.seats]
('runfast', [('human', None), ('bot', 'easy'), ('bot', 'hard')])
>>> check_create_request({"profile": "nope", "seats": []})
Traceback (most recent call last):
tapete.server.errors.ServerError: bad_message: unknown profile 'nope'
>>> check_create_request({"profile": "cutthroat", "options": {"target": 10**100}, "seats": ["human"] * 3})
Traceback (most recent call last):
tapete.server.errors.ServerError: out_of_range: option 'target' must be from 1 to 10000

A body is refused by its ``Content-Length`` before it is read, and again while it
streams in (``too_large``); it must arrive within ``body_seconds`` (``timeout``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import ClientDisconnect, Request

import tapete
from tapete.server.errors import ServerError
from tapete.server.limits import MAX_API_BODY
from tapete.server.safejson import loads

OPTION_BOUNDS: Final[Mapping[str, tuple[int, int]]] = {
    "target": (1, 10_000),
    "floor": (-10_000, -1),
    "tokens": (1, 100),
    "bag_limit": (1, 100),
    "blind_six_margin": (0, 10_000),
}
"""The server's bounds on the integer options whose engine spec has no upper (or lower) end."""
OPTION_INT_LIMIT: Final = 1_000_000
"""Any other integer option value is refused beyond ± this (``out_of_range``)."""
MAX_SEED: Final = 1 << 62
"""A creator-chosen seed is below this (it is shown to every player)."""

SEAT_FORMS = "each seat is {'kind': 'human'} or {'kind': 'bot', 'level': ...}"


@dataclass(frozen=True)
class SeatPlan:
    """Who sits in one seat of a new table: a human (by invite) or a bot of a level."""

    kind: str
    level: str | None
    name: str


@dataclass(frozen=True)
class CreateRequest:
    """A checked ``POST /api/tables`` body (bot levels are checked against the family later)."""

    profile: str
    options: dict[str, Any]
    seats: list[SeatPlan]
    seed: int | None
    name: str


async def read_body(request: Request, limit: int = MAX_API_BODY, seconds: float = 10.0) -> bytes:
    """The request body, at most ``limit`` bytes, all of it within ``seconds``."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 18:
            raise ServerError("bad_message", "Content-Length is not a number")
        if int(declared) > limit:
            raise ServerError("too_large", f"request bodies are limited to {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + seconds
    stream = request.stream().__aiter__()
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ServerError("timeout", f"the body must arrive within {seconds:g} s")
            try:
                chunk = await asyncio.wait_for(stream.__anext__(), left)
            except StopAsyncIteration:
                break
            except TimeoutError:
                raise ServerError("timeout", f"the body must arrive within {seconds:g} s") from None
            size += len(chunk)
            if size > limit:
                raise ServerError("too_large", f"request bodies are limited to {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise ServerError("bad_message", "the client went away") from None
    return b"".join(chunks)


async def read_json(request: Request, seconds: float = 10.0) -> Any:
    """The request's JSON body (``{}`` when empty), checked (:func:`tapete.server.safejson.loads`)."""
    body = await read_body(request, MAX_API_BODY, seconds)
    return loads(body or b"{}")


def check_options(options: object) -> dict[str, Any]:
    """Option overrides with every integer within the server's bounds (the engine checks the rest)."""
    if not isinstance(options, dict) or len(options) > 32:
        raise ServerError("bad_message", "'options' must be an object of option overrides")
    for name, value in options.items():
        if isinstance(value, int) and not isinstance(value, bool):
            lo, hi = OPTION_BOUNDS.get(name, (-OPTION_INT_LIMIT, OPTION_INT_LIMIT))
            if not lo <= value <= hi:
                raise ServerError("out_of_range", f"option {name[:40]!r} must be from {lo} to {hi}")
        elif isinstance(value, list) and len(value) > 64:
            raise ServerError("bad_message", f"option {name[:40]!r} lists too many values")
    return options


def check_create_request(spec: Any) -> CreateRequest:
    """Check a ``POST /api/tables`` body."""
    if not isinstance(spec, dict):
        raise ServerError("bad_message", "the body must be a JSON object")
    profile = spec.get("profile", "cutthroat")
    if not isinstance(profile, str) or profile not in tapete.profile_names():
        raise ServerError("bad_message", f"unknown profile {str(profile)[:40]!r}")
    options = check_options(spec.get("options") or {})
    seed = spec.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ServerError("bad_message", "'seed' must be a non-negative integer")
    if seed is not None and not 0 <= seed < MAX_SEED:
        raise ServerError("out_of_range", f"'seed' must be from 0 to {MAX_SEED - 1}")
    name = spec.get("name", "")
    if not isinstance(name, str) or len(name) > 100:
        raise ServerError("bad_message", "'name' must be a short string")
    seats = spec.get("seats")
    if not isinstance(seats, list) or not 0 < len(seats) <= 8:
        raise ServerError("bad_message", "'seats' must list each seat: " + SEAT_FORMS)
    return CreateRequest(profile, options, [_seat_plan(s) for s in seats], seed, name)


def _seat_plan(s: object) -> SeatPlan:
    if isinstance(s, str):
        s = {"kind": "human"} if s == "human" else {"kind": "bot", "level": s}
    if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
        raise ServerError("bad_message", SEAT_FORMS)
    level = s.get("level", "easy") if s["kind"] == "bot" else None
    if level is not None and not (isinstance(level, str) and 0 < len(level) <= 16):
        raise ServerError("bad_message", "a bot 'level' is a short string such as 'easy'")
    seat_name = s.get("name", "")
    if not isinstance(seat_name, str) or len(seat_name) > 40:
        raise ServerError("bad_message", "a seat 'name' must be a short string")
    return SeatPlan(s["kind"], level, seat_name)


def check_seat_request(body: Any) -> tuple[str, object]:
    """``(creator_token, level)`` from a seat hand-over body; ``level`` (default ``easy``) is checked by the caller."""
    token = body.get("creator_token") if isinstance(body, dict) else None
    if not isinstance(token, str):
        raise ServerError("bad_token", "only the table's creator can do this")
    return token, body.get("level", "easy")


__all__ = [
    "OPTION_BOUNDS",
    "CreateRequest",
    "SeatPlan",
    "check_create_request",
    "check_options",
    "check_seat_request",
    "read_body",
    "read_json",
]
