"""Computer players: ``make_bot(level, seed=…)`` → ``bot.act(observation) -> action dict``.

A bot sees one seat's observation (the same object a person's browser gets), never a
game state, and answers with one of ``observation["legal_actions"]``. Levels: ``easy``,
``normal``, ``hard`` and the search baseline ``ismcts``. Each game family names its bot
factory in its registry entry (``tapete.families``).
"""

from __future__ import annotations

from typing import Any

from tapete.bots.base import LEVELS, Observation, TableBot
from tapete.bots.spades import sample_deal
from tapete.families.registry import Bot


def make_bot(level: str, seed: int = 0, **params: Any) -> TableBot:
    """A bot of ``level`` ("easy" | "normal" | "hard" | "ismcts"), deterministic given ``seed``.

    ``params`` tune the search levels (``hard``: ``samples``, ``rollouts``;
    ``ismcts``: ``simulations``).
    """
    return TableBot(level, seed, params)


__all__ = ["LEVELS", "Bot", "Observation", "make_bot", "sample_deal"]
