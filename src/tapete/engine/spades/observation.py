"""What one seat of a Spades-family game sees: the typed shape of ``SpadesGame.observation``.

Cards are canonical names (``"AS"``), bids as records write them (a number, 0 for nil,
or a special bid's name), actions in the record format. Everything is JSON-able.
"""

from __future__ import annotations

from typing import TypedDict

from tapete.engine.base import BaseOwnView, BasePublicView
from tapete.engine.spades.scoring import Bid


class TrickView(TypedDict):
    """One trick of the current hand: who led, the cards in order, who played each, who won."""

    leader: int
    cards: list[str]
    seats: list[int]
    winner: int | None


class HandResultView(TypedDict):
    """How the last hand scored, per scoring side."""

    dealer: int
    contract: list[float]
    prizes: list[float]
    penalty: list[float]
    score_change: list[float]
    bags: list[int]
    scores: list[float]


class SpadesPublicView(BasePublicView):
    """What every seat of a Spades-family game sees alike."""

    partnership: bool
    game_number: int
    hand_number: int
    dealer: int
    dealt_sizes: list[int]
    bids: list[Bid | None]
    looked: list[bool]
    blind_six_used: list[int]
    tricks_won: list[int]
    trick: TrickView | None
    tricks: list[TrickView]
    spades_broken: bool
    sitting_out: int | None
    bags: list[int]
    tokens: list[int] | None
    last_hand: HandResultView | None
    draw: list[str] | None
    """The seating draw: the card each seat drew (public), ``None`` without a draw."""


class SpadesOwnView(BaseOwnView):
    """What of a Spades-family seat's view is its own (``hand`` is ``None`` while face down)."""

    hand: list[str] | None
    hand_face_down: bool
    blind_six_eligible: bool


class SpadesObservation(SpadesPublicView, SpadesOwnView):
    """One seat's view of a Spades-family game: the public part and its own."""


__all__ = ["HandResultView", "SpadesObservation", "SpadesOwnView", "SpadesPublicView", "TrickView"]
