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
from collections.abc import Sequence
from typing import Final

from tapete.cards import Card, mask_of_names, names_of_mask
from tapete.engine.spades.actions import LOOK, action_of_code, bid_code
from tapete.engine.spades.game import SpadesGame
from tapete.engine.spades.observation import SpadesObservation, TrickView
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import Bid, HandScore, score_hand
from tapete.engine.spades.trick import NO_POWER, TRICK_FIELDS, TrickState, trick_winner, tricks_in_hand

_RULES_CACHE: dict[str, SpadesRules] = {}
RULES_CACHED = 256
"""Rule sets kept at most (options are the creator's choice: a bound keeps a worker's memory)."""


def rules_from_observation(observation: SpadesObservation) -> SpadesRules:
    """The rules of the observed table (from its ``rules`` and ``options`` fields)."""
    options = observation["options"] or {}
    key = json.dumps([observation["profile"], observation["rules"], options], sort_keys=True)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        overrides = dict(options)
        base = {k: v for k, v in observation["rules"].items() if k not in overrides}
        rules = SpadesRules.from_options(base, profile=observation["profile"], overrides=overrides)
        if len(_RULES_CACHE) < RULES_CACHED:
            _RULES_CACHE[key] = rules
    return rules


def hand_tricks(observation: SpadesObservation) -> list[TrickView]:
    """The tricks of the current hand so far, the one being played included."""
    tricks = list(observation["tricks"])
    current = observation["trick"]
    if current:
        tricks.append(current)
    return tricks


def played_by_seat(observation: SpadesObservation) -> list[int]:
    """The cards each seat has played in the current hand, as masks."""
    out = [0] * observation["players"]
    for t in hand_tricks(observation):
        for seat, name in zip(t["seats"], t["cards"], strict=False):
            out[seat] |= 1 << Card.parse(name)
    return out


def state_from_observation(observation: SpadesObservation, hidden_hands: Sequence[int]) -> SpadesGame:
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
    dealer = observation["dealer"]
    played = played_by_seat(observation)
    deal = [names_of_mask(hidden_hands[s] | played[s]) for s in range(n)]
    g = SpadesGame(rules, seed=0, deals=[deal], dealer=dealer)
    g.scores_ = [round(x * rules.point_scale) for x in observation["scores"]]
    g.bags_ = list(observation["bags"])
    tokens = observation["tokens"]
    g.tokens_ = list(tokens) if tokens is not None else [0] * rules.sides
    bids = observation["bids"]
    used = observation["blind_six_used"]
    g.blind_six_used = [used[s] - (1 if bids[s] == "B6" else 0) for s in range(n)]
    drawn = observation.get("draw")
    g.draw = [int(Card.parse(c)) for c in drawn] if drawn else None
    g.game_number = observation["game_number"]
    g.hand_number = observation["hand_number"]
    g.log.game = g.game_number
    g.offer_blind_bids()  # _start_hand offered them from totals that were zero then
    looked = observation["looked"]
    for i in range(n):
        seat = (dealer + 1 + i) % n
        if looked[seat]:
            g.apply(g.parse_action(LOOK))
        bid = bids[seat]
        if bid is None:
            break
        g.apply(g.parse_action(bid_code(bid)))
    for t in hand_tricks(observation):
        for name in t["cards"]:
            g.apply(g.parse_action(int(Card.parse(name))))
    return g


_OWN_FIELDS: Final = ("bags", "bids", "done")
FAST_FIELDS: Final = (*TRICK_FIELDS, *_OWN_FIELDS)
"""The state of a ``FastHand`` besides its rules (two fast states are equal when these are)."""


