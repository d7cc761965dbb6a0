"""The Spades-family trick, written once: what may be played, who wins, who plays next.

Cards are ints and sets of cards int bitmasks (``tapete.cards``); every card from
``TRUMP_START`` (2♠) up — the spades and the jokers — is a trump. ``TrickState`` holds
the play-phase state that the checked game (``SpadesGame``) and the fast rollout state
(``FastHand``) share, with the rules as methods; the functions and tables below serve
everyone who reads a trick from a record or an observation (bots, replays).

>>> trick_winner([37, 39, 38], [0, 1, 2])  # K♥ led, 2♠ trumps, A♥
(39, 1)
>>> trick_seats(3, 4, 5, 4), next_seats(5, 4)
([3, 0, 1, 2], (1, 2, 3, 0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from tapete.cards import NUM_CARDS, SPADES, SUIT_MASKS, TRUMP_MASK, TRUMP_START

TWO_OF_CLUBS: Final = 0
PRIZE_JACK_CARDS: Final = {"JC": 9, "JD": 22, "JH": 35}
"""The prize jacks a profile may name, and their cards."""

SUIT_OF: Final = tuple(SPADES if c >= TRUMP_START else c // 13 for c in range(NUM_CARDS))
"""``SUIT_OF[card]``: 0 clubs, 1 diamonds, 2 hearts, 3 trumps (spades and jokers)."""
SUIT_MASK: Final = (SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], TRUMP_MASK)
"""The cards of each suit of ``SUIT_OF`` (the trumps include the jokers)."""
FOLLOW: Final = tuple(SUIT_MASK[SUIT_OF[c]] for c in range(NUM_CARDS))
"""``FOLLOW[led card]``: the cards that follow suit to it."""


def _power_row(suit: int) -> tuple[int, ...]:
    follow = SUIT_MASK[suit]
    return tuple(c if c >= TRUMP_START or (follow >> c) & 1 else -1 for c in range(NUM_CARDS))


_ROWS: Final = tuple(_power_row(s) for s in range(4))
POWER: Final = tuple(_ROWS[SUIT_OF[c]] for c in range(NUM_CARDS))
"""``POWER[led card][card]``: the card's own int if it can take a trick so led (it
follows suit or is a trump), else -1; the higher power takes the trick."""
NO_POWER: Final[tuple[int, ...]] = ()
"""The power row while no trick is led."""


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 trumps (spades and jokers)."""
    return SUIT_OF[card]


def beats(card: int, best: int, led: int) -> bool:
    """Whether ``card`` takes a trick led by ``led`` from ``best``, the card winning it so far."""
    return POWER[led][card] > best


def winning_cards(mask: int, best: int, lead_mask: int) -> int:
    """The cards of ``mask`` that would take the trick from ``best`` (all of them when leading)."""
    if best < 0:
        return mask
    above = ~((2 << best) - 1)
    if best >= TRUMP_START:
        return mask & TRUMP_MASK & above
    out = mask & lead_mask & above
    if lead_mask != TRUMP_MASK:
        out |= mask & TRUMP_MASK
    return out


def trick_winner(cards: Sequence[int], seats: Sequence[int]) -> tuple[int, int]:
    """``(best card, its seat)`` of a trick's cards so far (``(-1, -1)`` for none)."""
    if not cards:
        return -1, -1
    power = POWER[cards[0]]
    best, seat = cards[0], seats[0]
    for c, s in zip(cards, seats, strict=False):
        if power[c] > best:
            best, seat = c, s
    return best, seat


_NEXT_SEATS: dict[tuple[int, int], tuple[int, ...]] = {}


def next_seats(players: int, sitting_out: int = -1) -> tuple[int, ...]:
    """``next_seats(n, out)[s]``: the seat that plays after ``s``, skipping ``out``."""
    key = (players, sitting_out)
    order = _NEXT_SEATS.get(key)
    if order is None:
        seats = []
        for seat in range(players):
            nxt = (seat + 1) % players
            if nxt == sitting_out:
                nxt = (nxt + 1) % players
            seats.append(nxt)
        order = _NEXT_SEATS[key] = tuple(seats)
    return order


def trick_seats(leader: int, count: int, players: int, sitting_out: int = -1) -> list[int]:
    """The seats that play the first ``count`` cards of a trick led by ``leader``."""
    order = next_seats(players, sitting_out)
    seats: list[int] = []
    seat = leader
    for _ in range(count):
        seats.append(seat)
        seat = order[seat]
    return seats


def trick_size(players: int, sitting_out: int) -> int:
    """Cards in a trick: one per seat, less the one sitting out (``-1``: nobody)."""
    return players - (1 if sitting_out >= 0 else 0)


def tricks_in_hand(cards_dealt: int, players: int, first_sits_out: bool) -> int:
    """How many tricks a hand of ``cards_dealt`` cards in all plays (one seat may sit out trick 1)."""
    if first_sits_out:
        return 1 + (cards_dealt - (players - 1)) // players
    return cards_dealt // players


