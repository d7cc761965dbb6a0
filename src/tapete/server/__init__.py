"""The tapete game server: tables, seats, bots, per-seat views and an event log.

``create_app(db_url=None, ...)`` builds the ASGI app; ``serve(...)`` runs it with
uvicorn (the ``tapete serve`` command, in :mod:`tapete.server.run`). The protocol is in
``docs/protocol.md``, the limits and health checks in ``docs/operations.md``.

``create_app`` is imported on first use, so that a bot worker (``tapete.server.worker``)
does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tapete.server.app import create_app
    from tapete.server.run import serve

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from tapete.server.app import create_app

        return create_app
    if name == "serve":
        from tapete.server.run import serve

        return serve
    raise AttributeError(name)