class FastHand(TrickState):
    """The rest of one hand in the play phase, unchecked: for rollouts only.

    ``play(card)`` trusts that ``card`` is in ``playable()``. When the last trick is
    complete ``done`` is true; ``result()`` scores the hand exactly as the engine does.
    The trick rules are ``TrickState``'s, the same as the checked game's.
    """

    __slots__ = (*_OWN_FIELDS, "rules")

    def __init__(self, rules: SpadesRules, copy_of: FastHand | None = None) -> None:
        if copy_of is not None:
            self._copy_state(copy_of)
            return
        TrickState.__init__(self, rules.players, rules.prize_jacks, rules.trick_tables, rules.must_beat)
        self.rules = rules
        self.bids: list[Bid] = [0] * rules.players
        self.bags: list[int] = [0] * rules.sides
        self.turn = 0
        self.done = False

    # --- construction ---------------------------------------------------------------
    @classmethod
    def from_game(cls, g: SpadesGame) -> FastHand:
        """The fast state of a checked game in its play phase."""
        f = cls(g.rules)
        f.copy_trick_state(g, list(g.trick), list(g.jack_winners))
        if not g.trick:  # between tricks the last trick's lead and winner are stale
            f.lead_mask, f.power, f.best_card, f.best_seat = 0, NO_POWER, -1, -1
        f.bids = [action_of_code(code).bid for code in g.bids]
        f.bags = list(g.bags_)
        f.turn = max(g.turn, 0)
        return f

    @classmethod
    def from_observation(cls, observation: SpadesObservation, hands: Sequence[int]) -> FastHand:
        """The fast state at an observed point of the play phase, with the given hands."""
        rules = rules_from_observation(observation)
        f = cls(rules)
        f.hands = list(hands)
        f.bids = [b if b is not None else 0 for b in observation["bids"]]
        f.bags = list(observation["bags"])
        f.tricks_won = list(observation["tricks_won"])
        completed = observation["tricks"]
        for t in completed:
            in_trick = mask_of_names(t["cards"])
            for jack, m in f.prize_masks:
                if in_trick & m:
                    f.jack_winners.append((jack, int(t["winner"] or 0)))
        sitting = observation["sitting_out"]
        f.sit_out(-1 if sitting is None else sitting)
        total = tricks_in_hand(sum(observation["dealt_sizes"]), f.num_players, rules.dealer_sits_out_first_trick)
        f.tricks_left = total - len(completed)
        f.spades_broken = observation["spades_broken"]
        to_act = observation["to_act"]
        f.turn = 0 if to_act is None else to_act
        trick = observation["trick"]
        cards = [int(Card.parse(c)) for c in trick["cards"]] if trick else []
        if trick and cards:
            seats = trick["seats"]
            f.trick = cards
            f.lead_mask = f.follow[cards[0]]
            f.power = f.powers[cards[0]]
            best, f.best_seat = trick_winner(cards, seats, f.tables)
            f.best_card = f.power[best]
        else:
            f.must_lead_2c = rules.first_lead == "2C" and not completed and bool(f.hands[f.turn] & 1)
        return f

    def copy(self) -> FastHand:
        return FastHand(self.rules, self)

    def _copy_state(self, other: FastHand) -> None:
        self.copy_trick_state(other, list(other.trick), list(other.jack_winners))
        self.rules = other.rules
        self.bids = other.bids
        self.bags = other.bags
        self.done = other.done

    # --- play -----------------------------------------------------------------------
    def playable(self) -> int:
        """The mask of the cards the seat to act may play."""
        return self.playable_cards(self.hands[self.turn])

    def end_trick(self, winner: int) -> None:
        """The winner of the full trick leads the next; after the last the hand is ``done``."""
        self.turn = winner
        self.trick = []
        if self.tricks_left == 0:
            self.done = True

    def result(self) -> HandScore:
        """The hand's score (call once ``done``)."""
        return score_hand(self.rules, self.bids, self.tricks_won, self.bags, self.jack_winners)


__all__ = [
    "FAST_FIELDS",
    "FastHand",
    "hand_tricks",
    "played_by_seat",
    "rules_from_observation",
    "state_from_observation",
]
