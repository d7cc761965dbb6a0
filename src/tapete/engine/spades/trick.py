"""The Spades-family trick, written once: what may be played, who wins, who plays next.

Cards are ints and sets of cards int bitmasks (``tapete.cards``). A ``TrickTables``
value fixes the trumps and the card order: ``STANDARD`` (every card from 2♠ up — the
spades and the jokers — is a trump, a higher int a higher card) and ``DEUCES_HIGH``
(2♦ joins the trumps and 2♦ > 2♠ rank above A♠, below any joker). ``TrickState`` holds
the play-phase state that the checked game (``SpadesGame``) and the fast rollout state
(``FastHand``) share, with the rules as methods (following suit, and Call Break's
must-beat rule); the functions and tables below serve everyone who reads a trick from
a record or an observation (bots, replays, solvers).

>>> trick_winner([37, 39, 38], [0, 1, 2])  # K♥ led, 2♠ trumps, A♥
(39, 1)
>>> trick_winner([51, 13], [0, 1], DEUCES_HIGH)  # A♠ led, 2♦ is the top trump
(13, 1)
>>> trick_seats(3, 4, 5, 4), next_seats(5, 4)
([3, 0, 1, 2], (1, 2, 3, 0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from tapete.cards import NUM_CARDS, SPADES, SUIT_MASKS, TRUMP_MASK, TRUMP_START
from tapete.engine.pickling import rebuilt

TWO_OF_CLUBS: Final = 0
TWO_OF_DIAMONDS: Final = 13
PRIZE_JACK_CARDS: Final = {"JC": 9, "JD": 22, "JH": 35}
"""The prize jacks a profile may name, and their cards."""


class TrickTables:
    """One trump rule as tables: each card's suit for following, its power for winning.

    ``power[led card][card]`` is the card's rank (``rank[card]``) if it can take a trick
    so led (it follows suit or is a trump), else -1; the higher power takes the trick.
    ``above[p]`` is the mask of the cards ranking above power ``p``; a power from
    ``trump_power`` up is a trump's.
    """

    __slots__ = ("above", "follow", "name", "power", "rank", "suit_mask", "suit_of", "trump_power", "trumps")

    def __init__(self, name: str, extra_trumps: Sequence[int], rank: Sequence[int]) -> None:
        self.name = name
        self.rank: tuple[int, ...] = tuple(rank)
        trumps = TRUMP_MASK
        for c in extra_trumps:
            trumps |= 1 << c
        self.trumps: int = trumps
        self.suit_of: tuple[int, ...] = tuple(SPADES if (trumps >> c) & 1 else c // 13 for c in range(NUM_CARDS))
        self.suit_mask: tuple[int, ...] = (*(SUIT_MASKS[s] & ~trumps for s in range(3)), trumps)
        self.follow: tuple[int, ...] = tuple(self.suit_mask[self.suit_of[c]] for c in range(NUM_CARDS))
        rows = tuple(self._power_row(s) for s in range(4))
        self.power: tuple[tuple[int, ...], ...] = tuple(rows[self.suit_of[c]] for c in range(NUM_CARDS))
        self.trump_power: int = min(self.rank[c] for c in range(NUM_CARDS) if (trumps >> c) & 1)
        top = max(self.rank)
        self.above: tuple[int, ...] = tuple(
            sum(1 << c for c in range(NUM_CARDS) if self.rank[c] > p) for p in range(top + 1)
        )

    def _power_row(self, suit: int) -> tuple[int, ...]:
        follow = self.suit_mask[suit]
        return tuple(self.rank[c] if ((self.trumps | follow) >> c) & 1 else -1 for c in range(NUM_CARDS))

    def __repr__(self) -> str:
        return f"TrickTables({self.name!r})"

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its name, extra trumps and ranks: the rest follows from them."""
        extra = [c for c in range(NUM_CARDS) if (self.trumps >> c) & 1 and not (TRUMP_MASK >> c) & 1]
        return rebuilt, (TrickTables, (self.name, extra, self.rank), {})


def _deuces_rank() -> list[int]:
    """Ranks with 2♠ and 2♦ above A♠ (powers 55, 56) and the jokers above them (57–59)."""
    rank = list(range(NUM_CARDS))
    rank[TRUMP_START] = NUM_CARDS
    rank[TWO_OF_DIAMONDS] = NUM_CARDS + 1
    for j in range(52, NUM_CARDS):
        rank[j] = j + 5
    return rank


STANDARD: Final = TrickTables("standard", (), range(NUM_CARDS))
"""Spades and jokers are the trumps; a higher card int is a higher card."""
DEUCES_HIGH: Final = TrickTables("deuces_high", (TWO_OF_DIAMONDS,), _deuces_rank())
"""Deuces high: 2♦ is a spade; 2♦ > 2♠ > A♠ > … > 3♠, jokers (if any) above them all."""

SUIT_OF: Final = STANDARD.suit_of
"""``SUIT_OF[card]``: 0 clubs, 1 diamonds, 2 hearts, 3 trumps (spades and jokers)."""
SUIT_MASK: Final = STANDARD.suit_mask
"""The cards of each suit of ``SUIT_OF`` (the trumps include the jokers)."""
FOLLOW: Final = STANDARD.follow
"""``FOLLOW[led card]``: the cards that follow suit to it."""
POWER: Final = STANDARD.power
"""``POWER[led card][card]``: the card's own int if it can take a trick so led (it
follows suit or is a trump), else -1; the higher power takes the trick."""
NO_POWER: Final[tuple[int, ...]] = ()
"""The power row while no trick is led."""


def tables_for(deuces_high: bool) -> TrickTables:
    """The trick tables of a profile."""
    return DEUCES_HIGH if deuces_high else STANDARD


