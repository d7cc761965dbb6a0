"""uvicorn's HTTP/1.1 protocol with a header deadline and a bound on each address's connections.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but waits forever
for a request whose headers trickle in. ``guarded_protocol(seconds)`` is an ``h11``
protocol class that closes a connection whose request headers are not complete
``seconds`` after it opened or after its last answer; the header size is bounded by
h11 (``h11_max_incomplete_event_size``, 16 KiB: a larger head gets a 400).

uvicorn also answers every request 503 once ``limit_concurrency`` connections are open,
whoever holds them: one address opening a thousand connections and sending nothing would
shut everybody out. With ``per_address`` a connection beyond that many open from its address
is closed as it arrives. A connection counts until it closes or becomes a WebSocket (the
sockets of an address have their own bound, ``Limits.connections_per_client``). The load
balancers (``trusted``: the ``--forwarded-allow-ips`` addresses and networks) carry many
people's connections and are not bounded.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

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


class HeaderDeadlineProtocol(H11Protocol):
    """An ``H11Protocol`` that closes connections whose request head is late, and those beyond
    ``per_address`` open from one address."""

    header_seconds: float = 10.0
    per_address: int | None = None
    """Connections one address may hold open (``None``: any number)."""
    trusted: Proxies = Proxies("")
    open_by_address: ClassVar[Counter[str]] = Counter()
    """Connections open per address (each class made by :func:`guarded_protocol` has its own)."""
    refused: ClassVar[list[float]] = [0.0, 0.0]
    """Connections closed as they arrived because their address held too many since the last
    warning, and when that warning was written (one a minute at most)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        """The address this connection is counted against, until it closes or is upgraded."""

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
        if self.per_address is not None:
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if host and host not in self.trusted:
                if self.open_by_address[host] >= self.per_address:
                    transport.close()
                    self._warn_refused(host)
                    return
                self.open_by_address[host] += 1
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

    def _warn_refused(self, host: str) -> None:
        self.refused[0] += 1
        now = time.monotonic()
        if now - self.refused[1] >= REFUSED_WARNING_SECONDS:
            log.warning(
                "closed %d connection(s) as they arrived, from addresses holding %d open (the latest: %s)",
                int(self.refused[0]), self.per_address, host,
            )  # fmt: skip
            self.refused[0], self.refused[1] = 0.0, now

    def _uncount(self) -> None:
        host, self._counted = self._counted, None
        if host is not None:
            self.open_by_address[host] -= 1
            if self.open_by_address[host] <= 0:
                del self.open_by_address[host]

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


def guarded_protocol(seconds: float, per_address: int | None = None, trusted: str = "") -> type[HeaderDeadlineProtocol]:
    """The protocol class to give uvicorn (``http=``) for a header deadline of ``seconds`` and at
    most ``per_address`` connections open from an address not among ``trusted``."""
    attributes: dict[str, object] = {
        "header_seconds": seconds,
        "per_address": per_address,
        "trusted": Proxies(trusted),
        "open_by_address": Counter(),
        "refused": [0.0, -REFUSED_WARNING_SECONDS],
    }
    return type("HeaderDeadline", (HeaderDeadlineProtocol,), attributes)


__all__ = ["HeaderDeadlineProtocol", "Proxies", "guarded_protocol"]
