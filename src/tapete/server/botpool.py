"""Bot decisions: their seeds, their search budgets, and the call through the scheduler.

A decision is a pure function of ``(level, seed, observation, params)`` computed in a
worker (:mod:`tapete.server.jobs`). ``params`` is the search budget: the level's own
defaults normally, smaller searches when the workers are under pressure or a try ran over
its time (``search_params``, from the family's ``search_budgets``). A bot always answers with its level's choice for the budget
it was given, never with an arbitrary move. Which levels a table offers is its family's
``bot_levels`` (``tapete.families``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

from tapete.families import family as family_named

LIGHT_LEVELS: Final = frozenset({"easy", "normal"})
"""Levels that decide in a few milliseconds; they have a worker of their own."""

MAX_PRESSURE: Final = 2


def bot_seed(table_seed: int, seat: int, version: int) -> int:
    """A seed for one decision, reproducible from the table and the moment."""
    h = hashlib.sha256(f"{table_seed}:{seat}:{version}".encode()).digest()
    return int.from_bytes(h[:4], "big")


TIME_BUDGET_SECONDS: Final = 3.0
"""A search level's time for one decision: it answers with its best so far when this is spent
(well above its usual p95 of ~0.3 s, and below the worker's own time limit)."""


def search_params(family: str, level: str, pressure: int) -> dict[str, float]:
    """The search budget of ``level`` at ``pressure`` (0: the level's own; 1, 2: smaller).

    Every search level also gets a time budget (``tapete.bots.budget``).

    >>> search_params("spades", "hard", 0), search_params("spades", "easy", 2)
    ({'time_budget': 3.0}, {})
    >>> search_params("runfast", "hard", 5)
    {'samples': 4, 'steps': 600, 'time_budget': 3.0}
    """
    steps = family_named(family).search_budgets.get(level)
    if not steps:
        return {}
    smaller = dict(steps[min(pressure, len(steps)) - 1]) if pressure > 0 else {}
    return {**smaller, "time_budget": TIME_BUDGET_SECONDS}


def decision_args(level: str, seed: int, observation: Mapping[str, Any], extra_delay: float = 0.0) -> dict[str, Any]:
    """The arguments of a ``decide`` job (``params`` are set when it is dispatched)."""
    return {"level": level, "seed": seed, "observation": observation, "params": {}, "extra_delay": extra_delay}


__all__ = ["LIGHT_LEVELS", "bot_seed", "decision_args", "search_params"]
