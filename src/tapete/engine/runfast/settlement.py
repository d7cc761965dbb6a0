"""Settlement of a finished Run Fast deal — pure functions of the hands left.

When a player goes out, each opponent pays the winner 1 point per card left (doubled
if that opponent never played a card: "spring"), +10 for 2♠ still held and +10 per
bomb still held (a rank of four, or A-A-A). Bomb bonuses won during the deal are added
on top; everything sums to zero.

>>> opponent_payment(cards_left=6, never_played=False, holds_two_of_spades=False, bombs=1)
16
>>> opponent_payment(cards_left=16, never_played=True, holds_two_of_spades=True, bombs=0)
42
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tapete.engine.runfast.actions import TWO_OF_SPADES
from tapete.engine.runfast.combos import bombs_held

PER_CARD: Final = 1
SPRING_FACTOR: Final = 2
TWO_OF_SPADES_PENALTY: Final = 10
BOMB_HELD_PENALTY: Final = 10
BOMB_BONUS: Final = 20
"""A standing response bomb earns 20: 10 from each opponent."""


def opponent_payment(*, cards_left: int, never_played: bool, holds_two_of_spades: bool, bombs: int) -> int:
    """What one opponent pays the winner (bomb bonuses aside)."""
    cards = cards_left * PER_CARD * (SPRING_FACTOR if never_played else 1)
    return cards + (TWO_OF_SPADES_PENALTY if holds_two_of_spades else 0) + BOMB_HELD_PENALTY * bombs


def bomb_bonus(bomber: int, players: int = 3) -> list[int]:
    """The score change of one standing response bomb: +20 to its player, −10 to each other.

    >>> bomb_bonus(1)
    [-10, 20, -10]
    """
    each = BOMB_BONUS // (players - 1)
    return [each * (players - 1) if s == bomber else -each for s in range(players)]


@dataclass(frozen=True)
class Settlement:
    """A finished deal's result, per seat."""

    winner: int
    cards_left: tuple[int, ...]
    spring: tuple[bool, ...]
    """Opponents who never played a card (their per-card points are doubled)."""
    card_points: tuple[int, ...]
    two_of_spades: tuple[bool, ...]
    """Opponents caught holding 2♠."""
    bombs: tuple[int, ...]
    """Bombs each opponent still holds."""
    payments: tuple[int, ...]
    """What each opponent pays the winner (0 for the winner)."""
    bonus: tuple[int, ...]
    """Net bomb bonuses of the deal."""
    change: tuple[int, ...]
    """The deal's score change per seat; sums to zero."""

    def to_json(self) -> dict[str, object]:
        return {
            "winner": self.winner,
            "cards_left": list(self.cards_left),
            "spring": list(self.spring),
            "card_points": list(self.card_points),
            "two_of_spades": list(self.two_of_spades),
            "bombs": list(self.bombs),
            "payments": list(self.payments),
            "bonus": list(self.bonus),
            "score_change": list(self.change),
        }


def settle(winner: int, hands: Sequence[int], played: Sequence[bool], bonus: Sequence[int] | None = None) -> Settlement:
    """Settle a deal that ``winner`` ended by going out.

    ``hands`` are the card masks left per seat, ``played`` whether each seat played at
    least one card, ``bonus`` the net bomb bonuses won during the deal.

    >>> s = settle(1, [0b111111, 0, 0b11], [True, True, False])
    >>> s.payments, s.change
    ((6, 0, 4), (-6, 10, -4))
    """
    n = len(hands)
    bonus = tuple(bonus) if bonus is not None else (0,) * n
    cards_left = tuple(h.bit_count() for h in hands)
    spring = [False] * n
    card_points = [0] * n
    twos = [False] * n
    bombs = [0] * n
    payments = [0] * n
    for s in range(n):
        if s == winner:
            continue
        hand = hands[s]
        spring[s] = not played[s]
        card_points[s] = cards_left[s] * PER_CARD * (SPRING_FACTOR if spring[s] else 1)
        twos[s] = bool(hand >> TWO_OF_SPADES & 1)
        bombs[s] = bombs_held(hand)
        payments[s] = card_points[s] + (TWO_OF_SPADES_PENALTY if twos[s] else 0) + BOMB_HELD_PENALTY * bombs[s]
    total = sum(payments)
    change = tuple((total if s == winner else -payments[s]) + bonus[s] for s in range(n))
    return Settlement(
        winner, cards_left, tuple(spring), tuple(card_points), tuple(twos), tuple(bombs), tuple(payments), bonus, change
    )


__all__ = ["BOMB_BONUS", "Settlement", "bomb_bonus", "opponent_payment", "settle"]
