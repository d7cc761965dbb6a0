"""ASGI middleware: an exception that escapes a route becomes a ``server_error`` answer, never a 500.

Routes answer their own refusals; this is the last line for bugs in any route (the pages
included). Once an answer has started, the connection is closed instead.
"""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tapete.server.errors import ServerError
from tapete.server.messages import error_message

log = logging.getLogger("tapete.server")


class ErrorGuard:
    """Wrap an ASGI app; HTTP failures before the answer starts are answered 503 ``server_error``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            log.exception("%s %s failed (%s)", scope.get("method"), scope.get("path"), type(exc).__name__)
            if started:
                return
            body = json.dumps(error_message(ServerError("server_error", "the request failed"))).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": body})


__all__ = ["ErrorGuard"]
