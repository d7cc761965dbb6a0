"""The bot interface: one object per level that plays any registered family."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tapete.errors import ProfileError
from tapete.families import BotFactory, family
from tapete.families.registry import Bot

Observation = Mapping[str, Any]
"""A seat's observation, as ``game.observation(seat)`` returns it."""

LEVELS = ("easy", "normal", "hard", "ismcts", "expert")


def family_factory(game: str) -> BotFactory:
    """The bot factory of the family ``observation["game"]`` names (from the family registry)."""
    try:
        return family(game).bots()
    except ProfileError as exc:
        raise ValueError(exc.message) from None


class TableBot:
    """A bot of one level for any registered family; the family bot is built on first use.

    It keeps nothing between calls but its own family bot (and that bot's random
    generator), so bots at one table share nothing.
    """

    def __init__(self, level: str, seed: int = 0, params: Mapping[str, Any] | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        self.params: dict[str, Any] = dict(params or {})
        self._bots: dict[str, Bot] = {}

    def act(self, observation: Observation) -> dict[str, Any]:
        game = str(observation.get("game"))  # the family, as the engine tags every observation
        bot = self._bots.get(game)
        if bot is None:
            bot = self._bots[game] = family_factory(game)(self.level, self.seed, self.params)
        return bot.act(observation)
