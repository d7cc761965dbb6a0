"""Fixed action catalogues and observation vectors, built from a seat's observation only.

Every encoder turns ``game.observation(seat)`` — the same JSON-able object a browser
receives — into a flat ``float32`` vector, and maps the observation's legal actions
(record form) to indexes of a fixed catalogue, and back. Nothing here reads a game
state, so an encoded observation can never contain another seat's hidden cards.

Spades family catalogue: one action per card of the profile's deck (play it), one per
ordinary bid ``0 … max hand size``, one per special bid the profile offers, and *look*.

Run Fast catalogue: one action per combination *kind*: its shape, length and top rank
(every single, pair, triple, straight, pair run and bomb that can exist), plus *pass*.
Suits never change what a Run Fast play is worth, so when several legal plays share a
catalogue entry the env plays the first of them in the engine's order (at the opening
every legal play already contains 3♥, or the card the profile names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from tapete.cards import Card
from tapete.engine.runfast.actions import action_of
from tapete.engine.runfast.combos import (
    PAIR,
    PAIR_RUN,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    classify,
    describe,
    is_bomb,
    ordinary_key,
)
from tapete.engine.spades.rules import SPECIAL_BIDS, SpadesRules
from tapete.families import family_of

Record = Mapping[str, Any]
BID_FEATURES = 8  # made, value, nil, then one flag per special bid
SCORE_CLIP = 10.0


def _rel(seat: int, me: int, n: int) -> int:
    return (seat - me) % n


class SpadesEncoder:
    """Catalogue and vector layout for one Spades-family profile."""

    def __init__(self, rules: SpadesRules) -> None:
        self.rules = rules
        self.n = rules.players
        self.deck = [str(c) for c in rules.deck]
        self.card_index = {name: i for i, name in enumerate(self.deck)}
        self.max_bid = max(max(rules.hand_sizes(d)) for d in range(self.n))
        self.specials = [s for s in SPECIAL_BIDS if s in rules.special_bids]
        self.catalogue: list[tuple[str, object]] = [("play", name) for name in self.deck]
        self.catalogue += [("bid", b) for b in range(self.max_bid + 1)]
        self.catalogue += [("bid", s) for s in self.specials]
        self.catalogue.append(("look", True))
        self.index = {entry: i for i, entry in enumerate(self.catalogue)}
        d, n = len(self.deck), self.n
        self.sides = rules.sides
        self.size = d + 1 + 2 * n * d + n * BID_FEATURES + n + n + n + 3 * n + 1 + 2 + 3 * self.sides + 1

    @property
    def num_actions(self) -> int:
        return len(self.catalogue)

    def action_index(self, action: Record) -> int:
        if "play" in action:
            return self.index[("play", str(Card.parse(action["play"])))]
        if "look" in action:
            return self.index[("look", True)]
        bid = action["bid"]
        return self.index[("bid", 0 if bid == "nil" else bid)]

    def to_record(self, index: int, seat: int) -> dict[str, object]:
        kind, value = self.catalogue[index]
        return {"seat": seat, kind: value}

    def legal(self, observation: Record) -> dict[int, dict[str, object]]:
        """Catalogue index → the legal action (record form) it stands for."""
        return {self.action_index(a): dict(a) for a in observation["legal_actions"]}

    def encode(self, obs: Record) -> np.ndarray:
        n, d, me = self.n, len(self.deck), obs["seat"]
        v = np.zeros(self.size, dtype=np.float32)
        at = 0
        for name in obs["hand"] or ():
            v[at + self.card_index[name]] = 1.0
        at += d
        v[at] = float(obs["hand_face_down"])
        at += 1
        tricks = list(obs["tricks"])
        current = obs["trick"]
        for trick in tricks:
            for seat, name in zip(trick["seats"], trick["cards"], strict=True):
                v[at + _rel(seat, me, n) * d + self.card_index[name]] = 1.0
        at += n * d
        if current:
            for seat, name in zip(current["seats"], current["cards"], strict=True):
                v[at + _rel(seat, me, n) * d + self.card_index[name]] = 1.0
        at += n * d
        for seat, bid in enumerate(obs["bids"]):
            base = at + _rel(seat, me, n) * BID_FEATURES
            if bid is None:
                continue
            v[base] = 1.0
            if isinstance(bid, int):
                v[base + 1] = bid / self.max_bid
                v[base + 2] = float(bid == 0)
            else:
                v[base + 3 + SPECIAL_BIDS.index(bid)] = 1.0
        at += n * BID_FEATURES
        for seat in range(n):
            r = _rel(seat, me, n)
            v[at + r] = float(obs["looked"][seat])
            v[at + n + r] = obs["tricks_won"][seat] / self.max_bid
            v[at + 2 * n + r] = obs["hand_sizes"][seat] / self.max_bid
        at += 3 * n
        for offset, key in enumerate(("dealer", "to_act", "sitting_out")):
            seat = obs[key]
            if seat is not None:
                v[at + offset * n + _rel(seat, me, n)] = 1.0
        at += 3 * n
        v[at] = float(obs["spades_broken"])
        at += 1
        v[at + (0 if obs["phase"] == "bid" else 1)] = 1.0 if obs["phase"] in ("bid", "play") else 0.0
        at += 2
        my_side = me % 2 if self.rules.partnership else me
        target = float(self.rules.target)
        tokens = obs["tokens"] or [0] * self.sides
        for side in range(self.sides):
            r = _rel(side, my_side, self.sides)
            v[at + r] = np.clip(obs["scores"][side] / target, -SCORE_CLIP, SCORE_CLIP)
            v[at + self.sides + r] = obs["bags"][side] / self.rules.bag_limit
            v[at + 2 * self.sides + r] = tokens[side] / (self.rules.tokens or 1)
        at += 3 * self.sides
        v[at] = float(obs["blind_six_eligible"])
        return v


def runfast_catalogue() -> list[int]:
    """Every combination key that can exist in Run Fast, bombs first."""
    keys = list(range(13))  # four 3s … four Ks, A-A-A, the celestial bomb
    keys += [ordinary_key(SINGLE, 1, top) for top in range(13)]
    keys += [ordinary_key(PAIR, 1, top) for top in range(12)]  # a pair of 2s cannot exist
    keys += [ordinary_key(TRIPLE, 1, top) for top in range(11)]  # three aces are a bomb
    keys += [ordinary_key(STRAIGHT, n, top) for n in range(5, 13) for top in range(n - 1, 12)]
    keys += [ordinary_key(PAIR_RUN, n, top) for n in range(2, 9) for top in range(n - 1, 12)]
    return keys


RUNFAST_DECK = [str(Card(c)) for c in range(52) if str(Card(c)) not in ("AH", "2H", "2D", "2C")]


class RunFastEncoder:
    """Catalogue and vector layout for Run Fast."""

    def __init__(self, rules: Any = None) -> None:
        self.n = 3
        self.hand_size = int(getattr(rules, "deal_size", 16))
        """Cards dealt per seat (16, or 15 in ``runfast-15``): the scale of the hand sizes."""
        self.keys = runfast_catalogue()
        self.key_index = {k: i for i, k in enumerate(self.keys)}
        self.pass_index = len(self.keys)
        self.card_index = {name: i for i, name in enumerate(RUNFAST_DECK)}
        d = len(RUNFAST_DECK)
        self.size = d + 3 * d + d + 3 + 7 + 2 + 3 * 6 + 1

    @property
    def num_actions(self) -> int:
        return len(self.keys) + 1

    def describe_action(self, index: int) -> str:
        return "pass" if index == self.pass_index else describe(self.keys[index])

    def action_index(self, action: Record) -> int:
        if action.get("pass"):
            return self.pass_index
        key = classify(action_of(action["play"]))
        assert key is not None, f"not a combination: {action}"
        if key not in self.key_index:  # pragma: no cover - every key is in the catalogue
            raise KeyError(key)
        return self.key_index[key]

    def legal(self, observation: Record) -> dict[int, dict[str, object]]:
        out: dict[int, dict[str, object]] = {}
        for action in observation["legal_actions"]:
            out.setdefault(self.action_index(action), dict(action))
        return out

    def encode(self, obs: Record) -> np.ndarray:
        n, d, me = self.n, len(RUNFAST_DECK), obs["seat"]
        v = np.zeros(self.size, dtype=np.float32)
        at = 0
        for name in obs["hand"]:
            v[at + self.card_index[name]] = 1.0
        at += d
        for play in obs["plays"]:
            if play.get("cards"):
                for name in play["cards"]:
                    v[at + _rel(play["seat"], me, n) * d + self.card_index[name]] = 1.0
        at += n * d
        current = obs["current"]
        if current:
            for name in current["cards"]:
                v[at + self.card_index[name]] = 1.0
            v[at + d + _rel(current["seat"], me, n)] = 1.0
        at += d + n
        if current:
            key = classify(action_of(current["cards"]))
            assert key is not None
            kind = 0 if is_bomb(key) else key >> 8
            v[at + kind] = 1.0
            v[at + 6] = 1.0
            v[at + 7] = (key & 15) / 12 if not is_bomb(key) else key / 12
            v[at + 8] = ((key >> 4) & 15) / 12 if not is_bomb(key) else 0.0
        at += 9
        passed = set(obs["passed"])
        for seat in range(n):
            r = _rel(seat, me, n)
            v[at + r] = obs["hand_sizes"][seat] / self.hand_size
            v[at + n + r] = float(obs["has_played"][seat])
            v[at + 2 * n + r] = float(seat in passed)
            v[at + 3 * n + r] = float(obs["to_act"] == seat)
            v[at + 4 * n + r] = float(obs["pending_bomb"] is not None and obs["pending_bomb"]["seat"] == seat)
            v[at + 5 * n + r] = obs["bonus"][seat] / 100
        at += 6 * n
        v[at] = float(current is None)
        return v


class Encoder(Protocol):
    """What the environments need of a family's encoder (registered as ``Family.load_encoder``)."""

    @property
    def size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def describe_action(self, index: int) -> str: ...
    def legal(self, observation: Record) -> dict[int, dict[str, object]]: ...
    def encode(self, observation: Record) -> np.ndarray: ...


def encoder_for(rules: Any) -> Encoder:
    """The encoder of the rules' family (from the family registry)."""
    encoder: Encoder = family_of(rules).encoder(rules)
    return encoder


def mask_of(encoder: Encoder, legal: Sequence[int] | Mapping[int, object]) -> np.ndarray:
    mask = np.zeros(encoder.num_actions, dtype=np.int8)
    for i in legal:
        mask[i] = 1
    return mask
