"""Duel: a toy trick game that exists only in the test suite, registered as a family of its own.

Two players, eight cards (9 10 J Q of hearts and of spades), four each. Seat 0 leads the
first trick; a player must follow the suit led when able; the highest card of the suit
led wins and its winner leads next. Each trick is a point; more points wins (a tie has
no winner). One deal is one game.

Everything a family brings is here: rules, game, record layout, bots, an environment
encoder, a hint and a renderer name, and its profile. Nothing outside this file knows it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapete.cards import Card, CardError, card_name
from tapete.engine import dealing
from tapete.engine.base import JSON, Game, Phase
from tapete.errors import BadRecord, IllegalAction, ProfileError
from tapete.families import Family, RecordRules

NAME = "duel"
DECK = tuple(int(Card.parse(n)) for n in ("9H", "TH", "JH", "QH", "9S", "TS", "JS", "QS"))
HAND = 4


def suit(card: int) -> int:
    return card // 13


@dataclass(frozen=True)
class DuelRules:
    profile: str = NAME
    players: int = 2

    @classmethod
    def from_options(cls, options: Mapping[str, object], *, profile: str, overrides: Mapping[str, object]) -> DuelRules:
        unknown = sorted(set(options) | set(overrides))
        if unknown:
            raise ProfileError(f"unknown option {unknown[0]!r}: duel has no options", "unknown_option")
        return cls(profile=profile)

    def options_json(self) -> dict[str, object]:
        return {}

    def overrides_json(self) -> dict[str, object]:
        return {}


def check_deal(rules: Any, cards: Sequence[Sequence[object]], dealer: int) -> list[list[int]]:
    if not isinstance(cards, list) or len(cards) != 2:
        raise BadRecord("a duel deal lists the cards of 2 seats")
    out: list[list[int]] = []
    seen: set[int] = set()
    for seat, hand in enumerate(cards):
        if not isinstance(hand, list) or len(hand) != HAND:
            raise BadRecord(f"seat {seat} must be dealt {HAND} cards")
        parsed = []
        for item in hand:
            try:
                card = int(Card.parse(str(item)))
            except CardError as exc:
                raise BadRecord(str(exc)) from exc
            if card not in DECK or card in seen:
                raise BadRecord(f"{card_name(card)} is not in the duel deck or is dealt twice")
            seen.add(card)
            parsed.append(card)
        out.append(parsed)
    return out


class DuelGame:
    """One deal of Duel."""

    def __init__(self, rules: DuelRules, *, seed: int, deal: Sequence[Sequence[object]] | None = None) -> None:
        self.rules = rules
        self.num_players = 2
        self.seed = seed
        if deal is None:
            deck = list(DECK)
            dealing.shuffle(deck, dealing.stream(seed, "deal"))
            self.dealt = [sorted(deck[:HAND]), sorted(deck[HAND:])]
        else:
            self.dealt = check_deal(rules, [list(h) for h in deal], 0)
        self.hands = [set(h) for h in self.dealt]
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[dict[str, JSON]] = []
        self.won = [0, 0]
        self.leader = 0
        self.actions: list[tuple[int, int]] = []
        self.phase = Phase.PLAY

    @property
    def to_act(self) -> int | None:
        if self.phase is Phase.OVER:
            return None
        return self.leader if not self.trick else 1 - self.leader

    def legal_actions(self) -> list[int]:
        seat = self.to_act
        if seat is None:
            return []
        hand = sorted(self.hands[seat])
        if self.trick:
            follow = [c for c in hand if suit(c) == suit(self.trick[0][1])]
            return follow or hand
        return hand

    def apply(self, action: Any) -> None:
        card = self.parse_action(action) if isinstance(action, Mapping) else action
        seat = self.to_act
        if seat is None:
            raise IllegalAction("wrong_phase", "the game is over: no more actions")
        if card not in self.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"you do not hold {card_name(card)}")
        if card not in self.legal_actions():
            raise IllegalAction("must_follow_suit", "you must follow the suit led")
        self.hands[seat].discard(card)
        self.trick.append((seat, card))
        self.actions.append((seat, card))
        if len(self.trick) == 2:
            led = suit(self.trick[0][1])
            winner = max((c, s) for s, c in self.trick if suit(c) == led)[1]
            self.won[winner] += 1
            self.tricks.append(
                {"seats": [s for s, _ in self.trick], "cards": [card_name(c) for _, c in self.trick], "winner": winner}
            )
            self.trick = []
            self.leader = winner
            if not self.hands[0]:
                self.phase = Phase.OVER

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def scores(self) -> list[int]:
        return list(self.won)

    def winner(self) -> int | None:
        if not self.is_over() or self.won[0] == self.won[1]:
            return None
        return 0 if self.won[0] > self.won[1] else 1

    def observations(self, seats: Iterable[int]) -> dict[int, dict[str, JSON]]:
        return {seat: self.observation(seat) for seat in seats}

    def observation_parts(self, seats: Iterable[int]) -> tuple[dict[str, JSON], dict[int, dict[str, JSON]]]:
        return self._public_view(), {seat: self._own_view(seat) for seat in seats}

    def observation(self, seat: int) -> dict[str, JSON]:
        return {**self._public_view(), **self._own_view(seat)}

    def _public_view(self) -> dict[str, JSON]:
        return {
            "game": NAME,
            "profile": self.rules.profile,
            "options": {},
            "rules": {},
            "players": 2,
            "phase": self.phase.name.lower(),
            "to_act": self.to_act,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [{"seat": s, "card": card_name(c)} for s, c in self.trick],
            "tricks": list(self.tricks),
            "scores": self.scores(),
            "winner": self.winner(),
        }

    def _own_view(self, seat: int) -> dict[str, JSON]:
        return {
            "seat": seat,
            "hand": [card_name(c) for c in sorted(self.hands[seat])],
            "legal_actions": [self.action_to_record(a, seat) for a in self.legal_actions()]
            if seat == self.to_act
            else [],
        }

    def record(self, players: Sequence[str] | None = None) -> dict[str, JSON]:
        return {
            "format": "tapete-record/1",
            "profile": self.rules.profile,
            "options": {},
            "seed": self.seed,
            "hands": [
                {
                    "cards": [[card_name(c) for c in h] for h in self.dealt],
                    "actions": [self.action_to_record(c, s) for s, c in self.actions],
                }
            ],
        }

    def clone(self) -> DuelGame:
        new = DuelGame(self.rules, seed=self.seed, deal=[[card_name(c) for c in h] for h in self.dealt])
        for seat, card in self.actions:
            new.apply(card)
            assert new.actions[-1][0] == seat
        return new

    def parse_action(self, obj: Any) -> int:
        if isinstance(obj, int) and not isinstance(obj, bool):
            return obj
        if not isinstance(obj, Mapping) or set(obj) != {"seat", "play"} or not isinstance(obj["play"], str):
            raise IllegalAction("bad_record", 'an action is {"seat": s, "play": card}')
        if obj["seat"] != self.to_act:
            raise IllegalAction("not_your_turn", f"it is seat {self.to_act}'s turn")
        try:
            return int(Card.parse(obj["play"]))
        except CardError as exc:
            raise IllegalAction("bad_record", str(exc)) from exc

    def action_to_record(self, action: Any, seat: int | None = None) -> dict[str, JSON]:
        return {"seat": self.to_act if seat is None else seat, "play": card_name(int(action))}

    def replay_summary(self, last_hands: int | None = None) -> dict[str, JSON]:
        return {
            "hands": [{"tricks": list(self.tricks), "tricks_won": self.scores()}],
            "scores": self.scores(),
            "finished": self.is_over(),
            "winner": self.winner(),
        }


def new_game(
    rules: Any,
    *,
    seed: int,
    deals: Sequence[Sequence[Sequence[object]] | None],
    dealer: int | None,
    draw: Sequence[object] | None,
) -> Game:
    if dealer is not None or draw is not None or len(deals) > 1:
        raise BadRecord("duel has no dealer, no draw and one deal")
    return DuelGame(rules, seed=seed, deal=deals[0] if deals else None)


class DuelBot:
    """``easy`` plays a random legal card; the other levels the highest legal card."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        legal = list(observation["legal_actions"])
        if self.level == "easy":
            return dict(self.rng.choice(legal))
        return dict(max(legal, key=lambda a: Card.parse(a["play"]).rank))


