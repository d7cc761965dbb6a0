"""Double-dummy analysis over HTTP (``docs/analysis.md``, *In the browser and over HTTP*).

- ``POST /api/analyze`` (``?hand=N`` for one hand): a posted record, the body
  ``POST /api/replay`` takes, analysed by :func:`tapete.analysis.analyze`;
- ``GET /api/tables/{id}/hands/{n}/analysis``: hand ``n`` (from 0) of a table, built from
  the table's own game, once every card of that hand has been played.

The solve runs in a worker (job ``analyze``, :func:`analysis_body`) within the server's
budget: ``Limits.analysis_lead_nodes`` nodes for each side's makeable tricks at the first
lead, ``Limits.analysis_nodes`` for each card's, then ``Limits.analysis_more_seconds`` a hand
to ask again with more nodes the cards not answered, ``Limits.analysis_seconds`` for the whole
analysis; answers not found within it are ``null`` (the view shows them as
unknown). The answer: ``{"analysis": <tapete analyze --json>, "lang", "error_message"?}``.

A finished hand reveals nothing: every card dealt in it has been played and seen by
everyone at the table (the worker checks that each dealt card is among the analysed plays
before it answers; a hand where one is missing is refused, ``hand_not_finished``), so
players and spectators alike may ask. Answers for a table's hand are kept (they cannot
change); computed ones count against ``Limits.analyses_per_client_minute``.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.analysis import analyze
from tapete.cards import Card, card_name
from tapete.errors import BadRecord, TapeteError
from tapete.i18n import translator
from tapete.records import read_record
from tapete.server.address import client_address
from tapete.server.errors import ServerError
from tapete.server.limits import MAX_REPLAY_BODY
from tapete.server.messages import error_message, explain
from tapete.server.requests import read_body
from tapete.server.safejson import loads_record

if TYPE_CHECKING:
    from tapete.server.hub import Hub

ANALYSIS_ERRORS: Final[Mapping[str, str]] = {
    "bad_record": "This is not a game record that can be analysed.",
    "too_large": "The record is too large to replay.",
}
"""What the analysis endpoints say for these codes instead of the general explanation (msgids)."""
CACHED_HANDS: Final = 256
"""Analyses of table hands kept in memory."""


def analysis_body(args: Mapping[str, Any], raw: bytes) -> bytes:
    """The answer body of an analysis (in a worker): ``raw`` is the record's JSON.

    ``args``: ``nodes``, ``lead_nodes``, ``seconds``, ``more_seconds``, ``hands`` (indexes or ``None``), ``lang``, and
    ``finished`` (a hand index whose every dealt card must have been played).
    """
    obj = loads_record(raw)
    try:
        record = read_record(obj)
    except BadRecord as exc:
        raise ServerError("bad_record", exc.message) from None
    if record.family.load_analysis is None:
        raise ServerError("analysis_unavailable", f"profile {record.profile!r} has no double-dummy analysis")
    hands = args.get("hands")
    report = analyze(
        obj,
        nodes=int(args["nodes"]),
        lead_nodes=int(args["lead_nodes"]) if args.get("lead_nodes") is not None else None,
        hands=[int(h) for h in hands] if isinstance(hands, list) else None,
        seconds=float(args["seconds"]),
        more_seconds=float(args.get("more_seconds") or 0.0),
    )
    finished = args.get("finished")
    if isinstance(finished, int):
        check_all_played(obj, report, finished)
    out: dict[str, Any] = {"analysis": report, "lang": str(args.get("lang") or "en")}
    error = report.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        out["error_message"] = explain(error["code"], out["lang"])
    return json.dumps(out, ensure_ascii=False).encode("utf-8")


def check_all_played(record: Mapping[str, Any], report: Mapping[str, Any], hand: int) -> None:
    """``hand_not_finished`` unless every card dealt in ``hand`` is among its analysed plays."""
    dealt = record["hands"][hand].get("cards") or []
    cards = {card_name(int(Card.parse(str(c)))) for seat in dealt for c in seat}
    analysed = next((h for h in report["hands"] if h["hand"] == hand), None)
    played = {str(p["card"]) for p in analysed["plays"]} if analysed is not None else set()
    if not cards or cards != played:
        raise ServerError("hand_not_finished", f"hand {hand} still has cards in the players' hands")


class ClientRate:
    """Computed analyses per client address in the last minute (``rate_limited``)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.times: dict[str, deque[float]] = {}

    def admit(self, client: str) -> None:
        now = time.monotonic()
        recent = self.times.setdefault(client, deque())
        while recent and now - recent[0] > 60.0:
            recent.popleft()
        if len(recent) >= self.per_minute:
            raise ServerError("rate_limited", f"at most {self.per_minute} analyses a minute")
        recent.append(now)
        if len(self.times) > 4096:
            for key in [k for k, v in self.times.items() if not v or now - v[-1] > 60.0]:
                del self.times[key]


