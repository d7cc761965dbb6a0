"""Determinized Spades-family states: a full game rebuilt from one seat's observation.

Search bots sample the hidden cards (``tapete.bots``) and need a state to search in.
``state_from_observation`` builds a checked ``SpadesGame`` positioned exactly at the
observed point of the current hand (totals, bags, tokens, bids, looks, tricks, the
current trick) holding the given hands. ``FastHand`` is the unchecked fast path for
rollouts: the rest of one hand as a few ints, played without legality checks beyond
the follow-suit mask; tests show it gives the same results as the checked engine.

Pure: no I/O, no global random.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tapete.cards import SUIT_MASKS, TRUMP_MASK, Card, card_name, iter_bits
from tapete.engine.spades.actions import BID_BASE, LOOK, SPECIAL_CODE
from tapete.engine.spades.game import PRIZE_JACK_CARDS, SpadesGame
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid, HandScore, score_hand

_TRUMP_START: Final = 39
_RULES_CACHE: dict[str, SpadesRules] = {}


def rules_from_observation(observation: Mapping[str, Any]) -> SpadesRules:
    """The rules of the observed table (from its ``rules`` and ``options`` fields)."""
    key = json.dumps([observation["profile"], observation["rules"], observation.get("options") or {}], sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        values = dict(observation["rules"])
        overrides = dict(observation.get("options") or {})
        base = {k: v for k, v in values.items() if k not in overrides}
        rules = SpadesRules.from_options(base, profile=str(observation["profile"]), overrides=overrides)
        _RULES_CACHE[key] = rules
    return rules


def card_mask(names: Sequence[str] | None) -> int:
    """The bitmask of a list of card names (``None`` is the empty set)."""
    m = 0
    for name in names or ():
        m |= 1 << Card.parse(name)
    return m


def bid_code(bid: Bid) -> int:
    """The action code of a bid as observations write it."""
    if isinstance(bid, str):
        return SPECIAL_CODE[bid]
    return BID_BASE + bid


def played_by_seat(observation: Mapping[str, Any]) -> list[int]:
    """The cards each seat has played in the current hand, as masks."""
    n = int(observation["players"])
    out = [0] * n
    tricks = list(observation.get("tricks") or [])
    if observation.get("trick"):
        tricks.append(observation["trick"])
    for t in tricks:
        for seat, name in zip(t["seats"], t["cards"], strict=False):
            out[seat] |= 1 << Card.parse(name)
    return out


def state_from_observation(observation: Mapping[str, Any], hidden_hands: Sequence[int]) -> SpadesGame:
    """A checked ``SpadesGame`` at the observed point of the current hand.

    ``hidden_hands[s]`` is the mask of the cards seat ``s`` holds now (the observer's
    own hand included). The hand is rebuilt by replaying the observed bids, looks and
    cards through the engine, so an inconsistent sample raises ``IllegalAction`` or
    ``BadRecord`` instead of producing an impossible state.
    """
    rules = rules_from_observation(observation)
    n = rules.players
    if len(hidden_hands) != n:
        raise ValueError(f"hidden_hands must give {n} hands")
    dealer = int(observation["dealer"])
    played = played_by_seat(observation)
    deal = [[card_name(c) for c in iter_bits(hidden_hands[s] | played[s])] for s in range(n)]
    g = SpadesGame(rules, seed=0, deals=[deal], dealer=dealer)
    g.scores_ = list(observation["scores"])
    g.bags_ = list(observation["bags"])
    tokens = observation.get("tokens")
    g.tokens_ = list(tokens) if tokens is not None else [0] * rules.sides
    bids: list[Bid | None] = list(observation["bids"])
    used = list(observation.get("blind_six_used") or [0] * n)
    g.blind_six_used = [used[s] - (1 if bids[s] == "B6" else 0) for s in range(n)]
    g.game_number = int(observation.get("game_number", 0))
    g.hand_number = int(observation.get("hand_number", 0))
    g.log.game = g.game_number
    # what _start_hand decided from the totals (they were zero when it ran)
    specials = rules.special_bids
    if specials:
        top = max(g.scores_)
        g.blind_six_ok = [
            "B6" in specials
            and g.scores_[rules.side_of(s)] <= top - rules.blind_six_margin
            and (rules.blind_six == "unlimited" or g.blind_six_used[s] == 0)
            for s in range(n)
        ]
        g.face_down = [("BN" in specials) or g.blind_six_ok[s] for s in range(n)]
    looked = list(observation.get("looked") or [False] * n)
    for i in range(n):
        seat = (dealer + 1 + i) % n
        if looked[seat]:
            g.apply(g.parse_action(LOOK))
        bid = bids[seat]
        if bid is None:
            break
        g.apply(g.parse_action(bid_code(bid)))
    tricks = list(observation.get("tricks") or [])
    if observation.get("trick"):
        tricks.append(observation["trick"])
    for t in tricks:
        for name in t["cards"]:
            g.apply(g.parse_action(int(Card.parse(name))))
    return g


FAST_FIELDS: Final = (
    "bags",
    "best_card",
    "best_seat",
    "bids",
    "done",
    "hands",
    "jack_winners",
    "lead_mask",
    "must_lead_2c",
    "n",
    "prize_masks",
    "sitting_out",
    "spades_broken",
    "to_act",
    "trick",
    "trick_size",
    "tricks_left",
    "tricks_won",
)
"""The state of a ``FastHand`` besides its rules (two fast states are equal when these are)."""


class FastHand:
    """The rest of one hand in the play phase, unchecked: for rollouts only.

    ``play(card)`` trusts that ``card`` is in ``playable()``. When the last trick is
    complete ``done`` is true; ``result()`` scores the hand exactly as the engine does.
    """

    __slots__ = (*FAST_FIELDS, "rules")

    def __init__(self, rules: SpadesRules, copy_of: FastHand | None = None) -> None:
        if copy_of is not None:
            self._copy_state(copy_of)
            return
        self.rules = rules
        self.n = rules.players
        self.prize_masks: tuple[tuple[str, int], ...] = tuple(
            (jack, 1 << PRIZE_JACK_CARDS[jack]) for jack in sorted(rules.prize_jacks)
        )
        self.hands: list[int] = [0] * self.n
        self.bids: list[Bid] = [0] * self.n
        self.bags: list[int] = [0] * rules.sides
        self.tricks_won: list[int] = [0] * self.n
        self.jack_winners: list[tuple[str, int]] = []
        self.trick: list[int] = []
        self.lead_mask = 0
        self.best_card = -1
        self.best_seat = -1
        self.to_act = 0
        self.sitting_out = -1
        self.trick_size = self.n
        self.tricks_left = 0
        self.spades_broken = False
        self.must_lead_2c = False
        self.done = False

    # --- construction ---------------------------------------------------------------
    @classmethod
    def from_game(cls, g: SpadesGame) -> FastHand:
        """The fast state of a checked game in its play phase."""
        f = cls(g.rules)
        f.hands = list(g.hands)
        f.bids = [g._bid_value(b) for b in g.bids]  # type: ignore[misc]
        f.bags = list(g.bags_)
        f.tricks_won = list(g.tricks_won)
        f.jack_winners = list(g.log.jack_winners)
        f.trick = list(g.trick)
        f.lead_mask = g.lead_mask if g.trick else 0
        f.best_card = g.best_card if g.trick else -1
        f.best_seat = g.best_seat if g.trick else -1
        f.to_act = g.to_act_ if g.to_act_ is not None else 0
        f.sitting_out = g.sitting_out
        f.trick_size = g.trick_size
        f.tricks_left = g.tricks_left
        f.spades_broken = g.spades_broken
        f.must_lead_2c = g.must_lead_2c
        return f

    @classmethod
    def from_observation(cls, observation: Mapping[str, Any], hands: Sequence[int]) -> FastHand:
        """The fast state at an observed point of the play phase, with the given hands."""
        rules = rules_from_observation(observation)
        f = cls(rules)
        n = f.n
        f.hands = list(hands)
        f.bids = list(observation["bids"])
        f.bags = list(observation["bags"])
        f.tricks_won = list(observation["tricks_won"])
        completed = list(observation.get("tricks") or [])
        for t in completed:
            in_trick = card_mask(t["cards"])
            for jack, m in f.prize_masks:
                if in_trick & m:
                    f.jack_winners.append((jack, int(t["winner"])))
        sitting = observation.get("sitting_out")
        f.sitting_out = -1 if sitting is None else int(sitting)
        f.trick_size = n - (1 if f.sitting_out >= 0 else 0)
        dealt = sum(observation["dealt_sizes"])
        total = 1 + (dealt - (n - 1)) // n if rules.dealer_sits_out_first_trick else dealt // n
        f.tricks_left = total - len(completed)
        f.spades_broken = bool(observation["spades_broken"])
        trick = observation.get("trick") or {"cards": [], "seats": []}
        cards = [int(Card.parse(c)) for c in trick["cards"]]
        f.trick = cards
        f.to_act = int(observation["to_act"])
        if cards:
            first = cards[0]
            f.lead_mask = TRUMP_MASK if first >= _TRUMP_START else SUIT_MASKS[first // 13]
            best, best_seat = cards[0], trick["seats"][0]
            for c, s in zip(cards[1:], trick["seats"][1:], strict=True):
                if (c >= _TRUMP_START and c > best) or (c > best and (f.lead_mask >> c) & 1):
                    best, best_seat = c, s
            f.best_card, f.best_seat = best, int(best_seat)
        else:
            f.must_lead_2c = rules.first_lead == "2C" and not completed and bool(f.hands[f.to_act] & 1)
        return f

    def copy(self) -> FastHand:
        return FastHand(self.rules, self)

    def _copy_state(self, other: FastHand) -> None:
        self.rules = other.rules
        self.n = other.n
        self.prize_masks = other.prize_masks
        self.hands = list(other.hands)
        self.bids = other.bids
        self.bags = other.bags
        self.tricks_won = list(other.tricks_won)
        self.jack_winners = list(other.jack_winners)
        self.trick = list(other.trick)
        self.lead_mask = other.lead_mask
        self.best_card = other.best_card
        self.best_seat = other.best_seat
        self.to_act = other.to_act
        self.sitting_out = other.sitting_out
        self.trick_size = other.trick_size
        self.tricks_left = other.tricks_left
        self.spades_broken = other.spades_broken
        self.must_lead_2c = other.must_lead_2c
        self.done = other.done

    # --- play -----------------------------------------------------------------------
    def playable(self) -> int:
        """The mask of the cards the seat to act may play."""
        hand = self.hands[self.to_act]
        if self.trick:
            return (hand & self.lead_mask) or hand
        if self.must_lead_2c:
            return 1
        if not self.spades_broken:
            return (hand & ~TRUMP_MASK) or hand
        return hand

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act (unchecked)."""
        seat = self.to_act
        self.hands[seat] ^= 1 << card
        trick = self.trick
        if trick:
            if card >= _TRUMP_START:
                if self.lead_mask != TRUMP_MASK:
                    self.spades_broken = True
                if card > self.best_card:
                    self.best_card = card
                    self.best_seat = seat
            elif card > self.best_card and (self.lead_mask >> card) & 1:
                self.best_card = card
                self.best_seat = seat
        else:
            self.lead_mask = TRUMP_MASK if card >= _TRUMP_START else SUIT_MASKS[card // 13]
            self.best_card = card
            self.best_seat = seat
            self.must_lead_2c = False
        trick.append(card)
        if len(trick) == self.trick_size:
            winner = self.best_seat
            self.tricks_won[winner] += 1
            if self.prize_masks:
                in_trick = 0
                for c in trick:
                    in_trick |= 1 << c
                for jack, m in self.prize_masks:
                    if in_trick & m:
                        self.jack_winners.append((jack, winner))
            self.tricks_left -= 1
            self.sitting_out = -1
            self.trick_size = self.n
            self.trick = []
            self.to_act = winner
            if self.tricks_left == 0:
                self.done = True
            return
        seat += 1
        if seat == self.n:
            seat = 0
        if seat == self.sitting_out:
            seat = (seat + 1) % self.n
        self.to_act = seat

    def result(self) -> HandScore:
        """The hand's score (call once ``done``)."""
        return score_hand(self.rules, self.bids, self.tricks_won, self.bags, self.jack_winners)


__all__ = ["FAST_FIELDS", "FastHand", "bid_code", "card_mask", "played_by_seat", "rules_from_observation", "state_from_observation"]