class DuelEncoder:
    """One action per card; the vector: the own hand and the trick (one-hot), then the scores."""

    def __init__(self, rules: Any) -> None:
        self.names = [card_name(c) for c in DECK]
        self.size = 2 * len(DECK) + 2
        self.num_actions = len(DECK)

    def describe_action(self, index: int) -> str:
        return f"play {self.names[index]}"

    def legal(self, observation: Mapping[str, Any]) -> dict[int, dict[str, object]]:
        return {self.names.index(a["play"]): dict(a) for a in observation["legal_actions"]}

    def encode(self, observation: Mapping[str, Any]) -> np.ndarray:
        v = np.zeros(self.size, dtype=np.float32)
        for name in observation["hand"]:
            v[self.names.index(name)] = 1.0
        for played in observation["trick"]:
            v[len(DECK) + self.names.index(played["card"])] = 1.0
        for seat, points in enumerate(observation["scores"]):
            v[2 * len(DECK) + seat] = (points + 1) / (HAND + 1)
        return v


PROFILE = 'family = "duel"\ntitle = "Duel"\ndescription = "A toy trick game for two."\n'

FAMILY = Family(
    name=NAME,
    title="Duel",
    rules_class=DuelRules,
    game_class=DuelGame,
    new_game=new_game,
    records=RecordRules(many_hands=False, dealer=False, check_deal=check_deal),
    public_fields=(
        "game",
        "profile",
        "players",
        "phase",
        "to_act",
        "hand_sizes",
        "trick",
        "tricks",
        "scores",
        "winner",
    ),
    renderer="duel",
    load_bots=lambda: lambda level, seed, params: DuelBot(level, seed),
    load_hint=lambda: lambda observation, action: "Play your highest card.",
    load_encoder=lambda: DuelEncoder,
    profiles={NAME: PROFILE},
)