class AnalysisState:
    """What the endpoints keep per server: the client rate and the finished hands' answers."""

    def __init__(self, hub: Hub) -> None:
        self.rate = ClientRate(hub.limits.analyses_per_client_minute)
        self.hands: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def cached(self, key: tuple[str, int]) -> bytes | None:
        body = self.hands.get(key)
        if body is not None:
            self.hands.move_to_end(key)
        return body

    def keep(self, key: tuple[str, int], body: bytes) -> None:
        self.hands[key] = body
        while len(self.hands) > CACHED_HANDS:
            self.hands.popitem(last=False)


def _state(request: Request) -> AnalysisState:
    state = getattr(request.app.state, "analysis", None)
    if not isinstance(state, AnalysisState):
        state = AnalysisState(request.app.state.hub)
        request.app.state.analysis = state
    return state


def _lang_of(request: Request) -> str:
    from tapete.server.http import request_language

    return request_language(request)


def _refusal(exc: TapeteError, request: Request) -> Response:
    """A refusal as the HTTP answer; a bad or too large record told in the analysis' own words."""
    from tapete.server.http import error_response

    response = error_response(exc, request)
    if exc.code not in ANALYSIS_ERRORS:
        return response
    lang = _lang_of(request)
    wire = error_message(exc, lang)
    wire["message"] = translator(lang).gettext(ANALYSIS_ERRORS[exc.code])
    return JSONResponse(wire, status_code=response.status_code, headers=dict(response.headers))


def _answer(body: bytes, lang: str) -> Response:
    # the analysis is the same in every language; the body's "lang" and messages follow the request
    if lang != "en" or b'"error_message"' in body:
        out = json.loads(body)
        out["lang"] = lang
        error = out["analysis"].get("error")
        if isinstance(error, dict) and isinstance(error.get("code"), str):
            out["error_message"] = explain(error["code"], lang)
        body = json.dumps(out, ensure_ascii=False).encode("utf-8")
    return Response(body, media_type="application/json", headers={"Content-Language": lang, "Vary": "Accept-Language"})


def _hand_param(request: Request) -> list[int] | None:
    raw = request.query_params.get("hand")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 4:
        raise ServerError("out_of_range", "hand must be a hand number from 0")
    return [int(raw)]


async def analyze_record(request: Request) -> Response:
    """``POST /api/analyze[?hand=N]``: a posted record analysed in a worker."""
    hub: Hub = request.app.state.hub
    lang = _lang_of(request)
    try:
        hands = _hand_param(request)
        body = await read_body(request, MAX_REPLAY_BODY, hub.limits.body_seconds)
        _state(request).rate.admit(client_address(request))
        out = await hub.analyze_record(body, {"hands": hands, "lang": lang}, client_address(request))
    except TapeteError as exc:
        return _refusal(exc, request)
    return _answer(out, lang)


async def table_hand_analysis(request: Request) -> Response:
    """``GET /api/tables/{table_id}/hands/{hand}/analysis``: a finished hand of a table, from its own game."""
    hub: Hub = request.app.state.hub
    lang = _lang_of(request)
    n = int(request.path_params["hand"])
    try:
        table = await hub.find_table(request.path_params["table_id"], client_address(request))
        if table.family.load_analysis is None:
            raise ServerError("analysis_unavailable", f"profile {table.profile!r} has no double-dummy analysis")
        key = (table.id, n)
        state = _state(request)
        cached = state.cached(key)
        if cached is not None:
            return _answer(cached, lang)
        record = dict(table.game.record())
        hands = list(record.get("hands") or [])
        done = len(hands) if table.is_over() else len(hands) - 1
        if not 0 <= n < done:
            raise ServerError("hand_not_finished", f"hand {n} is not finished")
        record["hands"] = hands[: n + 1]
        state.rate.admit(client_address(request))
        raw = json.dumps(record).encode("utf-8")
        out = await hub.analyze_record(raw, {"hands": [n], "finished": n, "lang": "en"}, client_address(request))
        if not json.loads(out)["analysis"].get("out_of_time"):
            state.keep(key, out)
    except TapeteError as exc:
        return _refusal(exc, request)
    return _answer(out, lang)


__all__ = [
    "ANALYSIS_ERRORS",
    "ClientRate",
    "analysis_body",
    "analyze_record",
    "check_all_played",
    "table_hand_analysis",
]
