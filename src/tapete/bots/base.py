"""The bot interface and the registry of each game family's bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

Observation = Mapping[str, Any]
"""A seat's observation, as ``game.observation(seat)`` returns it."""

LEVELS = ("easy", "normal", "hard", "ismcts")


class Bot(Protocol):
    """A computer player: one seat's observation in, one of its legal actions out."""

    def act(self, observation: Observation) -> dict[str, Any]: ...


BotFactory = Callable[[str, int, Mapping[str, Any]], Bot]
"""``factory(level, seed, params)`` builds one family's bot of a level."""

_FAMILIES: dict[str, BotFactory] = {}


def register_family(game: str, factory: BotFactory) -> None:
    """Register the bots of a game family (``observation["game"]`` names the family)."""
    _FAMILIES[game] = factory


def family_factory(game: str) -> BotFactory:
    if game not in _FAMILIES:
        raise ValueError(f"no computer players for the game {game!r} yet (families: {', '.join(sorted(_FAMILIES))})")
    return _FAMILIES[game]


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
        game = str(observation.get("game", "spades"))
        bot = self._bots.get(game)
        if bot is None:
            bot = self._bots[game] = family_factory(game)(self.level, self.seed, self.params)
        return bot.act(observation)
