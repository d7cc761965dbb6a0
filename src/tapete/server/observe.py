"""What operators see: ``/healthz`` (JSON) and ``/metrics`` (Prometheus text format).

Health is ``ok``, ``degraded`` (a worker is being replaced or was lost lately, decisions
wait over a second, or heavy searches are queued and run with smaller budgets) or
``failing`` (no general worker is up); ``docs/operations.md`` explains each figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.server.cluster.ownership import Figure
from tapete.server.hub import Hub

QUANTILES = (0.5, 0.95, 0.99)


def health(hub: Hub) -> dict[str, Any]:
    """The hub's health as the ``/healthz`` body."""
    return hub.health()


def _name(text: str) -> str:
    return "tapete_" + "".join(c if c.isalnum() else "_" for c in text)


def metrics_text(hub: Hub, extra: Sequence[Figure] = ()) -> str:
    """Counters, gauges and latency quantiles (the last 512 samples of each series); ``extra``
    figures ``(name, kind, value)`` of parts the hub does not hold (the HTTP connections)."""
    lines: list[str] = []
    h = hub.health()
    gauges = {
        "queue_length": h["queue_length"],
        "workers": h["workers"],
        "workers_up": h["workers_up"],
        "busy_workers": h["busy_workers"],
        "open_tables": h["open_tables"],
        "tables_in_memory": h["tables_in_memory"],
        "healthy": 1 if h["status"] == "ok" else 0,
    }
    for name, value in gauges.items():
        lines += [f"# TYPE {_name(name)} gauge", f"{_name(name)} {value}"]
    writer = hub.log_writer
    commits, events = hub.ownership.log_counts()  # a cluster node's fenced log
    counts = (
        ("log_commits", writer.batches + commits),
        ("log_events", writer.events + events),
        ("log_failures", writer.failed_events),
    )
    for name, value in counts:
        lines += [f"# TYPE {_name(name)}_total counter", f"{_name(name)}_total {value}"]
    for name, kind, figure in [*hub.ownership.metrics(), *extra]:  # a cluster node's own; the HTTP connections
        metric = _name(name) + ("_total" if kind == "counter" else "")
        lines += [f"# TYPE {metric} {kind}", f"{metric} {figure}"]
    m = hub.metrics
    for name in sorted(m.counters):
        lines += [f"# TYPE {_name(name)}_total counter", f"{_name(name)}_total {m.counters[name]}"]
    for name in sorted(m.samples):
        if not name.endswith("_seconds"):
            continue
        metric = _name(name)
        lines.append(f"# TYPE {metric} summary")
        for q in QUANTILES:
            lines.append(f'{metric}{{quantile="{q}"}} {m.quantile(name, q):.6f}')
        lines.append(f"{metric}_count {len(m.recent(name))}")
    return "\n".join(lines) + "\n"


__all__ = ["health", "metrics_text"]
