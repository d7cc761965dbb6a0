"""HTTP request bodies read and checked (``docs/protocol.md``, *HTTP*); refusals are ``ServerError``.

>>> plan = check_create_request({"profile": "runfast", "seats": ["human", "easy", {"kind": "bot", "level": "hard"}]})
>>> plan.profile, [(s.kind, s.level) for s in plan.seats]
('runfast', [('human', None), ('bot', 'easy'), ('bot', 'hard')])
>>> check_create_request({"profile": "nope", "seats": []})
Traceback (most recent call last):
tapete.server.errors.ServerError: bad_message: unknown profile 'nope'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

import tapete
from tapete.server.errors import ServerError
from tapete.server.protocol import MAX_BODY_BYTES

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


async def read_json(request: Request) -> Any:
    """The request's JSON body (``{}`` when empty); ``too_large`` / ``bad_message`` otherwise."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ServerError("too_large", f"request bodies are limited to {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ServerError("bad_message", "the body is not JSON") from None


def check_create_request(spec: Any) -> CreateRequest:
    """Check a ``POST /api/tables`` body."""
    if not isinstance(spec, dict):
        raise ServerError("bad_message", "the body must be a JSON object")
    profile = spec.get("profile", "cutthroat")
    if not isinstance(profile, str) or profile not in tapete.profile_names():
        raise ServerError("bad_message", f"unknown profile {str(profile)[:40]!r}")
    options = spec.get("options") or {}
    if not isinstance(options, dict) or len(options) > 32:
        raise ServerError("bad_message", "'options' must be an object of option overrides")
    seed = spec.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 62):
        raise ServerError("bad_message", "'seed' must be a non-negative integer")
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


__all__ = ["CreateRequest", "SeatPlan", "check_create_request", "check_seat_request", "read_json"]
