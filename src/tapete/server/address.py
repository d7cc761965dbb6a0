"""The address a call or a socket comes from, as the per-address limits count it.

Behind trusted proxies uvicorn has already put the ``X-Forwarded-For`` client in the scope
(``--forwarded-allow-ips``); an address the server does not know is ``""``.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import Scope


def scope_address(scope: Scope) -> str:
    """The client's address in an ASGI scope."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def client_address(conn: HTTPConnection) -> str:
    """The address of an HTTP call or a WebSocket."""
    return scope_address(conn.scope)


__all__ = ["client_address", "scope_address"]