def suit_of(card: int, tables: TrickTables = STANDARD) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 trumps (spades, jokers, 2♦ when deuces are high)."""
    return tables.suit_of[card]


def beats(card: int, best: int, led: int, tables: TrickTables = STANDARD) -> bool:
    """Whether ``card`` takes a trick led by ``led`` from ``best``, the card winning it so far."""
    return tables.power[led][card] > tables.rank[best]


def winning_cards(mask: int, best: int, lead_mask: int, tables: TrickTables = STANDARD) -> int:
    """The cards of ``mask`` that would take the trick from the winning power ``best``
    (all of them when leading, ``best`` < 0)."""
    if best < 0:
        return mask
    above = tables.above[best]
    trumps = tables.trumps
    if best >= tables.trump_power:
        return mask & trumps & above
    out = mask & lead_mask & above
    if lead_mask != trumps:
        out |= mask & trumps
    return out


def trick_winner(cards: Sequence[int], seats: Sequence[int], tables: TrickTables = STANDARD) -> tuple[int, int]:
    """``(best card, its seat)`` of a trick's cards so far (``(-1, -1)`` for none)."""
    if not cards:
        return -1, -1
    power = tables.power[cards[0]]
    best, seat = cards[0], seats[0]
    for c, s in zip(cards, seats, strict=False):
        if power[c] > power[best]:
            best, seat = c, s
    return best, seat


def must_beat_cards(hand: int, lead_mask: int, best: int, tables: TrickTables) -> int:
    """Call Break's playable cards of ``hand`` in a led trick whose winning power is ``best``.

    Follow suit, above the best card of the led suit when you can (any card of the suit
    once a trump has cut a side-suit lead); void, play a trump, above every trump in the
    trick when you can, else any card.
    """
    trumps = tables.trumps
    cut = best >= tables.trump_power and lead_mask != trumps
    follow = hand & lead_mask
    if follow:
        return follow if cut else (follow & tables.above[best]) or follow
    mine = hand & trumps
    if not mine:
        return hand
    if cut:
        return (mine & tables.above[best]) or hand
    return mine


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
    "follow",
    "hands",
    "jack_winners",
    "lead_mask",
    "must_beat",
    "must_lead_2c",
    "next_of",
    "num_players",
    "power",
    "powers",
    "prize_all",
    "prize_masks",
    "sitting_out",
    "spades_broken",
    "trick",
    "trick_size",
    "tables",
    "tricks_left",
    "tricks_won",
    "trumps",
    "turn",
)
"""The attributes of a ``TrickState``."""


class TrickState:
    """The play-phase state of a hand and its rules: the hands, the trick, who is winning.

    ``turn`` is the seat to play (-1: nobody). A lead sets what follows suit
    (``lead_mask``) and who can win (``power``, a row of ``tables``); ``best_card`` is
    the power of the card winning so far (its int under ``STANDARD``). A trump on
    another suit's lead breaks spades; ``must_beat`` is Call Break's rule. ``play``
    passes the turn on or, once the trick is full, counts it for its winner (prize
    jacks too) and calls ``end_trick(winner)``, which each state defines.
    """

    __slots__ = TRICK_FIELDS

    def __init__(
        self, players: int, prize_jacks: Iterable[str], tables: TrickTables = STANDARD, must_beat: bool = False
    ) -> None:
        self.tables: TrickTables = tables
        self.trumps: int = tables.trumps
        self.follow: tuple[int, ...] = tables.follow
        self.powers: tuple[tuple[int, ...], ...] = tables.power
        self.must_beat: bool = must_beat
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
        self.tables = other.tables
        self.trumps = other.trumps
        self.follow = other.follow
        self.powers = other.powers
        self.must_beat = other.must_beat
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

        Follow suit if you can (under ``must_beat``, as ``must_beat_cards`` says); the
        first lead may have to be 2♣; spades may not be led until broken, unless the
        leader holds nothing else.
        """
        if self.trick:
            if self.must_beat:
                return must_beat_cards(hand, self.lead_mask, self.best_card, self.tables)
            return (hand & self.lead_mask) or hand
        if self.must_lead_2c:
            return 1 << TWO_OF_CLUBS
        if not self.spades_broken:
            return (hand & ~self.trumps) or hand
        return hand

    def play(self, card: int) -> None:
        """Play ``card`` for the seat whose turn it is (unchecked: it must be playable)."""
        seat = self.turn
        self.hands[seat] = self.hands[seat] ^ (1 << card)  # not ^=: compiled, that is a generic call
        trick = self.trick
        if trick:
            p = self.power[card]
            if p > self.best_card:
                self.best_card = p
                self.best_seat = seat
            if not self.spades_broken and (self.trumps >> card) & 1 and self.lead_mask != self.trumps:
                self.spades_broken = True
        else:
            self.lead_mask = self.follow[card]
            row = self.power = self.powers[card]
            self.best_card = row[card]
            self.best_seat = seat
            self.must_lead_2c = False
        trick.append(card)
        if len(trick) < self.trick_size:
            self.turn = self.next_of[seat]
            return
        # the trick is full: count it for its winner, with any prize jack in it
        winner = self.best_seat
        self.tricks_won[winner] = self.tricks_won[winner] + 1
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
    "DEUCES_HIGH",
    "FOLLOW",
    "POWER",
    "PRIZE_JACK_CARDS",
    "STANDARD",
    "SUIT_MASK",
    "SUIT_OF",
    "TRICK_FIELDS",
    "TRUMP_START",
    "TrickState",
    "TrickTables",
    "beats",
    "must_beat_cards",
    "next_seats",
    "prize_masks",
    "suit_of",
    "tables_for",
    "trick_seats",
    "trick_size",
    "trick_winner",
    "tricks_in_hand",
    "winning_cards",
]
