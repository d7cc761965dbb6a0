"""The ASGI application: the hub owned by the lifespan, the HTTP and WebSocket routes, the pages."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from tapete.players.http import player_routes
from tapete.players.service import Players
from tapete.rulebook.web import rules_routes
from tapete.server.apirate import ApiRate
from tapete.server.db import Store, default_db_url
from tapete.server.guard import ErrorGuard
from tapete.server.http import http_routes
from tapete.server.hub import Hub, Observer
from tapete.server.limits import Limits
from tapete.server.ws import websocket_endpoint
from tapete.web import web_routes

if TYPE_CHECKING:
    from tapete.server.cluster.node import ClusterSettings


def create_app(
    db_url: str | None = None,
    *,
    table_prefix: str = "",
    bot_delay: float = 0.6,
    bot_workers: int = 2,
    bot_executor: str = "process",
    bot_extra_delay: float = 0.0,
    handover_grace: float = 30.0,
    next_hand_wait: float = 30.0,
    rate_limit: tuple[float, float] = (20.0, 40.0),
    observer: Observer | None = None,
    public_url: str = "",
    limits: Limits | None = None,
    cluster: ClusterSettings | None = None,
) -> Starlette:
    """The tapete server as an ASGI app.

    ``db_url``: SQLAlchemy URL (``sqlite:///file``, ``postgresql://…``); default a SQLite
    file in the user's data folder. ``bot_delay``: minimum seconds per bot move (so a
    person can follow). ``bot_extra_delay``: extra thinking time in the worker (tests).
    ``handover_grace``: seconds an absent human is waited for before the creator may hand
    the seat to a bot. ``next_hand_wait``: seconds bots wait after a hand for every
    connected person's ``next_hand`` (0: they do not wait). ``rate_limit``: (messages per second, burst) per connection.
    ``observer``: called with every message queued for a client or shown to a bot (tests).
    ``limits``: the server's limits (:class:`tapete.server.limits.Limits`).
    ``bot_executor``: ``process`` (supervised worker processes) or ``thread`` (in-process,
    for debugging and families registered at run time).

    The server's ``/api/replay`` comes before the browser pages' routes, so the replay
    runs in a worker.

    ``cluster``: run as one node of several sharing the PostgreSQL log and a Redis
    (:mod:`tapete.server.cluster`, ``docs/deploy.md``); without it the process owns every
    table and imports nothing of the cluster's.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        ownership = None
        if cluster is not None:
            from tapete.server.cluster.node import ClusterNode

            ownership = ClusterNode(cluster)
            ownership.app = app
        hub = Hub(
            Store(db_url or default_db_url(), prefix=table_prefix),
            bot_delay=bot_delay,
            bot_workers=bot_workers,
            bot_executor=bot_executor,
            bot_extra_delay=bot_extra_delay,
            handover_grace=handover_grace,
            next_hand_wait=next_hand_wait,
            rate=rate_limit,
            observer=observer,
            public_url=public_url,
            limits=limits,
            ownership=ownership,
        )
        players = Players(hub)
        await players.prepare()
        await hub.start()
        await players.start()
        app.state.hub = hub
        app.state.players = players
        try:
            yield
        finally:
            await players.stop()
            await hub.stop()

    routes = [
        *http_routes(),
        *player_routes(),
        WebSocketRoute("/ws", websocket_endpoint),
        *rules_routes(),
        *web_routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(ErrorGuard)
    if cluster is not None:
        from tapete.server.cluster.httproute import TableRouting

        app.add_middleware(TableRouting)
    app.add_middleware(ApiRate)  # outermost: a call is counted on the node it arrives at
    return app
