"""A seat's observation read into masks and ints: what every Spades-family bot works from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tapete.cards import TRUMP_START, Card, mask_of, mask_of_names
from tapete.engine.base import JSON
from tapete.engine.spades.actions import SpadesAction
from tapete.engine.spades.determinize import hand_tricks, rules_from_observation
from tapete.engine.spades.observation import SpadesObservation
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid
from tapete.engine.spades.trick import SUIT_MASK, suit_of, trick_seats, trick_size, trick_winner

SUITS = SUIT_MASK
"""Masks of clubs, diamonds, hearts and trumps (spades + jokers)."""


def high_bit(mask: int) -> int:
    return mask.bit_length() - 1


def low_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def rank_of(card: int) -> int:
    """0 for a 2 … 12 for an ace, 13+ for jokers (the same scale in every suit)."""
    return card - TRUMP_START if card >= TRUMP_START else card % 13


def lowest_card(mask: int) -> int:
    """The lowest-ranked card of ``mask``; a side card before a trump of equal rank."""
    best = -1
    best_key = 99
    for s in (0, 1, 2, 3):
        part = mask & SUITS[s]
        if part:
            c = low_bit(part)
            key = rank_of(c) * 2 + (s == 3)
            if key < best_key:
                best, best_key = c, key
    return best


def highest_card(mask: int, prefer_side: bool = True) -> int:
    """The highest-ranked card of ``mask`` (a side card before a trump of equal rank)."""
    best = -1
    best_key = -99
    for s in (0, 1, 2, 3):
        part = mask & SUITS[s]
        if part:
            c = high_bit(part)
            key = rank_of(c) * 2 - (s == 3 and prefer_side)
            if key > best_key:
                best, best_key = c, key
    return best


def action_code(action: Mapping[str, object], players: int) -> int:
    """The engine's action code of a record-form action (the engine's own codec)."""
    return int(SpadesAction.from_record(action, players)[1])


def bid_target(bid: Bid | None) -> int:
    """Tricks a bid asks for (nil 0; 1F 1; 2F 2; B6 6; SM 14); -1 for no bid yet."""
    if bid is None:
        return -1
    if isinstance(bid, int):
        return bid
    return {"BN": 0, "1F": 1, "2F": 2, "B6": 6, "SM": 14}[bid]


def is_nil(bid: Bid | None) -> bool:
    return bid == 0 or bid == "BN"


@dataclass
class View:
    """The facts of one observation as masks (cards are ints, sets are bitmasks)."""

    obs: SpadesObservation
    rules: SpadesRules
    seat: int
    n: int
    partnership: bool
    phase: str
    hand: int
    deck: int
    played: int
    unseen: int
    """Cards neither in this seat's hand nor played this hand."""
    trick: list[int]
    trick_seats: list[int]
    best_card: int
    best_seat: int
    lead_suit: int
    bids: list[Bid | None]
    tricks_won: list[int]
    hand_sizes: list[int]
    voids: list[int]
    """Per seat, a 4-bit mask of the suits it has shown it is void in."""
    spades_broken: bool
    legal: dict[int, dict[str, JSON]]
    """Legal action code → the record-form dict to return."""

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4 if self.partnership else -1

    def side(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def opponents(self) -> list[int]:
        return [s for s in range(self.n) if self.side(s) != self.side(self.seat)]

    def legal_mask(self) -> int:
        m = 0
        for code in self.legal:
            if code < 55:
                m |= 1 << code
        return m

    def to_play_after(self) -> list[int]:
        """The seats still to play to the current trick after this one."""
        sitting = self.obs["sitting_out"]
        out = -1 if sitting is None else sitting
        leader = self.trick_seats[0] if self.trick_seats else self.seat
        return trick_seats(leader, trick_size(self.n, out), self.n, out)[len(self.trick) + 1 :]

    def master(self, card: int) -> bool:
        """Whether no unseen card of the suit ranks above ``card`` (outside this hand)."""
        suit = SUITS[suit_of(card)]
        above = suit & ~((1 << (card + 1)) - 1)
        return not (self.unseen & above)

    def outstanding(self, suit: int) -> int:
        return self.unseen & SUITS[suit]

    def made(self, seat: int) -> int:
        """Tricks the side of ``seat`` still needs for its contract (≤ 0 once made)."""
        if self.partnership:
            team = [s for s in range(self.n) if s % 2 == seat % 2]
            contract = sum(bid_target(self.bids[s]) for s in team if not is_nil(self.bids[s]))
            return contract - sum(self.tricks_won[s] for s in team)
        return bid_target(self.bids[seat]) - self.tricks_won[seat]


def read_view(obs: SpadesObservation) -> View:
    """Read an observation once into a ``View``."""
    rules = rules_from_observation(obs)
    tables = rules.trick_tables
    n = obs["players"]
    seat = obs["seat"]
    hand = mask_of_names(obs["hand"] or ())
    deck = mask_of(rules.deck_ints)
    voids = [0] * n
    played = 0
    broken = rules.lead_spades == "any_time"  # then leading a spade says nothing about the hand
    for t in hand_tricks(obs):
        cards = [int(Card.parse(c)) for c in t["cards"]]
        seats = t["seats"]
        if not cards:
            continue
        lead = suit_of(cards[0], tables)
        if lead == 3 and not broken and seats[0] != seat and not (rules.first_lead == "2C" and cards[0] == 0):
            voids[seats[0]] |= 0b0111  # led a trump before spades were broken: held only trumps
        for c, s in zip(cards, seats, strict=False):
            played |= 1 << c
            if suit_of(c, tables) != lead:
                voids[s] |= 1 << lead
                if suit_of(c, tables) == 3:
                    broken = True
    current = obs["trick"]
    trick_cards = [int(Card.parse(c)) for c in current["cards"]] if current else []
    trick_seats_ = current["seats"][: len(trick_cards)] if current else []
    best_card, best_seat = trick_winner(trick_cards, trick_seats_, tables)
    lead_suit = suit_of(trick_cards[0], tables) if trick_cards else -1
    legal = {action_code(a, n): a for a in obs["legal_actions"]}
    return View(
        obs=obs,
        rules=rules,
        seat=seat,
        n=n,
        partnership=obs["partnership"],
        phase=obs["phase"],
        hand=hand,
        deck=deck,
        played=played,
        unseen=deck & ~hand & ~played,
        trick=trick_cards,
        trick_seats=trick_seats_,
        best_card=best_card,
        best_seat=best_seat,
        lead_suit=lead_suit,
        bids=list(obs["bids"]),
        tricks_won=list(obs["tricks_won"]),
        hand_sizes=list(obs["hand_sizes"]),
        voids=voids,
        spades_broken=obs["spades_broken"],
        legal=legal,
    )
