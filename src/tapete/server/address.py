"""The address a call or a socket comes from, as the per-address limits count it.

Behind trusted proxies uvicorn has already put the ``X-Forwarded-For`` client in the scope
(``--forwarded-allow-ips``); an address the server does not know is ``""``. An IPv6 address
counts as its /64 network: that is what one subscriber is usually given, so a client could
otherwise take a fresh address for every call and pass every per-address limit. An IPv4
address mapped into IPv6 (a dual-stack listener) counts as the IPv4 address.
"""

from __future__ import annotations

import functools
import ipaddress

from starlette.requests import HTTPConnection
from starlette.types import Scope

IPV6_PREFIX = 64
"""The IPv6 network an address is counted under."""


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """What the per-address limits count ``host`` under: an IPv4 address as it is, an IPv6 one
    as its /64 network (``2001:db8:1:2::/64``), anything else (a name, ``""``) as it is written."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return host


def scope_address(scope: Scope) -> str:
    """The client's address in an ASGI scope, as the limits count it (:func:`address_key`)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else ""


def client_address(conn: HTTPConnection) -> str:
    """The address of an HTTP call or a WebSocket, as the limits count it."""
    return scope_address(conn.scope)


__all__ = ["IPV6_PREFIX", "address_key", "client_address", "scope_address"]
