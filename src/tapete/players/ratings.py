"""Ratings: OpenSkill's Plackett–Luce model, per game family, bots at fixed anchors.

A finished game is one ``rate()`` of the model: one team per scoring side (the two
partnerships, or each player alone in a 3–5 seat game), ranked by final place (the
winner first, then by final score; equal scores share a place). An account seat plays
with its stored rating (the model's default the first time); a bot with its level's
anchor (:mod:`tapete.players.anchors`); a person without an account with the model's
default. Only the accounts' new ratings are kept: anchors never move. A game where one
account holds two seats is not rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tapete.players.anchors import anchor, model


@dataclass(frozen=True)
class Entry:
    """One seat of a finished game as the rating sees it."""

    seat: int
    side: int
    account: str | None = None
    bot: str | None = None
    """The bot level playing the seat (``None``: a person)."""


def shown(mu: float, sigma: float) -> float:
    """The displayed rating: ``μ − 3σ`` (OpenSkill's ordinal)."""
    return float(mu - 3 * sigma)


def places(scores: Sequence[float], winner: int | None) -> list[int]:
    """Each side's place: the winner first, then by score (equal scores share a place).

    >>> places([120, 300, 120], 1), places([-2, 3, -1], 1), places([10, 10], None)
    ([2, 1, 2], [3, 1, 2], [1, 1])
    """
    order = sorted(range(len(scores)), key=lambda s: (s != winner, -scores[s]))
    out = [0] * len(scores)
    for rank, side in enumerate(order):
        prev = order[rank - 1] if rank else None
        tied = prev is not None and prev != winner and side != winner and scores[prev] == scores[side]
        out[side] = out[prev] if tied and prev is not None else rank + 1
    return out


def starting(family: str, entry: Entry, stored: Mapping[str, tuple[float, float]]) -> tuple[float, float]:
    """``(μ, σ)`` a seat enters the game with."""
    if entry.bot is not None:
        return anchor(family, entry.bot)
    if entry.account is not None and entry.account in stored:
        return stored[entry.account]
    m = model()
    return float(m.mu), float(m.sigma)


def rate_game(
    family: str, entries: Sequence[Entry], side_places: Sequence[int], stored: Mapping[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    """The new ``(μ, σ)`` of every account seat of a finished game (``{}`` if it is not rated)."""
    accounts = [e.account for e in entries if e.account is not None and e.bot is None]
    if not accounts or len(set(accounts)) != len(accounts):
        return {}
    m = model()
    sides = sorted({e.side for e in entries})
    members = {side: [e for e in entries if e.side == side] for side in sides}
    teams: list[list[Any]] = []
    for side in sides:
        teams.append(
            [m.rating(mu=mu, sigma=sigma) for mu, sigma in (starting(family, e, stored) for e in members[side])]
        )
    result = m.rate(teams, ranks=[side_places[side] for side in sides])
    out: dict[str, tuple[float, float]] = {}
    for side, team in zip(sides, result, strict=True):
        for e, rating in zip(members[side], team, strict=True):
            if e.account is not None and e.bot is None:
                out[e.account] = (float(rating.mu), float(rating.sigma))
    return out


__all__ = ["Entry", "places", "rate_game", "shown", "starting"]
