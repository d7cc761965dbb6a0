"""uvicorn's HTTP/1.1 protocol with a header deadline and bounds on the connections open.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but waits forever
for a request whose headers trickle in. ``guarded_protocol(seconds)`` is an ``h11``
protocol class that closes a connection whose request headers are not complete
``seconds`` after it opened or after its last answer; the header size is bounded by
h11 (``h11_max_incomplete_event_size``, 16 KiB: a larger head gets a 400).

It also bounds the HTTP connections open: ``most`` in all, ``per_address`` from one address
(a connection beyond either is closed as it arrives). uvicorn's own ``limit_concurrency``
cannot serve: it answers every request 503 once that many connections *or WebSockets* are
open, so a server holding a thousand tables' sockets would refuse its pages, its API and its
``/healthz``, and one address opening a thousand idle connections would shut everybody out.
A connection counts until it closes or becomes a WebSocket (sockets have their own bounds:
``Limits.connections_per_client``, ``Limits.open_tables``). The load balancers (``trusted``:
the ``--forwarded-allow-ips`` addresses and networks) carry many people's connections: they
count in all, not per address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tapete.server.address import address_key
from tapete.server.cluster.ownership import Figure

log = logging.getLogger("tapete.server")

REFUSED_WARNING_SECONDS = 60.0
"""Connections refused for their address are said in the log at most this often."""


class Proxies:
    """Addresses and networks (``"10.0.0.2,10.1.0.0/16"``, or ``"*"``), as ``--forwarded-allow-ips`` names them."""

    def __init__(self, spec: str) -> None:
        names = [n.strip() for n in spec.split(",") if n.strip()]
        self.everyone = "*" in names
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.names: set[str] = set()
        for name in names:
            try:
                self.networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                self.names.add(name)  # not an address: compared as it is written

    def __contains__(self, host: str) -> bool:
        if self.everyone or host in self.names:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


class OpenConnections:
    """The HTTP connections one server holds open, in all and per address, against their bounds
    (``None``: none); the load balancers' addresses (``trusted``) count only in all."""

    def __init__(self, most: int | None = None, per_address: int | None = None, trusted: str = "") -> None:
        self.most = most
        self.per_address = per_address
        self.trusted = Proxies(trusted)
        self.total = 0
        self.by_address: Counter[str] = Counter()
        self.refused = 0
        """Connections closed as they arrived, since the server started."""
        self._unsaid = 0
        self._said_at = -REFUSED_WARNING_SECONDS

    def _bounded(self, host: str) -> bool:
        return self.per_address is not None and host != "" and host not in self.trusted

    def open(self, host: str) -> bool:
        """Count a connection from ``host``; ``False`` (not counted) when a bound is reached.
        An address is counted as the other per-address limits count it (an IPv6 one by its /64)."""
        if self.most is not None and self.total >= self.most:
            self._refuse(f"the server holds {self.most}")
            return False
        bounded = self._bounded(host)
        key = address_key(host)
        if bounded and self.by_address[key] >= (self.per_address or 0):
            self._refuse(f"{key} holds {self.per_address}")
            return False
        self.total += 1
        if bounded:
            self.by_address[key] += 1
        return True

    def close(self, host: str) -> None:
        """A connection from ``host`` counted by :meth:`open` closed (or became a WebSocket)."""
        self.total -= 1
        if self._bounded(host):
            key = address_key(host)
            self.by_address[key] -= 1
            if self.by_address[key] <= 0:
                del self.by_address[key]

    def _refuse(self, why: str) -> None:
        self.refused += 1
        self._unsaid += 1
        now = time.monotonic()
        if now - self._said_at >= REFUSED_WARNING_SECONDS:
            log.warning("closed %d HTTP connection(s) as they arrived (latest: %s open)", self._unsaid, why)
            self._unsaid, self._said_at = 0, now

    def metrics(self) -> list[Figure]:
        """``(name, kind, value)`` for ``/metrics``: the HTTP connections open, and those refused."""
        return [("http_connections_open", "gauge", self.total), ("http_connections_refused", "counter", self.refused)]


class HeaderDeadlineProtocol(H11Protocol):
    """An ``H11Protocol`` that closes connections whose request head is late, and those beyond
    the bounds of ``open_connections``."""

    header_seconds: float = 10.0
    open_connections: OpenConnections = OpenConnections()
    """The bounds and counts of the server's connections (each class made by
    :func:`guarded_protocol` has its own)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        """The address this connection is counted under, until it closes or is upgraded."""

    def _arm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.header_seconds, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.conn.their_state in (h11.IDLE,) and (self.cycle is None or self.cycle.response_complete):
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.open_connections.open(host):
            transport.close()
            return
        self._counted = host
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()  # the socket's protocol takes the connection: this one is done with it
        self._uncount()
        super().handle_websocket_upgrade(event)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _uncount(self) -> None:
        host, self._counted = self._counted, None
        if host is not None:
            self.open_connections.close(host)


def guarded_protocol(
    seconds: float, most: int | None = None, per_address: int | None = None, trusted: str = ""
) -> type[HeaderDeadlineProtocol]:
    """The protocol class to give uvicorn (``http=``) for a header deadline of ``seconds``, at most
    ``most`` HTTP connections open and ``per_address`` from an address not among ``trusted``."""
    bounds = OpenConnections(most, per_address, trusted)
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), {"header_seconds": seconds, "open_connections": bounds})


__all__ = ["HeaderDeadlineProtocol", "OpenConnections", "Proxies", "guarded_protocol"]
