"""Computer players: ``make_bot(level, seed=…)`` → ``bot.act(observation) -> action dict``.

A bot sees one seat's observation (the same object a person's browser gets), never a
game state, and answers with one of ``observation["legal_actions"]``. Levels: ``easy``,
``normal``, ``hard`` and the search baseline ``ismcts``. Each game family registers its
bots with ``register_family``; the Spades family is registered here.
"""

from __future__ import annotations

from typing import Any

from tapete.bots.base import LEVELS, Bot, Observation, TableBot, register_family
from tapete.bots.runfast import make_runfast_bot
from tapete.bots.spades import make_spades_bot, sample_deal

register_family("spades", make_spades_bot)
register_family("runfast", make_runfast_bot)


def make_bot(level: str, seed: int = 0, **params: Any) -> TableBot:
    """A bot of ``level`` ("easy" | "normal" | "hard" | "ismcts"), deterministic given ``seed``.

    ``params`` tune the search levels (``hard``: ``samples``, ``rollouts``;
    ``ismcts``: ``simulations``).
    """
    return TableBot(level, seed, params)


__all__ = ["LEVELS", "Bot", "Observation", "make_bot", "register_family", "sample_deal"]
