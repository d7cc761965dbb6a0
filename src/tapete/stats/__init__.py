"""Players' statistics from stored game records, per profile.

A family supplies its statistics through the registry (``Family.load_stats``): an
object with ``game(report, seat, rules)``, the numbers one seat of one finished game
contributes (read from the record's replay report, :func:`tapete.records.replay`), and
``summary(games, rules)``, those numbers added up over a profile's games. The parts
every family shares — games, wins, the breakdown by opponent level and the series for
the plots — are computed here (:func:`profile_stats`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tapete.engine.base import JSON


class FamilyStats(Protocol):
    """What a family's statistics module provides."""

    def game(self, report: Mapping[str, Any], seat: int, rules: Any) -> dict[str, JSON]:
        """The numbers ``seat`` of one finished game contributes."""

    def summary(self, games: Sequence[Mapping[str, Any]], rules: Any) -> dict[str, JSON]:
        """The family's own statistics over a profile's games (``None`` where not applicable)."""


@dataclass(frozen=True)
class StatsFunctions:
    """A family's statistics as two functions (what ``Family.load_stats`` returns)."""

    game: Callable[[Mapping[str, Any], int, Any], dict[str, JSON]]
    summary: Callable[[Sequence[Mapping[str, Any]], Any], dict[str, JSON]]


@dataclass(frozen=True)
class PlayedGame:
    """One finished game of a player, as the statistics read it."""

    won: bool
    score: float
    opponent_levels: tuple[str, ...]
    """The bot levels among the opponents (other sides)."""
    numbers: Mapping[str, Any]
    """The family's per-game numbers (``FamilyStats.game``)."""
    rating_after: float | None = None


def ratio(part: float, whole: float, scale: float = 1.0) -> float | None:
    """``part / whole`` (times ``scale``), rounded, or ``None`` when ``whole`` is 0.

    >>> ratio(1, 3, 100), ratio(1, 0)
    (33.333, None)
    """
    return None if not whole else round(part / whole * scale, 3)


def profile_stats(games: Sequence[PlayedGame], family_stats: FamilyStats, rules: Any) -> dict[str, JSON]:
    """A profile's ``Stats``: the shared part, then the family's summary (oldest game first)."""
    by_level: dict[str, dict[str, int]] = {}
    for g in games:
        for level in dict.fromkeys(g.opponent_levels):
            entry = by_level.setdefault(level, {"games": 0, "wins": 0})
            entry["games"] += 1
            entry["wins"] += int(g.won)
    out: dict[str, JSON] = {"games": len(games), "wins": sum(1 for g in games if g.won)}
    out.update(family_stats.summary([g.numbers for g in games], rules))
    out["by_level"] = {level: dict(v) for level, v in sorted(by_level.items())}
    out["series"] = {
        "points": [g.score for g in games],
        "rating": [g.rating_after for g in games],
    }
    return out


__all__ = ["FamilyStats", "PlayedGame", "StatsFunctions", "profile_stats", "ratio"]
