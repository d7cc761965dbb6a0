"""Counters and recent latencies of the bot workers, for ``/healthz`` and ``/metrics``.

>>> m = Metrics()
>>> for x in (0.1, 0.2, 0.3, 0.4): m.observe("decision_seconds", x)
>>> m.quantile("decision_seconds", 0.5), m.quantile("decision_seconds", 0.95)
(0.2, 0.4)
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field

WINDOW = 512
"""Latencies kept per series (the most recent ones)."""


@dataclass
class Metrics:
    """Counters (``count``) and recent samples (``observe``) by name."""

    counters: Counter[str] = field(default_factory=Counter)
    samples: dict[str, deque[tuple[float, float]]] = field(default_factory=dict)

    def count(self, name: str, n: int = 1) -> None:
        self.counters[name] += n

    def observe(self, name: str, value: float) -> None:
        series = self.samples.get(name)
        if series is None:
            series = self.samples[name] = deque(maxlen=WINDOW)
        series.append((time.monotonic(), value))

    def recent(self, name: str, seconds: float | None = None) -> list[float]:
        """The kept samples of ``name`` (of the last ``seconds`` only, when given)."""
        series = self.samples.get(name) or ()
        if seconds is None:
            return [v for _, v in series]
        since = time.monotonic() - seconds
        return [v for t, v in series if t >= since]

    def quantile(self, name: str, q: float, seconds: float | None = None) -> float:
        """The ``q`` quantile (nearest rank) of the kept samples; 0 without samples."""
        values = sorted(self.recent(name, seconds))
        if not values:
            return 0.0
        return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


__all__ = ["Metrics"]
