"""What one seat of Run Fast sees: the typed shape of ``RunFastGame.observation``.

Cards are canonical names, low to high in Run Fast order; actions in the record format.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from tapete.engine.base import JSON, BaseOwnView, BasePublicView

PlayView = TypedDict("PlayView", {"seat": int, "cards": NotRequired[list[str]], "pass": NotRequired[bool]})
"""One logged action: ``seat`` and either ``cards`` (a play) or ``pass`` (true)."""


class CurrentPlay(TypedDict):
    """The play to beat: who made it, its cards and its combination in words."""

    seat: int
    cards: list[str]
    combination: str


class BombView(TypedDict):
    """A bomb still waiting for its bonus (``pending_bomb``)."""

    seat: int
    cards: list[str]


class BombBonusView(TypedDict):
    """A bomb that earned its bonus."""

    seat: int
    cards: list[str]
    points: int


class MatchView(TypedDict):
    """Where a match of several deals stands (``deals`` is 1 in a one-deal game)."""

    deal: int
    deals: int
    totals: list[int]
    results: list[list[int]]


class RunFastPublicView(BasePublicView):
    """What every seat of a Run Fast deal sees alike."""

    first_leader: int
    has_played: list[bool]
    plays: list[PlayView]
    current: CurrentPlay | None
    passed: list[int]
    pending_bomb: BombView | None
    bomb_bonuses: list[BombBonusView]
    bonus: list[int]
    settlement: dict[str, JSON] | None
    match: MatchView


class RunFastOwnView(BaseOwnView):
    """What of a Run Fast seat's view is its own."""

    hand: list[str]


class RunFastObservation(RunFastPublicView, RunFastOwnView):
    """One seat's view of a Run Fast deal: the public part and its own."""


__all__ = [
    "BombBonusView",
    "BombView",
    "CurrentPlay",
    "MatchView",
    "PlayView",
    "RunFastObservation",
    "RunFastOwnView",
    "RunFastPublicView",
]
