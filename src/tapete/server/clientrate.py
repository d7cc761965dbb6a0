"""A token bucket per client address, for what one address may ask of the server a second.

>>> buckets = ClientBuckets(rate=1.0, burst=2)
>>> [buckets.allow("1.2.3.4", now=0.0) for _ in range(3)]
[True, True, False]
>>> buckets.allow("5.6.7.8", now=0.0), buckets.allow("1.2.3.4", now=1.0)
(True, True)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from tapete.server.protocol import RateLimiter

MAX_TRACKED: Final = 10_000
"""Addresses whose buckets are kept at most (the least recently seen are forgotten first)."""


class ClientBuckets:
    """``rate`` a second for each address, in bursts of up to ``burst`` (``RateLimiter``)."""

    def __init__(self, rate: float, burst: float, max_tracked: int = MAX_TRACKED) -> None:
        self.rate = rate
        self.burst = burst
        self.max_tracked = max_tracked
        self._buckets: OrderedDict[str, RateLimiter] = OrderedDict()

    def allow(self, client: str, now: float | None = None) -> bool:
        """Whether ``client`` may ask once more now (a token taken if so)."""
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = RateLimiter(self.rate, self.burst)
            if len(self._buckets) > self.max_tracked:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(client)
        return bucket.allow(now)

    def __len__(self) -> int:
        return len(self._buckets)


__all__ = ["MAX_TRACKED", "ClientBuckets"]
