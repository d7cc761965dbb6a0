"""The players' JSON API (``docs/protocol.md``, *Players*; ``docs/players.md``).

Identity is the ``tapete_session`` cookie (HttpOnly, SameSite=Lax) or the same signed
token as ``Authorization: Bearer``. Refusals have the server's error shape, translated,
with their own HTTP status (:data:`PLAYER_STATUS`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tapete.errors import TapeteError
from tapete.players.service import Players
from tapete.players.sessions import COOKIE, COOKIE_MAX_AGE
from tapete.players.store import Account
from tapete.server.address import client_address
from tapete.server.errors import ServerError
from tapete.server.http import STATUS, error_response
from tapete.server.requests import read_json

log = logging.getLogger("tapete.players")

Endpoint = Callable[[Request], Awaitable[Response]]

PLAYER_STATUS: Final = {
    **STATUS,
    "not_signed_in": 401,
    "bad_credentials": 401,
    "name_taken": 409,
    "already_claimed": 409,
    "no_player": 404,
    "rate_limited": 429,
}
"""The HTTP status of a refusal by its code (any other: 400)."""

HISTORY_LIMIT: Final = 100
LEADERBOARD_LIMIT: Final = 200


def answered(endpoint: Endpoint) -> Endpoint:
    """A ``TapeteError`` raised by the endpoint becomes its error response; nothing is cached."""

    @wraps(endpoint)
    async def wrapped(request: Request) -> Response:
        try:
            response = await endpoint(request)
        except TapeteError as exc:
            response = error_response(exc, request)
            response.status_code = PLAYER_STATUS.get(exc.code, 400)
        except Exception as exc:
            log.exception("%s %s failed (%s)", request.method, request.url.path, type(exc).__name__)
            response = error_response(ServerError("server_error", "the request failed"), request)
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapped


def players_of(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


def with_cookie(response: Response, request: Request, signed: str) -> Response:
    response.set_cookie(
        COOKIE,
        signed,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def signed_in(account: Account, request: Request, signed: str, *, token: bool = True) -> Response:
    body: dict[str, Any] = {"player": account.public()}
    if token:
        body["token"] = signed
    return with_cookie(JSONResponse(body), request, signed)


async def body_of(request: Request) -> dict[str, Any]:
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ServerError("bad_message", "the body must be a JSON object")
    return body


async def post_guest(request: Request) -> Response:
    """A guest (or the player the request already carries a session of)."""
    players = players_of(request)
    found = await players.identify(request)
    account, signed = found if found is not None else await players.guest()
    return signed_in(account, request, signed)


async def get_me(request: Request) -> Response:
    account, _ = await players_of(request).me(request)
    return JSONResponse({"player": account.public()})


async def post_claim(request: Request) -> Response:
    players = players_of(request)
    account, signed = await players.me(request)
    body = await body_of(request)
    claimed = await players.claim(account, body.get("name"), body.get("password"))
    return signed_in(claimed, request, signed, token=False)


async def post_session(request: Request) -> Response:
    players = players_of(request)
    body = await body_of(request)
    account, signed = await players.sign_in(client_address(request), body.get("name"), body.get("password"))
    return signed_in(account, request, signed)


async def delete_session(request: Request) -> Response:
    players = players_of(request)
    _, signed = await players.me(request)
    await players.sign_out(signed)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


async def delete_account(request: Request) -> Response:
    players = players_of(request)
    account, _ = await players.me(request)
    body = await body_of(request)
    await players.delete(account, body.get("password"))
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


def _int_param(request: Request, name: str, default: int, top: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise ServerError("bad_message", f"'{name}' must be a non-negative integer")
    return min(int(raw), top)


async def get_player(request: Request) -> Response:
    players = players_of(request)
    account = await players.player(request.path_params["name"])
    history, _ = await players.history(account, 0, 20)
    return JSONResponse(
        {
            "player": account.public(),
            "ratings": await players.ratings(account),
            "stats": await players.stats(account),
            "history": history,
        }
    )


async def get_history(request: Request) -> Response:
    players = players_of(request)
    account = await players.player(request.path_params["name"])
    offset = _int_param(request, "offset", 0, 10**9)
    limit = _int_param(request, "limit", 20, HISTORY_LIMIT)
    games, total = await players.history(account, offset, limit)
    return JSONResponse({"games": games, "total": total})


async def get_leaderboard(request: Request) -> Response:
    players = players_of(request)
    fam = request.query_params.get("family", "")
    limit = _int_param(request, "limit", 50, LEADERBOARD_LIMIT)
    return JSONResponse(await players.leaderboard(fam, limit))


def player_routes() -> list[Route]:
    """The players' API routes."""
    return [
        Route("/api/guest", answered(post_guest), methods=["POST"]),
        Route("/api/me", answered(get_me), methods=["GET"]),
        Route("/api/account/claim", answered(post_claim), methods=["POST"]),
        Route("/api/account", answered(delete_account), methods=["DELETE"]),
        Route("/api/session", answered(post_session), methods=["POST"]),
        Route("/api/session", answered(delete_session), methods=["DELETE"]),
        Route("/api/players/{name}", answered(get_player), methods=["GET"]),
        Route("/api/players/{name}/history", answered(get_history), methods=["GET"]),
        Route("/api/leaderboard", answered(get_leaderboard), methods=["GET"]),
    ]


__all__ = ["PLAYER_STATUS", "player_routes"]
