"""Every limit the server enforces, in one place (``docs/operations.md`` lists them with their codes).

``Limits()`` holds the defaults; ``create_app(limits=Limits(...))`` changes them (tests use
small timeouts), and ``tapete serve --limit NAME=VALUE`` an operator's server
(:meth:`Limits.with_settings`). Each limit answers with a stable error code, named beside it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

MAX_JSON_DEPTH: Final = 16
"""Deepest nesting of arrays and objects in any JSON the server reads (``too_deep``)."""
MAX_INT_DIGITS: Final = 40
"""Most digits of an integer in any JSON the server reads (``number_too_large``); 2¹²⁸ has 39."""
MAX_API_BODY: Final = 16384
"""Largest body of an API request (``too_large``, HTTP 413)."""
MAX_REPLAY_BODY: Final = 2 * 1024 * 1024
"""Largest record ``POST /api/replay`` accepts (``too_large``, HTTP 413)."""


@dataclass(frozen=True)
class Limits:
    """The server's configurable limits (defaults for a small public server)."""

    body_seconds: float = 10.0
    """Time to send a whole request body (``timeout``, HTTP 408)."""
    header_seconds: float = 10.0
    """Time to send a request's headers before the connection is closed (``tapete serve`` only)."""
    hello_seconds: float = 10.0
    """A socket that has not sent ``hello`` by then is closed (``timeout``, close code 1008)."""
    idle_seconds: float = 900.0
    """A socket that sends nothing for this long is closed (``timeout``, close code 1008)."""
    connections_per_seat: int = 4
    """Sockets holding one seat at once (``too_many_connections``)."""
    connections_per_client: int = 64
    """Sockets from one address at once (``too_many_connections``, close code 1013)."""
    http_connections: int = 1000
    """HTTP connections open at once, WebSockets apart (``tapete serve``); one beyond is closed as
    it arrives (``tapete.server.httpguard``)."""
    http_connections_per_client: int = 100
    """HTTP connections open from one address at once, not counting the load balancers of
    ``--forwarded-allow-ips`` (``tapete serve``); one beyond is closed as it arrives."""
    spectators_per_table: int = 50
    """Spectators of one table (``too_many_spectators``)."""
    tables_per_client_minute: int = 20
    """Tables one address may create per minute (``too_many_tables``, HTTP 429)."""
    open_tables: int = 200
    """Unfinished tables on the server (``server_full``, HTTP 503)."""
    abandoned_seconds: float = 600.0
    """An unfinished table nobody has been connected to for this long leaves ``GET /api/tables``."""
    api_per_client_second: float = 30.0
    """Calls to the API (``/api/…``) one address may make a second, in bursts of up to
    ``api_burst`` (``rate_limited``, HTTP 429, ``Retry-After``)."""
    api_burst: int = 120
    lookups_per_client_second: float = 20.0
    """Tables one address may ask for a second that this node does not hold in memory (a
    ``hello``, a call about one table), each a look in the database, in bursts of up to
    ``lookups_burst`` (``rate_limited``)."""
    lookups_burst: int = 200
    finished_in_memory: int = 200
    """Finished tables kept in memory; older ones are read back from the log when asked for."""
    decision_queue: int = 512
    """Bot decisions and hints waiting for a worker, all tables together (``busy``)."""
    lane_queue: int = 16
    """Jobs waiting for a worker from one table or one client (``busy``)."""
    replay_seconds: float = 10.0
    """Time budget of one record replay in a worker (``too_slow``, HTTP 422)."""
    replays_waiting: int = 8
    """Record replays waiting for a worker (``busy``, HTTP 503)."""
    analysis_seconds: float = 20.0
    """Time budget of one double-dummy analysis in a worker; answers not found by then are reported unknown."""
    analysis_nodes: int = 100_000
    """Nodes each card's answer in an analysis may visit; a position over it is reported unknown."""
    analysis_more_seconds: float = 4.0
    """Seconds each hand of an analysis may go on asking again, with more nodes, the cards not
    answered within ``analysis_nodes`` (within ``analysis_seconds``)."""
    analysis_lead_nodes: int = 10_000_000
    """Most nodes the makeable tricks of each side at the first lead may visit; they are solved after
    the cards, within the time left (at the rate the cards were solved)."""
    analyses_waiting: int = 4
    """Analyses waiting for a worker (``busy``, HTTP 503)."""
    analyses_per_client_minute: int = 12
    """Analyses one address may have computed per minute (``rate_limited``, HTTP 429); cached answers are free."""
    decision_seconds: float = 10.0
    """Time of one try of a bot decision; over it the worker is replaced and the bot searches less."""
    decision_attempts: int = 4
    """Tries of one bot decision (a worker died or ran over time) before the table waits and retries later."""

    def with_settings(self, settings: Iterable[str]) -> Limits:
        """These limits with ``NAME=VALUE`` settings applied (``open_tables=2000``); ``ValueError``
        with a line for the operator for an unknown name or a value that is not a positive number
        of the limit's kind (a whole number for counts)."""
        kinds = {f.name: f.type for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for setting in settings:
            name, eq, text = setting.partition("=")
            name = name.strip().replace("-", "_")
            if name not in kinds:
                known = ", ".join(sorted(kinds))
                raise ValueError(f"unknown limit {setting.partition('=')[0]!r} (the names: {known})")
            if not eq:
                raise ValueError(f"the limit {name} needs a value: give {name}=VALUE")
            whole = kinds[name] in (int, "int")
            try:
                value: int | float = int(text) if whole else float(text)
            except ValueError:
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"the limit {name} needs {kind}, not {text.strip()!r}") from None
            if not (value > 0 and math.isfinite(value)):
                raise ValueError(f"the limit {name} must be more than 0, not {text.strip()!r}")
            changes[name] = value
        return dataclasses.replace(self, **changes)


__all__ = ["MAX_API_BODY", "MAX_INT_DIGITS", "MAX_JSON_DEPTH", "MAX_REPLAY_BODY", "Limits"]
