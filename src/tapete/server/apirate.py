"""ASGI middleware: at most ``Limits.api_per_client_second`` calls to the API a second from one
address, in bursts of up to ``Limits.api_burst``; more are answered 429 ``rate_limited`` with
``Retry-After``, in the caller's language.

A call another node forwarded here (``tapete.server.cluster.httproute.run_request`` marks its
scope) was counted where it arrived, and passes.
"""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from tapete.server.address import scope_address
from tapete.server.errors import ServerError
from tapete.server.http import error_response

FORWARDED_SCOPE: Final = "tapete.forwarded"
"""The scope key that marks a call run for another node."""


class ApiRate:
    """Count each ``/api/…`` call against its address's bucket (``Hub.api_rate``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
        if (
            scope["type"] != "http"
            or not str(scope.get("path", "")).startswith("/api/")
            or scope.get(FORWARDED_SCOPE)
            or hub is None
        ):
            await self.app(scope, receive, send)
            return
        if hub.api_rate.allow(scope_address(scope)):
            await self.app(scope, receive, send)
            return
        limit = f"at most {hub.limits.api_per_client_second:g} calls a second from one address"
        response = error_response(ServerError("rate_limited", limit), Request(scope, receive))
        response.headers["Retry-After"] = "1"
        await response(scope, receive, send)


__all__ = ["FORWARDED_SCOPE", "ApiRate"]