def prize_masks(prize_jacks: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """``(jack, its bit)`` of each prize jack, in name order."""
    return tuple((jack, 1 << PRIZE_JACK_CARDS[jack]) for jack in sorted(prize_jacks))


TRICK_FIELDS: Final = (
    "best_card",
    "best_seat",
    "hands",
    "jack_winners",
    "lead_mask",
    "must_lead_2c",
    "next_of",
    "num_players",
    "power",
    "prize_all",
    "prize_masks",
    "sitting_out",
    "spades_broken",
    "trick",
    "trick_size",
    "tricks_left",
    "tricks_won",
    "turn",
)
"""The attributes of a ``TrickState``."""


class TrickState:
    """The play-phase state of a hand and its rules: the hands, the trick, who is winning.

    ``turn`` is the seat to play (-1: nobody). A lead sets what follows suit
    (``lead_mask``) and who can win (``power``); a trump on another suit's lead breaks
    spades; ``play`` passes the turn on or, once the trick is full, counts it for its
    winner (prize jacks too) and calls ``end_trick(winner)``, which each state defines.
    """

    __slots__ = TRICK_FIELDS

    def __init__(self, players: int, prize_jacks: Iterable[str]) -> None:
        self.num_players: int = players
        self.prize_masks: tuple[tuple[str, int], ...] = prize_masks(prize_jacks)
        self.prize_all: int = sum(m for _, m in self.prize_masks)
        self.hands: list[int] = [0] * players
        self.tricks_won: list[int] = [0] * players
        self.jack_winners: list[tuple[str, int]] = []
        self.trick: list[int] = []
        self.lead_mask: int = 0
        self.power: tuple[int, ...] = NO_POWER
        self.best_card: int = -1
        self.best_seat: int = -1
        self.sitting_out: int = -1
        self.next_of: tuple[int, ...] = next_seats(players)
        self.trick_size: int = players
        self.tricks_left: int = 0
        self.spades_broken: bool = False
        self.must_lead_2c: bool = False
        self.turn: int = -1

    def copy_trick_state(self, other: TrickState, trick: list[int], jack_winners: list[tuple[str, int]]) -> None:
        """Become a copy of ``other``'s trick state, given copies of its trick and prize jacks won."""
        self.num_players = other.num_players
        self.prize_masks = other.prize_masks
        self.prize_all = other.prize_all
        self.hands = list(other.hands)
        self.tricks_won = list(other.tricks_won)
        self.jack_winners = jack_winners
        self.trick = trick
        self.lead_mask = other.lead_mask
        self.power = other.power
        self.best_card = other.best_card
        self.best_seat = other.best_seat
        self.sitting_out = other.sitting_out
        self.next_of = other.next_of
        self.trick_size = other.trick_size
        self.tricks_left = other.tricks_left
        self.spades_broken = other.spades_broken
        self.must_lead_2c = other.must_lead_2c
        self.turn = other.turn

    def sit_out(self, seat: int) -> None:
        """``seat`` sits out the current trick (``-1``: everybody plays)."""
        self.sitting_out = seat
        self.trick_size = trick_size(self.num_players, seat)
        self.next_of = next_seats(self.num_players, seat)

    def playable_cards(self, hand: int) -> int:
        """The cards of ``hand`` its holder may play now, as a mask.

        Follow suit if you can; the first lead may have to be 2♣; spades may not be led
        until broken, unless the leader holds nothing else.
        """
        if self.trick:
            return (hand & self.lead_mask) or hand
        if self.must_lead_2c:
            return 1 << TWO_OF_CLUBS
        if not self.spades_broken:
            return (hand & ~TRUMP_MASK) or hand
        return hand

    def play(self, card: int) -> None:
        """Play ``card`` for the seat whose turn it is (unchecked: it must be playable)."""
        seat = self.turn
        self.hands[seat] ^= 1 << card
        trick = self.trick
        if trick:
            if self.power[card] > self.best_card:
                self.best_card = card
                self.best_seat = seat
            if not self.spades_broken and card >= TRUMP_START and self.lead_mask != TRUMP_MASK:
                self.spades_broken = True
        else:
            self.lead_mask = FOLLOW[card]
            self.power = POWER[card]
            self.best_card = card
            self.best_seat = seat
            self.must_lead_2c = False
        trick.append(card)
        if len(trick) < self.trick_size:
            self.turn = self.next_of[seat]
            return
        # the trick is full: count it for its winner, with any prize jack in it
        winner = self.best_seat
        self.tricks_won[winner] += 1
        if self.prize_all:
            in_trick = 0
            for c in trick:
                in_trick |= 1 << c
            if in_trick & self.prize_all:
                for jack, m in self.prize_masks:
                    if in_trick & m:
                        self.jack_winners.append((jack, winner))
        self.tricks_left -= 1
        if self.sitting_out >= 0:
            self.sit_out(-1)
        self.end_trick(winner)

    def end_trick(self, winner: int) -> None:
        """What follows a full trick, counted for ``winner``: the next lead or the hand's end."""
        raise NotImplementedError


__all__ = [
    "FOLLOW",
    "POWER",
    "PRIZE_JACK_CARDS",
    "SUIT_MASK",
    "SUIT_OF",
    "TRICK_FIELDS",
    "TRUMP_START",
    "TrickState",
    "beats",
    "next_seats",
    "prize_masks",
    "suit_of",
    "trick_seats",
    "trick_size",
    "trick_winner",
    "tricks_in_hand",
    "winning_cards",
]
