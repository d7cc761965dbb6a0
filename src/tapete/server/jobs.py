"""The work a worker does: pure functions of their arguments, never run on the event loop.

``run_job(kind, args, raw)`` answers ``(result, raw_out)``: ``result`` is JSON-able,
``raw_out`` bytes the parent passes on without parsing (a response body, a pickled
game). Kinds:

- ``decide``: a bot's action for ``observation`` (``level``, ``seed``, search ``params``);
- ``replay``: a posted record (``raw``, UTF-8 JSON) replayed; ``raw_out`` is the answer body;
- ``rebuild``: a stored record (``raw``) replayed into a game; ``raw_out`` is the pickled game;
- ``analyze``: a record (``raw``) analysed double-dummy (:mod:`tapete.server.analyze`); ``raw_out`` is the answer body.
"""

from __future__ import annotations

import json
import pickle
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from tapete.bots import make_bot
from tapete.records import replay
from tapete.server.errors import ServerError
from tapete.server.safejson import loads_record

JobResult = tuple[Any, bytes]


def decide(args: Mapping[str, Any], raw: bytes) -> JobResult:
    """One bot decision. ``extra_delay`` (seconds) simulates a slow bot (tests)."""
    delay = float(args.get("extra_delay") or 0.0)
    if delay > 0:
        time.sleep(delay)
    observation = args["observation"]
    if not observation.get("legal_actions"):
        raise ValueError("the bot was asked to act without legal actions")
    params = dict(args.get("params") or {})
    return dict(make_bot(str(args["level"]), seed=int(args["seed"]), **params).act(observation)), b""


def replay_body(args: Mapping[str, Any], raw: bytes) -> JobResult:
    """``POST /api/replay``: the answer body ``{"report", "record", "exit_status", "error_message"?}``."""
    from tapete.server.messages import explain

    record = loads_record(raw)
    result = replay(record)
    out: dict[str, Any] = {"report": result.report, "record": record, "exit_status": result.exit_status}
    error = result.report.get("error") if isinstance(result.report, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        # the report's message is the engine's English: the viewer shows this one instead
        params = error.get("params")
        values = {str(k): str(v) for k, v in params.items()} if isinstance(params, dict) else None
        out["error_message"] = explain(error["code"], str(args.get("lang") or "en"), values)
    return None, json.dumps(out, ensure_ascii=False).encode("utf-8")


def rebuild(args: Mapping[str, Any], raw: bytes) -> JobResult:
    """A stored table's game, replayed from its record and pickled for the parent."""
    result = replay(json.loads(raw))
    if result.exit_status != 0 or result.game is None:
        raise ServerError("bad_message", f"replay failed: {result.report.get('error')}")
    return None, pickle.dumps(result.game, protocol=pickle.HIGHEST_PROTOCOL)


def analyze(args: Mapping[str, Any], raw: bytes) -> JobResult:
    """``POST /api/analyze`` and a table's hand analysis: the answer body (:func:`tapete.server.analyze.analysis_body`)."""
    from tapete.server.analyze import analysis_body

    return None, analysis_body(args, raw)


JOBS: Final[Mapping[str, Callable[[Mapping[str, Any], bytes], JobResult]]] = {
    "decide": decide,
    "replay": replay_body,
    "rebuild": rebuild,
    "analyze": analyze,
}


def run_job(kind: str, args: Mapping[str, Any], raw: bytes = b"") -> JobResult:
    """Run one job of ``kind``; raises what the job raises."""
    return JOBS[kind](args, raw)


__all__ = ["JOBS", "JobResult", "analyze", "decide", "rebuild", "replay_body", "run_job"]
