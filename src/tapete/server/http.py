"""The HTTP API (``docs/protocol.md``, *HTTP*): profiles, tables, records, seat hand-overs,
record replays, double-dummy analyses (:mod:`tapete.server.analyze`), health and metrics
(``docs/operations.md``).

A refusal is a ``TapeteError`` turned into the same body as a WebSocket ``error``, in
the language negotiated from ``Accept-Language`` (:func:`tapete.i18n.negotiate`); an
unexpected failure is a ``server_error`` (503), never a bare 500.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Final

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import tapete
from tapete.errors import TapeteError
from tapete.families import family
from tapete.i18n import LANGUAGES, negotiate, translator
from tapete.server.address import client_address
from tapete.server.analyze import analyze_record, table_hand_analysis
from tapete.server.errors import ServerError
from tapete.server.hub import Hub, check_level
from tapete.server.limits import MAX_REPLAY_BODY
from tapete.server.messages import error_message
from tapete.server.observe import health, metrics_text
from tapete.server.requests import check_create_request, check_seat_request, read_body, read_json
from tapete.server.table import Table, hash_token
from tapete.web.strings import REPLAY_ERRORS

log = logging.getLogger("tapete.server")

Endpoint = Callable[[Request], Awaitable[Response]]

STATUS: Final = {
    "no_table": 404,
    "bad_token": 403,
    "seat_taken": 409,
    "wrong_phase": 409,
    "hand_not_finished": 409,
    "rate_limited": 429,
    "timeout": 408,
    "too_large": 413,
    "too_slow": 422,
    "too_many_tables": 429,
    "server_full": 503,
    "busy": 503,
    "storage_error": 503,
    "server_error": 503,
}
"""The HTTP status of a refusal by its code; any other code is 400."""


def request_language(request: HTTPConnection) -> str:
    """``?lang=`` when it is one of ours, else the best of our languages for ``Accept-Language``
    (of a request, or of a socket's opening handshake)."""
    lang = request.query_params.get("lang", "")
    return lang if lang in LANGUAGES else negotiate(request.headers.get("accept-language"))


def error_response(error: TapeteError, request: Request) -> JSONResponse:
    """A refusal as an HTTP answer: the wire error body, its status by code."""
    lang = request_language(request)
    headers = {"Vary": "Accept-Language", "Content-Language": lang}
    return JSONResponse(error_message(error, lang), status_code=STATUS.get(error.code, 400), headers=headers)


def refusals_answered(endpoint: Endpoint) -> Endpoint:
    """Wrap an endpoint so that a ``TapeteError`` it raises becomes an error response."""

    @wraps(endpoint)
    async def wrapped(request: Request) -> Response:
        try:
            return await endpoint(request)
        except TapeteError as exc:
            return error_response(exc, request)
        except Exception as exc:
            log.exception("%s %s failed (%s)", request.method, request.url.path, type(exc).__name__)
            return error_response(ServerError("server_error", "the request failed"), request)

    return wrapped


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def list_profiles(request: Request) -> Response:
    return JSONResponse(
        [
            {
                "name": n,
                "description": tapete.profile_info(n).description,
                "analysis": family(tapete.profile_info(n).family).load_analysis is not None,
            }
            for n in tapete.profile_names()
        ]
    )


async def create_table(request: Request) -> Response:
    hub = hub_of(request)
    spec = check_create_request(await read_json(request, hub.limits.body_seconds))
    out = await hub.create_table(spec, client_address(request))
    seats = out["seats"]
    first = (
        next((s["seat"] for s in seats if isinstance(s, dict) and s["kind"] == "human"), None)
        if isinstance(seats, list)
        else None
    )
    if isinstance(first, int):
        await hub.seat_taken(request, str(out["table"]), first)  # the creator plays the first human seat
    return JSONResponse(out, status_code=201)


async def list_tables(request: Request) -> Response:
    hub = hub_of(request)
    after = hub.limits.abandoned_seconds
    return JSONResponse([t.public_info() for t in hub.tables.values() if not t.is_over() and not t.abandoned(after)])


async def get_table(request: Request) -> Response:
    table = await hub_of(request).find_table(request.path_params["table_id"], client_address(request))
    return JSONResponse(table.public_info())


async def get_record(request: Request) -> Response:
    """The ``tapete-record/1`` of a finished game (unfinished ones would reveal the deal)."""
    hub = hub_of(request)
    table_id = request.path_params["table_id"]
    found = await hub.db(hub.store.load_record_text, table_id[:80])
    if found is None:
        raise ServerError("no_table", "no such table")
    status, record = found
    if status != "finished" or record is None:
        raise ServerError("wrong_phase", "the record is available once the game is over")
    # the stored text as it is: no parsing or serializing on the event loop
    disposition = f'attachment; filename="tapete-{table_id}.json"'
    return Response(record, media_type="application/json", headers={"content-disposition": disposition})


async def replay_record(request: Request) -> Response:
    """``POST /api/replay``: a posted record replayed in a worker (size and time budget).

    A record that is not JSON, or too large, is told in the replay viewer's own words
    (:data:`tapete.web.strings.REPLAY_ERRORS`).
    """
    hub = hub_of(request)
    lang = request_language(request)
    try:
        body = await read_body(request, MAX_REPLAY_BODY, hub.limits.body_seconds)
        out = await hub.replay_record(body, lang, client_address(request))
    except TapeteError as exc:
        if exc.code not in REPLAY_ERRORS:
            raise
        response = error_response(exc, request)
        wire = error_message(exc, lang)
        wire["message"] = translator(lang).gettext(REPLAY_ERRORS[exc.code])
        return JSONResponse(wire, status_code=response.status_code, headers=dict(response.headers))
    return Response(out, media_type="application/json", headers={"Content-Language": lang})


async def healthz(request: Request) -> Response:
    """The server's health: 200 ``ok`` or ``degraded``, 503 ``failing``."""
    body = health(hub_of(request))
    return JSONResponse(body, status_code=503 if body["status"] == "failing" else 200)


async def metrics(request: Request) -> Response:
    """Counters and latencies in the Prometheus text format (with the HTTP connections' figures
    where the server counts them: ``tapete serve``)."""
    connections = getattr(request.app.state, "http_connections", None)
    extra = connections.metrics() if connections is not None else []
    return Response(metrics_text(hub_of(request), extra), media_type="text/plain; version=0.0.4")


async def _creators_table(request: Request) -> tuple[Table, object]:
    """The table of the path, once the body's creator token is checked; and the body's ``level``."""
    table = await hub_of(request).find_table(request.path_params["table_id"], client_address(request))
    token, level = check_seat_request(await read_json(request))
    if not secrets.compare_digest(hash_token(token), table.creator_hash):
        raise ServerError("bad_token", "only the table's creator can do this")
    return table, level


async def seat_to_bot(request: Request) -> Response:
    """The creator hands an absent human's seat to a bot of ``level``."""
    table, level = await _creators_table(request)
    await table.hand_to_bot(request.path_params["seat"], check_level(table.family, level))
    return JSONResponse(table.public_info())


async def seat_to_human(request: Request) -> Response:
    """The creator gives a bot-played human seat back to its human."""
    table, _ = await _creators_table(request)
    await table.take_back(request.path_params["seat"])
    return JSONResponse(table.public_info())


def http_routes() -> list[Route]:
    """The API's routes; every endpoint answers a refusal with an error body."""
    seat = "/api/tables/{table_id}/seats/{seat:int}"
    return [
        Route("/api/profiles", refusals_answered(list_profiles)),
        Route("/api/tables", refusals_answered(list_tables), methods=["GET"]),
        Route("/api/tables", refusals_answered(create_table), methods=["POST"]),
        Route("/api/tables/{table_id}", refusals_answered(get_table)),
        Route("/api/tables/{table_id}/record", refusals_answered(get_record)),
        Route(seat + "/bot", refusals_answered(seat_to_bot), methods=["POST"]),
        Route(seat + "/human", refusals_answered(seat_to_human), methods=["POST"]),
        Route("/api/replay", refusals_answered(replay_record), methods=["POST"]),
        Route("/api/analyze", refusals_answered(analyze_record), methods=["POST"]),
        Route(
            "/api/tables/{table_id}/hands/{hand:int}/analysis", refusals_answered(table_hand_analysis), methods=["GET"]
        ),
        Route("/healthz", refusals_answered(healthz), methods=["GET"]),
        Route("/metrics", refusals_answered(metrics), methods=["GET"]),
    ]


__all__ = ["STATUS", "error_response", "http_routes", "request_language"]
