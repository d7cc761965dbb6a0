"""What every game of every family offers (the engine protocol) and the phases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import Any, Protocol, TypeVar

JSON = Any
"""A JSON-able value (dicts, lists, str, int, bool, None)."""


class Phase(IntEnum):
    """Where a game stands; each family dispatches ``apply`` per phase."""

    BID = 1
    PLAY = 2
    OVER = 3


G = TypeVar("G", bound="Game")


class Game(Protocol):
    """The engine's public surface, the same for every family (``design.md``)."""

    num_players: int
    phase: Phase

    @property
    def to_act(self) -> int | None: ...
    def legal_actions(self) -> Sequence[Any]: ...
    def apply(self, action: Any) -> None: ...
    def is_over(self) -> bool: ...
    def scores(self) -> list[int]: ...
    def winner(self) -> int | None: ...
    def observation(self, seat: int) -> dict[str, JSON]: ...
    def record(self) -> dict[str, JSON]: ...
    def clone(self: G) -> G: ...
    def parse_action(self, obj: Mapping[str, Any]) -> Any: ...
    def action_to_record(self, action: Any, seat: int | None = None) -> dict[str, JSON]: ...
    def replay_summary(self) -> dict[str, JSON]: ...
