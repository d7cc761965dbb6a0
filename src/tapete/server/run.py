"""``tapete serve``: check the data folder, then run the app with uvicorn and its limits."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import Any

import uvicorn

from tapete.server.handoff import HandingOffServer
from tapete.server.limits import Limits
from tapete.server.startup import StartupError, check_database, check_node_name, cluster_settings, safe_url

MAX_WS_FRAME = 65536
"""uvicorn drops WebSocket frames over this size (the protocol's own limit is 4096 bytes)."""

STARTUP_FAILURE = 3
"""Exit status when uvicorn could not start serving (as ``uvicorn.run`` exits)."""


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""How ``tapete serve`` and ``tapete worker`` write their log lines on standard error."""


def log_to_stderr() -> logging.Handler:
    """Write tapete's log lines (warnings and worse, as before) on standard error, each with its
    time and level, so that an operator can line up what nodes and workers said; the handler."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logging.getLogger("tapete").addHandler(handler)
    return handler


def data_url() -> str:
    """The default SQLite URL; a folder that cannot be made is a ``StartupError``."""
    from tapete.server.db import default_db_url

    try:
        return default_db_url()
    except OSError as exc:
        xdg = os.environ.get("XDG_DATA_HOME")
        where = Path(xdg) / "tapete" if xdg else "the user's data folder"
        raise StartupError(f"cannot create the data folder {where}: {exc.strerror or exc}") from None


def served_config(
    app: Any, host: str, port: int, limits: Limits, forwarded_allow_ips: str | None = None
) -> uvicorn.Config:
    """uvicorn's settings for serving ``app`` as ``tapete serve`` does (benchmarks measure the
    server through them too): the guarded HTTP protocol, the table sockets' own protocol, their
    frame size, keep-alive, and the load balancers whose ``X-Forwarded-For`` names the client."""
    from tapete.server.httpguard import guarded_protocol
    from tapete.server.wsprotocol import TableSocketProtocol

    trusted = forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")  # as uvicorn reads it
    bounds = (limits.http_connections, limits.http_connections_per_client, trusted)
    protocol = guarded_protocol(limits.header_seconds, *bounds)
    app.state.http_connections = protocol.open_connections  # their figures in /metrics
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        ws=TableSocketProtocol,
        ws_max_size=MAX_WS_FRAME,
        timeout_keep_alive=5,
        log_level="warning",
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    bot_delay: float = 0.6,
    *,
    redis_url: str | None = None,
    node_id: str = "",
    table_prefix: str = "",
    redis_prefix: str = "tapete:",
    remote_bots: bool = False,
    next_hand_wait: float = 30.0,
    forwarded_allow_ips: str | None = None,
    limits: list[str] | None = None,
) -> int:
    """Run the server until interrupted; prints the address to open once the data folder is usable.

    With ``redis_url`` it is one node of several sharing the PostgreSQL log (``db_url``) and
    that Redis (``docs/deploy.md``). An unusable data folder, database or Redis is one line
    on standard error and exit status 2. Behind a load balancer, ``forwarded_allow_ips``
    names the proxies whose ``X-Forwarded-For`` gives the client's address, which the
    per-address limits count (``None``: ``$FORWARDED_ALLOW_IPS``, else ``127.0.0.1``).
    ``limits`` are ``NAME=VALUE`` changes to the defaults (``Limits.with_settings``); an unknown
    name or a bad value is one line and exit status 2 too.
    """
    from tapete.server.app import create_app

    try:
        try:
            chosen = Limits().with_settings(limits or [])
        except ValueError as exc:
            raise StartupError(str(exc)) from None
        url = db_url or data_url()
        cluster = cluster_settings(url, redis_url, node_id, redis_prefix, remote_bots) if redis_url else None
        check_database(url, table_prefix)
        if cluster is not None and node_id:  # a drawn name is this process's alone
            check_node_name(url, table_prefix, node_id)
    except StartupError as exc:
        print(f"tapete serve: {exc}", file=sys.stderr, flush=True)
        return 2
    log_to_stderr()
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    public = f"http://{shown}:{port}"
    app = create_app(
        url,
        table_prefix=table_prefix,
        bot_delay=bot_delay,
        next_hand_wait=next_hand_wait,
        public_url=public,
        limits=chosen,
        cluster=cluster,
    )
    node = f", node {cluster.node_id} on {safe_url(cluster.redis_url)}" if cluster else ""
    print(f"tapete server: open {public}/  (database: {safe_url(url)}{node})", flush=True)
    server = HandingOffServer(served_config(app, host, port, chosen, forwarded_allow_ips), app)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:  # uvicorn said why (the port in use, say)
        return STARTUP_FAILURE
    return 0


__all__ = [
    "LOG_FORMAT",
    "MAX_WS_FRAME",
    "STARTUP_FAILURE",
    "data_url",
    "log_to_stderr",
    "serve",
    "served_config",
]
